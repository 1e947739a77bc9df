package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The writes of a vault are sealed: a library hands out a read-only view of its vault
// (vault.View), or one that writes only the vault's own files (vault.State), and the
// library is gitrepo's Writer, so that every note written is indexed and every change
// of a repository is announced from one place. The two tests below keep the rest of
// the code from going around them: only the folders named here write files, and only
// the library opens a vault or its repository. Each runs first on planted violations,
// which it must find.

// fileWriters are the functions of package os that create, change or remove files.
var fileWriters = map[string][]string{
	"os": {"WriteFile", "Create", "CreateTemp", "OpenFile", "Rename", "Remove", "RemoveAll",
		"Mkdir", "MkdirAll", "MkdirTemp", "Symlink", "Link", "Chmod", "Chtimes", "Chown", "Lchown", "Truncate"},
}

// writers are the folders (with those under them) whose code may write files, each
// with what it writes.
var writers = map[string]string{
	"backend/vault":              "the vault: notes, .memotree and the caches, atomically",
	"backend/gitrepo":            "the repository's own files under .git (refs, index, config); its working tree goes through the library",
	"backend/userfile":           "the person's settings files, outside any vault",
	"backend/internal/filelock":  "lock files",
	"backend/internal/regular":   "nothing: it opens files read-only, following no link (os.OpenFile)",
	"backend/internal/vaulttest": "the fixtures of tests",
	"backend/search":             "fences under .memotree, at the paths vault.State.InternalPath gives (vouch.go)",
	"backend/doctor":             "when asked, removes the temporary files a crashed write left",
	"backend/workspace":          "the demo vault, built in a new folder of the data directory before anything opens it (demo.go, demohistory.go)",
	"demo":                       "a copy of the shipped demo vault, into a new folder",
	"bench":                      "the benchmarks' generated vaults and results",
	"internal/corpora":           "the tests' log of the corpora they could not find",
	"tests":                      "the test suites' reports",
}

// workspaceWriters are the files of backend/workspace that may write: the demo's.
var workspaceWriters = []string{"backend/workspace/demo.go", "backend/workspace/demohistory.go"}

// mayWrite reports whether the Go file at path (slash-separated, from the root) may
// write files.
func mayWrite(path string) bool {
	if strings.HasPrefix(path, "backend/workspace/") {
		return slices.Contains(workspaceWriters, path)
	}
	for dir := range writers {
		if strings.HasPrefix(path, dir+"/") {
			return true
		}
	}
	return false
}

// usesOutside returns a check for holds: the uses of funcs under root that allowed
// refuses (a use is "path: package.Name").
func usesOutside(funcs map[string][]string, allowed func(use string) bool) func(*testing.T, string) ([]string, int) {
	return func(t *testing.T, root string) (bad []string, checked int) {
		t.Helper()
		uses, checked := funcUses(t, root, funcs, func(string) bool { return false })
		for _, u := range uses {
			if !allowed(u) {
				bad = append(bad, u)
			}
		}
		return bad, checked
	}
}

// unsealedWrites returns the uses of fileWriters under root outside the writers.
var unsealedWrites = usesOutside(fileWriters, func(u string) bool { return mayWrite(u[:strings.Index(u, ":")]) })

// TestFilesAreWrittenInTheirPlace: outside the writers, no Go code (tests aside)
// writes, renames or removes a file itself; a note is written through the library, the
// vault's own files through vault.State.
func TestFilesAreWrittenInTheirPlace(t *testing.T) {
	planted := plant(t, map[string]string{
		"backend/catalog/x.go":        "package catalog\n\nimport \"os\"\n\nfunc f() { os.WriteFile(\"n.md\", nil, 0o644) }\n",
		"cli/y.go":                    "package cli\n\nimport \"os\"\n\nvar rm = os.Remove\n",
		"backend/uiapi/z.go":          "package uiapi\n\nimport o \"os\"\n\nfunc g() { o.Rename(\"a\", \"b\") }\n",
		"backend/workspace/mount.go":  "package workspace\n\nimport \"os\"\n\nfunc h() { os.MkdirAll(\"d\", 0o755) }\n",
		"backend/vault/write.go":      "package vault\n\nimport \"os\"\n\nfunc w() { os.WriteFile(\"n.md\", nil, 0o644) }\n",
		"backend/workspace/demo.go":   "package workspace\n\nimport \"os\"\n\nfunc d() { os.MkdirAll(\"d\", 0o755) }\n",
		"backend/catalog/readonly.go": "package catalog\n\nimport \"os\"\n\nfunc r() { os.ReadFile(\"n.md\") }\n",
	})
	holds(t, planted, []string{"backend/catalog/x.go: os.WriteFile", "backend/uiapi/z.go: os.Rename", "backend/workspace/mount.go: os.MkdirAll", "cli/y.go: os.Remove"},
		unsealedWrites, "write through the library (a note) or vault.State (the vault's own files); see arch_writes_test.go")
}

// vaultOpeners are the functions that open a vault or its repository.
var vaultOpeners = map[string][]string{
	"github.com/memotree/memotree/backend/vault":   {"Open"},
	"github.com/memotree/memotree/backend/gitrepo": {"Open", "Init"},
}

// openers are the folders whose code may open a vault or a repository, each with why.
var openers = map[string]string{
	"backend/library": "the one door to a vault and its repository",
	"backend/vault":   "its own",
	"backend/gitrepo": "Init opens what it made",
	"backend/doctor":  "examines a vault without mounting it, so that nothing is repaired or scanned unasked (vault.Open)",
}

// unsealedOpens returns the uses of vaultOpeners under root outside the openers.
var unsealedOpens = usesOutside(vaultOpeners, func(u string) bool {
	dir := filepath.ToSlash(filepath.Dir(u[:strings.Index(u, ":")]))
	_, ok := openers[dir]
	return ok && (dir != "backend/doctor" || strings.HasSuffix(u, " vault.Open"))
})

// TestOnlyTheLibraryOpensVaultsAndRepositories: outside backend/library (and the
// packages' own code), no Go code (tests aside) opens a vault or a git repository, so
// that no write bypasses the library's index and no repository writes its working
// tree through anything but the library.
func TestOnlyTheLibraryOpensVaultsAndRepositories(t *testing.T) {
	planted := plant(t, map[string]string{
		"backend/catalog/git.go":     "package catalog\n\nimport \"github.com/memotree/memotree/backend/gitrepo\"\n\nfunc f() { gitrepo.Open(\"d\", nil) }\n",
		"backend/uiapi/git.go":       "package uiapi\n\nimport g \"github.com/memotree/memotree/backend/gitrepo\"\n\nvar i = g.Init\n",
		"backend/workspace/demo.go":  "package workspace\n\nimport \"github.com/memotree/memotree/backend/vault\"\n\nfunc d() { vault.Open(\"d\") }\n",
		"backend/doctor/doctor.go":   "package doctor\n\nimport \"github.com/memotree/memotree/backend/gitrepo\"\n\nfunc e() { gitrepo.Open(\"d\", nil) }\n",
		"backend/doctor/vault.go":    "package doctor\n\nimport \"github.com/memotree/memotree/backend/vault\"\n\nfunc v() { vault.Open(\"d\") }\n",
		"backend/library/library.go": "package library\n\nimport \"github.com/memotree/memotree/backend/gitrepo\"\n\nfunc l() { gitrepo.Open(\"d\", nil) }\n",
	})
	holds(t, planted, []string{"backend/catalog/git.go: gitrepo.Open", "backend/doctor/doctor.go: gitrepo.Open", "backend/uiapi/git.go: gitrepo.Init", "backend/workspace/demo.go: vault.Open"},
		unsealedOpens, "open the library (library.Open) and reach the vault and its repository through it (Vault, State, Git, InitGit)")
}

// holds checks an architecture rule: find, run on the planted violations, must report
// exactly want; run on the repository, each place it reports is an error with advice.
func holds(t *testing.T, planted string, want []string, find func(*testing.T, string) ([]string, int), advice string) {
	t.Helper()
	if got, _ := find(t, planted); !slices.Equal(got, want) {
		t.Fatalf("on the planted violations the check found %q, want %q", got, want)
	}
	bad, checked := find(t, ".")
	for _, u := range bad {
		t.Errorf("%s: %s", u, advice)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked: the walk missed the code", checked)
	}
}

// plant writes files (path: source) under a new folder and returns it.
func plant(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for path, src := range files {
		p := filepath.Join(root, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
