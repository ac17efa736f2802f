package points

import (
	"bytes"
	"errors"
	"testing"

	"github.com/tsbench/storage/engine/tskey"
)

// TestLayoutSeriesMajor checks that the zero layout writes exactly
// tskey's keys, which every other workload depends on.
func TestLayoutSeriesMajor(t *testing.T) {
	var l Layout
	k := l.AppendKey(nil, 3, Epoch+5, 9)
	if want := tskey.AppendKey(nil, 3, Epoch+5, 9); !bytes.Equal(k, want) {
		t.Fatalf("series-major key %x, want %x", k, want)
	}
	s, ts, seq, err := l.ParseKey(k)
	if err != nil || s != 3 || ts != Epoch+5 || seq != 9 {
		t.Fatalf("ParseKey = %d %d %d %v", s, ts, seq, err)
	}
}

func TestLayoutBucketMajor(t *testing.T) {
	l := Layout{BucketWidth: 1000}
	k := l.AppendKey(nil, 3, Epoch+2500, 9)
	if want := tskey.AppendBucketKey(nil, 2, 3, Epoch+2500); !bytes.Equal(k, want) {
		t.Fatalf("bucket-major key %x, want %x", k, want)
	}
	s, ts, seq, err := l.ParseKey(k)
	if err != nil || s != 3 || ts != Epoch+2500 || seq != 0 {
		t.Fatalf("ParseKey = %d %d %d %v", s, ts, seq, err)
	}
	if l.BucketStart(2) != Epoch+2000 {
		t.Fatalf("BucketStart(2) = %d", l.BucketStart(2))
	}
	bad := tskey.AppendBucketKey(nil, 1, 3, Epoch+2500)
	if _, _, _, err := l.ParseKey(bad); !errors.Is(err, tskey.ErrBadKey) {
		t.Fatalf("a key in the wrong bucket: %v, want ErrBadKey", err)
	}
}
