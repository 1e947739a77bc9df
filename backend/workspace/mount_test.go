package workspace

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/tool"
)

// writeNotes writes name → content files under dir.
func writeNotes(t *testing.T, dir string, notes map[string]string) {
	t.Helper()
	for name, content := range notes {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// nextLibrariesChange waits for a libraries:changed event on ch.
func nextLibrariesChange(t *testing.T, ch <-chan event.Event) event.LibrariesChange {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e := <-ch:
			if c, ok := e.Data.(event.LibrariesChange); ok && e.Topic == event.LibrariesChanged {
				return c
			}
		case <-timeout:
			t.Fatal("no libraries:changed event")
		}
	}
}

// call runs a tool as the person and returns its result.
func call(t *testing.T, ws *Workspace, name string, args any) tool.Result {
	t.Helper()
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(args)
	res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorUser}, name, b)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestMountAndUnmountWhileRunning: a workspace opened empty takes libraries in and
// lets them go while it runs; the tools, the permissions and the event bus follow,
// and a folder closed and opened again is a fresh library (its search finds what
// was written while it was closed).
func TestMountAndUnmountWhileRunning(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeNotes(t, a, map[string]string{"zebra.md": "# Zebra\n\nstripes\n"})
	writeNotes(t, b, map[string]string{"okapi.md": "# Okapi\n\nforest\n"})
	ws, err := Open(t.Context(), nil, Options{Watch: true, AllowNone: true, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if _, err := ws.Library(""); !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("an empty workspace's default library: %v", err)
	}
	if r := call(t, ws, "list_entities", map[string]any{"entity_glob": "*"}); !r.IsError() {
		t.Errorf("a tool ran with no library open: %+v", r)
	}
	if m, err := ws.Memory(t.Context()); err != nil || m != "" {
		t.Errorf("Memory of an empty workspace = %q, %v", m, err)
	}
	ch, cancel := ws.Bus().Subscribe(64)
	defer cancel()

	if _, err := ws.Mount(t.Context(), Spec{Name: "a", Path: a}); err != nil {
		t.Fatal(err)
	}
	if c := nextLibrariesChange(t, ch); c.Opened != "a" || c.Path != a || !slices.Equal(c.Libraries, []string{"a"}) {
		t.Errorf("mount a: %+v", c)
	}
	if _, err := ws.Mount(t.Context(), Spec{Name: "b", Path: b, Permission: tool.PermRead}); err != nil {
		t.Fatal(err)
	}
	if c := nextLibrariesChange(t, ch); c.Opened != "b" || !slices.Equal(c.Libraries, []string{"a", "b"}) {
		t.Errorf("mount b: %+v", c)
	}
	if _, err := ws.Mount(t.Context(), Spec{Name: "a", Path: b}); !errors.Is(err, ErrNameTaken) {
		t.Errorf("a second library named a: %v", err)
	}
	if ws.Permission("b") != tool.PermRead || ws.Permission("a") != tool.PermPropose {
		t.Errorf("permissions: a=%s b=%s", ws.Permission("a"), ws.Permission("b"))
	}
	search := func(lib, q string) tool.Result {
		return call(t, ws, "search_nodes", map[string]any{"query": q, "library_name": lib})
	}
	if r := search("b", "okapi"); r.IsError() || !strings.Contains(r.Message, "1 ") {
		t.Errorf("search in b: %+v", r)
	}
	if r := search("a", "stripes"); r.IsError() {
		t.Errorf("search in a: %+v", r)
	}

	if err := ws.Unmount("a"); err != nil {
		t.Fatal(err)
	}
	if c := nextLibrariesChange(t, ch); c.Closed != "a" || c.Gone || !slices.Equal(c.Libraries, []string{"b"}) {
		t.Errorf("unmount a: %+v", c)
	}
	if l, err := ws.Library(""); err != nil || l.Name() != "b" {
		t.Errorf("the default after a closed: %v, %v", l, err)
	}
	if r := search("a", "stripes"); !r.IsError() {
		t.Errorf("a closed library still answers: %+v", r)
	}
	if err := ws.Unmount("a"); !errors.Is(err, ErrNoLibrary) {
		t.Errorf("closing a twice: %v", err)
	}

	// Written while closed: the reopened library reads it, its index too.
	writeNotes(t, a, map[string]string{"quagga.md": "# Quagga\n\nextinct\n"})
	if _, err := ws.Mount(t.Context(), Spec{Name: "a", Path: a}); err != nil {
		t.Fatal(err)
	}
	nextLibrariesChange(t, ch)
	if r := search("a", "extinct"); r.IsError() || !strings.Contains(r.Message, "1 ") {
		t.Errorf("search in the reopened a: %+v", r)
	}
	if r := call(t, ws, "view_canvas", map[string]any{"library_name": "a"}); r.IsError() || !strings.Contains(r.Message+string(jsonOf(r.Data)), "quagga") {
		t.Errorf("the reopened a's canvas: %+v", r)
	}
}

func jsonOf(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestDeletedFolderIsUnmounted: a vault folder deleted while open is closed, and the
// faces are told it is gone.
func TestDeletedFolderIsUnmounted(t *testing.T) {
	was := rootCheckEvery
	rootCheckEvery = 20 * time.Millisecond
	defer func() { rootCheckEvery = was }()
	parent := t.TempDir()
	a, b := filepath.Join(parent, "a"), t.TempDir()
	writeNotes(t, a, map[string]string{"x.md": "# X\n", "sub/y.md": "# Y\n"})
	ws, err := Open(t.Context(), []Spec{{Name: "a", Path: a}, {Name: "b", Path: b}}, Options{Watch: true, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ch, cancel := ws.Bus().Subscribe(256)
	defer cancel()
	if err := os.RemoveAll(a); err != nil {
		t.Fatal(err)
	}
	c := nextLibrariesChange(t, ch)
	if c.Closed != "a" || !c.Gone || c.Path != a || !slices.Equal(c.Libraries, []string{"b"}) {
		t.Errorf("after deleting a: %+v", c)
	}
	if _, err := ws.Library("a"); !errors.Is(err, ErrNoLibrary) {
		t.Errorf("a is still mounted: %v", err)
	}
}

// TestOpeningWritesNothingUntilTheFirstWrite: with OutsideCaches (the app, serve),
// opening a folder, searching it, reading the agent's canvas and its git status
// create nothing in it — no .memotree, no .gitignore — and the search index lives in
// the user's cache folder. The first write creates .memotree, the cache moves there at
// its next save, and the next open removes the outside copy.
func TestOpeningWritesNothingUntilTheFirstWrite(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	writeNotes(t, dir, map[string]string{"a.md": "# A\n\nzebra [[b]]\n", "sub/b.md": "# B\n", ".obsidian/app.json": "{}\n"})
	before := listTree(t, dir)
	o := Options{Watch: true, Background: true, OutsideCaches: true, Debounce: 10 * time.Millisecond}
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"search_nodes", map[string]any{"query": "zebra"}},
		{"view_canvas", nil},
		{"list_entities", map[string]any{"entity_glob": "**"}},
		{"read_entities", map[string]any{"entity_names": []string{"a"}}},
		{"get_backlinks", map[string]any{"entity_name": "b"}},
		{"git_status", nil},
	} {
		if r := call(t, ws, c.tool, c.args); r.IsError() && c.tool != "git_status" {
			t.Errorf("%s: %+v", c.tool, r)
		}
	}
	if err := ws.Close(); err != nil { // saves the search index
		t.Fatal(err)
	}
	if after := listTree(t, dir); !slices.Equal(before, after) {
		t.Errorf("opening changed the folder:\nbefore %v\nafter  %v", before, after)
	}
	cache, err := CacheDirFor(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cache, "search", "index.bin")); err != nil {
		t.Errorf("the search index is not in the outside cache: %v", err)
	}

	ws, err = Open(t.Context(), []Spec{{Name: "v", Path: dir}}, o)
	if err != nil {
		t.Fatal(err)
	}
	if r := call(t, ws, "create_entity", map[string]any{"entity_name": "c", "content": "okapi"}); r.IsError() {
		t.Fatalf("create_entity: %+v", r)
	}
	if r := call(t, ws, "search_nodes", map[string]any{"query": "okapi"}); r.IsError() {
		t.Errorf("search after the first write: %+v", r)
	}
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree", "search", "index.bin")); err != nil {
		t.Errorf("after the first write the index is not in .memotree: %v", err)
	}
	ws, err = Open(t.Context(), []Spec{{Name: "v", Path: dir}}, o)
	if err != nil {
		t.Fatal(err)
	}
	ws.Close()
	if _, err := os.Stat(cache); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the outside cache outlived the vault's own .memotree: %v", err)
	}
}

// listTree lists every path under dir with its size.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, rel+" "+info.Mode().String()+" "+info.ModTime().String()+" "+string(rune('0'+info.Size()%10)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDemoIsARepositoryWithHistory: the demo vault opens as a git repository with a
// few commits by the demo's own identity, a note whose history has two versions, and
// a change waiting for review; the shipped copy stays as it was.
func TestDemoIsARepositoryWithHistory(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	// A new user's machine: git knows nobody (the demo signs its history itself).
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(t.TempDir(), "none"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		t.Setenv(k, "")
	}
	spec, err := DemoSpec()
	if err != nil {
		t.Fatal(err)
	}
	gitOut := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", spec.Path}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	log := strings.Split(strings.TrimSpace(gitOut("log", "--format=%an <%ae>|%s")), "\n")
	if len(log) != len(demoCommits) {
		t.Fatalf("demo history: %q", log)
	}
	for _, l := range log {
		if !strings.HasPrefix(l, "MemoTree Demo <demo@memotree.invalid>|") {
			t.Errorf("a demo commit by someone else: %q", l)
		}
	}
	if n := strings.Count(gitOut("log", "--format=%h", "--", "people/Ada Lovelace.md"), "\n"); n != 2 {
		t.Errorf("Ada Lovelace has %d versions in the history, want 2", n)
	}
	status := gitOut("-c", "core.quotepath=off", "status", "--porcelain", "--untracked-files=all")
	for _, want := range []string{` M "projects/Open Questions.md"`, `?? "people/Konrad Zuse.md"`} {
		if !strings.Contains(status, want) {
			t.Errorf("the pending change lacks %q:\n%s", want, status)
		}
	}
	if strings.Count(strings.TrimSpace(status), "\n") != 1 {
		t.Errorf("pending changes beyond the demo's own:\n%s", status)
	}
	ws, err := Open(t.Context(), []Spec{spec}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if r := call(t, ws, "git_status", nil); r.IsError() || !strings.Contains(string(jsonOf(r.Data)), "Konrad Zuse") {
		t.Errorf("git_status of the demo: %+v", r)
	}
	// The demo's identity signed the demo's history only: its repository names no one.
	if out, err := exec.Command("git", "-C", spec.Path, "config", "--local", "--get-regexp", "^(user|author|committer)\\.").CombinedOutput(); err == nil {
		t.Errorf("the demo's repository keeps an identity for later commits: %s", out)
	}
	// A second call finds the copy made and changes nothing.
	again, err := DemoSpec()
	if err != nil || again != spec {
		t.Errorf("second DemoSpec = %+v, %v", again, err)
	}
}

// TestOneShotFaceWritesNothingUntilTheFirstWrite: a one-shot command (memotree call)
// that only reads a folder, a search and a dry run of a script that searches
// included, writes nothing in it: its search index waits in the user's cache folder.
func TestOneShotFaceWritesNothingUntilTheFirstWrite(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	writeNotes(t, dir, map[string]string{"a.md": "# A\n\nzebra [[b]]\n", "sub/b.md": "# B\n"})
	before := listTree(t, dir)
	ws, err := OpenFace(t.Context(), []Spec{{Name: "v", Path: dir, Permission: tool.PermWrite}}, Face{Mode: OneShot})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"search_in_contents", map[string]any{"content_glob": "zebra", "summary_only": true}},
		{"search_nodes", map[string]any{"query": "zebra"}},
		{"run_starlark", map[string]any{"target": "t", "dry_run": true, "code": "update_entity(entity_name=\"a\", content=\"more zebra\", mode=\"append\")\n__result__ = search_nodes(query=\"zebra\")"}},
	} {
		if r := call(t, ws, c.tool, c.args); r.IsError() {
			t.Errorf("%s: %+v", c.tool, r)
		}
	}
	if err := ws.Close(); err != nil { // saves the search index
		t.Fatal(err)
	}
	if after := listTree(t, dir); !slices.Equal(before, after) {
		t.Errorf("a one-shot command changed the folder it only read:\nbefore %v\nafter  %v", before, after)
	}
}
