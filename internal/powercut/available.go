package powercut

import (
	"fmt"
	"os"
	"sync"

	"github.com/hanwen/go-fuse/v2/fs"
)

// Available reports whether this process can mount powercut file
// systems. If it cannot, the error wraps ErrUnavailable and says what is
// missing: /dev/fuse, or the permission to mount. The first call mounts
// and unmounts an empty file system in a temporary directory; later
// calls return its answer.
func Available() error { return probe() }

var probe = sync.OnceValue(func() error {
	dev, err := os.OpenFile("/dev/fuse", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	dev.Close()
	dir, err := os.MkdirTemp("", "powercut-probe-")
	if err != nil {
		return fmt.Errorf("powercut: probing FUSE: %w", err)
	}
	defer os.Remove(dir)
	server, err := fs.Mount(dir, &fs.Inode{}, &fs.Options{MountOptions: mountOptions("probe")})
	if err != nil {
		return fmt.Errorf("%w: mounting at %s: %v", ErrUnavailable, dir, err)
	}
	if err := server.Unmount(); err != nil {
		return fmt.Errorf("powercut: unmounting the probe at %s: %w", dir, err)
	}
	return nil
})
