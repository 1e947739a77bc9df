package gitrepo

import (
	"testing"

	"github.com/memotree/memotree/backend/vault"
)

// TestReportedInAsReported: the walk's shortcut answers as reported does on the whole
// path, for every entry of a folder it reads.
func TestReportedInAsReported(t *testing.T) {
	parts := []string{"a", "notes", ".memotree", ".git", ".GIT", "git~1", ".g\u200cit", ".gitignore", ".github",
		vault.TempPrefix + "x", "x" + vault.TempPrefix, ".obsidian", ".trash", "笔记", "a.md", ".git."}
	dirs := []string{""}
	for _, a := range parts {
		dirs = append(dirs, a)
		for _, b := range parts {
			dirs = append(dirs, a+"/"+b)
		}
	}
	checked := 0
	for _, dir := range dirs {
		if dir != "" && !reported(dir) {
			continue // never read by the walk
		}
		for _, name := range parts {
			full := name
			if dir != "" {
				full = dir + "/" + name
			}
			if got, want := reportedIn(dir, []byte(name)), reported(full); got != want {
				t.Errorf("reportedIn(%q, %q) = %v, reported(%q) = %v", dir, name, got, full, want)
			}
			checked++
		}
	}
	if checked < 500 {
		t.Fatalf("only %d paths checked", checked)
	}
}
