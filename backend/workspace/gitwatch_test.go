package workspace

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/internal/wait"
)

// TestGitTrackerFollowsTheWatcher: in a watched workspace the status tracker learns of
// an outside edit and of a tool's write through the library's notifications alone.
func TestGitTrackerFollowsTheWatcher(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: install it (apt-get install git)")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@invalid", "commit", "-qm", "a"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{Watch: true, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	tr, err := ws.GitTracker("")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := ws.GitTracker("v"); again != tr {
		t.Fatal("a watched workspace made a second tracker for the same library")
	}
	// waitFor waits for the tracker's status, less the operation log (its own
	// change set), to be as ok wants.
	waitFor := func(what string, ok func([]gitrepo.Change) bool) {
		t.Helper()
		wait.Until(t, what, func() error {
			all, err := tr.Status(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			var st []gitrepo.Change
			for _, c := range all {
				if c.Path != "journey.yaml" {
					st = append(st, c)
				}
			}
			if !ok(st) {
				return fmt.Errorf("status %v", st)
			}
			return nil
		})
	}
	waitFor("a clean status", func(st []gitrepo.Change) bool { return len(st) == 0 })
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n\nedited outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor("the outside edit in the status", func(st []gitrepo.Change) bool {
		return len(st) == 1 && st[0].Path == "a.md" && st[0].State == gitrepo.Modified
	})
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]any{"entity_name": "B", "entity_type": "note", "content": "made by a tool"})
	if res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorUser}, "create_entity", args); err != nil || res.IsError() {
		t.Fatalf("create_entity: %v %+v", err, res)
	}
	waitFor("the tool's write in the status", func(st []gitrepo.Change) bool {
		return len(st) == 2 && st[0].Path == "B.md" && st[0].State == gitrepo.Untracked
	})
}
