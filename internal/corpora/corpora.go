// Package corpora finds the shared real-vault corpora for tests: the English and
// Chinese Obsidian Help vaults in ../shared/corpora beside the repository (or in
// $MEMOTREE_CORPORA). A test that needs one calls Dir, which skips it, saying where it
// looked, when the corpus is absent, and records whether it ran in the file named by
// $MEMOTREE_CORPUS_LOG, so that `make test` can say how many corpus tests ran.
package corpora

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvDir names the environment variable that overrides the corpora folder.
const EnvDir = "MEMOTREE_CORPORA"

// EnvLog names the environment variable of the file each corpus test appends "ran" or
// "skipped" to, with its name.
const EnvLog = "MEMOTREE_CORPUS_LOG"

// EnvRequire names the environment variable that turns an absent corpus into a
// failure instead of a skip.
const EnvRequire = "MEMOTREE_REQUIRE_CORPORA"

// Dir returns the folder of the corpus name ("obsidian-help-en"), or skips t (fails
// it with MEMOTREE_REQUIRE_CORPORA=1) saying where the corpus was looked for.
func Dir(t testing.TB, name string) string {
	t.Helper()
	dir, err := find(name)
	if err != nil {
		record(t, "skipped")
		msg := fmt.Sprintf("corpus %s is absent: %v; it lives in ../shared/corpora beside the repository, or set %s to the folder holding it", name, err, EnvDir)
		if os.Getenv(EnvRequire) == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	record(t, "ran")
	return dir
}

// find returns the corpus folder: under $MEMOTREE_CORPORA, or under ../shared/corpora
// from the repository root (the folder holding go.mod, found from the test's folder).
func find(name string) (string, error) {
	base := os.Getenv(EnvDir)
	if base == "" {
		root, err := repoRoot()
		if err != nil {
			return "", err
		}
		base = filepath.Join(root, "..", "shared", "corpora")
	}
	dir := filepath.Join(base, name)
	st, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a folder", dir)
	}
	return dir, nil
}

// repoRoot returns the nearest folder above the working directory (a test's package
// folder) that holds go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// record appends "<outcome> <test>" to the corpus log, if one is named. The line is one
// write to a file opened for appending, so tests of several packages running at once
// do not mix their lines.
func record(t testing.TB, outcome string) {
	path := os.Getenv(EnvLog)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Logf("corpus log %s: %v", path, err)
		return
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "%s %s\n", outcome, t.Name()); err != nil {
		t.Logf("corpus log %s: %v", path, err)
	}
}
