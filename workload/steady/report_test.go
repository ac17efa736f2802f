package steady

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine/memory"
	"github.com/tsbench/storage/workload/harness"
)

// TestReport renders a real run in every format.
func TestReport(t *testing.T) {
	cfg := smallConfig()
	res, err := Run(memory.New(), t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	res.Engine = "memory"
	r := Report{RunID: "x", Env: harness.CollectEnvironment(t.TempDir()), Results: []*Result{res}}
	text := r.String()
	for _, want := range []string{"ingest points/s", "wrong answers", "disk last third", "final check", "by delete in buckets of"} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}
	html := r.HTML()
	for _, want := range []string{"Ingest rate", "Write p99", "Query p99", "Disk used", "RSS", "<svg"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || len(back.Results) != 1 || len(back.Results[0].Intervals) != len(res.Intervals) {
		t.Fatalf("JSON round trip: %v", err)
	}
	buf.Reset()
	if err := r.WriteCSV(&buf); err != nil || !strings.Contains(buf.String(), "interval.0") {
		t.Fatalf("CSV: %v", err)
	}
}
