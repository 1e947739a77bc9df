package corpora

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDirFromEnvironmentAndLog(t *testing.T) {
	base := t.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "vault-a"), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "corpus.log")
	t.Setenv(EnvDir, base)
	t.Setenv(EnvLog, log)
	if got := Dir(t, "vault-a"); got != filepath.Join(base, "vault-a") {
		t.Errorf("Dir = %q", got)
	}
	t.Run("absent", func(t *testing.T) {
		Dir(t, "vault-b")
		t.Error("an absent corpus did not skip")
	})
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := "ran TestDirFromEnvironmentAndLog\nskipped TestDirFromEnvironmentAndLog/absent\n"
	if string(b) != want {
		t.Errorf("log = %q, want %q", b, want)
	}
}

func TestRepoRoot(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "internal", "corpora", "corpora.go")); err != nil {
		t.Errorf("root %s is not the repository's: %v", root, err)
	}
}
