package powercut

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Cleanup detaches what powercut mounts are left at mountpoint, typically
// by a process that was killed: its mount answers every access with
// "transport endpoint is not connected" until detached. With no powercut
// mount there it does nothing. The store needs no repair: a killed
// process is a cut, and the next Mount shows the durable state.
func Cleanup(mountpoint string) error {
	mnt, err := filepath.Abs(mountpoint)
	if err != nil {
		return err
	}
	all, err := mounts()
	if err != nil {
		return err
	}
	for _, m := range all {
		if m != mnt {
			continue
		}
		if err := unix.Unmount(mnt, unix.MNT_DETACH); err != nil {
			return &os.PathError{Op: "unmount", Path: mnt, Err: err}
		}
	}
	return nil
}

// Stale lists the powercut mounts at dir or below it whose server is
// gone, for Cleanup: those a killed server left. A mount still served,
// another process's, is not listed.
func Stale(dir string) ([]string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	all, err := mounts()
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, m := range all {
		if m != dir && !strings.HasPrefix(m, dir+string(filepath.Separator)) {
			continue
		}
		// statfs always asks the server; stat may answer from the
		// kernel's cache.
		var st unix.Statfs_t
		if err := unix.Statfs(m, &st); errors.Is(err, unix.ENOTCONN) {
			stale = append(stale, m)
		}
	}
	return stale, nil
}

// mounts lists the mount points of the powercut mounts this process
// sees.
func mounts() ([]string, error) {
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	var all []string
	for line := range bytes.Lines(info) {
		// Fields: ID, parent ID, device, root, mount point, options,
		// optional fields, "-", file system type, source, options.
		before, after, ok := strings.Cut(string(line), " - ")
		fields, typ := strings.Fields(before), strings.Fields(after)
		if ok && len(fields) >= 5 && len(typ) >= 1 && typ[0] == "fuse."+fsType {
			all = append(all, unescape(fields[4]))
		}
	}
	return all, nil
}

// unescape undoes the octal escapes (\040 for a space) of mountinfo.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
