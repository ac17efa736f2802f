package measure

import "testing"

// TestMemoryPeaksCapGo: the runtime's mapped memory can exceed what the
// process holds privately (a fresh process maps more than it touches);
// the Go peak, reported as part of Private, never does.
func TestMemoryPeaksCapGo(t *testing.T) {
	var p MemoryPeaks
	p.Add(Memory{Private: 1 << 20, File: 2 << 20}, 4<<20)
	p.Add(Memory{Private: 3 << 20}, 2<<20)
	if p.Go != 2<<20 || p.Private != 3<<20 || p.File != 2<<20 || p.Samples != 2 {
		t.Fatalf("peaks %+v, want Go 2 MiB (1 MiB capped, then 2), Private 3 MiB, File 2 MiB, 2 samples", p)
	}
}

// TestGoMemoryPlausible: with 64 MiB live, the runtime's figure holds
// them and exceeds the kernel's private figure by no more than the
// runtime's untouched mappings: it is the runtime's memory, not zero or
// its address space.
func TestGoMemoryPlausible(t *testing.T) {
	keep := make([][]byte, 0, 64)
	for range 64 {
		keep = append(keep, make([]byte, 1<<20))
		for i := range keep[len(keep)-1] {
			keep[len(keep)-1][i] = 1
		}
	}
	m, err := ReadMemory()
	if err != nil {
		t.Skip(err)
	}
	g := GoMemory()
	if g < 64<<20 || g > m.Private+16<<20 {
		t.Fatalf("Go memory %d B with 64 MiB live and %d B private", g, m.Private)
	}
	_ = keep[0][0]
}
