package gitrepo

import (
	"errors"
	"testing"
)

// FuzzParseIndex: a damaged index file gives an error, never a panic or an entry
// read from outside the file.
func FuzzParseIndex(f *testing.F) {
	f.Add("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + string(make([]byte, 20)))
	f.Add("DIRC\x00\x00\x00\x04\x00\x00\x00\x01" + string(make([]byte, 62)) + "\x00a\x00" + string(make([]byte, 20)))
	f.Add("DIRC\x00\x00\x00\x02\x00\x00\x00\x01" + string(make([]byte, 60)) + "\x00\x01a\x00\x00\x00\x00\x00\x00\x00" + string(make([]byte, 20)))
	f.Fuzz(func(t *testing.T, s string) {
		entries, err := parseIndex(s)
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
