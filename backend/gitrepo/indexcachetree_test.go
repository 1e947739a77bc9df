package gitrepo_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
)

// TestCacheTreeGivesTheHashedTrees: Status takes each folder's tree hash from the
// index's cache-tree where git marked it valid, and the hashes and spans it ends with
// are exactly those of hashing every tree: after a commit (every record valid), after
// staging a change (the records along it dropped), and after MemoTree's own commit
// (which writes no cache-tree). Status agrees with git throughout.
func TestCacheTreeGivesTheHashedTrees(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"z/y/x.md": "deep\n", "z/w.md": "w\n", "a-b.md": "dash\n", "a.md.bak/c.md": "dotted folder\n",
		"sp ace/ü.md": "unicode\n", "people/Ada.md": "ada\n", "people/Bob.md": "bob\n", "top.md": "top\n"})
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "shapes")
	check := func(step string, wantCached []string) {
		t.Helper()
		status, hashed, cached, err := gitrepo.IndexFolderTrees(r)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(cached)
		if !cmp.Equal(wantCached, cached) {
			t.Errorf("%s: valid cache-tree folders = %q, want %q", step, cached, wantCached)
		}
		if d := cmp.Diff(hashed, status); d != "" {
			t.Errorf("%s: trees from the cache-tree differ from the hashed ones (-hashed +status):\n%s", step, d)
		}
		if got, want := ourStates(t, r), gitStates(t, dir); !cmp.Equal(want, got) {
			t.Errorf("%s: Status = %v, git status = %v", step, got, want)
		}
	}
	all := []string{"", "a.md.bak", "attachments", "people", "sp ace", "z", "z/y"} // newRepo commits attachments/
	check("after git commit", all)

	write(t, dir, map[string]string{"z/y/x.md": "deeper\n"})
	run(t, dir, "add", "z/y/x.md")
	check("after staging z/y/x.md", []string{"a.md.bak", "attachments", "people", "sp ace"})

	// git write-tree fills the records again; a staged change then shows only against
	// HEAD, through the trees taken from the cache.
	run(t, dir, "write-tree")
	check("after git write-tree", all)
	if got := ourStates(t, r); got["z/y/x.md"] != gitrepo.Modified {
		t.Errorf("Status of the staged z/y/x.md = %v, want modified", got)
	}
}

// TestCacheTreeWithAWrongCountIsNotTrusted: a cache-tree whose entry count disagrees
// with the index (a damaged or foreign index) is not used: the trees are hashed, and
// Status stays right.
func TestCacheTreeWithAWrongCountIsNotTrusted(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"people/Ada.md": "ada\n", "people/Bob.md": "bob\n", "top.md": "top\n"})
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "c")
	// Add an entry to the index and put the old cache-tree back, claiming one entry
	// fewer under people/ than there are.
	index := filepath.Join(dir, ".git", "index")
	before, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"people/Cy.md": "cy\n"})
	run(t, dir, "add", "people/Cy.md")
	if err := gitrepo.SpliceCacheTree(index, before); err != nil {
		t.Fatal(err)
	}
	status, hashed, cached, err := gitrepo.IndexFolderTrees(r)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(cached, "people") {
		t.Fatalf("the planted cache-tree was not read: valid folders %q", cached)
	}
	if d := cmp.Diff(hashed, status); d != "" {
		t.Errorf("a wrong cache-tree was trusted (-hashed +status):\n%s", d)
	}
	if got := ourStates(t, r); got["people/Cy.md"] != gitrepo.Added {
		t.Errorf("Status = %v, want people/Cy.md added", got)
	}
}
