package vault

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/internal/notice"
	"github.com/memotree/memotree/backend/vpath"
)

// linkSeed is a vault with git's, Obsidian's and MemoTree's folders, and a nested
// repository.
var linkSeed = map[string]string{
	".git/config":                  "[core]\n\tbare = false\n",
	".git/hooks/pre-commit.sample": "#!/bin/sh\n",
	".obsidian/app.json":           "{}\n",
	".memotree/keep":               "kept\n",
	"inner/.git/config":            "[core]\n\tbare = false\n",
	"inner/n.md":                   "inner note\n",
	"a.md":                         "alpha\n",
	"notes/n.md":                   "note\n",
	"up/u.md":                      "up\n",
}

// outLinks are folder links, by vault path, that lead out of the vault's content,
// each with its text.
var outLinks = map[string]string{
	"gl":       ".git",
	"ob":       ".obsidian",
	"mt":       ".memotree",
	"inner/gl": ".git",
	"up/gl":    "../.git",       // from a subfolder
	"chain":    "gl",            // a link to a link
	"hooks":    ".git/hooks",    // into .git, deeper
	"dotdot":   "notes/../.git", // through a real folder and back up
}

// guardedFolders are the folders of linkSeed that no write may change.
var guardedFolders = []string{".git", ".obsidian", ".memotree", "inner/.git"}

// linkVault opens linkSeed with outLinks in place.
func linkVault(t *testing.T) (*Vault, string) {
	t.Helper()
	v, dir := openWith(t, linkSeed)
	for name, to := range outLinks {
		if err := os.Symlink(to, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	takeLock(t, v)
	return v, dir
}

// takeLock takes v's lock and lets it go, so that the lock's file is made before
// the guarded folders are looked at.
func takeLock(t *testing.T, v *Vault) {
	t.Helper()
	unlock, err := v.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

// guardedState maps every entry of the guarded folders of dir to its type and
// content hash, links not followed.
func guardedState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, g := range guardedFolders {
		root := filepath.Join(dir, filepath.FromSlash(g))
		if _, err := os.Lstat(root); os.IsNotExist(err) {
			continue
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			switch {
			case d.Type()&fs.ModeSymlink != 0:
				to, _ := os.Readlink(p)
				out[filepath.ToSlash(rel)] = "link " + to
			case d.Type().IsRegular():
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				out[filepath.ToSlash(rel)] = fmt.Sprintf("%x", sha256.Sum256(b))
			default:
				out[filepath.ToSlash(rel)] = "folder"
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// linkOps are the vault's writes, each given a path below a link (in) and a file
// of the vault's content (note).
var linkOps = map[string]func(ctx context.Context, v *Vault, in, note vpath.Path) error{
	"Write": func(ctx context.Context, v *Vault, in, _ vpath.Path) error {
		_, err := v.Write(ctx, in, []byte("trap\n"), WriteOptions{})
		return err
	},
	"Write in a transaction": func(ctx context.Context, v *Vault, in, _ vpath.Path) error {
		_, err := NewStage(v).Vault().Write(ctx, in, []byte("trap\n"), WriteOptions{})
		return err
	},
	"Apply": func(ctx context.Context, v *Vault, in, _ vpath.Path) error {
		_, err := v.Apply(ctx, []Change{{Path: in, Data: []byte("trap\n")}}, WriteOptions{})
		return err
	},
	"Apply delete": func(ctx context.Context, v *Vault, in, _ vpath.Path) error {
		_, err := v.Apply(ctx, []Change{{Path: in, Delete: true}}, WriteOptions{})
		return err
	},
	"Update": func(ctx context.Context, v *Vault, in, _ vpath.Path) error {
		_, err := v.Update(ctx, []vpath.Path{in}, func(map[vpath.Path]Current) ([]Change, error) {
			return []Change{{Path: in, Data: []byte("trap\n")}}, nil
		}, WriteOptions{})
		return err
	},
	"UpdateFile": func(ctx context.Context, v *Vault, in, _ vpath.Path) error {
		_, err := v.UpdateFile(ctx, in, func([]byte, bool) ([]byte, error) { return []byte("trap\n"), nil }, WriteOptions{})
		return err
	},
	"RemoveWith": func(ctx context.Context, v *Vault, in, _ vpath.Path) error {
		return v.RemoveWith(ctx, in, WriteOptions{})
	},
	"RenameWith into": func(ctx context.Context, v *Vault, in, note vpath.Path) error {
		return v.RenameWith(ctx, note, in, WriteOptions{})
	},
	"RenameWith out of": func(ctx context.Context, v *Vault, in, _ vpath.Path) error {
		return v.RenameWith(ctx, in, "stolen.md", WriteOptions{})
	},
}

// TestWritesFollowNoLinkOutOfContent: every write of the vault (write, batch, update,
// remove, either end of a move, in a transaction or not), given a path below a
// folder link to .git (at the root, in a nested repository, from a subfolder, through
// a chain of links, through "..", deeper), .obsidian or .memotree, is refused with
// ErrOutside naming the link, and the folders it reaches do not change by a byte.
func TestWritesFollowNoLinkOutOfContent(t *testing.T) {
	v, dir := linkVault(t)
	before := guardedState(t, dir)
	for link := range outLinks {
		for _, leaf := range []string{"config", "new.md"} {
			in := vpath.Path(link + "/" + leaf)
			for name, op := range linkOps {
				err := op(t.Context(), v, in, "a.md")
				if !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), "symbolic link "+link) {
					t.Errorf("%s(%s) = %v, want ErrOutside naming the link %s", name, in, err, link)
				}
			}
		}
	}
	if diff := cmp.Diff(before, guardedState(t, dir)); diff != "" {
		t.Errorf("the guarded folders changed (-before +after):\n%s", diff)
	}
	if got := contents(t, dir)["a.md"]; got != "alpha\n" {
		t.Errorf("a.md = %q", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "stolen.md")); !os.IsNotExist(err) {
		t.Errorf("stolen.md: %v", err)
	}
}

// TestWritesThroughALinkToContent: a folder link that leads to content of the vault
// (Obsidian lets a folder be one) is read through, and written through: the write
// lands in the folder it leads to, and the link stays. A removal or a move of a file
// below it acts on that file; one of the link itself acts on the link.
func TestWritesThroughALinkToContent(t *testing.T) {
	v, dir := openWith(t, map[string]string{"notes/n.md": "note\n", "a.md": "alpha\n"})
	if err := os.Symlink("notes", filepath.Join(dir, "alias")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("../notes", filepath.Join(dir, "notes", "self")); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if b, err := v.ReadFile("alias/n.md"); err != nil || string(b) != "note\n" {
		t.Fatalf("ReadFile(alias/n.md) = %q, %v", b, err)
	}
	if _, err := v.Write(ctx, "alias/new.md", []byte("new\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Apply(ctx, []Change{{Path: "alias/self/batch.md", Data: []byte("batch\n")}}, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := v.RenameWith(ctx, "a.md", "alias/a.md", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := v.RemoveWith(ctx, "alias/n.md", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"notes/new.md": "new\n", "notes/batch.md": "batch\n", "notes/a.md": "alpha\n"}
	got := contents(t, dir)
	for _, link := range []string{"alias", "notes/self"} {
		if to, err := os.Readlink(filepath.Join(dir, filepath.FromSlash(link))); err != nil || to == "" {
			t.Errorf("the link %s is gone: %v", link, err)
		}
	}
	delete(got, "alias") // the links themselves
	delete(got, "notes/self")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if err := v.RemoveWith(ctx, "alias", WriteOptions{}); err != nil {
		t.Fatalf("removing the link itself: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes", "new.md")); err != nil {
		t.Errorf("removing the link removed its folder's notes: %v", err)
	}
}

// TestJourneyIsNeverALink: a journey.yaml that is a symbolic link, or another name of
// a file (a hard link), to .git/config is not appended to; the write stands, with a
// notice, and .git/config keeps every byte.
func TestJourneyIsNeverALink(t *testing.T) {
	for _, kind := range []string{"symbolic", "hard"} {
		t.Run(kind, func(t *testing.T) {
			v, dir := openWith(t, map[string]string{".git/config": "[core]\n"})
			from, to := filepath.Join(dir, ".git", "config"), filepath.Join(dir, "journey.yaml")
			var err error
			if kind == "symbolic" {
				err = os.Symlink(".git/config", to)
			} else {
				err = os.Link(from, to)
			}
			if err != nil {
				t.Skipf("no %s links here: %v", kind, err)
			}
			ctx, notes := notice.With(t.Context())
			if _, err := v.Write(ctx, "a.md", []byte("a\n"), WriteOptions{Actor: "agent"}); err != nil {
				t.Fatal(err)
			}
			if err := v.AppendJourney(t.Context(), Entry{Actor: "agent", Op: "x"}); !errors.Is(err, ErrOutside) {
				t.Errorf("AppendJourney = %v, want ErrOutside", err)
			}
			if b, _ := os.ReadFile(from); string(b) != "[core]\n" {
				t.Errorf(".git/config = %q", b)
			}
			if msgs := notes.Take(); len(msgs) != 1 || !strings.Contains(msgs[0], "journey") {
				t.Errorf("notices %q, want one about the journey", msgs)
			}
		})
	}
}

// TestMemoTreeFolderIsNeverALink: a .memotree that is a symbolic link to .git is not
// used: writes fail with ErrOutside naming it, and nothing is made in .git (no lock
// file, no .gitignore, no note).
func TestMemoTreeFolderIsNeverALink(t *testing.T) {
	v, dir := openWith(t, map[string]string{".git/config": "[core]\n", "a.md": "alpha\n"})
	if err := os.Symlink(".git", filepath.Join(dir, ".memotree")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	before := guardedState(t, dir)
	if _, err := v.Write(t.Context(), "a.md", []byte("x\n"), WriteOptions{}); !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), ".memotree is a symbolic link") {
		t.Errorf("Write = %v, want ErrOutside naming .memotree", err)
	}
	if err := v.WriteInternal("views/x.json", []byte("{}")); !errors.Is(err, ErrOutside) {
		t.Errorf("WriteInternal = %v, want ErrOutside", err)
	}
	if diff := cmp.Diff(before, guardedState(t, dir)); diff != "" {
		t.Errorf(".git changed (-before +after):\n%s", diff)
	}
}
