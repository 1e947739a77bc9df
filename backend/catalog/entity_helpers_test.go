package catalog_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// entFixture is a small vault: people, a project, links of every form and a manual.
var entFixture = map[string]string{
	"meta.md": "# Manual\n\n## Entity types\n\n- person\n- project\n\n## Relation vocabulary\n\n- collaborator of\n",
	"people/Ada Lovelace.md": "---\nentity type: person\naliases:\n  - Ada\nrelations:\n  - relation type: collaborator of\n    relation to: \"[[Charles Babbage]]\"\ntags: [history]\n---\n\n" +
		"# Ada Lovelace\n\nWrote notes on the [[Engine|Analytical Engine]].\n\n## Later life\n\nborn in 1816\n",
	"people/Charles Babbage.md": "---\nentity type: person\nrelations:\n  - relation type: collaborator of\n    relation to: Ada Lovelace\n---\n\n" +
		"# Charles Babbage\n\nWorked with [[Ada Lovelace]] and [[Ada Lovelace#Later life|her later years]].\n",
	"Engine.md": "# Engine\n\nSee ![[Ada Lovelace]] and [Ada](people/Ada%20Lovelace.md#Later%20life).\n\n" +
		"| who | link |\n|---|---|\n| Ada | [[people/Ada Lovelace\\|Ada]] |\n",
	"notes/Plain.md": "No links here.\n",
}

// entHarness is a workspace on a vault in a temporary folder with the catalogue
// registered.
type entHarness struct {
	t      testing.TB
	dir    string // the vault
	parent string // the temporary folder holding the vault
	ws     *workspace.Workspace
	reg    *tool.Registry
}

// entNew writes files into a fresh vault and opens it.
func entNew(t testing.TB, files map[string]string, o workspace.Options) *entHarness {
	t.Helper()
	parent := t.TempDir()
	dir := filepath.Join(parent, "vault")
	for name, text := range files {
		entWrite(t, filepath.Join(dir, filepath.FromSlash(name)), text)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return entOpen(t, parent, dir, o)
}

// entOpen opens a workspace on dir and registers the catalogue.
func entOpen(t testing.TB, parent, dir string, o workspace.Options) *entHarness {
	t.Helper()
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: dir}}, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	reg := tool.NewRegistry()
	if err := catalog.Register(reg, catalog.Deps{SearchTimeout: testSearchTimeout, Libraries: ws}); err != nil {
		t.Fatal(err)
	}
	return &entHarness{t: t, dir: dir, parent: parent, ws: ws, reg: reg}
}

// lib returns the harness's library.
func (h *entHarness) lib() *library.Library {
	l, err := h.ws.Library("")
	if err != nil {
		h.t.Fatal(err)
	}
	return l
}

// graph returns the harness's graph, failing the test when the scan failed.
func (h *entHarness) graph() *graph.Graph {
	h.t.Helper()
	g, err := h.lib().Graph(h.t.Context())
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// call runs a tool as the agent; a Go error fails the test.
func (h *entHarness) call(name, args string) tool.Result {
	h.t.Helper()
	res, err := h.reg.Call(h.t.Context(), &tool.Call{Actor: tool.ActorAgent, Turn: "t1"}, name, json.RawMessage(args))
	if err != nil {
		h.t.Fatalf("%s(%s): infrastructure error: %v", name, args, err)
	}
	return res
}

// ok runs a tool and fails the test unless it succeeded; it returns the data as JSON
// values.
func (h *entHarness) ok(name, args string) map[string]any {
	h.t.Helper()
	res := h.call(name, args)
	if res.Status != tool.StatusSuccess {
		h.t.Fatalf("%s(%s) = %s %s: %s", name, args, res.Status, res.ErrorCode, res.Message)
	}
	return entData(h.t, res)
}

// entData returns a result's data decoded as generic JSON.
func entData(t testing.TB, res tool.Result) map[string]any {
	t.Helper()
	var back tool.Result
	if err := json.Unmarshal(res.JSON(), &back); err != nil {
		t.Fatal(err)
	}
	m, _ := back.Data.(map[string]any)
	return m
}

// read returns a vault file's content.
func (h *entHarness) read(name string) string {
	h.t.Helper()
	b, err := os.ReadFile(filepath.Join(h.dir, filepath.FromSlash(name)))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

// entWrite writes a file, creating its folder.
func entWrite(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// entTree hashes every file under dir (relative slash path → SHA-256), folders
// included as "dir/".
func entTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(s[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// entCopyTree copies the folder src into dst.
func entCopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// entGit runs git in dir with a fixed identity and returns its output.
func entGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "core.quotepath=off", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
