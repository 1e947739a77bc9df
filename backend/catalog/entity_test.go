package catalog_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/workspace"
)

// entStamp matches the dates the tools write, so that tests can compare the rest.
var entStamp = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)?`)

func TestCreateEntity(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	d := h.ok("create_entity", `{"entity_name":"people/Grace Hopper","entity_type":"person","aliases":["Grace"],
		"tags":["#navy","computing"],"relations":[{"type":"inspired by","to":"Ada Lovelace"}],
		"summary":"Wrote the first compiler.","content":"Pioneer of [[Engine|engines]]."}`)
	got := h.read("people/Grace Hopper.md")
	want := "---\nentity type: person\naliases:\n  - Grace\ndate created: STAMP\ndate modified: STAMP\n" +
		"relations:\n  - relation type: inspired by\n    relation to: \"[[Ada Lovelace]]\"\ntags:\n  - navy\n  - computing\n" +
		"summary: Wrote the first compiler.\n---\n\nPioneer of [[Engine|engines]].\n"
	if diff := cmp.Diff(want, entStamp.ReplaceAllString(got, "STAMP")); diff != "" {
		t.Errorf("file (-want +got):\n%s", diff)
	}
	if d["entity_name"] != "people/Grace Hopper" || d["hash"] != string(vault.HashOf([]byte(got))) {
		t.Errorf("data = %v", d)
	}
	n := note.Parse([]byte(got))
	if diff := cmp.Diff([]note.Relation{{Type: "inspired by", To: "Ada Lovelace", Line: 9}}, n.Relations); diff != "" {
		t.Errorf("relations (-want +got):\n%s", diff)
	}
	if p, err := h.graph().Lookup("Grace"); err != nil || p != "people/Grace Hopper.md" {
		t.Errorf("graph not refreshed: Lookup(Grace) = %q, %v", p, err)
	}
	res := h.call("create_entity", `{"entity_name":"Engine","content":"x"}`)
	if res.ErrorCode != tool.CodeAlreadyExists {
		t.Errorf("create existing = %s %s", res.ErrorCode, res.Message)
	}
	res = h.call("create_entity", `{"entity_name":"Lonely","relations":[{"type":"knows","to":"Nobody"}]}`)
	if res.Status != tool.StatusSuccess || len(res.Warnings) != 1 {
		t.Errorf("dangling relation: %s %v", res.Status, res.Warnings)
	}
}

func TestAddEntities(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	res := h.call("add_entities", `{"entities":[{"entity_name":"A"},{"entity_name":"Engine"},{"entity_name":"../x"},{"entity_name":"b/B","content":"hi"},{"entity_name":"A"}]}`)
	if res.Status != tool.StatusPartial {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	d := entData(t, res)
	if diff := cmp.Diff([]any{"A", "b/B"}, d["created"]); diff != "" {
		t.Errorf("created (-want +got):\n%s", diff)
	}
	if f, _ := d["failed"].([]any); len(f) != 3 {
		t.Errorf("failed = %v", d["failed"])
	}
	if got := h.read("b/B.md"); !strings.HasSuffix(got, "---\n\nhi\n") {
		t.Errorf("b/B.md = %q", got)
	}
	res = h.call("add_entities", `{"entities":[{"entity_name":"Engine"}]}`)
	if !res.IsError() {
		t.Errorf("all failing: %s", res.Status)
	}
}

func TestReadEntities(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	d := h.ok("read_entities", `{"entity_names":["Ada","people/Charles Babbage"]}`)
	ents := d["entities"].([]any)
	ada := ents[0].(map[string]any)
	text := entFixture["people/Ada Lovelace.md"]
	want := map[string]any{"entity_name": "people/Ada Lovelace", "hash": string(vault.HashOf([]byte(text))), "content": text, "size": float64(len(text))}
	if diff := cmp.Diff(want, ada); diff != "" {
		t.Errorf("Ada (-want +got):\n%s", diff)
	}
	res := h.call("read_entities", `{"entity_names":["Ada","Nobody here"]}`)
	if res.Status != tool.StatusPartial || len(res.Warnings) != 1 {
		t.Errorf("one missing: %s %v", res.Status, res.Warnings)
	}
	res = h.call("read_entities", `{"entity_names":["Adaa Lovelace"]}`)
	if res.ErrorCode != tool.CodeNotFound || !strings.Contains(res.Message, "people/Ada Lovelace") {
		t.Errorf("nearest: %s %s", res.ErrorCode, res.Message)
	}
	d = h.ok("read_entities", `{"entity_names":["Engine","Ada","notes/Plain"],"limit":1,"offset":1}`)
	if e := d["entities"].([]any); len(e) != 1 || e[0].(map[string]any)["entity_name"] != "people/Ada Lovelace" {
		t.Errorf("page = %v", e)
	}
}

func TestReadEntitiesClips(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 4000) // 68,000 bytes
	h := entNew(t, map[string]string{"Big.md": big}, workspace.Options{})
	var got strings.Builder
	off := 0
	for i := 0; i < 10; i++ {
		res := h.call("read_entities", fmt.Sprintf(`{"entity_names":["Big"],"content_offset":%d}`, off))
		e := entData(t, res)["entities"].([]any)[0].(map[string]any)
		got.WriteString(e["content"].(string))
		next, _ := e["next_content_offset"].(float64)
		if next == 0 {
			break
		}
		if !strings.Contains(res.Message, "content_offset=") {
			t.Errorf("no hint in %q", res.Message)
		}
		off = int(next)
	}
	if got.String() != big {
		t.Errorf("reassembled %d bytes, want %d", got.Len(), len(big))
	}
}

func TestListEntities(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	for _, tc := range []struct {
		glob string
		want []any
	}{
		{"people/*", []any{"people/Ada Lovelace", "people/Charles Babbage"}},
		{"**", []any{"Engine", "meta", "notes/Plain", "people/Ada Lovelace", "people/Charles Babbage"}},
		{"*", []any{"Engine", "meta"}},
		{"**/ada*", []any{"people/Ada Lovelace"}},
		{"ada*", nil},
		{"**/?lain", []any{"notes/Plain"}},
		{"people/[AB]*", []any{"people/Ada Lovelace"}},
		{"people/[!A]*.md", []any{"people/Charles Babbage"}},
	} {
		res := h.call("list_entities", fmt.Sprintf(`{"entity_glob":%q}`, tc.glob))
		if tc.want == nil {
			if res.ErrorCode != tool.CodeNoMatch {
				t.Errorf("%s: %s %s", tc.glob, res.Status, res.Message)
			}
			continue
		}
		d := entData(t, res)
		if diff := cmp.Diff(tc.want, d["entities"]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.glob, diff)
		}
	}
	res := h.call("list_entities", `{"entity_glob":"**","summary_only":true}`)
	d := entData(t, res)
	if page := d["page"].(map[string]any); page["total"] != float64(5) || len(d["entities"].([]any)) != 0 {
		t.Errorf("summary = %v", d)
	}
	// The summary says what there is, not which page of names was left out.
	if strings.Contains(res.Message, "showing") || !strings.Contains(res.Message, "5 entities") {
		t.Errorf("summary message: %q", res.Message)
	}
	want := map[string]any{
		"folders":      map[string]any{"/": float64(2), "notes": float64(1), "people": float64(2)},
		"entity_types": map[string]any{"(none)": float64(3), "person": float64(2)},
	}
	if diff := cmp.Diff(want, d["summary"]); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if res := h.call("list_entities", `{"entity_glob":"zzz*"}`); res.ErrorCode != tool.CodeNoMatch {
		t.Errorf("no match = %s", res.ErrorCode)
	}
}

func TestGetEntitiesTOC(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	d := h.ok("get_entities_toc", `{"entity_names":["Ada"]}`)
	want := []any{map[string]any{"entity_name": "people/Ada Lovelace", "toc": []any{
		map[string]any{"level": float64(1), "text": "Ada Lovelace", "line": float64(11)},
		map[string]any{"level": float64(2), "text": "Later life", "line": float64(15)},
	}}}
	if diff := cmp.Diff(want, d["entities"]); diff != "" {
		t.Errorf("toc (-want +got):\n%s", diff)
	}
}

func TestUpdateEntity(t *testing.T) {
	fm := "---\n# keep this comment\nentity type: project\nstatus:   'draft'\ntags: [a]\n---\n"
	for _, tc := range []struct {
		name, args, want string
	}{
		{"merge props only", `"tags":["b"],"entity_type":"machine"`,
			"---\n# keep this comment\nentity type: machine\nstatus:   'draft'\ntags:\n  - a\n  - b\ndate modified: STAMP\n---\nBody.\n"},
		{"merge with content", `"content":"New body."`,
			fm[:len(fm)-4] + "date modified: STAMP\n---\nNew body.\n"},
		{"replace", `"mode":"replace","content":"Only.","tags":["z"]`,
			"---\n# keep this comment\nentity type: project\nstatus:   'draft'\ntags:\n  - z\ndate modified: STAMP\n---\nOnly.\n"},
		{"append", `"mode":"append","content":"More."`,
			fm[:len(fm)-4] + "date modified: STAMP\n---\nBody.\n\nMore.\n"},
		{"prepend", `"mode":"prepend","content":"First."`,
			fm[:len(fm)-4] + "date modified: STAMP\n---\n\nFirst.\n\nBody.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := entNew(t, map[string]string{"P.md": fm + "Body.\n"}, workspace.Options{})
			h.ok("update_entity", `{"entity_name":"P",`+tc.args+`}`)
			if diff := cmp.Diff(tc.want, entStamp.ReplaceAllString(h.read("P.md"), "STAMP")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpdateEntityBaseHash(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	hash := h.ok("read_entities", `{"entity_names":["Engine"]}`)["entities"].([]any)[0].(map[string]any)["hash"].(string)
	h.ok("update_entity", fmt.Sprintf(`{"entity_name":"Engine","mode":"append","content":"x","base_hash":%q}`, hash))
	before := entTree(t, h.dir)
	res := h.call("update_entity", fmt.Sprintf(`{"entity_name":"Engine","mode":"append","content":"y","base_hash":%q}`, hash))
	if res.ErrorCode != tool.CodeConflict {
		t.Fatalf("stale base_hash = %s %s", res.ErrorCode, res.Message)
	}
	if diff := cmp.Diff(before, entTree(t, h.dir)); diff != "" {
		t.Errorf("vault changed (-before +after):\n%s", diff)
	}
	res = h.call("edit_entity", fmt.Sprintf(`{"entity_name":"Engine","old_content":"x","new_content":"z","base_hash":%q}`, hash))
	if res.ErrorCode != tool.CodeConflict {
		t.Errorf("edit with stale base_hash = %s", res.ErrorCode)
	}
}

func TestEditEntity(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	d := h.ok("edit_entity", `{"entity_name":"Ada","old_content":"born in 1816","new_content":"born in 1815"}`)
	if got := h.read("people/Ada Lovelace.md"); !strings.Contains(got, "born in 1815\n") || strings.Contains(got, "1816") {
		t.Errorf("not edited:\n%s", got)
	}
	if d["hash"] != string(vault.HashOf([]byte(h.read("people/Ada Lovelace.md")))) {
		t.Errorf("hash = %v", d["hash"])
	}
	res := h.call("edit_entity", `{"entity_name":"Ada","old_content":"born  in 1815","new_content":"x"}`)
	if res.ErrorCode != tool.CodeNoMatch || !strings.Contains(entData(t, res)["nearest"].(string), "17| born in 1815") {
		t.Errorf("no match = %s %s %v", res.ErrorCode, res.Message, res.Data)
	}
	res = h.call("edit_entity", `{"entity_name":"Ada","old_content":"Ada","new_content":"A."}`)
	if res.ErrorCode != tool.CodeCountMismatch || !strings.Contains(res.Message, "expected_count=") {
		t.Errorf("count mismatch = %s %s", res.ErrorCode, res.Message)
	}
	n := strings.Count(h.read("people/Ada Lovelace.md"), "Ada")
	h.ok("edit_entity", fmt.Sprintf(`{"entity_name":"Ada","old_content":"Ada","new_content":"A.","expected_count":%d}`, n))
	if strings.Contains(h.read("people/Ada Lovelace.md"), "Ada") {
		t.Error("not every occurrence replaced")
	}
}

func TestDeleteEntities(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	res := h.call("delete_entities", `{"entity_names":["Ada","Nobody"]}`)
	if res.Status != tool.StatusPartial {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	d := entData(t, res)
	if diff := cmp.Diff([]any{"people/Ada Lovelace"}, d["deleted"]); diff != "" {
		t.Errorf("deleted (-want +got):\n%s", diff)
	}
	if dl, _ := d["dangling_links"].([]any); len(dl) != 6 {
		t.Errorf("dangling = %v", dl)
	}
	if _, ok := entTree(t, h.dir)["people/Ada Lovelace.md"]; ok {
		t.Error("file still there")
	}
	if h.graph().Has("people/Ada Lovelace.md") {
		t.Error("graph still has it")
	}
}

// TestEditEntityConcurrent proves the compare-and-swap: edits racing from the same
// base_hash, exactly one wins and the others change nothing.
func TestEditEntityConcurrent(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	hash := h.ok("read_entities", `{"entity_names":["Ada"]}`)["entities"].([]any)[0].(map[string]any)["hash"].(string)
	const n = 8
	results := make(chan tool.Result, n)
	for i := range n {
		go func() {
			results <- h.call("edit_entity", fmt.Sprintf(`{"entity_name":"Ada","old_content":"born in 1816","new_content":"born in year %d","base_hash":%q}`, i, hash))
		}()
	}
	wins := 0
	for range n {
		res := <-results
		switch {
		case res.Status == tool.StatusSuccess:
			wins++
		case res.ErrorCode != tool.CodeConflict && res.ErrorCode != tool.CodeNoMatch:
			t.Errorf("loser = %s %s", res.ErrorCode, res.Message)
		}
	}
	if wins != 1 {
		t.Errorf("%d edits won, want 1", wins)
	}
	if got := strings.Count(h.read("people/Ada Lovelace.md"), "born in year"); got != 1 {
		t.Errorf("the note holds %d edits", got)
	}
}
