package vault

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCachesLiveOutsideUntilMemotreeExists: with a cache folder set, a vault without
// .memotree keeps its caches there; once .memotree exists they go to it, and a name
// that leaves the cache folder is refused.
func TestCachesLiveOutsideUntilMemotreeExists(t *testing.T) {
	dir, outside := t.TempDir(), filepath.Join(t.TempDir(), "cache")
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.SetCacheDir(outside); err != nil {
		t.Fatal(err)
	}
	if _, err := v.ReadCache("search/x.bin"); !errors.Is(err, ErrNotFound) {
		t.Errorf("reading a missing cache: %v", err)
	}
	if err := v.WriteCache("search/x.bin", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(outside, "search", "x.bin")); err != nil || string(b) != "one" {
		t.Errorf("outside cache file: %q, %v", b, err)
	}
	if p, err := v.CachePath("search/x.bin"); err != nil || p != filepath.Join(outside, "search", "x.bin") {
		t.Errorf("CachePath = %q, %v", p, err)
	}
	for _, bad := range []string{"../x", "/etc/x", ""} {
		if err := v.WriteCache(bad, nil); err == nil {
			t.Errorf("WriteCache(%q) succeeded", bad)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("caches created .memotree: %v", err)
	}
	if err := v.WriteInternal("views/default.json", []byte("{}")); err != nil { // a write of state
		t.Fatal(err)
	}
	if err := v.WriteCache("search/x.bin", []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, err := v.ReadInternal("search/x.bin"); err != nil || string(b) != "two" {
		t.Errorf("once .memotree exists the cache goes there: %q, %v", b, err)
	}
	if err := v.SetCacheDir(outside); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("SetCacheDir left the superseded outside cache: %v", err)
	}
}
