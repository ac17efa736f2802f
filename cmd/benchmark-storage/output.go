package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"syscall"
)

// outFile is the -out file (or -latency-log's), opened before the run
// starts, so that a run never ends in a report it cannot write.
type outFile struct {
	flag    string // "-out"
	f       *os.File
	created bool // it did not exist: removed again if nothing was written
	written bool
}

// openOut opens path, the file of flag, for writing, or returns nil for
// "". Its errors are input errors. A file is replaced only once the
// report is rendered.
func openOut(flag, path string) (*outFile, error) {
	if path == "" {
		return nil, nil
	}
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, inputErrorf("%s %s: %v: choose a file you can write to", flag, path, unwrapPath(err))
	}
	o := &outFile{flag: flag, f: f, created: os.IsNotExist(statErr)}
	fail := func(err error) (*outFile, error) {
		o.close()
		return nil, inputErrorf("%s %s: %v: choose a file you can write to", flag, path, err)
	}
	// Writing nothing still fails on a device that refuses writes, such
	// as /dev/full; a file needs room on its file system.
	if _, err := syscall.Write(int(f.Fd()), nil); err != nil {
		return fail(err)
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		var st syscall.Statfs_t
		if err := syscall.Fstatfs(int(f.Fd()), &st); err == nil && st.Bavail == 0 {
			return fail(syscall.ENOSPC)
		}
	}
	return o, nil
}

// write replaces the file's content with what render writes.
func (o *outFile) write(render func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return err
	}
	if fi, err := o.f.Stat(); err == nil && fi.Mode().IsRegular() {
		if err := o.f.Truncate(0); err != nil {
			return fmt.Errorf("%s: %w", o.flag, err)
		}
	}
	if _, err := o.f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("%s: %w", o.flag, err)
	}
	o.written = true
	return nil
}

// close closes the file, and removes it if the run created it and wrote
// nothing into it.
func (o *outFile) close() {
	if o == nil {
		return
	}
	o.f.Close()
	if o.created && !o.written {
		os.Remove(o.f.Name())
	}
}
