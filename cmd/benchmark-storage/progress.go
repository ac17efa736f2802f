package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"
)

// Progress output limits: a bar redraws at most five times a second, and
// plain log lines report a long step every ten seconds.
const (
	barInterval = 200 * time.Millisecond
	logInterval = 10 * time.Second
	barWidth    = 24
)

// progress shows the steps of one engine on stderr, as a redrawn bar on a
// terminal or as log lines otherwise. It implements suite.Progress. The
// workload calls Update from its own ticker goroutine, never from the timed
// loop, so drawing here costs the measured work nothing but a little CPU.
type progress struct {
	mu     sync.Mutex
	w      io.Writer
	bar    bool   // redraw one line with \r; else append log lines
	engine string // prefix of every line
	unit   string // what a step counts: "points", or "ops" for the micro benchmarks
	now    func() time.Time

	stopped bool // the run was asked to stop: the step ends early

	step  string
	total int64 // 0 when the step has no count
	done  int64
	start time.Time
	drawn time.Time // last bar redraw or log line
	// report, if not nil, gets each change as a supervise.Status line,
	// for the parent.
	report io.Writer
}

// sendStatus reports the step and its count on p.report.
func (p *progress) sendStatus() {
	if p.report == nil {
		return
	}
	b, _ := json.Marshal(supervise.Status{Step: p.step, Done: p.done, Total: p.total})
	_, _ = p.report.Write(append(b, '\n'))
}

// Partial reports res, the result so far, on p.report, in one line.
func (p *progress) Partial(res any) {
	if p.report == nil {
		return
	}
	b, err := json.Marshal(res)
	if err != nil {
		return // the final result reports what cannot be encoded
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	line, _ := json.Marshal(supervise.Status{Step: p.step, Done: p.done, Total: p.total, Partial: b})
	_, _ = p.report.Write(append(line, '\n'))
}

// SetUnit names what a step counts.
func (p *progress) SetUnit(unit string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.unit = unit
}

var _ suite.Progress = (*progress)(nil)

// newProgress draws a bar for mode "bar" and writes log lines otherwise.
func newProgress(w io.Writer, mode, engineName string) *progress {
	return &progress{w: w, bar: mode == "bar", engine: engineName, unit: "points", now: time.Now}
}

// Begin starts a step of total points (0 if it has no count).
func (p *progress) Begin(step string, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.step, p.total, p.done = step, total, 0
	p.start = p.now()
	p.sendStatus()
	p.drawn = p.start
	if p.bar {
		p.drawBar()
		return
	}
	if total > 0 {
		fmt.Fprintf(p.w, "%s: %s: started (%s %s)\n", p.engine, step, harness.Count(total), p.unit)
	} else {
		fmt.Fprintf(p.w, "%s: %s: started\n", p.engine, step)
	}
}

// Update records that done points of the step are finished.
func (p *progress) Update(done int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = done
	p.sendStatus()
	now := p.now()
	if p.bar {
		if now.Sub(p.drawn) >= barInterval {
			p.drawn = now
			p.drawBar()
		}
		return
	}
	if now.Sub(p.drawn) >= logInterval {
		p.drawn = now
		fmt.Fprintf(p.w, "%s: %s: %s\n", p.engine, p.step, p.status(now))
	}
}

// stopping notes that the run was asked to stop, so that the step it is
// in ends early and says so.
func (p *progress) stopping() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
}

// End finishes the step.
func (p *progress) End() {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := p.now().Sub(p.start)
	line := fmt.Sprintf("%s: %s: done in %s", p.engine, p.step, harness.Round(elapsed))
	if p.stopped {
		line = fmt.Sprintf("%s: %s: stopped after %s", p.engine, p.step, harness.Round(elapsed))
		if p.total > 0 {
			line += fmt.Sprintf(", %s of %s %s", harness.Count(p.done), harness.Count(p.total), p.unit)
		}
	}
	if p.total > 0 && p.done > 0 && elapsed > 0 && p.unit != harness.UnitSeconds {
		// Of wall time, harness included: the report's rates are of
		// engine time, so the word tells the two apart.
		line += fmt.Sprintf(" (%s %s/s wall)", approx(float64(p.done)/elapsed.Seconds()), p.unit)
	}
	p.step = ""
	if p.bar {
		fmt.Fprintf(p.w, "\r\x1b[K%s\n", line)
		return
	}
	fmt.Fprintln(p.w, line)
}

// Write prints a log message of the workload (a warning) on its own line,
// and redraws the bar below it.
func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	msg := strings.TrimRight(string(b), "\n")
	if p.bar {
		fmt.Fprintf(p.w, "\r\x1b[K%s: %s\n", p.engine, msg)
		if p.step != "" {
			p.drawBar()
		}
		return len(b), nil
	}
	fmt.Fprintf(p.w, "%s: %s\n", p.engine, msg)
	return len(b), nil
}

// drawBar redraws the current line: bar, percentage, counts, rate, ETA.
func (p *progress) drawBar() {
	var bar string
	if p.total > 0 && p.done > 0 {
		filled := int(min(p.done, p.total) * barWidth / p.total)
		bar = "[" + strings.Repeat("=", filled) + strings.Repeat(" ", barWidth-filled) + "] "
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s: %s: %s%s", p.engine, p.step, bar, p.status(p.now()))
}

// status describes how far the step is: "45% 450k/1M 120k/s ETA 4s", or
// just the elapsed time while nothing is counted, as in a compaction.
func (p *progress) status(now time.Time) string {
	elapsed := now.Sub(p.start)
	if p.total <= 0 || p.done <= 0 || elapsed <= 0 {
		return "running for " + harness.Round(elapsed).String()
	}
	rate := float64(p.done) / elapsed.Seconds()
	eta := time.Duration(float64(max(p.total-p.done, 0)) / rate * float64(time.Second))
	if p.unit == harness.UnitSeconds {
		return fmt.Sprintf("%3d%% %s/%s ETA %s", p.done*100/p.total, harness.Round(time.Duration(p.done)*time.Second), harness.Round(time.Duration(p.total)*time.Second), harness.Round(eta))
	}
	return fmt.Sprintf("%3d%% %s/%s %s/s ETA %s", p.done*100/p.total, approx(float64(p.done)), approx(float64(p.total)), approx(rate), harness.Round(eta))
}

// approx writes a number with three significant digits: 950, 123k, 1.5M.
func approx(v float64) string {
	units := []string{"", "k", "M", "G"}
	i := 0
	for ; i < len(units)-1 && v >= 999.5; i++ {
		v /= 1000
	}
	return fmt.Sprintf("%.3g%s", v, units[i])
}
