package micro

import (
	"bytes"
	"testing"

	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/points"
)

func TestKeyEncoding(t *testing.T) {
	for _, c := range []struct {
		t    KeyType
		i    int64
		want []byte
	}{
		{KeyInt4, 0, []byte{0, 0, 0, 0}},
		{KeyInt4, 0x01020304, []byte{1, 2, 3, 4}},
		{KeyInt4, 1<<32 - 1, []byte{0xff, 0xff, 0xff, 0xff}},
		{KeyStr16, 0, []byte("0000000000000000")},
		{KeyStr16, 1234567, []byte("0000000001234567")},
		{KeyStr16, 1e16 - 1, []byte("9999999999999999")},
		{KeyTS24, 0, tskey.AppendKey(nil, 0, points.Epoch, 1)},
		{KeyTS24, 999, tskey.AppendKey(nil, 0, points.Epoch+999*points.Interval, 1000)},
		{KeyTS24, 1000, tskey.AppendKey(nil, 1, points.Epoch, 1001)},
		{KeyTS24, 123_456_789, tskey.AppendKey(nil, 123_456, points.Epoch+789*points.Interval, 123_456_790)},
	} {
		if got := c.t.Append(nil, c.i); !bytes.Equal(got, c.want) {
			t.Errorf("%s key %d = %x, want %x", c.t, c.i, got, c.want)
		}
		if len(c.want) != c.t.Size() {
			t.Errorf("%s: Size %d, key of %d bytes", c.t, c.t.Size(), len(c.want))
		}
	}
}

// TestKeyOrder checks that every type sorts bytewise as its numbers do,
// across digit, byte and series boundaries, which the scans rely on.
func TestKeyOrder(t *testing.T) {
	points := []int64{0, 1, 2, 9, 10, 99, 100, 255, 256, 999, 1000, 1001, 65535, 65536, 999_999, 1_000_000, 1 << 31, 1<<32 - 1}
	for _, kt := range KeyTypes {
		for _, p := range points[1:] {
			a, b := kt.Append(nil, p-1), kt.Append(nil, p)
			if bytes.Compare(a, b) >= 0 {
				t.Errorf("%s: key %d (%x) >= key %d (%x)", kt, p-1, a, p, b)
			}
		}
		for i := range int64(5000) {
			a, b := kt.Append(nil, i), kt.Append(nil, i+1)
			if bytes.Compare(a, b) >= 0 {
				t.Fatalf("%s: key %d (%x) >= key %d (%x)", kt, i, a, i+1, b)
			}
		}
	}
}

func TestKeyPutDoesNotAllocate(t *testing.T) {
	for _, kt := range KeyTypes {
		buf := make([]byte, kt.Size())
		if n := testing.AllocsPerRun(100, func() { kt.Put(buf, 123456) }); n != 0 {
			t.Errorf("%s: Put allocates %v times", kt, n)
		}
	}
}

func TestParseKeyType(t *testing.T) {
	for in, want := range map[string]KeyType{"int4": KeyInt4, "STR16": KeyStr16, "ts24": KeyTS24} {
		if got, err := ParseKeyType(in); err != nil || got != want {
			t.Errorf("ParseKeyType(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseKeyType("int8"); err == nil {
		t.Error("ParseKeyType(int8) succeeded")
	}
}
