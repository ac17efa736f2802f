package supervise

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// The file descriptors a child gets from its parent beyond stdin, stdout
// and stderr.
const (
	// ResultFD is the write end of a pipe to the parent: the child's
	// result, or the messages of a crash check's writer and reader.
	ResultFD = 3
	// ProgressFD is where the child draws its progress for people: the
	// parent's stderr. The child's own stdout and stderr go to a capture
	// instead, so that a crash trace reaches a log file, not the
	// terminal.
	ProgressFD = 4
	// StatusFD is where the child reports to the parent, one Status line
	// at a time, which step it is in and how far it got.
	StatusFD = 5
)

// The child's ends of the pipes, each one *os.File, so that no second
// one closes the descriptor when it is collected.
var (
	childResult   = sync.OnceValue(func() *os.File { return os.NewFile(ResultFD, "result") })
	childProgress = sync.OnceValue(func() *os.File { return os.NewFile(ProgressFD, "progress") })
	childStatus   = sync.OnceValue(func() *os.File { return os.NewFile(StatusFD, "status") })
)

// ResultPipe is a child's pipe to its parent (ResultFD).
func ResultPipe() io.Writer { return childResult() }

// ProgressPipe is where a child draws its progress (ProgressFD).
func ProgressPipe() io.Writer { return childProgress() }

// StatusPipe is where a child writes its Status lines (StatusFD).
func StatusPipe() io.Writer { return childStatus() }

// InitChild prepares a child: Ctrl-C reaches the whole process group, but
// the parent alone decides, and stops the child with SIGTERM, so that it
// always knows why the child ended. The pipes from the parent are not
// passed on to the child's own children.
func InitChild() {
	signal.Ignore(os.Interrupt)
	syscall.CloseOnExec(ResultFD)
	syscall.CloseOnExec(ProgressFD)
	syscall.CloseOnExec(StatusFD)
}

// CheckParent returns ErrNotChild unless this process is a child that its
// parent started: the parent runs this same program and gave it a pipe
// for its result. Run by hand, a job would write into any directory.
func CheckParent() error {
	self, err := os.Stat("/proc/self/exe")
	if err != nil {
		return ErrNotChild
	}
	parent, err := os.Stat(fmt.Sprintf("/proc/%d/exe", os.Getppid()))
	if err != nil || !os.SameFile(self, parent) {
		return ErrNotChild
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(ResultFD, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return ErrNotChild
	}
	return nil
}

// SendResult sends res to the parent as JSON, in one piece: the parent
// decodes only a complete document, so a child that dies while sending
// leaves no half result.
func SendResult(res any) error {
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	if _, err := childResult().Write(b); err != nil {
		return fmt.Errorf("send result: %w", err)
	}
	return nil
}
