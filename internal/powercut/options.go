package powercut

// Options tune a mount.
type Options struct {
	// Torn makes Cut persist, as a device losing power mid-flush may, a
	// random half of the pending written 4 KiB blocks of each file, each
	// block whole or not at all, and only blocks inside the file's durable
	// length: appended data stays pending, since the length that would
	// expose it is metadata. Default false: Cut drops every pending write.
	Torn bool
	// Seed seeds the choice of blocks Torn persists: the same pending
	// writes and the same seed persist the same blocks. Default 0.
	Seed int64
	// NoopSync makes fsync, fdatasync and msync of a file succeed without
	// making its data durable: a broken disk, with which a check of what
	// survives a cut must fail, as tests prove. Default false.
	NoopSync bool
	// Journal makes a file's fsync, fdatasync or msync also make every
	// pending name change durable, as the journal commit of ext4 (or XFS)
	// that the fsync forces does: a new file's name survives with its
	// data, without an fsync of its directory. Other files' data stays
	// pending. Default false: names wait for their directory's fsync, as
	// POSIX alone promises.
	Journal bool
}
