package script

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDataConversionMatchesJSON: the direct conversion of tool data gives what the
// JSON an MCP client receives decodes to, for the data of every family.
func TestDataConversionMatchesJSON(t *testing.T) {
	e := newEnv(t, writeVault(t, true), Limits{})
	calls := []struct{ name, args string }{
		{"read_entities", `{"entity_names":["Ada Lovelace","meta"]}`},
		{"list_entities", `{"entity_glob":"**"}`},
		{"search_in_contents", `{"content_glob":"Engine"}`},
		{"search_anywhere", `{"pattern_glob":"/Babbage/"}`},
		{"get_backlinks", `{"entity_name":"Analytical Engine"}`},
		{"get_children", `{"entity_name":"people"}`},
		{"get_parent", `{"entity_name":"people/Ada Lovelace"}`},
		{"get_ancestors", `{"entity_name":"people/Ada Lovelace"}`},
		{"get_neighbors", `{"entity_name":"Ada Lovelace","depth":2}`},
		{"get_entities_toc", `{"entity_names":["meta"]}`},
		{"find_relations", `{"relation_type":"links to"}`},
		{"list_libraries", `{}`},
		{"read_manual", `{}`},
		{"create_entity", `{"entity_name":"x/New","content":"n","tags":["a"]}`},
		{"git_status", `{}`},
		{"git_diff", `{}`},
		{"git_log", `{}`},
	}
	for _, c := range calls {
		res, err := e.reg.Call(t.Context(), agent, c.name, json.RawMessage(c.args))
		if err != nil || res.IsError() {
			t.Fatalf("%s: %v %s", c.name, err, res.Message)
		}
		conv := &converter{max: 1 << 30, name: c.name}
		direct, err := conv.value(reflect.ValueOf(res.Data), 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		b, _ := json.Marshal(res.Data)
		viaJSON, err := fromJSON(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err1 := toJSONValue(direct, 0)
		want, err2 := toJSONValue(viaJSON, 0)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", c.name, err1, err2)
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(want)
		if d := cmp.Diff(string(wb), string(gb)); d != "" {
			t.Errorf("%s (-json +direct):\n%s", c.name, d)
		}
	}
}
