package powercut

import (
	"path"
	"slices"
	"sync"
	"syscall"
)

// object is one file, directory, symlink or special file: what a
// directory entry names, in the live copy and in the durable store alike.
type object struct {
	id     uint64
	mode   uint32 // type and permission bits, as created
	target string // symlink target

	// Guarded by disk.mu.
	live    map[string]*object // a directory's entries now
	durable map[string]*object // a directory's entries after a cut
	parent  *object            // a directory's durable parent, for cycle checks
	links   int                // durable entries naming the object
	refs    int                // journal assignments naming it

	syncMu sync.Mutex // serializes copies into the durable data file
	dead   bool       // guarded by syncMu: unnamed now and after any cut

	mu      sync.Mutex // guards pending
	pending pending
}

func (o *object) isDir() bool     { return o.mode&syscall.S_IFMT == syscall.S_IFDIR }
func (o *object) isRegular() bool { return o.mode&syscall.S_IFMT == syscall.S_IFREG }

// newObject registers an object under id. Call with disk.mu held.
func (d *disk) newObject(id uint64, mode uint32, target string) *object {
	o := &object{id: id, mode: mode, target: target, pending: noPending}
	if o.isDir() {
		o.live = map[string]*object{}
		o.durable = map[string]*object{}
	}
	d.objects[id] = o
	d.next = max(d.next, id+1)
	return o
}

// create registers a new object under the next free ID. Call with
// disk.mu held.
func (d *disk) create(mode uint32, target string) *object {
	return d.newObject(d.next, mode, target)
}

// assignment sets the entry name in dir to name object to, or removes
// it if to is nil.
type assignment struct {
	dir  *object
	name string
	to   *object
}

// change is a namespace operation the journal keeps until it is durable.
type change struct {
	set      []assignment // made durable together: a rename is atomic
	unsynced []*object    // directories whose fsync it still waits for
	removes  *object      // the directory it deletes, if any
}

// record journals a namespace operation. Call with disk.mu held, after
// the live copy and the live entries changed.
func (d *disk) record(removes *object, set ...assignment) {
	c := &change{set: set, removes: removes}
	for _, a := range set {
		if a.to != nil {
			a.to.refs++
		}
		if !slices.Contains(c.unsynced, a.dir) {
			c.unsynced = append(c.unsynced, a.dir)
		}
	}
	d.journal = append(d.journal, c)
}

// add names o as name in dir (create, mkdir, symlink, mknod, link).
func (d *disk) add(dir *object, name string, o *object) {
	dir.live[name] = o
	d.record(nil, assignment{dir, name, o})
}

// remove drops the entry name from dir (unlink, rmdir).
func (d *disk) remove(dir *object, name string) {
	o := dir.live[name]
	delete(dir.live, name)
	d.record(removedDir(o), assignment{dir, name, nil})
}

// rename moves the entry from dir/name to newDir/newName, or swaps the
// two entries if exchange.
func (d *disk) rename(dir *object, name string, newDir *object, newName string, exchange bool) {
	src, dst := dir.live[name], newDir.live[newName]
	switch {
	case exchange:
		dir.live[name], newDir.live[newName] = dst, src
		d.record(nil, assignment{dir, name, dst}, assignment{newDir, newName, src})
	case src == dst:
		// Two names of one file, or a name to itself: rename(2) does nothing.
	default:
		delete(dir.live, name)
		newDir.live[newName] = src
		d.record(removedDir(dst), assignment{dir, name, nil}, assignment{newDir, newName, src})
	}
}

// removedDir is o if it is a directory that losing its entry deletes.
func removedDir(o *object) *object {
	if o != nil && o.isDir() {
		return o
	}
	return nil
}

// markSynced records an fsync of dir: every journaled change touching
// it no longer waits for it. A change that deletes a directory syncs that
// directory too, since the directory had to be empty: fsync of a parent
// makes an rmdir durable with the unlinks that emptied the directory.
func (d *disk) markSynced(dir *object) {
	for _, c := range d.journal {
		i := slices.Index(c.unsynced, dir)
		if i < 0 {
			continue
		}
		c.unsynced = slices.Delete(c.unsynced, i, i+1)
		if c.removes != nil {
			d.markSynced(c.removes)
		}
	}
}

// entryKey names one directory entry.
type entryKey struct {
	dir  *object
	name string
}

// applyReady makes durable, in journal order, every change that waits
// for no fsync, unless an earlier change still pending touches one of
// its entries, it deletes a directory with changes still pending
// inside, or it would put a directory inside itself. It reports whether
// anything changed and the objects that died. Call with disk.mu held.
func (d *disk) applyReady() (changed bool, dead []*object) {
	blocked := map[entryKey]bool{}
	busy := map[*object]bool{} // directories with a change still pending
	var touched []*object
	kept := d.journal[:0]
	for _, c := range d.journal {
		if len(c.unsynced) == 0 && !c.blockedBy(blocked) && !busy[c.removes] && !c.makesCycle() {
			touched = c.apply(touched)
			changed = true
			continue
		}
		for _, a := range c.set {
			blocked[entryKey{a.dir, a.name}] = true
			busy[a.dir] = true
		}
		kept = append(kept, c)
	}
	clear(d.journal[len(kept):])
	d.journal = kept
	for _, o := range touched {
		if o.links == 0 && o.refs == 0 && d.objects[o.id] == o {
			dead = d.kill(o, dead)
		}
	}
	return changed, dead
}

func (c *change) blockedBy(blocked map[entryKey]bool) bool {
	for _, a := range c.set {
		if blocked[entryKey{a.dir, a.name}] {
			return true
		}
	}
	return false
}

// makesCycle reports whether c would make a directory its own durable
// ancestor: the conservative rules can leave the move of a parent
// pending while a later move under it is durable.
func (c *change) makesCycle() bool {
	for _, a := range c.set {
		if a.to == nil || !a.to.isDir() {
			continue
		}
		for d := a.dir; d != nil; d = d.parent {
			if d == a.to {
				return true
			}
		}
	}
	return false
}

// apply sets c's entries in the durable namespace and appends the
// objects that lost a reference to touched.
func (c *change) apply(touched []*object) []*object {
	for _, a := range c.set {
		if a.to != nil {
			a.to.refs--
			touched = append(touched, a.to)
		}
		old := a.dir.durable[a.name]
		if old == a.to {
			continue
		}
		if old != nil {
			old.links--
			if old.parent == a.dir {
				old.parent = nil
			}
			touched = append(touched, old)
		}
		if a.to == nil {
			delete(a.dir.durable, a.name)
			continue
		}
		a.dir.durable[a.name] = a.to
		a.to.links++
		if a.to.isDir() {
			a.to.parent = a.dir
		}
	}
	return touched
}

// kill forgets an object no entry names, live or durable, and that no
// pending change can name again, and appends it to dead so that its
// data file goes once the namespace without it is saved.
func (d *disk) kill(o *object, dead []*object) []*object {
	o.syncMu.Lock()
	o.dead = true
	o.syncMu.Unlock()
	delete(d.objects, o.id)
	return append(dead, o)
}

// livePaths maps every object with a live name to one of its paths,
// relative to the root. Call with disk.mu held.
func (d *disk) livePaths() map[*object]string {
	paths := map[*object]string{d.root: "."}
	var walk func(dir *object, p string)
	walk = func(dir *object, p string) {
		for name, o := range dir.live {
			if _, seen := paths[o]; seen {
				continue // another link of a file
			}
			paths[o] = path.Join(p, name)
			if o.isDir() {
				walk(o, paths[o])
			}
		}
	}
	walk(d.root, ".")
	return paths
}
