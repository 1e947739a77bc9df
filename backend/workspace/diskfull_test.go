package workspace

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
)

// fullDiskSeed is the vault of the disk-full tests: a note five others link to.
var fullDiskSeed = func() map[string]string {
	m := map[string]string{"Hub.md": "# Hub\n\nThe middle.\n", "Other.md": "# Other\n\nSee [[Hub]].\n", "journey.yaml": ""}
	for i := range 5 {
		m[fmt.Sprintf("n/%02d.md", i)] = fmt.Sprintf("# %d\n\nLinks to [[Hub]] and [[Other]].\n", i)
	}
	return m
}()

// fullDiskCall is one tool call of the disk-full tests.
type fullDiskCall struct {
	tool string
	args string
}

var fullDiskCalls = []fullDiskCall{
	{"update_entity", `{"entity_name":"Hub","content":"appended","mode":"append"}`},
	{"create_entity", `{"entity_name":"deep/er/New","content":"new [[Hub]]"}`},
	{"rename_entity", `{"old_name":"Hub","new_name":"folder/Spoke"}`},
	{"move_entity", `{"entity_name":"Other","folder":"moved/here"}`},
	{"merge_entities", `{"source_names":["Other"],"target_name":"Hub"}`},
	{"delete_entities", `{"entity_names":["n/00","n/01"]}`},
	{"create_relations", `{"relations":[{"from":"n/02","to":"Hub","type":"part of"},{"from":"Other","to":"n/03","type":"see also"}]}`},
	{"run_starlark", `{"target":"t","code":"create_entity(entity_name=\"s/one\", content=\"1\")\nupdate_entity(entity_name=\"Hub\", content=\"by the script\", mode=\"append\")\ncreate_entity(entity_name=\"s/two\", content=\"2\")\ndelete_entities(entity_names=[\"n/04\"])\n__result__ = 1"}`},
}

// seedIn writes fullDiskSeed into a new folder (in memory where the machine has one).
func seedIn(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "memotree-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			dir = d
		}
	}
	for p, c := range fullDiskSeed {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// tree is every file and folder of dir but .memotree and .git: path → content ("/"
// for a folder).
func tree(t *testing.T, dir string, journey bool) map[string]string {
	t.Helper()
	out := vaulttest.Read(t, dir, ".memotree", ".git")
	if !journey {
		delete(out, "journey.yaml")
	}
	return out
}

func keysOf(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// callWith runs c on a fresh copy of the seed with hook injected, and returns the
// folder, the result and the call's Go error.
func callWith(t *testing.T, c fullDiskCall, hook fsfault.Hook) (string, tool.Result, error) {
	t.Helper()
	dir := seedIn(t)
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	restore := fsfault.Inject(hook)
	res, cerr := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorCLI, Approved: true}, c.tool, json.RawMessage(c.args))
	restore()
	return dir, res, cerr
}

// TestToolsOnAFullDisk runs the writing tools — a note's update and creation, rename,
// move, merge, delete, relations, and a script's change set — with the disk failing
// at each step of their writes, once or for good (ENOSPC). A call either succeeds
// whole or answers error_code disk_full with what to free, never an internal error or
// a panic; it leaves no temporary file, and the vault (notes, folders and journey) is
// byte-identical — or, for a batch the disk stopped after it was decided (a
// script's changes among them), whole once the next process opens the vault.
func TestToolsOnAFullDisk(t *testing.T) {
	for _, c := range fullDiskCalls {
		t.Run(c.tool, func(t *testing.T) {
			var steps atomic.Int64
			dir, res, err := callWith(t, c, fsfault.FailAt(0, nil, &steps))
			if err != nil || res.IsError() {
				t.Fatalf("without a fault: %v %+v", err, res)
			}
			after := keysOf(tree(t, dir, false))
			before := tree(t, seedIn(t), true)
			total := int(steps.Load())
			if total < 3 {
				t.Fatalf("%d steps: the seam is not reached", total)
			}
			for _, from := range []bool{false, true} {
				for n := 1; n <= total; n++ {
					var count atomic.Int64
					hook := fsfault.FailAt(n, syscall.ENOSPC, &count)
					if from {
						hook = fsfault.FailFrom(n, syscall.ENOSPC, &count)
					}
					where := fmt.Sprintf("%s, step %d of %d (the disk full from then on: %v)", c.tool, n, total, from)
					dir, res, err := callWith(t, c, hook)
					checkFullDisk(t, where, c, dir, res, err, before, after)
				}
			}
		})
	}
}

func checkFullDisk(t *testing.T, where string, c fullDiskCall, dir string, res tool.Result, err error, before map[string]string, after []string) {
	t.Helper()
	if res.ErrorCode == tool.CodeInternal || err != nil && res.ErrorCode != tool.CodeDiskFull {
		t.Errorf("%s: %v %+v", where, err, res)
		return
	}
	if !res.IsError() {
		if d := cmp.Diff(after, keysOf(tree(t, dir, false))); d != "" {
			t.Errorf("%s: succeeded (%s, warnings %q) but the change is not whole (-want +got):\n%s", where, res.Message, res.Warnings, d)
		}
		return
	}
	if res.ErrorCode != tool.CodeDiskFull || !strings.Contains(res.Message, "free") {
		t.Errorf("%s: %s %q, want disk_full saying what to free", where, res.ErrorCode, res.Message)
	}
	pending := strings.Contains(res.Message, "completed at the next write or open")
	if pending {
		// The next process to open the vault finishes a batch the disk stopped.
		v, err := vault.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := v.Recover(t.Context()); err != nil {
			t.Errorf("%s: recover: %v", where, err)
		}
		v.Close()
	}
	var left []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), vault.TempPrefix) {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("%s: temporary files left: %v", where, left)
	}
	if pending {
		// Decided before the disk failed: the next open completed it.
		if d := cmp.Diff(after, keysOf(tree(t, dir, false))); d != "" {
			t.Errorf("%s: %s; after the next open the change is not whole (-want +got):\n%s", where, res.Message, d)
		}
		return
	}
	if d := cmp.Diff(before, tree(t, dir, true)); d != "" {
		t.Errorf("%s: failed (%s) but changed the vault (-want +got):\n%s", where, res.Message, d)
	}
}

// TestJourneyFailureIsAWarning: when only the journey's record of a write fails, the
// write stands and the call succeeds with a warning saying so — a failure would make
// the caller retry, and append twice.
func TestJourneyFailureIsAWarning(t *testing.T) {
	journeyOnly := func(op, name string) error {
		if name == string(vault.JourneyPath) && op == "write" {
			return syscall.ENOSPC
		}
		return nil
	}
	dir, res, err := callWith(t, fullDiskCall{tool: "update_entity", args: `{"entity_name":"Hub","content":"appended once","mode":"append"}`}, journeyOnly)
	if err != nil || res.Status != tool.StatusSuccess {
		t.Fatalf("update_entity with the journey failing: %v %+v", err, res)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "journey") || !strings.Contains(res.Warnings[0], "Hub.md was saved") {
		t.Errorf("warnings %q; want one saying the note was saved and the journey missed it", res.Warnings)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "Hub.md"))
	if strings.Count(string(b), "appended once") != 1 {
		t.Errorf("Hub.md:\n%s", b)
	}
	if j, _ := os.ReadFile(filepath.Join(dir, "journey.yaml")); len(j) != 0 {
		t.Errorf("journey.yaml holds a torn entry: %q", j)
	}
}
