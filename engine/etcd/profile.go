package etcd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"
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
	client  http.Client
	quit    chan struct{}
	done    chan struct{}

	reported map[string]bool // members whose failure stderr has shown
}

// startProfiles fetches every member's heap profile into dir now and then
// every heapProfilePeriod.
func startProfiles(dir string, members []*member) *profiler {
	p := &profiler{dir: dir, members: members, client: http.Client{Timeout: heapProfilePeriod},
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

// fetch replaces dir/NAME-heap.pprof with the member's heap profile,
// through a temporary file, so that a fetch cut short leaves the previous
// profile whole.
func (p *profiler) fetch(m *member) error {
	path := filepath.Join(p.dir, m.addr.Name+"-heap.pprof")
	ctx, cancel := context.WithTimeout(context.Background(), heapProfilePeriod)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.addr.clientURL()+"/debug/pprof/heap", nil)
	if err != nil {
		return fmt.Errorf("heap profile of member %s: %w", m.addr.Name, err)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return fmt.Errorf("heap profile of member %s: %w", m.addr.Name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("heap profile of member %s: %s (is it running with --enable-pprof?)", m.addr.Name, resp.Status)
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("heap profile of member %s: %w", m.addr.Name, err)
	}
	_, err = io.Copy(f, resp.Body)
	if err = errors.Join(err, f.Close()); err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("heap profile of member %s: %w", m.addr.Name, err)
	}
	return nil
}
