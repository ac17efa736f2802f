package main

import (
	"fmt"
	"strings"
	"syscall"

	"github.com/tsbench/storage/internal/report"
)

// fullBelow is the free space under which a failure is put down to a full
// file system.
const fullBelow = 1 << 20

// diskFull returns "no space left on device (...)" when why, an engine's
// failure, is due to a full file system under dir and does not say so in
// those words: engines report a full disk as EIO (LMDB's short write),
// as a crash (SIGBUS on a memory-mapped file that cannot grow), or in
// their own words. It returns "" otherwise.
func diskFull(dir, why string) string {
	if strings.Contains(why, "no space left on device") {
		return ""
	}
	if strings.Contains(strings.ToLower(why), "no space left on device") {
		return "no space left on device"
	}
	var st syscall.Statfs_t
	if err := statfsNearest(dir, &st); err != nil {
		return ""
	}
	free := int64(st.Bavail) * st.Bsize
	if free >= fullBelow {
		return ""
	}
	return fmt.Sprintf("no space left on device (%s free)", report.Bytes(free))
}

// statfsNearest is statfs of dir or, if it is gone, of its nearest
// existing parent.
func statfsNearest(dir string, st *syscall.Statfs_t) error {
	for {
		err := syscall.Statfs(dir, st)
		if err == nil || dir == "/" || dir == "." {
			return err
		}
		i := strings.LastIndexByte(dir, '/')
		if i <= 0 {
			dir = "/"
		} else {
			dir = dir[:i]
		}
	}
}
