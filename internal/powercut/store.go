package powercut

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// The backing store's layout.
const (
	treeFile = "tree.json" // the durable namespace
	dataDir  = "data"      // durable file contents, one file per object ID
	liveDir  = "live"      // live copies, one directory per mount
	rootID   = 1           // the root directory's object ID
)

// tree is the durable namespace as tree.json holds it: every object
// reachable from the root, by ID.
type tree struct {
	Next    uint64                `json:"next"`
	Objects map[uint64]treeObject `json:"objects"`
}

type treeObject struct {
	Mode    uint32            `json:"mode"`
	Target  string            `json:"target,omitempty"`
	Entries map[string]uint64 `json:"entries,omitempty"`
}

func (d *disk) dataPath(id uint64) string {
	return filepath.Join(d.backing, dataDir, strconv.FormatUint(id, 10))
}

// livePath is the path in the live copy of rel, a path from the root.
func (d *disk) livePath(rel string) string { return filepath.Join(d.live, rel) }

// readTree reads the durable namespace of the store at backing. A
// directory that never had a directory synced is a store with an empty
// root; one holding anything else is not a store.
func readTree(backing string) (*tree, error) {
	b, err := os.ReadFile(filepath.Join(backing, treeFile))
	if errors.Is(err, fs.ErrNotExist) {
		entries, err := os.ReadDir(backing)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			switch e.Name() {
			case dataDir, liveDir, treeFile + ".tmp":
			default:
				return nil, fmt.Errorf("%w: %s holds %s", ErrNotStore, backing, e.Name())
			}
		}
		return &tree{Next: rootID + 1, Objects: map[uint64]treeObject{rootID: {Mode: syscall.S_IFDIR | 0o755}}}, nil
	}
	if err != nil {
		return nil, err
	}
	var t tree
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrNotStore, filepath.Join(backing, treeFile), err)
	}
	if t.Objects[rootID].Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return nil, fmt.Errorf("%w: %s has no root directory", ErrNotStore, filepath.Join(backing, treeFile))
	}
	return &t, nil
}

// saveTree writes the durable namespace. It replaces tree.json by a
// rename, so a killed process leaves the old namespace or the new one.
// No fsync: the store models durability across a Cut or a killed
// process, not a power loss of the host. Call with disk.mu held.
func (d *disk) saveTree() error {
	t := tree{Next: d.next, Objects: map[uint64]treeObject{}}
	var walk func(o *object)
	walk = func(o *object) {
		if _, seen := t.Objects[o.id]; seen {
			return // another link of a file
		}
		to := treeObject{Mode: o.mode, Target: o.target}
		if o.isDir() {
			to.Entries = make(map[string]uint64, len(o.durable))
			for name, c := range o.durable {
				to.Entries[name] = c.id
			}
		}
		t.Objects[o.id] = to
		for _, c := range o.durable {
			walk(c)
		}
	}
	walk(d.root)
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	tmp := filepath.Join(d.backing, treeFile+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(d.backing, treeFile))
}

// restore builds the objects and the live copy from the durable tree t
// and deletes the data files of objects t does not name: files that
// were synced but never got a durable name.
func (d *disk) restore(t *tree) error {
	d.objects = map[uint64]*object{}
	d.next = t.Next
	first := map[*object]string{} // the first live path of each object
	var build func(id uint64, p string) (*object, error)
	build = func(id uint64, p string) (*object, error) {
		to, ok := t.Objects[id]
		if !ok {
			return nil, fmt.Errorf("%w: an entry names unknown object %d", ErrNotStore, id)
		}
		if o := d.objects[id]; o != nil {
			if o.isDir() {
				return nil, fmt.Errorf("%w: directory %d has two entries", ErrNotStore, id)
			}
			return o, os.Link(first[o], p)
		}
		o := d.newObject(id, to.Mode, to.Target)
		first[o] = p
		perm := to.Mode & 0o7777
		switch to.Mode & syscall.S_IFMT {
		case syscall.S_IFDIR:
			if id != rootID {
				if err := os.Mkdir(p, 0o700); err != nil {
					return nil, err
				}
			}
			for name, cid := range to.Entries {
				if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
					return nil, fmt.Errorf("%w: directory %d has an entry named %q", ErrNotStore, id, name)
				}
				c, err := build(cid, filepath.Join(p, name))
				if err != nil {
					return nil, err
				}
				o.live[name], o.durable[name] = c, c
				c.links++
				if c.isDir() {
					c.parent = o
				}
			}
		case syscall.S_IFREG:
			if err := copyFile(p, d.dataPath(id), 0o600); err != nil {
				return nil, err
			}
		case syscall.S_IFLNK:
			return o, os.Symlink(to.Target, p)
		case syscall.S_IFIFO, syscall.S_IFSOCK:
			if err := unix.Mknod(p, to.Mode, 0); err != nil {
				return nil, &os.PathError{Op: "mknod", Path: p, Err: err}
			}
		default:
			return nil, fmt.Errorf("%w: object %d has mode %#o", ErrNotStore, id, to.Mode)
		}
		// Last, so a read-only directory could take its entries.
		return o, syscall.Chmod(p, perm)
	}
	root, err := build(rootID, d.live)
	if err != nil {
		return err
	}
	d.root = root
	return d.collect()
}

// collect deletes the data files no regular file object owns.
func (d *disk) collect() error {
	entries, err := os.ReadDir(filepath.Join(d.backing, dataDir))
	if err != nil {
		return err
	}
	for _, e := range entries {
		id, err := strconv.ParseUint(e.Name(), 10, 64)
		if o := d.objects[id]; err == nil && o != nil && o.isRegular() {
			continue
		}
		if err := os.Remove(filepath.Join(d.backing, dataDir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// removeData deletes the data files of dead objects.
func (d *disk) removeData(dead []*object) error {
	var errs []error
	for _, o := range dead {
		if err := os.Remove(d.dataPath(o.id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// lock takes an exclusive flock(2) on dir, held until the returned file
// closes or the process dies.
func lock(dir string) (*os.File, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(d.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		d.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is in use", ErrBusy, dir)
		}
		return nil, &os.PathError{Op: "flock", Path: dir, Err: err}
	}
	return d, nil
}

// newLive makes the live directory of a mount, locked while the mount
// serves it, after deleting the live directories no mount serves: those
// of mounts that were cut or of processes that were killed.
func newLive(backing string) (string, *os.File, error) {
	parent := filepath.Join(backing, liveDir)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return "", nil, err
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return "", nil, err
	}
	for _, e := range entries {
		p := filepath.Join(parent, e.Name())
		l, err := lock(p)
		if err != nil {
			continue // still served by a cut mount with files open
		}
		err = os.RemoveAll(p)
		l.Close()
		if err != nil {
			return "", nil, err
		}
	}
	live, err := os.MkdirTemp(parent, "")
	if err != nil {
		return "", nil, err
	}
	l, err := lock(live)
	if err != nil {
		return "", nil, err
	}
	return live, l, nil
}
