package current

import "testing"

func TestEntry(t *testing.T) {
	var e Entry
	want := func(call string, valid bool, key, value string) {
		t.Helper()
		if e.Valid() != valid || string(e.Key()) != key || string(e.Value()) != value || (!valid && (e.Key() != nil || e.Value() != nil)) {
			t.Fatalf("after %s: Valid %v, Key %q, Value %q; want %v, %q, %q", call, e.Valid(), e.Key(), e.Value(), valid, key, value)
		}
	}
	want("nothing", false, "", "")
	store := []byte("kv")
	e.Set(store[:1], store[1:])
	want("Set", true, "k", "v")
	if e.Clear() {
		t.Fatal("Clear returned true")
	}
	want("Clear", false, "", "")
	src := []byte("ab")
	e.Copy(src[:1], src[1:])
	copy(src, "xy")
	want("Copy, then a change of its source", true, "a", "b")
	e.Set(store[:1], store[1:])
	e.Copy([]byte("long key"), []byte("long value"))
	if string(store) != "kv" {
		t.Fatalf("Copy after Set wrote %q into the memory Set pointed to", store)
	}
	want("Copy after Set", true, "long key", "long value")
}
