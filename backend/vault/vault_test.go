package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vpath"
)

func openTemp(t *testing.T) (*Vault, string) {
	t.Helper()
	dir := t.TempDir()
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v, dir
}

func mustWrite(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWriteRead(t *testing.T) {
	v, dir := openTemp(t)
	ctx := t.Context()
	h, err := v.Write(ctx, "people/Ada.md", []byte("# Ada\n"), WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if h != HashOf([]byte("# Ada\n")) {
		t.Errorf("hash = %s", h)
	}
	b, h2, err := v.Read("people/Ada.md")
	if err != nil || string(b) != "# Ada\n" || h2 != h {
		t.Errorf("Read = %q, %s, %v", b, h2, err)
	}
	st, err := os.Stat(filepath.Join(dir, "people", "Ada.md"))
	if err != nil || st.Mode().Perm()&^0o022 != 0o644&^0o022 {
		t.Errorf("mode = %v, %v", st.Mode(), err)
	}
	fi, err := v.Stat("people/Ada.md")
	if err != nil || fi.Size != 6 || fi.IsDir {
		t.Errorf("Stat = %+v, %v", fi, err)
	}
	if _, err := v.ReadFile("nope.md"); !errors.Is(err, ErrNotFound) {
		t.Errorf("ReadFile(missing) = %v, want ErrNotFound", err)
	}
	if !v.OwnWrite("people/Ada.md", h) || v.OwnWrite("people/Ada.md", HashOf([]byte("edited"))) {
		t.Error("OwnWrite does not tell this write from another content")
	}
	if v.Dir() != dir {
		t.Errorf("Dir = %s, want %s", v.Dir(), dir)
	}
}

func TestWriteKeepsMode(t *testing.T) {
	v, dir := openTemp(t)
	name := filepath.Join(dir, "script.md")
	mustWrite(t, name, "old")
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Write(t.Context(), "script.md", []byte("new"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(name)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, %v; want 0600", st.Mode(), err)
	}
}

func TestRefusedPaths(t *testing.T) {
	v, dir := openTemp(t)
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "secret.md"), "secret")
	mustWrite(t, filepath.Join(dir, "real.md"), "real")
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "out.md")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "outdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../"+filepath.Base(outside)+"/secret.md", filepath.Join(dir, "rel.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git/config", filepath.Join(dir, "git.md")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		p    vpath.Path
		want error
		link bool // a symbolic link: Remove and Rename act on the link itself
	}{
		{"../x.md", ErrOutside, false},
		{"/etc/passwd", ErrOutside, false},
		{"a/../../x.md", ErrOutside, false},
		{"", ErrOutside, false},
		{".git/config", ErrOutside, false},
		{".obsidian/app.json", ErrOutside, false},
		{".memotree/lock", ErrOutside, false},
		{".trash/x.md", ErrOutside, false},
		// A nested repository's .git (any case, its short name, HFS+ spellings):
		// its config and hooks run commands when git works in that folder.
		{"sub/.git/config", ErrOutside, false},
		{"a/.GIT/hooks/post-checkout", ErrOutside, false},
		{"a/git~1/config", ErrOutside, false},
		{"a/.g\u200cit/config", ErrOutside, false},
		{"journey.yaml", ErrOutside, false},
		{"a/" + TempPrefix + "x", ErrOutside, false},
		{"out.md", ErrOutside, true},
		{"rel.md", ErrOutside, true},
		{"outdir/new.md", ErrOutside, true},
		{"outdir/secret.md", ErrOutside, true},
		{"git.md", ErrOutside, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.p), func(t *testing.T) {
			if _, err := v.Write(t.Context(), tt.p, []byte("x"), WriteOptions{}); !errors.Is(err, tt.want) {
				t.Errorf("Write = %v, want %v", err, tt.want)
			}
			if tt.link {
				return
			}
			if err := v.Remove(t.Context(), tt.p, ""); !errors.Is(err, tt.want) {
				t.Errorf("Remove = %v, want %v", err, tt.want)
			}
			if err := v.Rename(t.Context(), "real.md", tt.p); !errors.Is(err, tt.want) {
				t.Errorf("Rename to = %v, want %v", err, tt.want)
			}
		})
	}
	for _, p := range []vpath.Path{"out.md", "outdir/secret.md", "rel.md", "../x"} {
		if _, err := v.ReadFile(p); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadFile(%s) = %v, want ErrOutside", p, err)
		}
	}
	if err := v.Remove(t.Context(), "out.md", ""); err != nil {
		t.Errorf("Remove(link to outside) = %v, want the link removed", err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret.md")); string(b) != "secret" {
		t.Errorf("outside file changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "new.md")); err == nil {
		t.Error("a file was created outside the vault")
	}
}

func TestSymlinkInside(t *testing.T) {
	v, dir := openTemp(t)
	mustWrite(t, filepath.Join(dir, "notes", "real.md"), "real")
	if err := os.Symlink("notes/real.md", filepath.Join(dir, "alias.md")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(filepath.Join(dir, "notes"), filepath.Join(dir, "abs")); err != nil {
		t.Fatal(err)
	}
	if b, err := v.ReadFile("alias.md"); err != nil || string(b) != "real" {
		t.Errorf("ReadFile(alias.md) = %q, %v", b, err)
	}
	if _, err := v.ReadFile("abs/real.md"); !errors.Is(err, ErrOutside) {
		t.Errorf("ReadFile through an absolute link = %v, want ErrOutside (os.Root follows relative links only)", err)
	}
	if _, err := v.Write(t.Context(), "alias.md", []byte("through"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes", "real.md")); string(b) != "through" {
		t.Errorf("target = %q, want written through the link", b)
	}
	if st, err := os.Lstat(filepath.Join(dir, "alias.md")); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", st.Mode(), err)
	}
}

func TestCreateOnly(t *testing.T) {
	v, _ := openTemp(t)
	ctx := t.Context()
	if _, err := v.Write(ctx, "a.md", []byte("1"), WriteOptions{CreateOnly: true}); err != nil {
		t.Fatal(err)
	}
	_, err := v.Write(ctx, "a.md", []byte("2"), WriteOptions{CreateOnly: true})
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "a.md") {
		t.Errorf("second create = %v, want ErrExists naming a.md", err)
	}
	if b, _ := v.ReadFile("a.md"); string(b) != "1" {
		t.Errorf("content = %q, want 1", b)
	}
}

func TestCreateOnlyRace(t *testing.T) {
	dir := t.TempDir()
	const n = 16
	var (
		wg              sync.WaitGroup
		mu              sync.Mutex
		wins, conflicts int
		winner          string
	)
	for i := range n {
		wg.Go(func() {
			v, err := Open(dir)
			if err != nil {
				t.Error(err)
				return
			}
			defer v.Close()
			body := fmt.Sprint("writer ", i)
			_, err = v.Write(t.Context(), "race/new.md", []byte(body), WriteOptions{CreateOnly: true})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
				winner = body
			case errors.Is(err, ErrExists):
				conflicts++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if wins != 1 || conflicts != n-1 {
		t.Fatalf("wins = %d, conflicts = %d; want 1 and %d", wins, conflicts, n-1)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "race", "new.md")); string(b) != winner {
		t.Errorf("content = %q, want %q", b, winner)
	}
	assertNoTemp(t, dir)
}

func TestIfHash(t *testing.T) {
	v, _ := openTemp(t)
	ctx := t.Context()
	h1, err := v.Write(ctx, "n.md", []byte("v1"), WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h2, err := v.Write(ctx, "n.md", []byte("v2"), WriteOptions{IfHash: h1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.Write(ctx, "n.md", []byte("v3"), WriteOptions{IfHash: h1})
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "n.md") {
		t.Errorf("stale write = %v, want ErrConflict naming n.md", err)
	}
	if err := v.Remove(ctx, "n.md", h1); !errors.Is(err, ErrConflict) {
		t.Errorf("stale remove = %v, want ErrConflict", err)
	}
	if err := v.Remove(ctx, "n.md", h2); err != nil {
		t.Errorf("remove = %v", err)
	}
	if _, err := v.Write(ctx, "n.md", []byte("v4"), WriteOptions{IfHash: h2}); !errors.Is(err, ErrConflict) {
		t.Errorf("write after removal = %v, want ErrConflict", err)
	}
	if err := v.Remove(ctx, "n.md", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("remove missing = %v, want ErrNotFound", err)
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), TempPrefix) {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

func TestAtomicFailure(t *testing.T) {
	v, dir := openTemp(t)
	ctx := t.Context()
	if _, err := v.Write(ctx, "a/n.md", []byte("old"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk on fire")
	var sawTemp bool
	v.beforeRename = func(tmp string) error {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(tmp)))
		sawTemp = err == nil && strings.HasPrefix(filepath.Base(tmp), TempPrefix)
		return boom
	}
	if _, err := v.Write(ctx, "a/n.md", []byte("new"), WriteOptions{}); !errors.Is(err, boom) {
		t.Fatalf("write = %v, want %v", err, boom)
	}
	if !sawTemp {
		t.Error("no temporary file next to the target before the rename")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a", "n.md")); string(b) != "old" {
		t.Errorf("content = %q, want old", b)
	}
	assertNoTemp(t, dir)
	v.beforeRename = nil
	if _, err := v.Write(ctx, "a/n.md", []byte("new"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	assertNoTemp(t, dir)
}

// TestIfHashCheckedBeforeTheRename: another editor (which takes no lock) saves the
// note while a compare-and-swap write is writing and syncing its new content, after the
// first check. The write is refused with ErrConflict at the rename and the editor's
// save is kept.
func TestIfHashCheckedBeforeTheRename(t *testing.T) {
	v, dir := openTemp(t)
	ctx := t.Context()
	h, err := v.Write(ctx, "n.md", []byte("first\n"), WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v.beforeRename = func(string) error {
		saved := filepath.Join(t.TempDir(), "save.md")
		if err := os.WriteFile(saved, []byte("first\nthe editor's line\n"), 0o644); err != nil {
			return err
		}
		return os.Rename(saved, filepath.Join(dir, "n.md"))
	}
	if _, err := v.Write(ctx, "n.md", []byte("first\nmine\n"), WriteOptions{IfHash: h}); !errors.Is(err, ErrConflict) {
		t.Fatalf("write on a version replaced meanwhile = %v, want ErrConflict", err)
	}
	v.beforeRename = nil
	if b, _ := os.ReadFile(filepath.Join(dir, "n.md")); string(b) != "first\nthe editor's line\n" {
		t.Fatalf("content = %q, want the editor's save", b)
	}
	assertNoTemp(t, dir)
}

func TestRename(t *testing.T) {
	v, dir := openTemp(t)
	ctx := t.Context()
	for _, p := range []vpath.Path{"a.md", "b.md"} {
		if _, err := v.Write(ctx, p, []byte(p), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := v.Rename(ctx, "a.md", "b.md"); !errors.Is(err, ErrExists) {
		t.Errorf("rename onto existing = %v, want ErrExists", err)
	}
	if err := v.Rename(ctx, "a.md", "deep/er/a.md"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "deep", "er", "a.md")); string(b) != "a.md" {
		t.Errorf("moved content = %q", b)
	}
	if err := v.Rename(ctx, "missing.md", "c.md"); !errors.Is(err, ErrNotFound) {
		t.Errorf("rename missing = %v, want ErrNotFound", err)
	}
	if !v.OwnWrite("a.md", "") || !v.OwnWrite("deep/er/a.md", HashOf([]byte("a.md"))) {
		t.Error("OwnWrite does not know the rename")
	}
	if v.OwnWrite("b.md", HashOf([]byte("other"))) {
		t.Error("OwnWrite(b.md, other content) = true")
	}
}

func TestInternal(t *testing.T) {
	v, dir := openTemp(t)
	if _, err := os.Stat(filepath.Join(dir, ".memotree")); err == nil {
		t.Fatal(".memotree created by Open")
	}
	if err := v.WriteInternal("views/default.yaml", []byte("v: 1\n")); err != nil {
		t.Fatal(err)
	}
	b, err := v.ReadInternal("views/default.yaml")
	if diff := cmp.Diff("v: 1\n", string(b)); diff != "" || err != nil {
		t.Errorf("ReadInternal (-want +got):\n%s%v", diff, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree", ".gitignore")); err != nil {
		t.Errorf(".memotree/.gitignore: %v", err)
	}
	if err := v.WriteInternal("../escape", nil); !errors.Is(err, ErrOutside) {
		t.Errorf("WriteInternal(../escape) = %v, want ErrOutside", err)
	}
	p, err := v.InternalPath("index/db.sqlite")
	if err != nil || p != filepath.Join(dir, ".memotree", "index", "db.sqlite") {
		t.Errorf("InternalPath = %s, %v", p, err)
	}
}

func TestReadObsidianConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".obsidian"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".obsidian", "graph.json"), []byte(`{"showTags":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	b, err := v.ReadObsidianConfig("graph.json")
	if err != nil || string(b) != `{"showTags":true}` {
		t.Fatalf("graph.json: %q %v", b, err)
	}
	if _, err := v.ReadObsidianConfig("app.json"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a missing file: %v, want ErrNotFound", err)
	}
	for _, bad := range []string{"", "..", "../graph.json", "plugins/x.json"} {
		if _, err := v.ReadObsidianConfig(bad); !errors.Is(err, ErrOutside) {
			t.Errorf("%q: %v, want ErrOutside", bad, err)
		}
	}
}
