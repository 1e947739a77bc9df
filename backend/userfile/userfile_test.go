package userfile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/userfile"
)

type endpoint struct {
	BaseURL string `toml:"base_url"`
	Key     string `toml:"api_key"`
	Extra   string `toml:"extra,omitempty"`
}

type look struct {
	Look struct {
		Theme string `toml:"theme"`
	} `toml:"look"`
}

type embedded struct {
	endpoint
	Other int `toml:"other"`
}

// TestUpdateKeepsOtherOwnersKeys: two owners of one file each write their own keys and
// keep the other's; a key its owner leaves out (omitempty) goes; the file stays 0600.
func TestUpdateKeepsOtherOwnersKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memotree", "settings.toml")
	if err := userfile.Update(path, "# test\n", endpoint{BaseURL: "http://127.0.0.1:1/v1", Key: "sk-1", Extra: "x"}); err != nil {
		t.Fatal(err)
	}
	var l look
	l.Look.Theme = "dark"
	if err := userfile.Update(path, "# test\n", l); err != nil {
		t.Fatal(err)
	}
	if err := userfile.Update(path, "# test\n", endpoint{BaseURL: "http://127.0.0.1:2/v1", Key: "sk-2"}); err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	if err := userfile.Load(path, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"base_url": "http://127.0.0.1:2/v1", "api_key": "sk-2", "look": map[string]any{"theme": "dark"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("file (-want +got):\n%s", d)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "# test\n") {
		t.Errorf("header lost:\n%s", b)
	}
}

// TestUpdateEmbeddedKeys: an embedded struct's keys are its owner's.
func TestUpdateEmbeddedKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.toml")
	if err := os.WriteFile(path, []byte("base_url = \"old\"\nextra = \"gone\"\nkept = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := userfile.Update(path, "", &embedded{endpoint: endpoint{BaseURL: "new"}, Other: 3}); err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	if err := userfile.Load(path, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"base_url": "new", "api_key": "", "other": int64(3), "kept": true}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("file (-want +got):\n%s", d)
	}
}

// TestUpdateRefusesADamagedFile: a file that does not parse is left as it is.
func TestUpdateRefusesADamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.toml")
	if err := os.WriteFile(path, []byte("api_key = [broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := userfile.Update(path, "", endpoint{BaseURL: "x"}); err == nil || !strings.Contains(err.Error(), "fix the file") {
		t.Errorf("err = %v, want the file named as damaged", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "api_key = [broken" {
		t.Errorf("damaged file rewritten: %q", b)
	}
}

func TestDirIsInTheUsersConfigFolder(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("HOME", t.TempDir()) // macOS reads $HOME/Library/Application Support
	p, err := userfile.Path("settings.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := os.UserConfigDir()
	if want := filepath.Join(dir, "memotree", "settings.toml"); p != want {
		t.Errorf("path %s, want %s", p, want)
	}
}
