// Package powercut is a FUSE file system that models a disk with a
// volatile write cache, so that a test can cut the power and check what
// a storage engine finds when it opens its files again.
//
// What is written stays pending until it is synced; Cut drops everything
// pending, and the next Mount of the same store shows exactly the
// durable state. Unmount is a clean shutdown: it syncs everything.
//
// # Durability model
//
// File data: writes (write, pwrite, writev, copy_file_range, and the
// kernel's writeback of MAP_SHARED pages) and length changes (truncate,
// ftruncate, O_TRUNC, fallocate) stay pending until fsync, fdatasync or
// msync of that file through any open handle, or of an unlinked file
// through a handle still open. fdatasync does what fsync does: the
// length is data.
//
// Names: create, mkdir, mknod, symlink, link, unlink, rmdir and rename
// stay pending until fsync of the directory holding the entry. A file's
// fsync does not make its name durable, nor does a directory's fsync
// make the data of its files durable: a name that becomes durable names
// the file's data as of the file's last fsync, nothing if never synced.
// A few rules keep the durable namespace one a real disk could show:
//
//   - A rename between two directories becomes durable when both have
//     been fsynced since, and then on both sides at once, as one journal
//     transaction would. A rename within a directory is atomic anyway.
//   - Changes of one entry become durable in the order they were made:
//     a change waits for the earlier changes of its entry.
//   - An rmdir becomes durable with its parent's fsync, and with it the
//     unlinks and renames that emptied the directory, as the directory
//     had to be empty; it waits while one of those still waits for
//     another directory.
//   - A directory move waits while it would put a directory inside
//     itself, which the rules above could otherwise do.
//
// Reads see the latest state, pending changes included, as the running
// machine would.
//
// What is not modelled:
//
//   - Background writeback. Nothing becomes durable without a sync, however
//     long ago it was written: the model is the worst case of a kernel that
//     flushes every 30 seconds. Pages the kernel writes back on its own
//     (mapped pages at close, or under memory pressure) reach the server
//     but stay pending.
//   - The ordering a journaling file system adds, such as ext4's
//     data=ordered making an fsynced file's name durable too, or a commit
//     that makes every pending change durable: the model gives only what
//     POSIX promises, so that a check fails where one file system could
//     lose data. Options.Journal adds the names' part: any file's sync
//     makes every pending name change durable.
//   - O_DIRECT. It is accepted, and the writes stay pending like any other,
//     as in a drive's volatile cache until a flush.
//   - Metadata. Permission bits are those an object was created with;
//     chmod, chown, times and extended attributes act on the live copy
//     only. O_TMPFILE is refused (EOPNOTSUPP), and so are device nodes.
//   - Torn writes beyond Options.Torn: blocks inside a file's durable
//     length of files that still have a name; pending length changes are
//     dropped. Without Torn, a cut keeps no pending write.
//   - The host's own power loss. The store is written without fsync: it
//     holds the durable state across a Cut or a killed process, not a
//     crash of the machine. A server killed in the middle of a sync leaves
//     that sync partly applied, as a drive losing power mid-flush would.
//
// Files open at a Cut keep working against the abandoned live state, as
// on a machine that does not know it lost power; nothing done through
// them reaches the store.
//
// # Design
//
// The store in the backing directory holds only durable state:
// tree.json, the durable namespace, and data/, the durable contents of
// each file, named by object ID. Objects stand for inodes: a file keeps
// its ID across renames and links, so that its data and its names can
// be durable separately.
//
// A mount copies the store into a live copy, an ordinary directory under
// live/, and serves it with go-fuse's loopback (fs.LoopbackNode), which
// keeps reads, writes and shared mappings native. Around the loopback
// the server records which byte ranges of each file were written and
// how its length changed, and journals each namespace change with the
// directories it waits for. A file's fsync copies the written ranges
// into its data file with copy_file_range, which stays in the kernel and
// reflinks where the file system can; a directory's fsync applies the
// journaled changes that became ready and rewrites tree.json by a
// rename. A cut then only has to stop: nothing pending was ever in the
// store, and the next mount copies the store afresh.
//
// That beats the alternatives. Keeping pending writes in memory over the
// store would make every read, and every page of a mapping, merge two
// sources, and memory grow with unsynced data. Keeping the live state in
// the store with an undo log would leave a killed process's store in the
// live state, not the durable one. The price is a copy of the store at
// each mount, and a second copy of each written byte at its fsync.
//
// The server runs in a process of its own, the running binary started
// again (see Mount): a process that maps a file of a FUSE mount it
// serves can deadlock, and LMDB and bbolt map their files. Killing the
// process that mounted cuts the power; killing the server leaves the
// store in its durable state and the mount dead until Cleanup detaches
// it.
package powercut
