package powercut

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// TestConcurrent writes and syncs several files while another goroutine
// creates, renames and syncs directory entries, for the race detector;
// after the cut each file holds at least what it synced.
func TestConcurrent(t *testing.T) {
	s := newStore(t, Options{})
	const writers, rounds, chunk = 4, 40, 1000
	var wg sync.WaitGroup
	errs := make(chan error, writers+1)
	for w := range writers {
		name := s.path(fmt.Sprintf("w%d", w))
		writeFile(t, name, nil, true)
		wg.Go(func() {
			f, err := os.OpenFile(name, os.O_WRONLY, 0)
			if err != nil {
				errs <- err
				return
			}
			defer f.Close()
			for r := range rounds {
				if _, err := f.Write(pattern(chunk, byte(w))); err != nil {
					errs <- err
					return
				}
				if r%4 == 3 {
					if err := f.Sync(); err != nil {
						errs <- err
						return
					}
				}
			}
		})
	}
	syncDir(t, s.mnt)
	wg.Go(func() {
		for r := range rounds {
			tmp, final := s.path(fmt.Sprintf("t%d", r)), s.path(fmt.Sprintf("n%d", r%3))
			if err := writeSynced(tmp, []byte{byte(r)}); err != nil {
				errs <- err
				return
			}
			if err := os.Rename(tmp, final); err != nil {
				errs <- err
				return
			}
			d, err := os.Open(s.mnt)
			if err != nil {
				errs <- err
				return
			}
			err = d.Sync()
			d.Close()
			if err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s.cut()
	for w := range writers {
		st, err := os.Stat(s.path(fmt.Sprintf("w%d", w)))
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() != rounds*chunk {
			t.Errorf("w%d holds %d bytes after the cut, want the %d synced", w, st.Size(), rounds*chunk)
		}
	}
	// Each n%d holds the last round renamed onto it.
	for r := rounds - 3; r < rounds; r++ {
		wantFile(t, s.path(fmt.Sprintf("n%d", r%3)), []byte{byte(r)})
	}
}

// writeSynced creates path holding data and fsyncs it.
func writeSynced(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}
