package etcd

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/tsbench/storage/engine/internal/fileswap"
)

// heapProfilePeriod is how often each member's heap profile is fetched
// (Options.HeapProfiles): a member the OOM killer ends leaves one at most
// this old.
const heapProfilePeriod = 10 * time.Second

// profiler fetches the heap profiles of a local cluster's members, which
// run with --enable-pprof, into a directory, until stop.
type profiler struct {
	dir     string
	members []*member
	quit    chan struct{}
	done    chan struct{}

	reported map[string]bool // members whose failure stderr has shown
}

// startProfiles fetches every member's heap profile into dir now and then
// every heapProfilePeriod.
func startProfiles(dir string, members []*member) *profiler {
	p := &profiler{dir: dir, members: members,
		quit: make(chan struct{}), done: make(chan struct{}), reported: map[string]bool{}}
	go func() {
		defer close(p.done)
		t := time.NewTicker(heapProfilePeriod)
		defer t.Stop()
		for {
			p.fetchAll()
			select {
			case <-p.quit:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

// stop ends the loop after fetching once more, while the members still
// run.
func (p *profiler) stop() {
	close(p.quit)
	<-p.done
	p.fetchAll()
}

// fetchAll fetches each running member's profile; a member that has
// exited (killed, out of memory) keeps its last one. A profile is a
// diagnostic, so a failure is no error of the engine's: it is reported
// on stderr, once per member.
func (p *profiler) fetchAll() {
	for _, m := range p.members {
		if m.exited() {
			continue
		}
		if err := p.fetch(m); err != nil && !p.reported[m.addr.Name] {
			fmt.Fprintf(os.Stderr, "etcd: %v\n", err)
			p.reported[m.addr.Name] = true
		}
	}
}

// fetch replaces dir/NAME-heap.pprof with the member's heap profile
// (fileswap.Write), so that a fetch cut short leaves the previous profile
// whole.
func (p *profiler) fetch(m *member) error {
	ctx, cancel := context.WithTimeout(context.Background(), heapProfilePeriod)
	defer cancel()
	b, err := get(ctx, m.addr.clientURL()+"/debug/pprof/heap")
	if err == nil {
		err = fileswap.Write(filepath.Join(p.dir, m.addr.Name+"-heap.pprof"), b)
	}
	if err != nil {
		return fmt.Errorf("heap profile of member %s: %w", m.addr.Name, err)
	}
	return nil
}

// get returns the body of url, a member's pprof endpoint.
func get(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s (is it running with --enable-pprof?)", resp.Status)
	}
	return io.ReadAll(resp.Body)
}
