package micro

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/scanbuf"
	"github.com/tsbench/storage/workload/harness"
)

// ScanChunk is how many entries a scan reads between looks at the clock:
// each chunk is one latency sample, and a plain scan checks the entries of
// a chunk, copied out as the engine handed them over, before timing the
// next. Timing single steps would cost as much as the steps.
const ScanChunk = 1024

// get returns the body of a point-read benchmark: n Gets of the loaded
// entries, in a random order or, for readKey, in the order they were
// written, going round again if n exceeds them. Each Get is timed alone;
// its value is checked after. After deleterandom every Get must find
// nothing.
func (s *Session) get(b *benchmark, n int64) func(*benchRun) error {
	st := s.st
	order := st.order
	if !b.written {
		order = shuffled(st.loaded, s.seed(b.Name))
	}
	vals := s.values(st.valueSize)
	return func(r *benchRun) error {
		v := &harness.Verification{}
		r.verify = v
		keys := s.cfg.KeyType
		key := make([]byte, keys.Size())
		for j := range n {
			i := order.at(j % st.loaded)
			keys.Put(key, i)
			t0 := time.Now()
			got, err := s.db.Get(key)
			r.add(time.Since(t0))
			if (j+1)%progressEvery == 0 {
				r.done.Store(j + 1)
			}
			found := err == nil
			if err != nil && !errors.Is(err, engine.ErrNotFound) {
				r.done.Store(j)
				return fmt.Errorf("get of entry %d: %w", i, err)
			}
			if found {
				v.Read++
				r.bytes += int64(len(key) + len(got))
			}
			switch {
			case st.deleted && found:
				v.Unexpected++
				v.Note("entry %d was deleted, but Get found it", i)
			case st.deleted:
			case !found:
				v.Expected++
				v.Missing++
				v.Note("entry %d not found", i)
			default:
				v.Expected++
				if !bytes.Equal(got, vals.value(i, st.gen)) {
					v.Wrong++
					v.Note("entry %d has a wrong value (%d bytes, want %d)", i, len(got), vals.size)
				}
			}
		}
		r.done.Store(n)
		return nil
	}
}

// scan returns the body of an iteration: n entries from one iterator,
// forward from First or backward from Last, starting over when it has
// gone through the store. Entries are copied out (readseq, readreverse)
// or hashed (readCrc, readXxh64) as they come, then checked against the
// expected sequence after each chunk or, for hashes, at the end.
func (s *Session) scan(b *benchmark, n int64) func(*benchRun) error {
	st := s.st
	present := s.present()
	vals := s.values(st.valueSize)
	keys := s.cfg.KeyType
	// expected returns the position's entry number.
	expected := func(pos int64) int64 {
		if b.reverse {
			return present - 1 - pos%present
		}
		return pos % present
	}
	return func(r *benchRun) (err error) {
		r.latencyOf = "chunk"
		v := &harness.Verification{Expected: n}
		r.verify = v
		var (
			ch     scanbuf.Chunk
			crc    uint32
			xxh    = xxhash.New()
			want   = make([]byte, keys.Size())
			read   int64 // entries read
			pass   int64 // entries read since the last First or Last
			checkd int64 // entries checked
		)
		check := func() {
			pos := checkd - 1
			for k, val := range ch.All() {
				pos++
				if pos >= n || present == 0 {
					v.Unexpected++
					v.Note("unexpected entry %q", k)
					continue
				}
				i := expected(pos)
				keys.Put(want, i)
				switch {
				case !bytes.Equal(k, want):
					v.Unexpected++
					v.Note("entry %d of the scan has key %q, want %q", pos, k, want)
				case !bytes.Equal(val, vals.value(i, st.gen)):
					v.Wrong++
					v.Note("entry %d of the scan (key %q) has a wrong value", pos, k)
				}
			}
			checkd += int64(ch.Len())
			ch.Reset()
		}
		t0 := time.Now()
		it, err := s.db.NewIterator(engine.IterOptions{})
		if err != nil {
			r.add(time.Since(t0))
			return fmt.Errorf("new iterator: %w", err)
		}
		start, step := it.First, it.Next
		if b.reverse {
			start, step = it.Last, it.Prev
		}
		ok := start()
		for read < n {
			if !ok {
				if it.Err() != nil || pass != present || present == 0 {
					break
				}
				pass, ok = 0, start()
				continue
			}
			k, val := it.Key(), it.Value()
			switch b.hash {
			case hashNone:
				ch.Add(k, val)
			case hashCRC32:
				crc = crc32.Update(crc32.Update(crc, crc32.IEEETable, k), crc32.IEEETable, val)
			case hashXXH64:
				xxh.Write(k)
				xxh.Write(val)
			}
			r.bytes += int64(len(k) + len(val))
			read++
			pass++
			ok = step()
			if read%ScanChunk == 0 {
				r.add(time.Since(t0))
				check()
				r.done.Store(read)
				t0 = time.Now()
			}
		}
		// One more entry where the scan should have ended means the store
		// holds entries it should not.
		extra := ok && pass == present
		if extra && b.hash == hashNone {
			ch.Add(it.Key(), it.Value())
		}
		err = it.Err()
		if cerr := it.Close(); err == nil {
			err = cerr
		}
		r.add(time.Since(t0))
		r.done.Store(read)
		v.Read = read
		if extra && b.hash != hashNone {
			v.Unexpected++
			v.Note("the store holds more than the %d expected entries", present)
		}
		check()
		if read < n && pass != present {
			v.Missing = n - read
			v.Note("the scan ended after %d entries of %d", pass, present)
		}
		if err != nil {
			return fmt.Errorf("iterator: %w", err)
		}
		switch b.hash {
		case hashCRC32:
			v.Checksum = fmt.Sprintf("%08x", crc)
			if w := s.expectedCRC(read, expected, st.gen); w != crc {
				v.Wrong++
				v.Note("CRC32 %08x, want %08x", crc, w)
			}
		case hashXXH64:
			got := xxh.Sum64()
			v.Checksum = strconv.FormatUint(got, 16)
			if w := s.expectedXXH64(read, expected, st.gen); w != got {
				v.Wrong++
				v.Note("XXH64 %x, want %x", got, w)
			}
		}
		return nil
	}
}

// expectedCRC is the CRC32 of the first read entries of the expected
// sequence, computed from the generator.
func (s *Session) expectedCRC(read int64, expected func(int64) int64, gen uint64) uint32 {
	var crc uint32
	s.eachExpected(read, expected, gen, func(k, v []byte) {
		crc = crc32.Update(crc32.Update(crc, crc32.IEEETable, k), crc32.IEEETable, v)
	})
	return crc
}

// expectedXXH64 is expectedCRC's XXH64 counterpart.
func (s *Session) expectedXXH64(read int64, expected func(int64) int64, gen uint64) uint64 {
	h := xxhash.New()
	s.eachExpected(read, expected, gen, func(k, v []byte) {
		h.Write(k)
		h.Write(v)
	})
	return h.Sum64()
}

func (s *Session) eachExpected(read int64, expected func(int64) int64, gen uint64, f func(k, v []byte)) {
	vals := s.values(s.st.valueSize)
	key := make([]byte, s.cfg.KeyType.Size())
	for pos := range read {
		i := expected(pos)
		s.cfg.KeyType.Put(key, i)
		f(key, vals.value(i, gen))
	}
}
