package catalog_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// pageOf decodes a page from a result's data as MCP clients see it.
func pageOf(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("not a page: %#v", v)
	}
	for _, k := range []string{"index", "name", "description", "type", "has_detail"} {
		if _, ok := m[k]; !ok {
			t.Fatalf("page lacks %q: %v", k, m)
		}
	}
	return m
}

// indexes returns the index of each page of a list.
func indexes(t *testing.T, v any) []string {
	t.Helper()
	list, _ := v.([]any)
	out := []string{}
	for _, p := range list {
		out = append(out, pageOf(t, p)["index"].(string))
	}
	return out
}

func TestSegments(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	other := kitCopy(t, kitDemo)
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: h.dir}, {Name: "demo", Path: other, Permission: tool.PermRead}}, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	d := kitData(t, kitCall(t, reg, "list_segments", `{}`))
	want := []any{
		map[string]any{"id": "t", "type": "default", "permission": "propose", "root_index": "t:/", "notes": float64(5)},
		map[string]any{"id": "demo", "type": "library", "permission": "read", "root_index": "demo:/"},
	}
	got := d["segments"].([]any)
	delete(got[1].(map[string]any), "notes")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("list_segments (-want +got):\n%s", diff)
	}
	if s := kitData(t, kitCall(t, reg, "get_segment", `{"id":"demo"}`)); s["root_index"] != "demo:/" || s["permission"] != "read" {
		t.Errorf("get_segment demo: %v", s)
	}
	if res := kitCall(t, reg, "get_segment", `{"id":"nope"}`); res.ErrorCode != tool.CodeNotFound || !strings.Contains(res.Message, `"t", "demo"`) {
		t.Errorf("get_segment nope: %s", res.YAML())
	}
	// A page index carries its library: no library_name is needed.
	if p := kitData(t, kitCall(t, reg, "get_page", `{"page_index":"demo:people/Ada Lovelace"}`)); p["index"] != "demo:people/Ada Lovelace" || p["type"] != "detail" {
		t.Errorf("a page of the other library: %v", p)
	}
	// The guard judges the library the index names: demo is read-only.
	res := kitCall(t, reg, "create_detail_page", `{"name":"X","parent_index":"demo:/"}`)
	if res.ErrorCode != tool.CodePermissionDenied || !strings.Contains(res.Message, `"demo" is read-only`) {
		t.Errorf("a write through a page index of a read-only library: %s", res.YAML())
	}
	if _, err := os.Stat(filepath.Join(other, "X.md")); !os.IsNotExist(err) {
		t.Errorf("X.md was written in the read-only library: %v", err)
	}
	// An index of one library with library_name of another is refused, saying why.
	res = kitCall(t, reg, "get_page", `{"page_index":"demo:people/","library_name":"t"}`)
	if res.ErrorCode != tool.CodeInvalidArguments || !strings.Contains(res.Message, `library "demo"`) || !strings.Contains(res.Message, `library "t"`) {
		t.Errorf("index of another library: %s", res.YAML())
	}
}

func TestGetPageAndTree(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	h.ok("update_entity", `{"entity_name":"Engine","summary":"Babbage's machine."}`)
	for _, tc := range []struct {
		index string
		want  map[string]any
	}{
		{"t:/", map[string]any{"index": "t:/", "name": "t", "description": "", "type": "contents", "has_detail": false, "notes": float64(5)}},
		{"t:people/", map[string]any{"index": "t:people/", "name": "people", "description": "", "type": "contents", "has_detail": false, "notes": float64(2)}},
		{"t:Engine", map[string]any{"index": "t:Engine", "name": "Engine", "description": "Babbage's machine.", "type": "detail", "has_detail": true}},
		{"Ada", map[string]any{"index": "t:people/Ada Lovelace", "name": "Ada Lovelace", "description": "", "type": "detail", "has_detail": true, "entity_type": "person"}},
	} {
		if diff := cmp.Diff(tc.want, h.ok("get_page", `{"page_index":"`+tc.index+`"}`)); diff != "" {
			t.Errorf("get_page %s (-want +got):\n%s", tc.index, diff)
		}
	}
	d := h.ok("get_children", `{"page_index":"t:/"}`)
	if got := indexes(t, d["children"]); !cmp.Equal(got, []string{"t:notes/", "t:people/", "t:Engine"}) {
		t.Errorf("children of the root: %v", got)
	}
	d = h.ok("get_parent", `{"page_index":"t:people/Ada Lovelace"}`)
	if pageOf(t, d["parent"])["index"] != "t:people/" {
		t.Errorf("get_parent: %v", d)
	}
	if d := h.ok("get_parent", `{"page_index":"t:/"}`); d["parent"] != nil {
		t.Errorf("the root's parent: %v", d)
	}
	d = h.ok("get_ancestors", `{"page_index":"t:people/Ada Lovelace"}`)
	if got := indexes(t, d["ancestors"]); !cmp.Equal(got, []string{"t:people/", "t:/"}) {
		t.Errorf("get_ancestors: %v", got)
	}
	// Bad input: each error says what to give instead.
	for _, tc := range []struct{ tool, args, code, says string }{
		{"get_page", `{"page_index":"t:Nobody"}`, "not_found", `page_index "t:Nobody" names no page`},
		{"get_page", `{"page_index":"elsewhere:x"}`, "not_found", `"elsewhere" is not a mounted library`},
		{"get_page", `{"page_index":""}`, "invalid_arguments", "page_index is empty"},
		{"get_page", `{"page_index":5}`, "invalid_arguments", "page_index"},
		{"get_page", `{"index":"t:Engine"}`, "invalid_arguments", "usage: get_page(page_index: string"},
		{"get_children", `{"page_index":"t:/","entity_name":"/"}`, "invalid_arguments", "one of them"},
		{"get_children", `{}`, "invalid_arguments", "page_index"},
	} {
		res := h.call(tc.tool, tc.args)
		if string(res.ErrorCode) != tc.code || !strings.Contains(res.Message, tc.says) {
			t.Errorf("%s(%s) = %s %q, want %s saying %q", tc.tool, tc.args, res.ErrorCode, res.Message, tc.code, tc.says)
		}
	}
}

func TestFindPage(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	d := h.ok("find_page", `{"query":"later life"}`)
	if got := indexes(t, d["pages"]); len(got) == 0 || got[0] != "t:people/Ada Lovelace" {
		t.Errorf("find_page later life: %v", got)
	}
	if got := indexes(t, h.ok("find_page", `{"query":"peop"}`)["pages"]); len(got) == 0 || got[0] != "t:people/" {
		t.Errorf("a folder by its name: %v", got)
	}
	res := h.call("find_page", `{"query":"zyzzyva"}`)
	if res.IsError() || !strings.Contains(res.Message, "no page matches") {
		t.Errorf("no match is an empty answer, not an error: %s", res.YAML())
	}
	if got := entData(t, res)["pages"].([]any); len(got) != 0 {
		t.Errorf("no match: %v", got)
	}
}

func TestCreatePages(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	d := h.ok("create_detail_page", `{"name":"新想法","description":"关于工具调用的思考","detail":"详细内容...","parent_index":"t:notes/"}`)
	if d["index"] != "t:notes/新想法" {
		t.Fatalf("create_detail_page: %v", d)
	}
	if text := h.read("notes/新想法.md"); !strings.Contains(text, "summary: 关于工具调用的思考") || !strings.Contains(text, "详细内容...") {
		t.Errorf("the new note:\n%s", text)
	}
	// Under a detail page: a folder named like it, and it becomes a contents page.
	d = h.ok("create_detail_page", `{"name":"Gears","parent_index":"t:Engine"}`)
	if d["index"] != "t:Engine/Gears" || h.ok("get_page", `{"page_index":"t:Engine"}`)["type"] != "contents" {
		t.Errorf("under a detail page: %v", d)
	}
	if got := indexes(t, h.ok("get_children", `{"page_index":"t:Engine"}`)["children"]); !cmp.Equal(got, []string{"t:Engine/Gears"}) {
		t.Errorf("children of the new contents page: %v", got)
	}
	for _, tc := range []struct{ args, code, says string }{
		{`{"name":"新想法","parent_index":"t:notes/"}`, "already_exists", "already exists"},
		{`{"name":"a/b","parent_index":"t:/"}`, "invalid_arguments", "'/'"},
		{`{"name":"..","parent_index":"t:/"}`, "invalid_arguments", "not a page name"},
		{`{"name":"X","parent_index":"t:nowhere/"}`, "not_found", "parent_index"},
		{`{"title":"X","parent_index":"t:/"}`, "invalid_arguments", "usage: create_detail_page(name: string, description?: string, detail?: string, parent_index: string"},
	} {
		res := h.call("create_detail_page", tc.args)
		if string(res.ErrorCode) != tc.code || !strings.Contains(res.Message, tc.says) {
			t.Errorf("create_detail_page(%s) = %s %q, want %s saying %q", tc.args, res.ErrorCode, res.Message, tc.code, tc.says)
		}
	}

	before := entTree(t, h.dir)
	for _, args := range []string{
		`{"name":"Machines","parent_index":"t:/","children":["t:Engine","t:people/"]}`, // a folder child
		`{"name":"Machines","parent_index":"t:/","children":["t:Engine","t:Engine"]}`,  // twice
		`{"name":"Machines","parent_index":"t:/","children":["t:Engine","t:Nobody"]}`,  // nothing
		`{"name":"people","parent_index":"t:/","children":[]}`,                         // taken
		`{"name":"Machines","description":"x","parent_index":"t:/"}`,                   // children missing
	} {
		if res := h.call("create_contents_page", args); !res.IsError() {
			t.Errorf("create_contents_page(%s) succeeded: %s", args, res.YAML())
		}
	}
	if diff := cmp.Diff(before, entTree(t, h.dir)); diff != "" {
		t.Errorf("refused calls changed the vault (-before +after):\n%s", diff)
	}
	d = h.ok("create_contents_page", `{"name":"Machines","description":"Calculating machines","parent_index":"t:/","children":["t:Engine","t:notes/Plain"]}`)
	if d["index"] != "t:Machines/" || !cmp.Equal(d["moved"], []any{"t:Machines/Engine", "t:Machines/Plain"}) {
		t.Errorf("create_contents_page: %v", d)
	}
	if p := h.ok("get_page", `{"page_index":"t:Machines/"}`); p["description"] != "Calculating machines" || p["type"] != "contents" {
		t.Errorf("the new contents page: %v", p)
	}
	if got := indexes(t, h.ok("get_children", `{"page_index":"t:Machines/"}`)["children"]); !cmp.Equal(got, []string{"t:Machines/Engine", "t:Machines/Plain"}) {
		t.Errorf("its children (its own note left out): %v", got)
	}
	if text := h.read("people/Ada Lovelace.md"); !strings.Contains(text, "[[Engine|Analytical Engine]]") {
		t.Errorf("links to a moved child must still resolve:\n%s", text)
	}
}

func TestChangePages(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	d := h.ok("update_page", `{"page_index":"t:Engine","name":"Analytical Engine","description":"The first design of a computer."}`)
	if d["index"] != "t:Analytical Engine" || d["description"] != "The first design of a computer." {
		t.Errorf("update_page: %v", d)
	}
	if text := h.read("people/Charles Babbage.md"); strings.Contains(text, "[[Engine") {
		t.Errorf("the rename did not rewrite the links:\n%s", text)
	}
	d = h.ok("update_page", `{"page_index":"t:people/","description":"Who is who."}`)
	if d["description"] != "Who is who." || !strings.Contains(h.read("people/people.md"), "summary: Who is who.") {
		t.Errorf("a folder's description lives in its folder note: %v", d)
	}
	for _, tc := range []struct{ args, says string }{
		{`{"page_index":"t:people/","name":"humans"}`, "does not rename"},
		{`{"page_index":"t:Analytical Engine"}`, "needs name, description or both"},
		{`{"page_index":"t:Analytical Engine","name":" "}`, "name is empty"},
		{`{"page_index":"t:Analytical Engine","description":""}`, "description is empty"},
	} {
		if res := h.call("update_page", tc.args); res.ErrorCode != tool.CodeInvalidArguments || !strings.Contains(res.Message, tc.says) {
			t.Errorf("update_page(%s) = %s", tc.args, res.YAML())
		}
	}

	d = h.ok("expand_details", `{"page_index":"t:Analytical Engine"}`)
	if shown, _ := d["shown"].(string); !strings.Contains(shown, "The first design") && !strings.Contains(shown, "Analytical Engine [full]") {
		t.Errorf("expand_details: %v", d)
	}
	h.ok("hide_details", `{"page_index":"t:Analytical Engine"}`)
	if text := h.ok("view_canvas", `{}`)["canvas"].(string); strings.Contains(text, "Analytical Engine [full]") {
		t.Errorf("hide_details left it at full:\n%s", text)
	}

	d = h.ok("move_page", `{"source":"t:notes/Plain","target":"t:people/Ada Lovelace"}`)
	if d["index"] != "t:people/Ada Lovelace/Plain" || h.ok("get_page", `{"page_index":"t:people/Ada Lovelace"}`)["type"] != "contents" {
		t.Errorf("move_page under a detail page: %v", d)
	}
	for _, args := range []string{`{"source":"t:people/","target":"t:/"}`, `{"source":"t:Analytical Engine","target":"t:Analytical Engine"}`, `{"source":"t:Nobody","target":"t:/"}`} {
		if res := h.call("move_page", args); !res.IsError() {
			t.Errorf("move_page(%s) succeeded", args)
		}
	}

	if res := h.call("remove_page", `{"page_index":"t:people/"}`); res.ErrorCode != tool.CodeInvalidArguments || !strings.Contains(res.Message, "folder") {
		t.Errorf("remove_page of a folder: %s", res.YAML())
	}
	d = h.ok("remove_page", `{"page_index":"t:Analytical Engine"}`)
	if _, err := os.Stat(filepath.Join(h.dir, "Analytical Engine.md")); !os.IsNotExist(err) || d["index"] != "t:Analytical Engine" {
		t.Errorf("remove_page: %v %v", d, err)
	}
	if links, _ := d["dangling_links"].([]any); len(links) == 0 {
		t.Errorf("remove_page should list the links left dangling: %v", d)
	}
	if tl, _ := h.reg.Get("remove_page"); tl.Class() != tool.Destructive {
		t.Errorf("remove_page is %s, want destructive like delete_entities", tl.Class())
	}
}

// TestPageToolsDeclared checks that each of seed 003's tools is registered under its
// own name with the seed's parameters, and answers keys the seed names.
func TestPageToolsDeclared(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	want := map[string][]string{
		"list_segments":        {},
		"get_segment":          {"id"},
		"get_page":             {"page_index"},
		"find_page":            {"query"},
		"update_page":          {"page_index", "name", "description"},
		"expand_details":       {"page_index"},
		"hide_details":         {"page_index"},
		"move_page":            {"source", "target"},
		"remove_page":          {"page_index"},
		"create_detail_page":   {"name", "description", "detail", "parent_index"},
		"create_contents_page": {"name", "description", "parent_index", "children"},
		"get_children":         {"page_index"},
		"get_parent":           {"page_index"},
		"get_ancestors":        {"page_index"},
	}
	for name, params := range want {
		tl, ok := h.reg.Get(name)
		if !ok {
			t.Errorf("%s is not registered", name)
			continue
		}
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(tl.InputSchema(), &schema); err != nil {
			t.Fatal(err)
		}
		for i, p := range params {
			if _, ok := schema.Properties[p]; !ok {
				t.Errorf("%s lacks parameter %s", name, p)
			}
			if tl.Params()[i] != p {
				t.Errorf("%s: parameter %d is %s, want %s (positional arguments follow the seed's order)", name, i, tl.Params()[i], p)
			}
		}
	}
}

// pageHostile holds, for each of seed 003's tools, call templates in which %s is a
// JSON string tried with every hostile string of kitHostile.
var pageHostile = map[string][]string{
	"get_segment":          {`{"id":%s}`},
	"get_page":             {`{"page_index":%s}`, `{"page_index":"demo:"+%s}`},
	"find_page":            {`{"query":%s}`},
	"update_page":          {`{"page_index":%s,"name":"X"}`, `{"page_index":"demo:Welcome","name":%s}`},
	"expand_details":       {`{"page_index":%s}`, `{"page_index":"demo:Welcome","view_name":%s}`},
	"hide_details":         {`{"page_index":%s}`},
	"move_page":            {`{"source":%s,"target":"demo:/"}`, `{"source":"demo:Welcome","target":%s}`},
	"remove_page":          {`{"page_index":%s}`},
	"create_detail_page":   {`{"name":%s,"parent_index":"demo:/"}`, `{"name":"X","parent_index":%s}`},
	"create_contents_page": {`{"name":%s,"parent_index":"demo:/","children":[]}`, `{"name":"X","parent_index":"demo:/","children":[%s]}`},
}

// pageMaySucceed lists the hostile calls for which a success is right: a search that
// finds nothing, and a name of stars, which the
// vault accepts today (which characters a name may hold is the entity tools' rule,
// the same for every tool that names a note).
func pageMaySucceed(name, hostile string) bool {
	if name == "find_page" {
		return true
	}
	return strings.HasPrefix(hostile, "***") && strings.HasPrefix(name, "create_") || name == "update_page" && strings.HasPrefix(hostile, "***")
}

// TestPageToolsHostile checks seed 003's tools against hostile arguments: each is
// refused with a result (never an internal error), quickly, and the vault is left as
// it was.
func TestPageToolsHostile(t *testing.T) {
	for name, templates := range pageHostile {
		t.Run(name, func(t *testing.T) {
			dir := kitCopy(t, kitDemo)
			ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "demo", Path: dir}}, workspace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			reg, err := ws.Registry()
			if err != nil {
				t.Fatal(err)
			}
			root := filepath.Dir(dir)
			for _, tmpl := range templates {
				for _, h := range kitHostile {
					q, _ := json.Marshal(h)
					args := strings.Replace(tmpl, "%s", string(q), 1)
					args = strings.Replace(args, `"demo:"+"`, `"demo:`, 1)
					before := kitSnapshot(t, root)
					start := time.Now()
					res := kitCall(t, reg, name, args)
					if d := time.Since(start); d > 3*time.Second {
						t.Errorf("%s(%s) took %v", name, kitShort(args), d)
					}
					if res.ErrorCode == tool.CodeInternal {
						t.Errorf("%s(%s): internal error: %s", name, kitShort(args), res.Message)
					}
					if !res.IsError() {
						if !pageMaySucceed(name, h) {
							t.Errorf("%s(%s) succeeded:\n%s", name, kitShort(args), kitShort(res.YAML()))
						}
						continue
					}
					after := kitSnapshot(t, root)
					delete(after, "vault/journey.yaml")
					delete(before, "vault/journey.yaml")
					for k := range after {
						if strings.HasPrefix(k, "vault/.memotree/") {
							delete(after, k)
							delete(before, k)
						}
					}
					kitSame(t, before, after, name+"("+kitShort(args)+")")
				}
			}
		})
	}
}
