package etcd

import (
	"net"
	"strconv"
	"testing"
	"time"
)

// TestWaitPorts checks that a start waits for a member port held a little
// longer, as by the members of a process that was just killed.
func TestWaitPorts(t *testing.T) {
	l, err := newLocalLayout(1)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(l.Members[0].ClientPort))
	if err != nil {
		t.Fatal(err)
	}
	const held = 300 * time.Millisecond
	go func() {
		time.Sleep(held)
		ln.Close()
	}()
	start := time.Now()
	if err := waitPorts(l); err != nil {
		t.Fatalf("waitPorts with a port freed after %v: %v", held, err)
	}
	if d := time.Since(start); d < held {
		t.Fatalf("waitPorts returned after %v, before the port was free", d)
	}
}
