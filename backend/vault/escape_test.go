package vault

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/vpath"
)

// Links out of the vault in every shape — relative and absolute, to a file and to a
// folder, from a subfolder, through a chain of links, a loop, a dangling one — are
// refused for reading, writing, renaming onto and walking, and nothing outside
// changes; a link out can itself be removed.
func TestSymlinkEscapes(t *testing.T) {
	v, dir := openTemp(t)
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "secret.md"), "secret")
	mustWrite(t, filepath.Join(outside, "sub", "deep.md"), "deep")
	mustWrite(t, filepath.Join(dir, "real.md"), "real")
	rel, err := filepath.Rel(dir, outside)
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"reldir":          rel,                                        // a folder, relative
		"people/back":     filepath.Join("..", rel, "sub"),            // a folder, from a subfolder
		"chain1.md":       "chain2.md",                                // a link to a link ...
		"chain2.md":       filepath.Join(rel, "secret.md"),            // ... that leaves
		"dirchain":        "reldir",                                   // a folder link to a folder link out
		"loop.md":         "loop.md",                                  // itself
		"dangling.md":     filepath.Join(outside, "missing.md"),       // to nothing, outside
		"people/up.md":    "../../" + filepath.Base(dir) + "/real.md", // out and back in by name
		"inside/ok.md":    "../real.md",                               // stays inside: allowed
		"people/twice.md": "../chain1.md",                             // into a chain that leaves
	}
	if err := os.MkdirAll(filepath.Join(dir, "people"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	for _, p := range []vpath.Path{"reldir/secret.md", "reldir/new.md", "people/back/deep.md", "chain1.md", "chain2.md",
		"dirchain/secret.md", "dirchain/sub/new.md", "loop.md", "dangling.md", "people/up.md", "people/twice.md"} {
		if _, err := v.ReadFile(p); err == nil {
			t.Errorf("ReadFile(%s) read through a link out", p)
		}
		if _, err := v.Write(t.Context(), p, []byte("x"), WriteOptions{}); err == nil {
			t.Errorf("Write(%s) wrote through a link out", p)
		}
		if err := v.Rename(t.Context(), "real.md", p); err == nil {
			t.Errorf("Rename(real.md, %s) succeeded", p)
			_ = v.Rename(t.Context(), p, "real.md")
		}
	}
	// Links out are not content: a walk lists none of the outside files.
	seen, err := v.Walk(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, fi := range seen {
		if s := string(fi.Path); strings.Contains(s, "secret") || strings.Contains(s, "deep") {
			t.Errorf("the walk went outside: %s", s)
		}
	}
	if b, err := v.ReadFile("inside/ok.md"); err != nil || string(b) != "real" {
		t.Errorf("a link that stays inside: %q, %v", b, err)
	}
	for _, f := range []string{"secret.md", "sub/deep.md"} {
		b, _ := os.ReadFile(filepath.Join(outside, f))
		if want := map[string]string{"secret.md": "secret", "sub/deep.md": "deep"}[f]; string(b) != want {
			t.Errorf("%s outside = %q", f, b)
		}
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 2 {
		t.Errorf("files appeared outside: %v", entries)
	}
	if err := v.Remove(t.Context(), "chain2.md", ""); err != nil {
		t.Errorf("removing a link out: %v", err)
	}
}

// A name longer than the file system holds is a clear error and leaves nothing behind:
// no file, no temporary file, no folder.
func TestLongNames(t *testing.T) {
	v, dir := openTemp(t)
	for _, p := range []vpath.Path{
		vpath.Path(strings.Repeat("a", 256) + ".md"),
		vpath.Path("sub/" + strings.Repeat("é", 200) + ".md"),
		vpath.Path(strings.Repeat("d", 300) + "/x.md"),
	} {
		_, err := v.Write(t.Context(), p, []byte("x"), WriteOptions{})
		if err == nil || !strings.Contains(err.Error(), "too long") {
			t.Errorf("Write(%.30s…) = %v, want a name too long", p, err)
		}
	}
	if _, err := vpath.Parse(strings.Repeat("a/", 600)); !errors.Is(err, vpath.ErrInvalid) {
		t.Errorf("a 1200-byte path parsed: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != ".memotree" && e.Name() != "sub" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if sub, _ := os.ReadDir(filepath.Join(dir, "sub")); len(sub) != 0 {
		t.Errorf("left behind in sub: %v", sub)
	}
}
