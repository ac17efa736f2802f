package etcd_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/etcd"
	"github.com/tsbench/storage/workload/crash"
)

// errStopWriting ends the writer once the test has seen enough batches.
var errStopWriting = errors.New("enough batches")

// Bounds of TestQuorumSurvivesMemberKill.
const (
	// quorumBefore and quorumAfter are the batches acknowledged before a
	// member is killed and after its kill.
	quorumBefore, quorumAfter = 50, 100
	// quorumRetries bounds the failed attempts to write, which the
	// election after a leader's death causes; quorumPause separates them.
	quorumRetries = 100
	quorumPause   = 50 * time.Millisecond
	// quorumWait bounds each wait for acknowledgements.
	quorumWait = 30 * time.Second
)

// TestQuorumSurvivesMemberKill kills one member of a local 3-member
// cluster with SIGKILL while a writer commits the crash check's numbered
// batches: the other two keep a quorum, so writes must go on (after an
// election, if the leader died), every acknowledged batch must be wholly
// present and none torn, and Close must cope with the dead member and
// leave no process behind.
func TestQuorumSurvivesMemberKill(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		leader bool
	}{{"follower", false}, {"leader", true}} {
		t.Run(tc.name, func(t *testing.T) { testMemberKill(t, tc.leader) })
	}
}

func testMemberKill(t *testing.T, killLeader bool) {
	db := enginetest.Open(t, "etcd", t.TempDir(), nil)
	be, ok := engine.Unwrap(db).(*etcd.DB)
	if !ok {
		t.Fatalf("backend is %T, want *etcd.DB", engine.Unwrap(db))
	}
	pids := be.PIDs()
	leader, err := etcd.LeaderPID(be)
	if err != nil {
		t.Fatal(err)
	}
	victim := leader
	if !killLeader {
		victim = pids[slices.IndexFunc(pids, func(p int) bool { return p != leader })]
	}

	cfg := crash.Config{Kills: 1, Batch: 100, ValueSize: 100, Seed: 15, Window: crash.DefaultWindow}
	var (
		mu       sync.Mutex
		acked    []uint64
		ackTimes []time.Time
		failures []error
	)
	stop := make(chan struct{})
	progress := make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		// A failed Commit is retried, as a new batch numbered after the
		// highest one present: it may have been applied, but it is not
		// counted as acknowledged.
		for {
			err := crash.Write(db, cfg, func(b uint64) error {
				mu.Lock()
				acked = append(acked, b)
				ackTimes = append(ackTimes, time.Now())
				mu.Unlock()
				select {
				case progress <- struct{}{}:
				default:
				}
				select {
				case <-stop:
					return errStopWriting
				default:
					return nil
				}
			})
			if errors.Is(err, errStopWriting) {
				done <- nil
				return
			}
			mu.Lock()
			failures = append(failures, err)
			n := len(failures)
			mu.Unlock()
			if n > quorumRetries {
				done <- err
				return
			}
			time.Sleep(quorumPause)
		}
	}()
	// waitAcks waits until n batches are acknowledged, or the writer gave up.
	waitAcks := func(n int, what string) {
		t.Helper()
		deadline := time.After(quorumWait)
		for {
			mu.Lock()
			got := len(acked)
			mu.Unlock()
			if got >= n {
				return
			}
			select {
			case <-progress:
			case err := <-done:
				t.Fatalf("%s: the writer gave up after %d acknowledged batches: %v", what, got, err)
			case <-deadline:
				t.Fatalf("%s: %d of %d batches acknowledged within %v", what, got, n, quorumWait)
			}
		}
	}

	waitAcks(quorumBefore, "before the kill")
	mu.Lock()
	before := len(acked)
	mu.Unlock()
	killed := time.Now()
	if err := syscall.Kill(victim, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, []int{victim}, 5*time.Second)
	waitAcks(before+quorumAfter, "after the kill")
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	mu.Lock()
	var pause time.Duration // the longest gap between acknowledgements after the kill
	last := killed
	for _, at := range ackTimes[before:] {
		pause = max(pause, at.Sub(last))
		last = at
	}
	t.Logf("killed member %d (leader %v) after %d batches; %d failed attempts, writes paused at most %v, %d batches acknowledged in all",
		victim, killLeader, before, len(failures), pause.Round(time.Millisecond), len(acked))
	for i, err := range failures {
		if i < 3 {
			t.Logf("failed attempt: %v", err)
		}
	}
	mu.Unlock()

	scan, err := crash.Verify(db, cfg)
	if err != nil {
		t.Fatalf("read back with a member dead: %v", err)
	}
	if scan.Problem != "" {
		t.Errorf("damaged entry: %s", scan.Problem)
	}
	for b, n := range scan.Incomplete {
		t.Errorf("batch %d torn or missing: %d of %d entries", b, n, cfg.Batch)
	}
	for _, b := range acked {
		if _, bad := scan.Incomplete[b]; bad || b >= scan.Top {
			t.Errorf("acknowledged batch %d lost (top found %d)", b, scan.Top)
		}
	}

	if d := be.Describe(); d == "" {
		t.Error("Describe is empty with a member dead")
	}
	start := time.Now()
	_, _, err = be.Sizes()
	t.Logf("Sizes with a member dead: %v (%v)", err, time.Since(start).Round(time.Millisecond))
	if !errors.Is(err, etcd.ErrMemberExited) {
		t.Errorf("Sizes with a member dead = %v, want ErrMemberExited", err)
	}

	start = time.Now()
	if err := db.Close(); err != nil {
		t.Errorf("Close with a member dead: %v", err)
	}
	t.Logf("Close took %v", time.Since(start).Round(time.Millisecond))
	waitGone(t, pids, 0)
}

// TestRestartedMemberCatchesUp kills a member, writes without it,
// restarts it (engine.Members), and reads through that member alone what
// was written while it was down.
func TestRestartedMemberCatchesUp(t *testing.T) {
	t.Parallel()
	db := enginetest.Open(t, "etcd", t.TempDir(), nil)
	ms, ok := engine.BackendAs[engine.Members](db)
	if !ok || ms.Members() != etcd.DefaultMembers {
		t.Fatalf("engine.Members: %v, %d members; want %d", ok, ms.Members(), etcd.DefaultMembers)
	}
	const victim = 1
	if err := ms.KillMember(victim); err != nil {
		t.Fatal(err)
	}
	if err := ms.Alone(victim, func(engine.Reader) error { return nil }); !errors.Is(err, etcd.ErrMemberExited) {
		t.Fatalf("Alone of a killed member = %v, want ErrMemberExited", err)
	}
	// Enough writes that the member must catch up on them, with a retry
	// of the first while an election may still run.
	b := db.NewBatch()
	for i := range 500 {
		b.Put(fmt.Appendf(nil, "down/%03d", i), fmt.Appendf(nil, "v%d", i))
	}
	var err error
	for range 100 {
		if err = b.Commit(); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("commit with a member down: %v", err)
	}
	if err := ms.RestartMember(victim); err != nil {
		t.Fatal(err)
	}
	if err := ms.RestartMember(victim); err == nil || !strings.Contains(err.Error(), "still runs") {
		t.Errorf("RestartMember of a running member = %v, want an error saying it still runs", err)
	}
	err = ms.Alone(victim, func(r engine.Reader) error {
		for _, i := range []int{0, 499} {
			v, err := r.Get(fmt.Appendf(nil, "down/%03d", i))
			if err != nil || string(v) != fmt.Sprint("v", i) {
				return fmt.Errorf("entry %d through the restarted member alone: %q, %v", i, v, err)
			}
		}
		it, err := r.NewIterator(engine.IterOptions{LowerBound: []byte("down/"), UpperBound: []byte("down0")})
		if err != nil {
			return err
		}
		n := 0
		for ok := it.First(); ok; ok = it.Next() {
			n++
		}
		if err := it.Close(); err != nil || n != 500 {
			return fmt.Errorf("the restarted member alone holds %d entries (%v), want 500", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := ms.KillMember(etcd.DefaultMembers); err == nil {
		t.Error("KillMember of a member beyond the cluster succeeded")
	}
}
