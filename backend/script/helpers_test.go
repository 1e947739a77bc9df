package script

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
)

// libs is a minimal workspace for tests inside this package (the real one imports
// this package): mounted libraries, every permission write.
type libs struct{ ls []*library.Library }

func (w *libs) Libraries() []*library.Library     { return w.ls }
func (w *libs) Permission(string) tool.Permission { return tool.PermWrite }
func (w *libs) Library(name string) (*library.Library, error) {
	if name == "" {
		return w.ls[0], nil
	}
	for _, l := range w.ls {
		if l.Name() == name {
			return l, nil
		}
	}
	return nil, os.ErrNotExist
}

// seedNotes are the notes of the test vault.
var seedNotes = map[string]string{
	"people/Ada Lovelace.md":        "---\nentity type: person\ntags: [history]\n---\n\nFirst algorithm, for the [[Analytical Engine]].\n",
	"people/Charles Babbage.md":     "---\nentity type: person\n---\n\nDesigned the [[Analytical Engine]].\n",
	"machines/Analytical Engine.md": "---\nentity type: machine\n---\n\nA mechanical computer.\n",
	"meta.md":                       "# Manual\n\n## Types\n\nperson, machine\n",
}

// writeVault creates a vault folder with the seed notes, as a git repository with
// one commit when withGit is set.
func writeVault(t testing.TB, withGit bool) string {
	t.Helper()
	dir := t.TempDir()
	for p, s := range seedNotes {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if withGit {
		git(t, dir, "init", "-q")
		git(t, dir, "add", "-A")
		git(t, dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "seed")
	}
	return dir
}

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// treeHash is the git tree of the working tree's content (journey.yaml, the record
// of what was attempted, left out), written through a temporary index.
func treeHash(t testing.TB, dir string) string {
	t.Helper()
	idx := filepath.Join(t.TempDir(), "index")
	run := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_INDEX_FILE="+idx)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("add", "-A", "--", ".", ":!journey.yaml")
	return run("write-tree")
}

// env is a runner on one library, with its registry.
type env struct {
	dir string
	lib *library.Library
	reg *tool.Registry
	run *Runner
}

func newEnv(t testing.TB, dir string, lim Limits) *env {
	t.Helper()
	l, err := library.Open(context.Background(), "notes", dir, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	ws := &libs{ls: []*library.Library{l}}
	reg := tool.NewRegistry()
	if err := catalog.Register(reg, catalog.Deps{Libraries: ws}); err != nil {
		t.Fatal(err)
	}
	r := NewRunner(reg, lim)
	if err := reg.Register(r.Tool()); err != nil {
		t.Fatal(err)
	}
	return &env{dir: dir, lib: l, reg: reg, run: r}
}

var agent = &tool.Call{Actor: tool.ActorAgent, Turn: "t1"}

// mustRun runs code and fails the test on an infrastructure error.
func (e *env) mustRun(t testing.TB, code string, dry bool) Outcome {
	t.Helper()
	o, err := e.run.Run(t.Context(), agent, Input{Target: "test", Code: code, DryRun: dry})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return o
}
