package harness

import "testing"

func TestEnded(t *testing.T) {
	for _, tc := range []struct {
		outcome, err, want string
	}{
		{"", "", ""},
		{OutcomeStopped, "", ""},
		{OutcomeStopped, "stopped at the -max-time limit of 5s in step \"Write\" after 3 of 9 points", OutcomeStopped},
		{OutcomeOutOfMemory, "out of memory in step \"Write\" after 3 of 9 points (limit 4 GiB): ...", OutcomeOutOfMemory},
		{"", "query: verification failed: 3 points missing", OutcomeFailed},
		// Results written before Outcome was recorded: the benchmark's
		// own wording of the two errors.
		{"", "stopped at the -max-time limit of 1h45m0s in step \"Write 100M values\" after 22221k of 100M points", OutcomeStopped},
		{"", "stopped at the -max-time limit of 5s in step \"Query\"; before that: write: disk full", OutcomeFailed},
		{"", "out of memory in step \"Write 100M values\" after 43391k of 100M points (limit 4.00 GiB): the kernel's OOM killer ...", OutcomeOutOfMemory},
		{"", "write: out of memory", OutcomeFailed},
	} {
		h := Header{Outcome: tc.outcome}
		if got := h.Ended(tc.err); got != tc.want {
			t.Errorf("Header{Outcome: %q}.Ended(%q) = %q, want %q", tc.outcome, tc.err, got, tc.want)
		}
	}
}
