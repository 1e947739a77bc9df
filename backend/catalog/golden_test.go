package catalog_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// update rewrites the golden files in testdata/ instead of comparing with them.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenCall is one call of the golden run: a label for the file name, the tool and
// its JSON arguments.
type goldenCall struct {
	label, tool, args string
}

// goldenCalls walk every tool of the catalogue, in order, through its result shapes:
// success, partial, and the errors that carry data. Each call acts on the vault the
// calls before it left.
var goldenCalls = []goldenCall{
	{"libraries", "list_libraries", `{}`},
	{"manual", "read_manual", `{}`},
	{"list", "list_entities", `{"entity_glob":"**"}`},
	{"list-page", "list_entities", `{"entity_glob":"people/*","limit":1}`},
	{"list-none", "list_entities", `{"entity_glob":"nowhere/*"}`},
	{"read", "read_entities", `{"entity_names":["Ada","Engine"]}`},
	{"read-partial", "read_entities", `{"entity_names":["Ada","Nobody"]}`},
	{"read-missing", "read_entities", `{"entity_names":["Nobody"]}`},
	{"toc", "get_entities_toc", `{"entity_names":["Ada","Engine"]}`},
	{"toc-partial", "get_entities_toc", `{"entity_names":["Ada","Nobody"]}`},
	{"toc-missing", "get_entities_toc", `{"entity_names":["Nobody"]}`},
	{"children-root", "get_children", `{"entity_name":"/"}`},
	{"children-note", "get_children", `{"entity_name":"Engine"}`},
	{"parent", "get_parent", `{"entity_name":"people/Ada Lovelace"}`},
	{"parent-root", "get_parent", `{"entity_name":"/"}`},
	{"ancestors", "get_ancestors", `{"entity_name":"people/Ada Lovelace"}`},
	{"neighbors", "get_neighbors", `{"entity_name":"Ada","depth":2}`},
	{"backlinks", "get_backlinks", `{"entity_name":"Ada"}`},
	{"backlinks-none", "get_backlinks", `{"entity_name":"notes/Plain"}`},
	{"relations", "find_relations", `{}`},
	{"relations-none", "find_relations", `{"relation_type":"mentor of"}`},
	{"names", "search_in_names", `{"entity_glob":"*Ada*"}`},
	{"contents", "search_in_contents", `{"content_glob":"*1816*"}`},
	{"anywhere", "search_anywhere", `{"pattern_glob":"/Babbage/"}`},
	{"nodes", "search_nodes", `{"query":"Ada"}`},
	{"nodes-none", "search_nodes", `{"query":"zeppelin"}`},
	{"nodes-pattern", "search_nodes", `{"query":"/Babbage/","search_type":"pattern"}`},
	{"nodes-relation", "search_nodes", `{"query":"Analytical","search_type":"relation","include_preview":false}`},
	{"canvas", "view_canvas", `{}`},
	{"expand", "expand_node", `{"entity_name":"people","level":"summary"}`},
	{"collapse", "collapse_node", `{"entity_name":"people"}`},
	{"segments", "list_segments", `{}`},
	{"segment", "get_segment", `{"id":"t"}`},
	{"segment-none", "get_segment", `{"id":"nope"}`},
	{"page", "get_page", `{"page_index":"t:people/Ada Lovelace"}`},
	{"page-folder", "get_page", `{"page_index":"t:people/"}`},
	{"find-page", "find_page", `{"query":"Ada"}`},
	{"find-page-none", "find_page", `{"query":"zeppelin"}`},
	{"page-children", "get_children", `{"page_index":"t:/"}`},
	{"page-children-detail", "get_children", `{"page_index":"t:Engine"}`},
	{"children-neither", "get_children", `{}`},
	{"page-parent", "get_parent", `{"page_index":"t:people/Ada Lovelace"}`},
	{"page-parent-root", "get_parent", `{"page_index":"t:/"}`},
	{"page-ancestors", "get_ancestors", `{"page_index":"t:people/Ada Lovelace"}`},
	{"expand-page", "expand_details", `{"page_index":"t:people/"}`},
	{"hide-page", "hide_details", `{"page_index":"t:people/"}`},
	{"list-summary", "list_entities", `{"entity_glob":"**","summary_only":true}`},
	{"nodes-pattern-symbols", "search_nodes", `{"query":"/ & /","search_type":"pattern"}`},
	{"status-clean", "git_status", `{}`},
	{"diff-clean", "git_diff", `{}`},
	{"log", "git_log", `{}`},
	{"create", "create_entity", `{"entity_name":"people/Grace Hopper","entity_type":"person","content":"Wrote the first compiler.","tags":["computing"],"relations":[{"type":"admirer of","to":"Ada Lovelace"}]}`},
	{"create-exists", "create_entity", `{"entity_name":"people/Grace Hopper"}`},
	{"add", "add_entities", `{"entities":[{"entity_name":"projects/COBOL","entity_type":"project"},{"entity_name":"projects/FLOW-MATIC"}]}`},
	{"add-partial", "add_entities", `{"entities":[{"entity_name":"projects/A-0"},{"entity_name":"projects/COBOL"}]}`},
	{"update", "update_entity", `{"entity_name":"Grace Hopper","content":"She found a moth.","mode":"append"}`},
	{"update-conflict", "update_entity", `{"entity_name":"Grace Hopper","content":"x","base_hash":"0000"}`},
	{"update-nearest", "update_entity", `{"entity_name":"Grace Hoper","content":"x"}`},
	{"update-ambiguous", "update_entity", `{"entity_name":"Twin","content":"x"}`},
	{"edit", "edit_entity", `{"entity_name":"Grace Hopper","old_content":"a moth","new_content":"a moth in a relay"}`},
	{"edit-near", "edit_entity", `{"entity_name":"Grace Hopper","old_content":"She found a math","new_content":"x"}`},
	{"edit-count", "edit_entity", `{"entity_name":"Engine","old_content":"Ada","new_content":"Augusta","expected_count":1}`},
	{"relate", "create_relations", `{"relations":[{"from":"Grace Hopper","to":"COBOL","type":"designer of"}]}`},
	{"relate-partial", "create_relations", `{"relations":[{"from":"Grace Hopper","to":"FLOW-MATIC","type":"designer of"},{"from":"Nobody","to":"Ada","type":"x"}]}`},
	{"relations-from", "find_relations", `{"from":"Grace Hopper"}`},
	{"unrelate", "delete_relations", `{"relations":[{"from":"Grace Hopper","to":"FLOW-MATIC","type":"designer of"}]}`},
	{"gc-dry", "garbage_collect_relations", `{"dry_run":true}`},
	{"gc", "garbage_collect_relations", `{"dry_run":false}`},
	{"manual-add", "add_manual_section", `{"toc":"Style","new_content":"Write in short sentences."}`},
	{"manual-edit", "edit_manual_section", `{"old_content":"short sentences","new_content":"plain, short sentences"}`},
	{"page-create", "create_detail_page", `{"name":"Konrad Zuse","description":"Built the Z3.","detail":"A German engineer.","parent_index":"t:people/"}`},
	{"page-contents", "create_contents_page", `{"name":"machines","description":"Machines.","parent_index":"t:/","children":["t:Engine"]}`},
	{"page-update", "update_page", `{"page_index":"t:people/Konrad Zuse","description":"German engineer; built the Z3."}`},
	{"page-move", "move_page", `{"source":"t:people/Konrad Zuse","target":"t:machines/"}`},
	{"page-remove", "remove_page", `{"page_index":"t:machines/Konrad Zuse"}`},
	{"update-level", "update_entity", `{"entity_name":"Grace Hopper","level":"summary"}`},
	{"update-summary", "update_entity", `{"entity_name":"Grace Hopper","summary":"She wrote the first compiler."}`},
	{"memory", "memory_notebook_replace", `{"old_text":"","new_text":"The person likes tea."}`},
	{"memory-other-library", "memory_notebook_replace", `{"old_text":"","new_text":"x","library_name":"t2"}`},
	{"memory-nearest", "memory_notebook_replace", `{"old_text":"likes coffee","new_text":"x"}`},
	{"memory-full", "memory_notebook_replace", `{"old_text":"The person likes tea.","new_text":"` + strings.Repeat("tea ", 3000) + `"}`},
	{"rename", "rename_entity", `{"old_name":"projects/FLOW-MATIC","new_name":"projects/Flow-Matic"}`},
	{"move", "move_entity", `{"entity_name":"projects/A-0","folder":"archive"}`},
	{"merge", "merge_entities", `{"source_names":["projects/Flow-Matic"],"target_name":"projects/COBOL"}`},
	{"delete", "delete_entities", `{"entity_names":["archive/A-0"]}`},
	{"delete-partial", "delete_entities", `{"entity_names":["a/Twin","Nobody"]}`},
	{"relate-to-plain", "create_relations", `{"relations":[{"from":"Grace Hopper","to":"notes/Plain","type":"cites"}]}`},
	{"delete-dangling", "delete_entities", `{"entity_names":["notes/Plain"]}`},
	{"script", "run_starlark", `{"target":"count people","code":"__result__ = len(list_entities(entity_glob=\"people/*\")[\"entities\"])\nprint(\"counted\")"}`},
	{"script-write", "run_starlark", `{"target":"tag","code":"update_entity(entity_name=\"notes/Dangling\", tags=[\"plain\"])\n__result__ = \"done\"","dry_run":true}`},
	{"script-fail", "run_starlark", `{"target":"fail","code":"fail(\"stop here\")"}`},
	{"status", "git_status", `{}`},
	{"diff", "git_diff", `{"entity_name":"Grace Hopper"}`},
	{"diff-brief", "git_diff", `{"brief":true}`},
	{"commit", "git_commit", `{"message":"Add Grace Hopper","entity_names":["Grace Hopper"]}`},
	{"commit-tag", "git_commit", `{"message":"COBOL","entity_names":["COBOL"],"tag_name":"cobol-1"}`},
	{"checkout", "git_checkout", `{"entity_names":["meta"],"confirmed":true}`},
	{"checkout-none", "git_checkout", `{"entity_names":["Engine"],"confirmed":true}`},
	{"checkout-unconfirmed", "git_checkout", `{"entity_names":["memory"],"confirmed":false}`},
	{"log-after", "git_log", `{"limit":1}`},
	{"resolve-none", "git_resolve", `{"entity_name":"Engine","take":"ours"}`},
	{"unknown", "read_entitie", `{}`},
	{"invalid", "read_entities", `{"entity_names":"Ada"}`},
	{"hunks-tag", "update_entity", `{"entity_name":"Ada Lovelace","tags":["history","mathematics"]}`},
	{"hunks-edit", "edit_entity", `{"entity_name":"Ada Lovelace","old_content":"born in 1816","new_content":"born in 1815, in London"}`},
	{"diff-hunks", "git_diff", `{"entity_name":"Ada Lovelace","include_content_diff":false,"include_relation_changes":false}`},
	{"blame", "git_blame", `{"entity_name":"Ada Lovelace","end_line":12}`},
	{"checkout-hunk-unconfirmed", "git_checkout", `{"hunks":{"Ada Lovelace":[2]},"confirmed":false}`},
	{"checkout-hunk", "git_checkout", `{"hunks":{"Ada Lovelace":[2]},"confirmed":true}`},
	{"checkout-hunk-none", "git_checkout", `{"hunks":{"Ada Lovelace":[5]},"confirmed":true}`},
}

// goldenFixture is entFixture with two notes of one name, a relation to a note that
// does not exist, and .memotree ignored by git.
func goldenFixture() map[string]string {
	files := map[string]string{
		".gitignore":        ".memotree/\n",
		"a/Twin.md":         "# Twin\n\nOne of two.\n",
		"b/Twin.md":         "# Twin\n\nThe other.\n",
		"notes/Dangling.md": "---\nrelations:\n  - relation type: cites\n    relation to: \"[[Lost Paper]]\"\n---\n\nCites a paper that is gone.\n",
		"notes/Symbols.md":  "---\nsummary: x < y & z > w\n---\n\nWhen a < b & b < c, then a < c.\n",
	}
	for k, v := range entFixture {
		files[k] = v
	}
	return files
}

// TestGoldenResults runs every tool of the catalogue through its result shapes and
// compares each result, rendered as the YAML models read and as the JSON of MCP and
// `memotree call --json`, with testdata/results/. The wire shapes are a contract with
// models, MCP clients and scripts: a change here must be on purpose (-update).
func TestGoldenResults(t *testing.T) {
	h := entNew(t, goldenFixture(), workspace.Options{})
	entGit(t, h.dir, "init", "-q", "-b", "main")
	entGit(t, h.dir, "add", "-A")
	entGit(t, h.dir, "commit", "-q", "-m", "initial")
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: h.dir, Permission: tool.PermWrite}}, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.ws.Close()
	t.Cleanup(func() { ws.Close() })
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	call := &tool.Call{Actor: tool.ActorAgent, Turn: "t1", Session: "s1"}
	for i, c := range goldenCalls {
		res, err := reg.Call(t.Context(), call, c.tool, []byte(c.args))
		if err != nil {
			t.Fatalf("%s(%s): %v", c.tool, c.args, err)
		}
		goldenResult(t, fmt.Sprintf("%03d-%s-%s", i+1, c.tool, c.label), c, res, h.dir)
		checkOutput(t, reg, c, res)
	}
}

// checkOutput validates a result's JSON, the structured content MCP clients get,
// against the tool's output schema.
func checkOutput(t *testing.T, reg *tool.Registry, c goldenCall, res tool.Result) {
	t.Helper()
	tl, ok := reg.Get(c.tool)
	if !ok {
		return // the unknown tool's answer
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(tl.OutputSchema(), &s); err != nil {
		t.Fatalf("%s: output schema: %v (%v)", c.tool, err, tl.OutputErr())
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: resolve output schema: %v", c.tool, err)
	}
	var v any
	if err := json.Unmarshal(res.JSON(), &v); err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(v); err != nil {
		t.Errorf("%s(%s): the result does not follow the output schema: %v\n%s", c.tool, c.args, err, res.JSON())
	}
}

// TestGoldenAutoSummary keeps the shape of a write whose note got a summary from the
// model: the result gains the summary and the new hash.
func TestGoldenAutoSummary(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("An admiral who wrote compilers."))
	h := entNew(t, entFixture, workspace.Options{})
	h.ws.Close()
	client, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: "k", Model: "m", Backoff: time.Millisecond, Timeout: 5 * time.Second, Tries: 1})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: h.dir}}, workspace.Options{Summarizer: client})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	l, err := ws.Library("")
	if err != nil {
		t.Fatal(err)
	}
	if err := canvas.New(l, nil).SetSettings(canvas.Settings{AutoSummary: true}); err != nil {
		t.Fatal(err)
	}
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []goldenCall{
		{"summary", "create_entity", `{"entity_name":"people/Grace Hopper","content":"Wrote the first compiler."}`},
		{"summary", "update_entity", `{"entity_name":"notes/Plain","content":"Plain words.","mode":"append"}`},
		{"summary", "add_entities", `{"entities":[{"entity_name":"projects/COBOL","content":"A language."}]}`},
	} {
		res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorAgent, Turn: "t1"}, c.tool, []byte(c.args))
		if err != nil {
			t.Fatalf("%s(%s): %v", c.tool, c.args, err)
		}
		goldenResult(t, fmt.Sprintf("summary-%d-%s", i+1, c.tool), c, res, h.dir)
		checkOutput(t, reg, c, res)
	}
}

// volatile matches what differs between runs: content hashes (notes carry the time
// they were written), commit ids, short ids, the author git is configured with, and
// times. An id that reads as a number in YAML (all digits, or digits around one e)
// is quoted there: the quotes go first, so that the golden file does not depend on
// which id a run made.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`(: |- )"([0-9a-f]{12}|[0-9a-f]{40}|[0-9a-f]{64})"`), "$1$2"},
	{regexp.MustCompile(`\b[0-9a-f]{64}\b`), "<hash>"},
	{regexp.MustCompile(`\b[0-9a-f]{40}\b`), "<commit>"},
	{regexp.MustCompile(`\b[0-9a-f]{12}\b`), "<short>"},
	{regexp.MustCompile(`(author: |"author":")[^\n"]*`), "$1<author>"},
	{regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?`), "<time>"},
}

// goldenResult compares res, rendered as YAML and JSON with the volatile parts
// replaced, with testdata/results/name.golden.
func goldenResult(t *testing.T, name string, c goldenCall, res tool.Result, dir string) {
	t.Helper()
	res.Elapsed = 0
	args, _ := tool.Clip(c.args, 200)
	got := fmt.Sprintf("%s %s\n-- yaml --\n%s-- json --\n%s\n", c.tool, args, res.YAML(), res.JSON())
	got = strings.ReplaceAll(got, dir, "$VAULT")
	for _, v := range volatile {
		got = v.re.ReplaceAllString(got, v.with)
	}
	goldenFile(t, filepath.Join("testdata", "results", name+".golden"), got)
}

// goldenFile compares got with the file at path, or writes it there with -update.
func goldenFile(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test -update to create it): %v", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s (-want +got):\n%s", path, d)
	}
}

// TestGoldenInputSchemas keeps the input schema of every tool, as models and MCP
// clients receive it, in testdata/input_schemas.golden: parameter names such as
// library_name are part of the contract.
func TestGoldenInputSchemas(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	reg, err := h.ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, tl := range reg.List() {
		var out bytes.Buffer
		if err := json.Indent(&out, tl.InputSchema(), "", "  "); err != nil {
			t.Fatalf("%s: %v", tl.Name(), err)
		}
		fmt.Fprintf(&b, "-- %s --\n%s\n", tl.Name(), out.String())
	}
	goldenFile(t, filepath.Join("testdata", "input_schemas.golden"), b.String())
}

// TestGoldenOutputSchemas keeps the output schema of every tool, as MCP clients
// receive it, in testdata/output_schemas.golden, and checks that every tool has a
// typed output: the data of a success is described, not left free.
func TestGoldenOutputSchemas(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	reg, err := h.ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, tl := range reg.List() {
		if err := tl.OutputErr(); err != nil {
			t.Errorf("%s: %v", tl.Name(), err)
			continue
		}
		var s struct {
			Else struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"else"`
		}
		if err := json.Unmarshal(tl.OutputSchema(), &s); err != nil {
			t.Fatalf("%s: %v", tl.Name(), err)
		}
		if d := string(s.Else.Properties["data"]); d == "" || d == "true" || d == "{}" {
			t.Errorf("%s: the data of a success is not described (%q): declare the tool with a typed output", tl.Name(), d)
		}
		var out bytes.Buffer
		if err := json.Indent(&out, tl.OutputSchema(), "", "  "); err != nil {
			t.Fatalf("%s: %v", tl.Name(), err)
		}
		fmt.Fprintf(&b, "-- %s --\n%s\n", tl.Name(), out.String())
	}
	goldenFile(t, filepath.Join("testdata", "output_schemas.golden"), b.String())
}
