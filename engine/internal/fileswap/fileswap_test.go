package fileswap

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestJSON(t *testing.T) {
	type layout struct{ Prefix string }
	path := filepath.Join(t.TempDir(), "layout.json")
	var got layout
	if ok, err := ReadJSON(path, &got); ok || err != nil {
		t.Fatalf("ReadJSON of no file = %v, %v; want false, nil", ok, err)
	}
	if err := WriteJSON(path, layout{Prefix: "/a"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := ReadJSON(path, &got); !ok || err != nil || got.Prefix != "/a" {
		t.Fatalf("ReadJSON = %+v, %v, %v; want what was written", got, ok, err)
	}
	if err := os.WriteFile(path, []byte("{\"Prefix\": "), 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, err := ReadJSON(path, &got); ok || !errors.Is(err, ErrDamaged) {
		t.Fatalf("ReadJSON of half a file = %v, %v; want ErrDamaged", ok, err)
	}
	if _, err := os.Stat(path + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("WriteJSON left %s.tmp behind: %v", path, err)
	}
}
