package tskey

import (
	"bytes"
	"errors"
	"testing"
)

func TestBucketKey(t *testing.T) {
	k := AppendBucketKey(nil, 0x0102030405060708, 0x1112131415161718, 0x2122232425262728)
	var put [KeySize]byte
	PutBucketKey(put[:], 0x0102030405060708, 0x1112131415161718, 0x2122232425262728)
	want := []byte{1, 2, 3, 4, 5, 6, 7, 8, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28}
	if !bytes.Equal(k, want) || !bytes.Equal(put[:], want) {
		t.Fatalf("bucket key %x / %x, want %x", k, put, want)
	}
	b, s, ts, err := ParseBucketKey(k)
	if err != nil || b != 0x0102030405060708 || s != 0x1112131415161718 || ts != 0x2122232425262728 {
		t.Fatalf("ParseBucketKey = %x %x %x %v", b, s, ts, err)
	}
	if _, _, _, err := ParseBucketKey(k[:23]); !errors.Is(err, ErrBadKey) {
		t.Fatalf("short key: %v, want ErrBadKey", err)
	}
}

// TestBucketBounds checks that a bucket's range holds every series and
// timestamp of it and nothing of its neighbours.
func TestBucketBounds(t *testing.T) {
	start, end := BucketBounds(nil, 5, 7)
	in := func(k []byte) bool { return bytes.Compare(k, start) >= 0 && bytes.Compare(k, end) < 0 }
	for _, c := range []struct {
		bucket, series, ts uint64
		want               bool
	}{{4, ^uint64(0), ^uint64(0), false}, {5, 0, 0, true}, {6, ^uint64(0), ^uint64(0), true}, {7, 0, 0, false}} {
		if got := in(AppendBucketKey(nil, c.bucket, c.series, c.ts)); got != c.want {
			t.Errorf("bucket %d series %x ts %x in [5, 7): %v, want %v", c.bucket, c.series, c.ts, got, c.want)
		}
	}
}
