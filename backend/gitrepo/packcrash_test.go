package gitrepo_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/crashtest"
)

// copyTree copies the folder from to to, modes and times kept.
func copyTree(t *testing.T, from, to string) string {
	t.Helper()
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v %s", from, err, out)
	}
	return to
}

// packNames lists the files of dir's objects/pack.
func packNames(t *testing.T, dir string) map[string]bool {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, ".git", "objects", "pack"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, e := range ents {
		out[e.Name()] = true
	}
	return out
}

// fetchedPack pulls in a copy of the template and returns the base name (pack-<sum>)
// of the pack the fetch wrote, and the folder of that copy.
func fetchedPack(t *testing.T, root, template string) (base, full string) {
	t.Helper()
	before := packNames(t, template)
	full = copyTree(t, template, filepath.Join(root, "full"))
	_, r := openRecovered(t, full)
	if _, err := r.Pull(t.Context(), gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	for name := range packNames(t, full) {
		if b, ok := strings.CutSuffix(name, ".pack"); ok && !before[name] {
			return b, full
		}
	}
	t.Fatal("the pull wrote no pack")
	return "", ""
}

// TestKilledFetchPackIsRepaired leaves the pack folder as go-git's fetch leaves it when
// killed while writing a pack's index under its final name (the pack still under its
// temporary name), as the next fetch of an older MemoTree then left it (the pack renamed
// beside the truncated index), and with a pack whose index is missing. git fsck fails
// on each; opening the repository mends it, git fsck --strict passes and a pull
// completes the merge.
func TestKilledFetchPackIsRepaired(t *testing.T) {
	root, template := pullTemplate(t)
	base, full := fetchedPack(t, root, template)
	pack, err := os.ReadFile(filepath.Join(full, ".git", "objects", "pack", base+".pack"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := os.ReadFile(filepath.Join(full, ".git", "objects", "pack", base+".idx"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		files map[string][]byte
	}{
		{"index cut short, pack still temporary", map[string][]byte{base + ".idx": idx[:len(idx)/2], "tmp_pack_1234": pack}},
		{"index cut short beside its pack", map[string][]byte{base + ".idx": idx[:len(idx)/2], base + ".pack": pack}},
		{"index cut in its trailer beside its pack", map[string][]byte{base + ".idx": idx[:len(idx)-7], base + ".pack": pack}},
		{"pack without index", map[string][]byte{base + ".pack": pack}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyTree(t, template, filepath.Join(root, fmt.Sprint("a", i)))
			for name, data := range c.files {
				if err := os.WriteFile(filepath.Join(dir, ".git", "objects", "pack", name), data, 0o444); err != nil {
					t.Fatal(err)
				}
			}
			if c.files[base+".idx"] != nil && c.files[base+".pack"] != nil {
				if out, err := tryGit(dir, "fsck", "--strict", "--no-progress", "--no-dangling"); err == nil {
					t.Fatalf("git fsck passes on the damaged pack folder, so this case shows nothing:\n%s", out)
				}
			}
			merged, res := checkKilledPull(t, dir, c.name, false)
			if merged != 0 || res.Outcome != gitrepo.PullMerged {
				t.Fatalf("%d notes merged before the pull, then %s; want none, then merged", merged, res.Outcome)
			}
			if got := packNames(t, dir); !got[base+".idx"] && got[base+".pack"] {
				t.Fatalf("%s.pack has no index after the repair: %v", base, got)
			}
		})
	}
}

// TestSIGKILLMidPackWrite kills a pulling process while it writes the fetched pack's
// index, and between that index's rename and the pack's: after each, git fsck --strict
// passes and the next pull completes the merge.
func TestSIGKILLMidPackWrite(t *testing.T) {
	root, template := pullTemplate(t)
	for _, at := range []string{"idx", "pack"} {
		t.Run(at, func(t *testing.T) {
			dir := copyTree(t, template, filepath.Join(root, "kill-"+at))
			c := crashtest.Start(t, "TestPullKillChild", "MT_PULL_KILL_VAULT="+dir, "MT_PULL_KILL_AT="+at)
			c.Await(t, "paused at "+at, time.Minute)
			c.Kill(t)
			checkKilledPull(t, dir, "killed at "+at, false)
		})
	}
}
