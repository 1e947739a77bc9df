package script

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
)

// The seed's own example and its [tool_call] block, copied from the seed document
// (TestSeed003ExampleIsTheSeeds checks the copies).
const (
	seedExample  = "../../testdata/seeds/003_example.star.txt"
	seedToolCall = "../../testdata/seeds/003_tool_call.toml.txt"
	seedDoc      = "../../../shared/seeds/003_8ac78c44c860cde2.txt"
)

// readSeed reads one of the copies.
func readSeed(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSeed003ExampleIsTheSeeds checks that the copies in testdata are the seed's text,
// byte for byte, when the shared folder is there (as in the main checkout and CI).
func TestSeed003ExampleIsTheSeeds(t *testing.T) {
	doc, err := os.ReadFile(seedDoc)
	if os.IsNotExist(err) {
		t.Skipf("the seed document %s is absent (the shared folder is beside the repository in the main checkout and in CI)", seedDoc)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{seedExample, seedToolCall} {
		if !strings.Contains(string(doc), readSeed(t, p)) {
			t.Errorf("%s is not a block of %s", p, seedDoc)
		}
	}
}

// seedEnv is a runner over libraries mounted under the given names (the first is the
// default), each on a vault with the given notes.
func seedEnv(t *testing.T, vaults map[string]map[string]string, order ...string) (*Runner, map[string]string) {
	t.Helper()
	ws := &libs{}
	dirs := map[string]string{}
	for _, name := range order {
		dir := t.TempDir()
		for p, s := range vaults[name] {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		l, err := library.Open(context.Background(), name, dir, library.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		ws.ls = append(ws.ls, l)
		dirs[name] = dir
	}
	reg := tool.NewRegistry()
	if err := catalog.Register(reg, catalog.Deps{Libraries: ws}); err != nil {
		t.Fatal(err)
	}
	r := NewRunner(reg, Limits{})
	if err := reg.Register(r.Tool()); err != nil {
		t.Fatal(err)
	}
	return r, dirs
}

// checkSeedOutcome checks what seed 003's example did: it listed the segments, read
// the page, created the detail page under it, raised and lowered it, searched, and
// returned the new page's index.
func checkSeedOutcome(t *testing.T, o Outcome, wantIndex string, segments ...string) {
	t.Helper()
	if o.Failure != nil {
		t.Fatalf("the seed's example failed: %+v\noutput:\n%s", o.Failure, o.Output)
	}
	if o.Result != wantIndex || !o.Applied {
		t.Errorf("__result__ = %v (applied %v), want %q", o.Result, o.Applied, wantIndex)
	}
	for _, s := range segments {
		if !strings.Contains(o.Output, "Segment: "+s+", Type: ") {
			t.Errorf("output lacks segment %s:\n%s", s, o.Output)
		}
	}
	if !strings.Contains(o.Output, "Page: ") || !strings.Contains(o.Output, "Found: 新想法") {
		t.Errorf("output:\n%s", o.Output)
	}
	if len(o.Changes) != 1 || !strings.HasSuffix(o.Changes[0].Path, "新想法.md") || o.Changes[0].Change != "created" {
		t.Errorf("changes: %+v", o.Changes)
	}
}

// TestSeed003ExampleUnchanged runs seed 003's example byte for byte: its "page:001"
// is a page index once a library named "page" holds a note "001".
func TestSeed003ExampleUnchanged(t *testing.T) {
	r, dirs := seedEnv(t, map[string]map[string]string{"page": {"001.md": "# 001\n\nThe first page.\n"}}, "page")
	o, err := r.Run(t.Context(), agent, Input{Target: "seed 003", Code: readSeed(t, seedExample)})
	if err != nil {
		t.Fatal(err)
	}
	checkSeedOutcome(t, o, "page:001/新想法", "page")
	if !strings.Contains(o.Output, "Page: 001\n") {
		t.Errorf("get_page(\"page:001\") named %q", o.Output)
	}
	b, err := os.ReadFile(filepath.Join(dirs["page"], "001", "新想法.md"))
	if err != nil || !strings.Contains(string(b), "summary: 关于工具调用的思考") || !strings.Contains(string(b), "详细内容...") {
		t.Errorf("the detail page: %v\n%s", err, b)
	}
}

// TestSeed003ExampleInAnotherLibrary runs the example with an existing parent_index of
// a library other than the default: every call acts on the library its index names,
// and find_page, which takes none, on the library the script was run for.
func TestSeed003ExampleInAnotherLibrary(t *testing.T) {
	r, dirs := seedEnv(t, map[string]map[string]string{
		"notes": seedNotes,
		"work":  {"ideas/Tools.md": "---\nsummary: 工具 and how they are called\n---\n\nBody.\n"},
	}, "notes", "work")
	code := strings.ReplaceAll(readSeed(t, seedExample), `"page:001"`, `"work:ideas/"`)
	o, err := r.Run(t.Context(), &tool.Call{Actor: tool.ActorAgent, Library: "work"}, Input{Target: "seed 003", Code: code})
	if err != nil {
		t.Fatal(err)
	}
	checkSeedOutcome(t, o, "work:ideas/新想法", "notes", "work")
	if !strings.Contains(o.Output, "Page: ideas\n") || !strings.Contains(o.Output, "Found: Tools") {
		t.Errorf("output:\n%s", o.Output)
	}
	if _, err := os.Stat(filepath.Join(dirs["work"], "ideas", "新想法.md")); err != nil {
		t.Errorf("the page is not in the work library: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dirs["notes"], "ideas")); !os.IsNotExist(err) {
		t.Errorf("something was written in the default library: %v", err)
	}
	// Run for the default library, the calls with an index still act on work.
	code = strings.ReplaceAll(code, `name="新想法"`, `name="另一个想法"`)
	o, err = r.Run(t.Context(), agent, Input{Target: "seed 003", Code: code})
	if err != nil || o.Failure != nil || o.Result != "work:ideas/另一个想法" {
		t.Fatalf("run for the default library: %v %+v %v", err, o.Failure, o.Result)
	}
	if _, err := os.Stat(filepath.Join(dirs["work"], "ideas", "另一个想法.md")); err != nil {
		t.Errorf("the page is not in the work library: %v", err)
	}
}

// TestSeed003ToolCallBlock runs the seed's fenced TOML [tool_call] block as a model
// without function calling would send it.
func TestSeed003ToolCallBlock(t *testing.T) {
	r, _ := seedEnv(t, map[string]map[string]string{"page": {"001.md": "# 001\n"}}, "page")
	calls := ParseToolCalls("```toml\n" + readSeed(t, seedToolCall) + "```\n")
	if len(calls) != 1 || calls[0].Problem != "" || calls[0].Target != "创建新的详情页" {
		t.Fatalf("the seed's block: %+v", calls)
	}
	o, err := r.Run(t.Context(), agent, Input{Target: calls[0].Target, Code: calls[0].Code})
	if err != nil || o.Failure != nil || o.Result != "page:001/新想法" {
		t.Errorf("the seed's block: %v %+v %v", err, o.Failure, o.Result)
	}
}

// TestSeed003BadCalls checks the errors a script gets for the seed's tools called
// wrongly: each names the parameters the tool takes.
func TestSeed003BadCalls(t *testing.T) {
	r, _ := seedEnv(t, map[string]map[string]string{"page": {"001.md": "# 001\n"}}, "page")
	for code, want := range map[string]string{
		`get_page("page:001", "x", "y")`:                             "get_page takes at most 2 positional arguments (page_index, library_name), got 3",
		`get_page(index="page:001")`:                                 "usage: get_page(page_index: string",
		`get_page(page_index=1)`:                                     "page_index",
		`create_detail_page("n", parent_index="page:001", name="m")`: "name given twice",
		`create_detail_page(name="n", parent="page:001")`:            "usage: create_detail_page(name: string, description?: string, detail?: string, parent_index: string",
		`get_page("other:001")`:                                      `"other" is not a mounted library`,
		`expand_details("page:nothing")`:                             `page_index "page:nothing" names no page`,
		`move_page(source="page:001", target="page:001")`:            "cannot be moved under itself",
	} {
		o, err := r.Run(t.Context(), agent, Input{Target: "bad", Code: code})
		if err != nil || o.Failure == nil || !strings.Contains(o.Failure.Message, want) {
			t.Errorf("%s: %v %+v, want a failure saying %q", code, err, o.Failure, want)
		}
	}
}
