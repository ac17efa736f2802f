package libinfo

import (
	"debug/elf"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Lacks returns the symbols starting with prefix that this program
// imports and the library file linked defines but the library file other
// does not, sorted: the functions a process that loads other in linked's
// place would find missing, read from the files' dynamic symbol tables
// before any process runs into them.
func Lacks(linked, other, prefix string) ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("libinfo: %w", err)
	}
	imports, err := importedNames(exe)
	if err != nil {
		return nil, err
	}
	have, err := defined(linked)
	if err != nil {
		return nil, err
	}
	lack, err := defined(other)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range imports {
		if strings.HasPrefix(s, prefix) && have[s] && !lack[s] {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Soname returns the SONAME of the library file path, the name programs
// linked with it load it by; "" for none.
func Soname(path string) (string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", fmt.Errorf("libinfo: %w", err)
	}
	defer f.Close()
	names, err := f.DynString(elf.DT_SONAME)
	if err != nil {
		return "", fmt.Errorf("libinfo: %s: %w", path, err)
	}
	if len(names) == 0 {
		return "", nil
	}
	return names[0], nil
}

// dynamicSymbols are the dynamic symbols of the ELF file path.
func dynamicSymbols(path string) ([]elf.Symbol, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("libinfo: %w", err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		return nil, fmt.Errorf("libinfo: %s: %w", path, err)
	}
	return syms, nil
}

// importedNames are the dynamic symbols the ELF file path imports, weak
// ones (which elf.File.ImportedSymbols leaves out) too.
func importedNames(path string) ([]string, error) {
	syms, err := dynamicSymbols(path)
	var names []string
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF && s.Name != "" {
			names = append(names, s.Name)
		}
	}
	return names, err
}

// defined are the dynamic symbols the ELF file path defines.
func defined(path string) (map[string]bool, error) {
	syms, err := dynamicSymbols(path)
	names := map[string]bool{}
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF {
			names[s.Name] = true
		}
	}
	return names, err
}
