package defaults

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
)

func TestFill(t *testing.T) {
	var (
		n       int
		size    int64 = 7
		timeout time.Duration
		f       float64
	)
	err := Fill("x", Of("n", &n, 3), Of("size", &size, 9), Of("timeout", &timeout, time.Second), Of("f", &f, 0.5))
	if err != nil || n != 3 || size != 7 || timeout != time.Second || f != 0.5 {
		t.Fatalf("Fill = %v with n %d, size %d, timeout %v, f %v; want 3, 7 (set), 1s, 0.5", err, n, size, timeout, f)
	}
	timeout = -time.Second
	err = Fill("x", Of("n", &n, 3), Of("timeout", &timeout, time.Minute))
	if !errors.Is(err, engine.ErrInvalidOptions) || !strings.Contains(err.Error(), "x: timeout is -1s; use a positive number, or 0 for the default 1m0s") {
		t.Fatalf("Fill with a negative timeout = %v, want ErrInvalidOptions naming the key and its default", err)
	}
}

func TestIn(t *testing.T) {
	var n int64
	if err := Fill("x", In("n", &n, 4, 1, 8)); err != nil || n != 4 {
		t.Fatalf("In with 0 = %v, n %d; want the default 4", err, n)
	}
	for _, v := range []int64{-1, 9, 1 << 62} {
		n = v
		err := Fill("x", In("n", &n, 4, 1, 8))
		if !errors.Is(err, engine.ErrInvalidOptions) || !strings.Contains(err.Error(), "x: n is ") || !strings.Contains(err.Error(), "use 1 to 8, or 0 for the default 4") {
			t.Errorf("In with %d = %v, want ErrInvalidOptions naming the key and the range", v, err)
		}
	}
	f := math.NaN()
	if err := Fill("x", In("f", &f, 2, 1, 16)); !errors.Is(err, engine.ErrInvalidOptions) {
		t.Errorf("In with NaN = %v, want ErrInvalidOptions", err)
	}
}
