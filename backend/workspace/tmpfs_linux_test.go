//go:build linux

package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
)

// smallDisk mounts a tmpfs of size bytes on a new folder and returns it; the test is
// skipped, saying why, where mounting is not permitted (not root, or in a container
// without the capability). TestToolsOnAFullDisk covers the same paths everywhere.
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0755", size)); err != nil {
		t.Skipf("cannot mount a small tmpfs here (%v): the full disk is tested through the injected faults of TestToolsOnAFullDisk instead", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// fill writes a file in dir until the disk is full, then shortens it to leave about
// free bytes.
func fill(t *testing.T, dir string, free int64) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	var n int64
	for {
		m, err := f.Write(chunk)
		n += int64(m)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Truncate(max(0, n-free)); err != nil {
		t.Fatal(err)
	}
}

// TestToolsOnASmallTmpfs is the full disk for real: a vault on a 2 MB tmpfs, filled
// up to a few KB. Renaming a note 60 others link to, a script that creates notes
// until the disk is full, a large update and a git commit each answer disk_full with
// what to free (never an internal error: the rename panicked here once), leave no
// temporary file in the vault or in .git, and leave the vault, the index and HEAD as
// they were (the commit may leave the blobs it wrote, unreferenced, which git gc
// removes).
func TestToolsOnASmallTmpfs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	disk := smallDisk(t, 2<<20)
	dir := filepath.Join(disk, "vault")
	files := map[string]string{"Hub.md": "# Hub\n"}
	for i := range 60 {
		files[fmt.Sprintf("n/%02d.md", i)] = fmt.Sprintf("# %d\n\n%s[[Hub]]\n", i, strings.Repeat("words ", 40))
	}
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "initial")
	if err := os.WriteFile(filepath.Join(dir, "n", "00.md"), []byte("# 0\n\nchanged, to commit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	fill(t, disk, 6<<10)
	head := gitIn(t, dir, "rev-parse", "HEAD")
	index, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	before := tree(t, dir, true)

	big := strings.Repeat("a long line of the update that does not fit\n", 2000)
	script := `
for i in range(300):
    create_entity(entity_name="made/n" + str(1000 + i)[1:], content="` + strings.Repeat("x", 3000) + `")
__result__ = "all"
`
	calls := []struct{ tool, args string }{
		{"rename_entity", `{"old_name":"Hub","new_name":"elsewhere/Spoke"}`},
		{"run_starlark", mustJSON(map[string]string{"target": "fill the disk", "code": script})},
		{"update_entity", mustJSON(map[string]string{"entity_name": "n/01", "content": big, "mode": "append"})},
		{"git_commit", `{"message":"on a full disk"}`},
	}
	for _, c := range calls {
		res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorCLI, Approved: true}, c.tool, json.RawMessage(c.args))
		if res.ErrorCode != tool.CodeDiskFull || !strings.Contains(res.Message, "free") {
			t.Errorf("%s on a full disk: %v %s %q; want disk_full saying what to free", c.tool, err, res.ErrorCode, res.Message)
		}
		var left []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && (strings.HasPrefix(d.Name(), vault.TempPrefix) || strings.HasPrefix(d.Name(), "tmp_obj_") || d.Name() == "index.lock") {
				left = append(left, p)
			}
			return nil
		})
		if len(left) > 0 {
			t.Errorf("%s left temporary files: %v", c.tool, left)
		}
		if d := cmp.Diff(before, tree(t, dir, true)); d != "" {
			t.Errorf("%s changed the vault (-want +got):\n%s", c.tool, d)
		}
	}
	if got := gitIn(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved: %s → %s", head, got)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, ".git", "index")); string(now) != string(index) {
		t.Error("the failed commit changed the git index")
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree", "intent.json")); !os.IsNotExist(err) {
		t.Errorf("a batch's intent is left: %v", err)
	}
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
