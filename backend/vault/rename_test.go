package vault

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/portable"
	"github.com/memotree/memotree/backend/vpath"
)

// heldOpen fails its first held renames as Windows does while another program holds
// the file open (ERROR_SHARING_VIOLATION), then renames through the vault's own
// renamer: Windows itself cannot run here (see docs/platforms.md), its answer can.
type heldOpen struct {
	next  portable.Renamer
	held  int
	calls int
}

func (h *heldOpen) Rename(from, to string) error {
	h.calls++
	if h.calls <= h.held {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.Errno(32)}
	}
	return h.next.Rename(from, to)
}

// asOnWindows makes v rename as on Windows through a heldOpen that fails held times,
// recording the waits instead of waiting.
func asOnWindows(v *Vault, held int) (*heldOpen, *[]time.Duration) {
	h := &heldOpen{held: held}
	var waits []time.Duration
	v.retry = portable.Retry{GOOS: "windows", Sleep: func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}}
	v.wrapRenamer = func(r portable.Renamer) portable.Renamer { h.next = r; return h }
	return h, &waits
}

// renameCases are the writes that replace or move a note by a rename.
var renameCases = []struct {
	name  string
	write func(*Vault) error
	want  map[string]string
}{
	{"write", func(v *Vault) error {
		_, err := v.Write(context.Background(), "a.md", []byte("new\n"), WriteOptions{})
		return err
	},
		map[string]string{"a.md": "new\n"}},
	{"rename", func(v *Vault) error { return v.Rename(context.Background(), "a.md", "b.md") },
		map[string]string{"b.md": "old\n"}},
	{"apply", func(v *Vault) error {
		_, err := v.Apply(context.Background(), []Change{{Path: "a.md", Data: []byte("new\n")}}, WriteOptions{})
		return err
	}, map[string]string{"a.md": "new\n"}},
}

// TestARenameOfANoteHeldOpenIsRetried: on Windows a note another program holds open
// cannot be replaced or moved for a moment; the vault's writes retry the rename (with
// waits growing from 10 ms) and succeed once it is free.
func TestARenameOfANoteHeldOpenIsRetried(t *testing.T) {
	for _, c := range renameCases {
		t.Run(c.name, func(t *testing.T) {
			v, dir := openWith(t, map[string]string{"a.md": "old\n"})
			h, waits := asOnWindows(v, 3)
			if err := c.write(v); err != nil {
				t.Fatalf("%s while the note is held three times: %v", c.name, err)
			}
			if d := cmp.Diff(c.want, contents(t, dir)); d != "" {
				t.Errorf("vault (-want +got):\n%s", d)
			}
			want := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}
			if h.calls != 4 || !cmp.Equal(want, *waits) {
				t.Errorf("%d renames with waits %v, want 4 with %v", h.calls, *waits, want)
			}
		})
	}
}

// TestANoteHeldOpenIsReported: a note held open past the retries is reported as
// ErrInUse, naming the note (not the temporary file) and what to do, and the vault is
// as it was.
func TestANoteHeldOpenIsReported(t *testing.T) {
	for _, c := range renameCases {
		t.Run(c.name, func(t *testing.T) {
			v, dir := openWith(t, map[string]string{"a.md": "old\n"})
			asOnWindows(v, 1000)
			err := c.write(v)
			if !errors.Is(err, ErrInUse) || !errors.Is(err, syscall.Errno(32)) {
				t.Fatalf("%s = %v, want ErrInUse and its cause", c.name, err)
			}
			if msg := err.Error(); !strings.Contains(msg, "a.md is open in another program; close it there and try again") {
				t.Errorf("%s = %q, does not name the note and what to do", c.name, msg)
			}
			if c.name == "apply" {
				return // decided before its renames: completed at the next write (ErrPending)
			}
			if d := cmp.Diff(map[string]string{"a.md": "old\n"}, contents(t, dir)); d != "" {
				t.Errorf("vault after the failure (-want +got):\n%s", d)
			}
		})
	}
}

// TestSameEntry: the decision that lets a rename go ahead where its target exists.
// No file system here ignores case (this kernel has no casefold, and Debian 12 has no
// case-insensitive FUSE file system), so the case-insensitive answer is made as such a
// file system gives it: an Lstat of note.md there returns Note.md's own entry.
func TestSameEntry(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "Note.md"), "one\n")
	mustWrite(t, filepath.Join(dir, "other.md"), "two\n")
	mustWrite(t, filepath.Join(dir, "a.md"), "linked\n")
	mustWrite(t, filepath.Join(dir, "Café.md"), "nfc\n")
	for _, l := range []string{"A.md", "b.md"} {
		if err := os.Link(filepath.Join(dir, "a.md"), filepath.Join(dir, l)); err != nil {
			t.Fatal(err)
		}
	}
	lstat := func(name string) fs.FileInfo {
		st, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	tests := []struct {
		name     string
		from, to vpath.Path
		src, dst fs.FileInfo
		want     bool
	}{
		{"case only, where case is ignored", "Note.md", "note.md", lstat("Note.md"), lstat("Note.md"), true},
		{"Unicode form only, where it is ignored (macOS)", "Café.md", "Cafe\u0301.md", lstat("Café.md"), lstat("Café.md"), true},
		{"case only, in a folder's name", "Notes/A.md", "notes/A.md", lstat("Note.md"), lstat("Note.md"), true},
		{"another name of one file", "a.md", "b.md", lstat("a.md"), lstat("b.md"), false},
		{"another spelling that is a hard link (Linux)", "a.md", "A.md", lstat("a.md"), lstat("A.md"), false},
		{"another file under another spelling (Linux)", "Note.md", "note.md", lstat("Note.md"), lstat("other.md"), false},
		{"another name, where case is ignored", "Note.md", "Other.md", lstat("Note.md"), lstat("Note.md"), false},
	}
	for _, tt := range tests {
		if got := sameEntry(tt.from, tt.to, tt.src, tt.dst); got != tt.want {
			t.Errorf("%s: sameEntry(%s, %s) = %v, want %v", tt.name, tt.from, tt.to, got, tt.want)
		}
	}
}

// TestRenameOntoAnotherNameOfTheFile: a rename onto a hard link of the same file is
// refused as any existing target is. Linux's rename(2) would do nothing and report
// success, leaving both names: the vault used to let it through, taking "one file"
// for "one name".
func TestRenameOntoAnotherNameOfTheFile(t *testing.T) {
	for _, to := range []vpath.Path{"b.md", "A.md"} {
		v, dir := openWith(t, map[string]string{"a.md": "linked\n"})
		if err := os.Link(filepath.Join(dir, "a.md"), filepath.Join(dir, string(to))); err != nil {
			t.Fatal(err)
		}
		if err := v.Rename(t.Context(), "a.md", to); !errors.Is(err, ErrExists) {
			t.Errorf("Rename(a.md, %s) onto a hard link = %v, want ErrExists", to, err)
		}
		want := map[string]string{"a.md": "linked\n", string(to): "linked\n"}
		if d := cmp.Diff(want, contents(t, dir)); d != "" {
			t.Errorf("vault (-want +got):\n%s", d)
		}
	}
}

// TestCaseOnlyRenameOnLinux: where names differ in case (Linux), a rename that only
// changes the case moves the note as any rename does.
func TestCaseOnlyRenameOnLinux(t *testing.T) {
	v, dir := openWith(t, map[string]string{"Notes/Note.md": "one\n"})
	if err := v.Rename(t.Context(), "Notes/Note.md", "Notes/note.md"); err != nil {
		t.Fatalf("Rename: %v", err)
	}
	if d := cmp.Diff(map[string]string{"Notes/note.md": "one\n"}, contents(t, dir)); d != "" {
		t.Errorf("vault (-want +got):\n%s", d)
	}
}
