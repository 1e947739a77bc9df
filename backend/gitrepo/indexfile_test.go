package gitrepo

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseIndex: a damaged index file gives an error, never a panic or an entry
// read from outside the file.
func FuzzParseIndex(f *testing.F) {
	f.Add("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + string(make([]byte, 20)))
	f.Add("DIRC\x00\x00\x00\x04\x00\x00\x00\x01" + string(make([]byte, 62)) + "\x00a\x00" + string(make([]byte, 20)))
	f.Add("DIRC\x00\x00\x00\x02\x00\x00\x00\x01" + string(make([]byte, 60)) + "\x00\x01a\x00\x00\x00\x00\x00\x00\x00" + string(make([]byte, 20)))
	f.Fuzz(func(t *testing.T, s string) {
		entries, _, err := parseIndex(s)
		if err != nil {
			return
		}
		for _, e := range entries {
			if len(e.name) > len(s) && !errors.Is(err, errIndexFormat) {
				t.Fatalf("entry name of %d bytes from a %d-byte file", len(e.name), len(s))
			}
		}
	})
}

// FuzzParseCacheTree: a damaged cache-tree extension gives no records (the trees are
// then hashed), never a panic; the records it gives name folders, not paths with
// empty components.
func FuzzParseCacheTree(f *testing.F) {
	h := string(make([]byte, 20))
	f.Add("\x002 1\n" + h + "a\x001 0\n" + h)
	f.Add("\x00-1 1\na\x001 0\n" + h)
	f.Add("\x003 2\n" + h + "a\x001 1\n" + h + "b\x001 0\n" + h + "c\x001 0\n" + h)
	f.Fuzz(func(t *testing.T, s string) {
		for p := range parseCacheTree(s) {
			if p != "" && (strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.Contains(p, "//")) {
				t.Fatalf("record for %q", p)
			}
		}
	})
}
