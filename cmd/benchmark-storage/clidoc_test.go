package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// fixDocs rewrites the flag reference instead of checking it, as
// cmd/go's TestDocsUpToDate -fixdocs does; go generate runs it.
var fixDocs = flag.Bool("fixdocs", false, "rewrite docs/cli.md and doc.go's # Flags section from the flags")

// TestCLIDocsUpToDate checks that docs/cli.md and the "# Flags" section
// of doc.go say what the flags' usage strings say (clidoc.go).
func TestCLIDocsUpToDate(t *testing.T) {
	doc, err := os.ReadFile(pkgDocFile)
	if err != nil {
		t.Fatal(err)
	}
	pkgDoc, err := spliceDocFlags(string(doc), pkgDocFlags())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		file, what, want string
	}{
		{cliDocFile, cliDocFile, string(cliDoc())},
		{pkgDocFile, pkgDocFile + "'s # Flags section", pkgDoc},
	} {
		old, err := os.ReadFile(f.file)
		if err != nil && !(*fixDocs && os.IsNotExist(err)) {
			t.Fatalf("%v: run %s", err, generateCommand)
		}
		if string(old) == f.want {
			continue
		}
		if *fixDocs {
			if err := os.WriteFile(f.file, []byte(f.want), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", f.file)
			continue
		}
		t.Errorf("%s is out of date with the flags (%s): run %s", f.what, firstDifference(string(old), f.want), generateCommand)
	}
}

// firstDifference names the first line in which have and want differ.
func firstDifference(have, want string) string {
	h, w := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := range max(len(h), len(w)) {
		var hl, wl string
		if i < len(h) {
			hl = h[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if hl != wl {
			return fmt.Sprintf("line %d is %q, want %q", i+1, hl, wl)
		}
	}
	return "they are the same"
}
