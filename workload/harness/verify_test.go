package harness

import (
	"encoding/json"
	"testing"
)

// TestVerificationJSON: a verification reads back as written, and as
// results before schema 2 wrote it (wrong_values).
func TestVerificationJSON(t *testing.T) {
	v := Verification{Expected: 10, Read: 9, Missing: 1, Unexpected: 2, Wrong: 3, First: "series 1: gone"}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back Verification
	if err := json.Unmarshal(b, &back); err != nil || back != v {
		t.Errorf("%s read back as %+v, %v", b, back, err)
	}
	var old Verification
	if err := json.Unmarshal([]byte(`{"expected": 10, "read": 10, "missing": 0, "unexpected": 0, "wrong_values": 4}`), &old); err != nil || old.Wrong != 4 || old.OK() {
		t.Errorf("an old verification read as %+v, %v; want 4 wrong, not OK", old, err)
	}
	if ok := (Verification{Expected: 5, Read: 5}); !ok.OK() || (&Verification{Read: 5, Expired: 1}).OK() {
		t.Error("OK disagrees with the counts")
	}
}
