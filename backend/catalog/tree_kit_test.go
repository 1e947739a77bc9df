package catalog_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// The helpers of the relation, tree, search and memory tests are prefixed "kit" so
// they cannot collide with the other families' test helpers in this package.

// kitDemo is the shipped demo vault, which tests copy and never write to.
const kitDemo = "../../demo/vault"

// kitCopy copies the vault at src into a fresh "vault" folder under a temporary
// folder and returns the copy's path; the temporary folder holds nothing else, so a
// snapshot of it shows any file written outside the vault.
func kitCopy(t testing.TB, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "vault")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
	return dst
}

// kitOpen mounts dir as library "t" (and extra as further libraries) and returns a
// registry holding the whole catalogue.
func kitOpen(t testing.TB, dir string, extra ...workspace.Spec) *tool.Registry {
	t.Helper()
	specs := append([]workspace.Spec{{Name: "t", Path: dir}}, extra...)
	ws, err := workspace.Open(t.Context(), specs, workspace.Options{})
	if err != nil {
		t.Fatalf("open workspace: %v", err)
	}
	t.Cleanup(func() { ws.Close() })
	reg := tool.NewRegistry()
	if err := catalog.Register(reg, catalog.Deps{SearchTimeout: testSearchTimeout, Libraries: ws}); err != nil {
		t.Fatalf("register: %v", err)
	}
	return reg
}

// kitCall calls a tool as the agent and fails the test on an infrastructure error.
func kitCall(t testing.TB, reg *tool.Registry, name, args string) tool.Result {
	t.Helper()
	res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorAgent, Turn: "t1"}, name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s(%s): infrastructure error: %v", name, kitShort(args), err)
	}
	return res
}

// kitData returns the result's data as generic JSON, as MCP clients see it.
func kitData(t testing.TB, res tool.Result) map[string]any {
	t.Helper()
	var back tool.Result
	if err := json.Unmarshal(res.JSON(), &back); err != nil {
		t.Fatalf("result does not round-trip: %v", err)
	}
	m, _ := back.Data.(map[string]any)
	return m
}

// kitWant fails unless the result has the status wanted.
func kitWant(t testing.TB, res tool.Result, status tool.Status) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %s, want %s:\n%s", res.Status, status, res.YAML())
	}
}

// kitSnapshot hashes every file under root, by slash path.
func kitSnapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "vault/.memotree/") {
			return nil // the app's own lock and caches
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(sum[:8])
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot %s: %v", root, err)
	}
	return out
}

// kitSame fails when the snapshots differ.
func kitSame(t testing.TB, before, after map[string]string, what string) {
	t.Helper()
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("%s changed files (-before +after):\n%s", what, d)
	}
}

// kitShort clips a long argument for a test name or message.
func kitShort(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// kitRead returns a file of the vault as a string.
func kitRead(t testing.TB, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("read %s: %v", rel, err)
	}
	return string(b)
}

// kitWrite writes a file of the vault.
func kitWrite(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
