package engine

import "syscall"

// memoryBytes is this machine's RAM, the bound of Options.CacheSize; 0 if
// unknown.
func memoryBytes() int64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}
