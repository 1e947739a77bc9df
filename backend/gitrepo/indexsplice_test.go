package gitrepo

import (
	"bytes"
	"crypto/sha1"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// gitIn runs git in dir with a fixed identity and no user configuration.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@invalid")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// goGitSplice is updateIndex's way for the indexes spliceIndex leaves to go-git: the
// index decoded, set applied (setEntries), and encoded again.
func goGitSplice(t *testing.T, raw []byte, set map[string]*index.Entry, racy *racyCheck) []byte {
	t.Helper()
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(raw)).Decode(idx); err != nil {
		t.Fatal(err)
	}
	if err := setEntries(idx, set, racy); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := index.NewEncoder(&b).Encode(idx); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// newEntry is an index entry as Repo.entry makes one.
func newEntry(name string, seed byte) *index.Entry {
	return &index.Entry{Name: name, Hash: plumbing.Hash{seed, 1, 2, 3}, Mode: filemode.Regular,
		CreatedAt: time.Unix(1_700_000_000, int64(seed)*1000), ModifiedAt: time.Unix(1_700_000_100, 999_999_999),
		Dev: 2049, Inode: uint32(seed) * 7, UID: 1000, GID: 100, Size: uint32(seed) * 11}
}

// TestSpliceIndexAsGoGit compares spliceIndex byte for byte with go-git's decode and
// encode, on indexes of version 2 and 3 written by git (with cached trees, an
// intent-to-add entry and a conflict), for edits, deletions, additions, a file in
// place of a folder and a folder in place of a file; and with every entry racily
// clean, where the kept entries the check finds stale are smudged in both, and with
// none, where no entry is checked.
func TestSpliceIndexAsGoGit(t *testing.T) {
	for _, version := range []string{"2", "3"} {
		dir := t.TempDir()
		files := map[string]string{"a.md": "a", "b.md": "b", "dir/x.md": "x", "dir/y.md": "y", "f": "file", "z/deep/n.md": "n",
			"Ünïcode name.md": "u", strings.Repeat("long", 60) + ".md": "l"}
		for p, c := range files {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
			os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
		}
		gitIn(t, dir, "init", "-q")
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-qm", "one")
		gitIn(t, dir, "checkout", "-qb", "side")
		os.WriteFile(filepath.Join(dir, "b.md"), []byte("side"), 0o644)
		gitIn(t, dir, "commit", "-qam", "side")
		gitIn(t, dir, "checkout", "-q", "-")
		os.WriteFile(filepath.Join(dir, "b.md"), []byte("main"), 0o644)
		gitIn(t, dir, "commit", "-qam", "main")
		cmd := exec.Command("git", "merge", "-q", "side") // a conflict on b.md: three stages
		cmd.Dir = dir
		_ = cmd.Run()
		os.WriteFile(filepath.Join(dir, "new.md"), []byte("n"), 0o644)
		if version == "3" {
			gitIn(t, dir, "add", "-N", "new.md") // an intent-to-add entry: extended flags
		}
		gitIn(t, dir, "update-index", "--index-version", version)
		raw, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		for name, set := range map[string]map[string]*index.Entry{
			"edits":             {"a.md": newEntry("a.md", 1), "dir/y.md": newEntry("dir/y.md", 2)},
			"conflict resolved": {"b.md": newEntry("b.md", 3)},
			"deletion":          {"dir/x.md": nil, "z/deep/n.md": nil},
			"additions":         {"0first.md": newEntry("0first.md", 4), "zz/last.md": newEntry("zz/last.md", 5), "c.md": newEntry("c.md", 6)},
			"file for folder":   {"dir": newEntry("dir", 7)},
			"folder for file":   {"f/inside.md": newEntry("f/inside.md", 8)},
			"nothing":           {},
		} {
			// Nothing is racy from 2106 on: an entry that is not is never read again.
			noneRacy := &racyCheck{since: 1 << 32, stale: func(e *ientry) bool {
				t.Errorf("version %s, %s: %s, which is not racily clean, was read again", version, name, e.name)
				return true
			}}
			for _, racy := range []*racyCheck{nil, staleNames("a.md", "b.md", "dir/y.md", "f", "new.md", "z/deep/n.md"), noneRacy} {
				got, ok, err := spliceIndex(raw, set, racy)
				if err != nil || !ok {
					t.Fatalf("version %s, %s: ok %v, %v", version, name, ok, err)
				}
				if want := goGitSplice(t, raw, set, racy); !bytes.Equal(got, want) {
					t.Errorf("version %s, %s, racy %v: the spliced index differs from go-git's (%d and %d bytes)", version, name,
						racy != nil, len(got), len(want))
				}
				checkSmudged(t, raw, got, set, racy)
			}
		}
	}
}

// TestSpliceIndexLeavesToGoGit: version 4, a damaged checksum, an unsorted index and
// a split index are not spliced.
func TestSpliceIndexLeavesToGoGit(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.md"), []byte("b"), 0o644)
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A")
	raw, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	set := map[string]*index.Entry{"a.md": newEntry("a.md", 1)}
	if _, ok, _ := spliceIndex(raw, set, nil); !ok {
		t.Fatal("a plain version 2 index was not spliced")
	}
	damaged := bytes.Clone(raw)
	damaged[len(damaged)-1] ^= 1
	if _, ok, _ := spliceIndex(damaged, set, nil); ok {
		t.Error("an index with a wrong checksum was spliced")
	}
	swapped := bytes.Clone(raw) // b.md before a.md, checksum made right
	i := bytes.Index(swapped, []byte("a.md"))
	j := bytes.Index(swapped, []byte("b.md"))
	swapped[i], swapped[j] = 'b', 'a'
	end := len(swapped) - 20
	sum := sha1Sum(swapped[:end])
	copy(swapped[end:], sum)
	if _, ok, _ := spliceIndex(swapped, set, nil); ok {
		t.Error("an unsorted index was spliced")
	}
	gitIn(t, dir, "update-index", "--index-version", "4")
	raw4, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if _, ok, _ := spliceIndex(raw4, set, nil); ok {
		t.Error("a version 4 index was spliced")
	}
	for _, sig := range []string{"link", "sdir"} { // a split or sparse index's extension
		ext := append(bytes.Clone(raw[:len(raw)-20]), sig+"\x00\x00\x00\x00"...)
		if _, ok, _ := spliceIndex(append(ext, sha1Sum(ext)...), set, nil); ok {
			t.Errorf("an index with the %s extension was spliced", sig)
		}
	}
}

// sha1Sum is the index's checksum of b.
func sha1Sum(b []byte) []byte {
	s := sha1.Sum(b)
	return s[:]
}

// FuzzSpliceIndex: an index file with a right checksum and anything inside it is
// spliced or left to go-git, never a panic, and a spliced index reads back, with the
// entries a racy check finds stale smudged and no other changed.
func FuzzSpliceIndex(f *testing.F) {
	// The seeds are index files without their checksum, which the target appends.
	withSum := func(b []byte) []byte { return append(b, sha1Sum(b)...) }
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"))
	// An entry with extended flags (version 3), padded to 72 bytes.
	f.Add(append(append([]byte("DIRC\x00\x00\x00\x03\x00\x00\x00\x01"), make([]byte, 60)...), "\x40\x01\x00\x00a\x00\x00\x00\x00\x00\x00\x00"...))
	// An entry padded to 64 bytes, then a cached tree.
	f.Add(append(append([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01"), make([]byte, 60)...), "\x00\x01a\x00TREE\x00\x00\x00\x01x"...))
	racyEntry := make([]byte, 62) // modified at the end of time, size 5, "x": racy and stale
	copy(racyEntry[8:], "\xff\xff\xff\xff")
	copy(racyEntry[24:], "\x00\x00\x81\xa4")
	copy(racyEntry[36:], "\x00\x00\x00\x05")
	copy(racyEntry[60:], "\x00\x01")          // flags: a name of 1 byte
	racyEntry = append(racyEntry, "x\x00"...) // and one NUL: 64 bytes
	f.Add(append([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01"), racyEntry...))
	f.Fuzz(func(t *testing.T, body []byte) {
		raw := withSum(body)
		set := map[string]*index.Entry{"a": newEntry("a", 1), "b/c": nil}
		racy := &racyCheck{since: 1 << 20, stale: func(e *ientry) bool { return len(e.name)%2 == 1 }}
		out, ok, _ := spliceIndex(raw, set, racy)
		if !ok {
			return
		}
		if _, _, err := parseIndex(string(out)); err != nil {
			t.Fatalf("a spliced index does not read back: %v", err)
		}
		checkSmudged(t, raw, out, set, racy)
	})
}

// staleNames is a racy check to which every entry is racily clean, and those named
// differ from their files.
func staleNames(names ...string) *racyCheck {
	return &racyCheck{since: 0, stale: func(e *ientry) bool { return slices.Contains(names, e.name) }}
}

// checkSmudged checks out, the index raw spliced with set: an entry kept from raw
// has size 0 if it is racily clean by racy's time, at stage 0, neither a submodule
// nor intent-to-add, not empty, and stale by racy's judgement; else its size in raw.
func checkSmudged(t *testing.T, raw, out []byte, set map[string]*index.Entry, racy *racyCheck) {
	t.Helper()
	in, _, err := parseIndex(string(raw))
	if err != nil {
		t.Fatalf("the index spliced does not read: %v", err)
	}
	type key struct {
		name  string
		stage uint8
	}
	sizes := map[key]uint32{}
	for _, e := range in {
		sizes[key{e.name, e.stage}] = e.size
	}
	entries, _, err := parseIndex(string(out))
	if err != nil {
		t.Fatalf("a spliced index does not read back: %v", err)
	}
	for i := range entries {
		e := &entries[i]
		if _, named := set[e.name]; named {
			continue
		}
		want := sizes[key{e.name, e.stage}]
		if racy != nil && int64(e.mtimeS) >= racy.since && e.stage == 0 && e.mode != filemode.Submodule && !e.intentToAdd &&
			!e.skipWorktree && racy.stale(e) {
			want = 0
		}
		if e.size != want {
			t.Errorf("%s (stage %d) was written with size %d, want %d", e.name, e.stage, e.size, want)
		}
	}
}
