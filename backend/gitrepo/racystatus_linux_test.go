package gitrepo_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
)

// aSecond is a second an hour ago, in which the tests' notes and indexes are given
// their times: set, never waited for.
func aSecond() time.Time { return time.Now().Add(-time.Hour).Truncate(time.Second) }

// overwrite writes text into the file full in place (the same inode, as an editor
// saving over a file does) and sets its modification time to mtime.
func overwrite(t *testing.T, full, text string, mtime time.Time) {
	t.Helper()
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(full, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// lstat returns the stat data of the file full.
func lstat(t *testing.T, full string) syscall.Stat_t {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Lstat(full, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// readIndex decodes the index of the repository dir.
func readIndex(t *testing.T, dir string) *index.Index {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(raw)).Decode(idx); err != nil {
		t.Fatal(err)
	}
	return idx
}

// setIndexTime sets the modification time of dir's index file, the time git judges
// its entries' times by.
func setIndexTime(t *testing.T, dir string, when time.Time) {
	t.Helper()
	if err := os.Chtimes(filepath.Join(dir, ".git", "index"), when, when); err != nil {
		t.Fatal(err)
	}
}

// gitSees is `git status --porcelain` run as a reader only (--no-optional-locks):
// plain git status writes the index when it can, which smudges racy entries itself.
func gitSees(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(run(t, dir, "--no-optional-locks", "status", "--porcelain", "-uno"), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// setEntryStat gives the index entry of name the stat data its file has now (the
// times to the nanosecond, the inode, the owner) and the size size, and the index
// file the time indexTime: what MemoTree and git record of a file whose content
// changed within one tick of the clock after its stat data was taken, which a test
// cannot bring about otherwise (the change time is the kernel's). The index is
// written by go-git's encoder.
func setEntryStat(t *testing.T, dir, name string, size uint32, indexTime time.Time) {
	t.Helper()
	st := lstat(t, filepath.Join(dir, name))
	idx := readIndex(t, dir)
	e, err := idx.Entry(name)
	if err != nil {
		t.Fatal(err)
	}
	e.CreatedAt, e.ModifiedAt = time.Unix(st.Ctim.Unix()), time.Unix(st.Mtim.Unix())
	e.Dev, e.Inode, e.UID, e.GID, e.Size = uint32(st.Dev), uint32(st.Ino), st.Uid, st.Gid, size
	var b bytes.Buffer
	if err := index.NewEncoder(&b).Encode(idx); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "index"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	setIndexTime(t, dir, indexTime)
}

// TestStatusHashesRacilyCleanEntries: Status and a Tracker hash a file whose stat data
// match its index entry to the nanosecond where git would: when the entry was
// modified in the second the index was written though before the index itself (git
// compares whole seconds), and when the entry was smudged (size 0 beside the hash of
// a file that was not empty) and the file is empty now.
func TestStatusHashesRacilyCleanEntries(t *testing.T) {
	const name = "n1.md"
	for _, c := range []struct {
		what string
		// change rewrites the note at full, modified at mtime, and sets its entry's stat
		// data and the index's time.
		change func(t *testing.T, b, full string, mtime time.Time)
	}{
		{"rewritten in the second the index was written", func(t *testing.T, b, full string, mtime time.Time) {
			text := strings.Replace(read(t, b, name), "one", "ONE", 1)
			overwrite(t, full, text, mtime)
			setEntryStat(t, b, name, uint32(len(text)), mtime.Add(500*time.Millisecond))
		}},
		{"smudged, then emptied", func(t *testing.T, b, full string, mtime time.Time) {
			overwrite(t, full, "", mtime)
			setEntryStat(t, b, name, 0, mtime.Add(2*time.Second))
		}},
	} {
		t.Run(c.what, func(t *testing.T) {
			_, _, b := clones(t)
			rb := open(t, b)
			tracker := gitrepo.NewTracker(rb)
			if _, err := tracker.Status(t.Context()); err != nil {
				t.Fatal(err)
			}
			c.change(t, b, filepath.Join(b, name), aSecond().Add(100*time.Millisecond))
			want := []gitrepo.Change{{Path: name, State: gitrepo.Modified}}
			if got := gitSees(t, b); !slices.Equal(got, []string{" M " + name}) {
				t.Fatalf("git status = %q, want %s modified", got, name)
			}
			for what, status := range map[string]func() ([]gitrepo.Change, error){
				"Status":         func() ([]gitrepo.Change, error) { return rb.Status(t.Context()) },
				"Tracker.Status": func() ([]gitrepo.Change, error) { return tracker.Status(t.Context()) },
			} {
				changes, err := status()
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, changes); d != "" {
					t.Errorf("%s (-want +got):\n%s", what, d)
				}
			}
		})
	}
}
