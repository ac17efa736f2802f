package powercut

import (
	"context"
	"strconv"
	"sync/atomic"
	"syscall"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// node is a go-fuse loopback node over the live copy that keeps the
// namespace bookkeeping in step: every operation that changes a
// directory updates the live entries and journals the change under
// disk.mu, in the same critical section as the change to the live copy.
type node struct {
	*fs.LoopbackNode
	disk *disk
	obj  atomic.Pointer[object] // set by the operation that returned the node
}

var (
	_ fs.NodeWrapChilder    = (*node)(nil)
	_ fs.NodeLookuper       = (*node)(nil)
	_ fs.NodeCreater        = (*node)(nil)
	_ fs.NodeMkdirer        = (*node)(nil)
	_ fs.NodeMknoder        = (*node)(nil)
	_ fs.NodeSymlinker      = (*node)(nil)
	_ fs.NodeLinker         = (*node)(nil)
	_ fs.NodeUnlinker       = (*node)(nil)
	_ fs.NodeRmdirer        = (*node)(nil)
	_ fs.NodeRenamer        = (*node)(nil)
	_ fs.NodeTmpfiler       = (*node)(nil)
	_ fs.NodeOpener         = (*node)(nil)
	_ fs.NodeOpendirHandler = (*node)(nil)
	_ fs.NodeSetattrer      = (*node)(nil)
	_ fs.NodeFsyncer        = (*node)(nil)
	_ fs.NodeCopyFileRanger = (*node)(nil)
	_ fs.FileWriter         = (*file)(nil)
	_ fs.FileWritever       = (*file)(nil)
	_ fs.FileAllocater      = (*file)(nil)
	_ fs.FileReaddirenter   = dirHandle{}
	_ fs.FileSeekdirer      = dirHandle{}
	_ fs.FileReleasedirer   = dirHandle{}
)

// WrapChild makes every node of the tree a *node.
func (n *node) WrapChild(ctx context.Context, ops fs.InodeEmbedder) fs.InodeEmbedder {
	return &node{LoopbackNode: ops.(*fs.LoopbackNode), disk: n.disk}
}

// adopt ties the node go-fuse returned for a child to its object.
func adopt(ch *fs.Inode, o *object) {
	ch.Operations().(*node).obj.Store(o)
}

// objectOf is the object an operation with handle fh acts on: the
// handle's, which stays right for a file renamed or unlinked since.
func (n *node) objectOf(fh fs.FileHandle) *object {
	if h, ok := fh.(*file); ok {
		return h.obj
	}
	return n.obj.Load()
}

func (n *node) Lookup(ctx context.Context, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	n.disk.mu.Lock()
	defer n.disk.mu.Unlock()
	o := n.obj.Load().live[name]
	if o == nil {
		return nil, syscall.ENOENT
	}
	ch, errno := n.LoopbackNode.Lookup(ctx, name, out)
	if errno != 0 {
		return nil, errno
	}
	adopt(ch, o)
	return ch, 0
}

func (n *node) Create(ctx context.Context, name string, flags uint32, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	d := n.disk
	d.mu.Lock()
	defer d.mu.Unlock()
	ch, fh, fuseFlags, errno := n.LoopbackNode.Create(ctx, name, liveFlags(flags), mode, out)
	if errno != 0 {
		return nil, nil, 0, errno
	}
	dir := n.obj.Load()
	o := dir.live[name]
	switch {
	case o == nil:
		o = d.create(out.Attr.Mode, "")
		d.add(dir, name, o)
	case flags&syscall.O_TRUNC != 0:
		// The name existed after all: this create opened it.
		o.resize(0)
	}
	adopt(ch, o)
	return ch, &file{LoopbackFile: fh.(*fs.LoopbackFile), obj: o}, fuseFlags, 0
}

func (n *node) Mkdir(ctx context.Context, name string, mode uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	d := n.disk
	d.mu.Lock()
	defer d.mu.Unlock()
	ch, errno := n.LoopbackNode.Mkdir(ctx, name, mode, out)
	if errno != 0 {
		return nil, errno
	}
	o := d.create(out.Attr.Mode, "")
	d.add(n.obj.Load(), name, o)
	adopt(ch, o)
	return ch, 0
}

// Mknod makes FIFOs and sockets: the store keeps no device numbers.
func (n *node) Mknod(ctx context.Context, name string, mode, rdev uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	if t := mode & syscall.S_IFMT; t != syscall.S_IFIFO && t != syscall.S_IFSOCK {
		return nil, syscall.EPERM
	}
	d := n.disk
	d.mu.Lock()
	defer d.mu.Unlock()
	ch, errno := n.LoopbackNode.Mknod(ctx, name, mode, rdev, out)
	if errno != 0 {
		return nil, errno
	}
	o := d.create(out.Attr.Mode, "")
	d.add(n.obj.Load(), name, o)
	adopt(ch, o)
	return ch, 0
}

func (n *node) Symlink(ctx context.Context, target, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	d := n.disk
	d.mu.Lock()
	defer d.mu.Unlock()
	ch, errno := n.LoopbackNode.Symlink(ctx, target, name, out)
	if errno != 0 {
		return nil, errno
	}
	o := d.create(out.Attr.Mode, target)
	d.add(n.obj.Load(), name, o)
	adopt(ch, o)
	return ch, 0
}

func (n *node) Link(ctx context.Context, target fs.InodeEmbedder, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	t, ok := target.(*node)
	if !ok {
		return nil, syscall.EXDEV
	}
	d := n.disk
	d.mu.Lock()
	defer d.mu.Unlock()
	ch, errno := n.LoopbackNode.Link(ctx, target, name, out)
	if errno != 0 {
		return nil, errno
	}
	o := t.obj.Load()
	d.add(n.obj.Load(), name, o)
	adopt(ch, o)
	return ch, 0
}

func (n *node) Unlink(ctx context.Context, name string) syscall.Errno {
	d := n.disk
	d.mu.Lock()
	defer d.mu.Unlock()
	errno := n.LoopbackNode.Unlink(ctx, name)
	if errno == 0 {
		d.remove(n.obj.Load(), name)
	}
	return errno
}

func (n *node) Rmdir(ctx context.Context, name string) syscall.Errno {
	d := n.disk
	d.mu.Lock()
	defer d.mu.Unlock()
	errno := n.LoopbackNode.Rmdir(ctx, name)
	if errno == 0 {
		d.remove(n.obj.Load(), name)
	}
	return errno
}

// Rename supports RENAME_NOREPLACE and RENAME_EXCHANGE; RENAME_WHITEOUT
// is for overlay file systems.
func (n *node) Rename(ctx context.Context, name string, newParent fs.InodeEmbedder, newName string, flags uint32) syscall.Errno {
	np, ok := newParent.(*node)
	if !ok {
		return syscall.EXDEV
	}
	if flags&^(fs.RENAME_EXCHANGE|renameNoReplace) != 0 {
		return syscall.EINVAL
	}
	d := n.disk
	d.mu.Lock()
	defer d.mu.Unlock()
	errno := n.LoopbackNode.Rename(ctx, name, newParent, newName, flags)
	if errno == 0 {
		d.rename(n.obj.Load(), name, np.obj.Load(), newName, flags&fs.RENAME_EXCHANGE != 0)
	}
	return errno
}

// renameNoReplace is RENAME_NOREPLACE of renameat2(2).
const renameNoReplace = 0x1

// Tmpfile refuses O_TMPFILE: the loopback cannot link such a file into
// the namespace later, so there is nothing for a sync to make durable.
func (n *node) Tmpfile(ctx context.Context, flags uint32, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	return nil, nil, 0, syscall.EOPNOTSUPP
}

func (n *node) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	fh, fuseFlags, errno := n.LoopbackNode.Open(ctx, liveFlags(flags))
	if errno != 0 {
		return nil, 0, errno
	}
	o := n.obj.Load()
	if flags&syscall.O_TRUNC != 0 {
		o.resize(0)
	}
	return &file{LoopbackFile: fh.(*fs.LoopbackFile), obj: o}, fuseFlags, 0
}

// liveFlags are the open flags for the live copy: without O_DIRECT,
// whose alignment rules the buffers go-fuse hands over do not meet. The
// kernel still sends O_DIRECT writes straight to the server, where they
// stay pending until fsync like any other.
func liveFlags(flags uint32) uint32 { return flags &^ syscall.O_DIRECT }

// OpendirHandle hides the loopback's Fsyncdir, so that an fsync of a
// directory reaches Fsync.
func (n *node) OpendirHandle(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	fh, fuseFlags, errno := n.LoopbackNode.OpendirHandle(ctx, flags)
	if errno != 0 {
		return nil, 0, errno
	}
	ds, ok := fh.(dirStream)
	if !ok {
		return nil, 0, syscall.ENOTSUP
	}
	return dirHandle{ds}, fuseFlags, 0
}

// dirStream is what a loopback directory handle does besides Fsyncdir.
type dirStream interface {
	fs.FileReaddirenter
	fs.FileSeekdirer
	fs.FileReleasedirer
}

type dirHandle struct{ dirStream }

func (n *node) Setattr(ctx context.Context, fh fs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	errno := n.LoopbackNode.Setattr(ctx, fh, in, out)
	if size, ok := in.GetSize(); ok && errno == 0 {
		n.objectOf(fh).resize(int64(size))
	}
	return errno
}

// Fsync makes a file's pending data, or a directory's pending entries,
// durable. fdatasync does the same as fsync: the file's length is data.
func (n *node) Fsync(ctx context.Context, fh fs.FileHandle, flags uint32) syscall.Errno {
	if n.IsDir() {
		return n.disk.syncDir(n.obj.Load())
	}
	h, ok := fh.(*file)
	if !ok {
		return syscall.EBADF
	}
	fd, ok := h.PassthroughFd()
	if !ok {
		return syscall.EBADF
	}
	// Read through a descriptor of our own: the handle may be write-only,
	// and the path works for an unlinked file too.
	return n.disk.syncFile(h.obj, "/proc/self/fd/"+strconv.Itoa(fd))
}

func (n *node) CopyFileRange(ctx context.Context, fhIn fs.FileHandle, offIn uint64, out *fs.Inode, fhOut fs.FileHandle, offOut uint64, size uint64, flags uint64) (uint32, syscall.Errno) {
	in, ok := fhIn.(*file)
	if !ok {
		return 0, syscall.EBADF
	}
	dst, ok := fhOut.(*file)
	if !ok {
		return 0, syscall.EBADF
	}
	count, errno := n.LoopbackNode.CopyFileRange(ctx, in.LoopbackFile, offIn, out, dst.LoopbackFile, offOut, size, flags)
	dst.obj.write(int64(offOut), int64(offOut)+int64(count))
	return count, errno
}

// file is a loopback file handle that records what it changes.
type file struct {
	*fs.LoopbackFile
	obj *object
}

func (h *file) Write(ctx context.Context, data []byte, off int64) (uint32, syscall.Errno) {
	n, errno := h.LoopbackFile.Write(ctx, data, off)
	h.obj.write(off, off+int64(n))
	return n, errno
}

func (h *file) Writev(ctx context.Context, data [][]byte, off int64) (uint32, syscall.Errno) {
	n, errno := h.LoopbackFile.Writev(ctx, data, off)
	h.obj.write(off, off+int64(n))
	return n, errno
}

func (h *file) Allocate(ctx context.Context, off uint64, size uint64, mode uint32) syscall.Errno {
	errno := h.LoopbackFile.Allocate(ctx, off, size, mode)
	if errno == 0 {
		h.obj.allocate(int64(off), int64(size), mode)
	}
	return errno
}
