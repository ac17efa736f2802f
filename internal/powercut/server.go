package powercut

import (
	"encoding/json"
	"errors"
	"os"
	"time"
)

// serverEnv is the environment variable that makes a process a powercut
// server. Mount runs the running binary again with it set to the
// server's configuration, and this package's init serves instead of
// letting main run. The server is a process of its own because a
// process that maps a file of a FUSE mount it serves itself can
// deadlock: a goroutine faulting on a mapped page blocks its thread in
// the kernel until the server answers, and a garbage collection then
// waits for that thread while it stops the server's goroutines.
const serverEnv = "POWERCUT_SERVER"

func init() {
	if config, ok := os.LookupEnv(serverEnv); ok {
		os.Exit(runServer(config))
	}
}

// cutGrace is how long a cut server waits for the kernel to end the
// mount before it answers: the mount ends at once unless files stay open
// on it, and once it has ended the live copy can go before Cut returns.
const cutGrace = 500 * time.Millisecond

// serverConfig is what Mount tells the server to mount.
type serverConfig struct {
	Mountpoint string  `json:"mountpoint"`
	Backing    string  `json:"backing"`
	Options    Options `json:"options"`
}

// request is a command to the server.
type request struct {
	Op string `json:"op"`
}

const (
	opCut     = "cut"
	opUnmount = "unmount"
)

// reply is the server's answer to its configuration or a request: the
// error, if any, and the name of the sentinel it wraps.
type reply struct {
	Err      string `json:"err,omitempty"`
	Sentinel string `json:"sentinel,omitempty"`
}

// sentinels are the sentinel errors a server can answer with.
var sentinels = map[string]error{
	"busy":      ErrBusy,
	"not-store": ErrNotStore,
}

func replyTo(err error) reply {
	if err == nil {
		return reply{}
	}
	r := reply{Err: err.Error()}
	for name, s := range sentinels {
		if errors.Is(err, s) {
			r.Sentinel = name
		}
	}
	return r
}

func (r reply) err() error {
	if r.Err == "" {
		return nil
	}
	return &serverError{msg: r.Err, sentinel: sentinels[r.Sentinel]}
}

// serverError is an error of the server process, wrapping the sentinel
// it wrapped there.
type serverError struct {
	msg      string
	sentinel error
}

func (e *serverError) Error() string { return e.msg }
func (e *serverError) Unwrap() error { return e.sentinel }

// runServer mounts the store config describes and serves it, taking
// requests from the control socket at file descriptor 3, until a cut or
// an unmount ends the mount. It returns the exit code.
func runServer(config string) int {
	ctl := os.NewFile(3, "powercut control")
	enc, dec := json.NewEncoder(ctl), json.NewDecoder(ctl)
	var cfg serverConfig
	var d *disk
	err := json.Unmarshal([]byte(config), &cfg)
	if err == nil {
		d, err = mountDisk(cfg.Mountpoint, cfg.Backing, cfg.Options)
	}
	if err != nil {
		enc.Encode(replyTo(err))
		return 1
	}
	// If the parent is gone, the read below says so.
	enc.Encode(reply{})
	for {
		var req request
		if dec.Decode(&req) != nil {
			// The process that mounted is gone: its machine lost power.
			req.Op = opCut
		}
		if req.Op == opUnmount {
			gone, err := d.unmount()
			enc.Encode(replyTo(err))
			if !gone {
				continue
			}
			if err != nil {
				return 1
			}
			return 0
		}
		err := d.cut()
		select {
		case <-d.served:
			enc.Encode(replyTo(errors.Join(err, d.dropLive())))
			return 0
		case <-time.After(cutGrace):
		}
		enc.Encode(replyTo(err))
		// Files stay open on the detached mount: serve them till they close.
		<-d.served
		d.dropLive()
		return 0
	}
}
