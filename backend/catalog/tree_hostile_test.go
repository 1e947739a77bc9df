package catalog_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/tool"
)

// kitHostile are the strings every name, pattern and text argument is tried with.
var kitHostile = []string{
	"../x", "../../../../etc/passwd", "/etc/passwd", ".git/config", ".obsidian/app", "a\x00b",
	strings.Repeat("n", 5000), "/(/", strings.Repeat("*", 22) + "a", "\\..\\x", "C:\\Windows\\x",
}

// kitHostileTemplates holds, for every tool of the relation, tree, search and memory
// families, call templates in which %s is a JSON string; each is tried with every
// hostile string, and every tool with wrong types and missing fields.
var kitHostileTemplates = map[string][]string{
	"create_relations": {
		`{"relations":[{"from":%s,"to":"Welcome","type":"knows"}]}`,
		`{"relations":[{"from":"Welcome","to":%s,"type":"knows"}]}`,
		`{"relations":[{"from":%s,"to":%[1]s,"type":%[1]s}]}`,
	},
	"delete_relations": {
		`{"relations":[{"from":%s,"to":"Welcome","type":"knows"}]}`,
		`{"relations":[{"from":"Welcome","to":%s,"type":"related to"}]}`,
	},
	"find_relations":            {`{"from":%s}`, `{"to_entity":%s}`, `{"relation_type":%s,"from":"Nobody Here"}`},
	"garbage_collect_relations": {`{"dry_run":false,"library_name":%s}`},
	"list_libraries":            {`{"library_name":%s}`},
	"get_children":              {`{"entity_name":%s}`},
	"get_parent":                {`{"entity_name":%s}`},
	"get_ancestors":             {`{"entity_name":%s}`},
	"get_neighbors":             {`{"entity_name":%s,"depth":3}`, `{"entity_name":"Welcome","relation_types":[%s],"depth":99}`},
	"get_backlinks":             {`{"entity_name":%s}`},
	"search_in_names":           {`{"entity_glob":%s}`},
	"search_in_contents":        {`{"content_glob":%s}`, `{"content_glob":"zzqqxx","entity_glob":%s}`},
	"search_anywhere":           {`{"pattern_glob":%s}`, `{"pattern_glob":"zzqqxx","entity_glob":%s}`},
	"memory_notebook_replace":   {`{"old_text":%s,"new_text":"x"}`, `{"old_text":"","new_text":%s}`},
}

// kitWrongTypes are calls with wrong JSON types or missing required fields.
var kitWrongTypes = map[string][]string{
	"create_relations":          {`{}`, `{"relations":"x"}`, `{"relations":[{"from":1,"to":2,"type":3}]}`, `{"relations":[{"from":"Welcome"}]}`, `{"relations":[]}`, `[]`, `null`},
	"delete_relations":          {`{}`, `{"relations":{"from":"a"}}`, `{"relations":[]}`},
	"find_relations":            {`{"from":5}`, `{"to_entity":["x"]}`, `{"offset":"a"}`},
	"garbage_collect_relations": {`{"dry_run":"no"}`, `{"dry_run":0}`},
	"list_libraries":            {`{"library_name":5}`},
	"get_children":              {`{}`, `{"entity_name":5}`, `{"entity_name":""}`},
	"get_parent":                {`{}`, `{"entity_name":null}`},
	"get_ancestors":             {`{}`, `{"entity_name":{}}`},
	"get_neighbors":             {`{}`, `{"entity_name":"Welcome","depth":"deep"}`, `{"entity_name":"Welcome","relation_types":"links to"}`},
	"get_backlinks":             {`{}`, `{"entity_name":true}`},
	"search_in_names":           {`{}`, `{"entity_glob":1}`, `{"entity_glob":""}`},
	"search_in_contents":        {`{}`, `{"content_glob":["a"]}`, `{"content_glob":"//"}`, `{"content_glob":"/a{99999}/"}`},
	"search_anywhere":           {`{}`, `{"pattern_glob":{"a":1}}`, `{"pattern_glob":" "}`},
	"memory_notebook_replace":   {`{}`, `{"old_text":1,"new_text":"x"}`, `{"old_text":""}`, `{"old_text":"","new_text":""}`},
}

// kitMaySucceed lists calls for which a success is a correct answer: the argument
// names nothing that exists, so the answer is empty, or the argument is ignored.
func kitMaySucceed(name, args string) bool {
	switch {
	case name == "list_libraries" || name == "garbage_collect_relations":
		return true
	case strings.HasPrefix(name, "search_") && strings.Contains(args, "*****a"):
		return true // every line holding an "a": a correct, capped answer
	case name == "find_relations" && strings.Contains(args, `"relation_type"`):
		return true // an empty list of relations
	case name == "get_neighbors" && strings.Contains(args, `"relation_types"`):
		return true // no edge of that type: no neighbours
	case name == "memory_notebook_replace" && strings.HasPrefix(args, `{"old_text":"","new_text":"`) &&
		!strings.Contains(args, `\u0000`) && len(args) < 4000:
		return true // appending plain text is what the tool is for
	}
	return false
}

func TestHostileArguments(t *testing.T) {
	for name, templates := range kitHostileTemplates {
		var calls []string
		for _, tmpl := range templates {
			for _, h := range kitHostile {
				q, _ := json.Marshal(h)
				calls = append(calls, fmt.Sprintf(tmpl, q))
			}
		}
		calls = append(calls, kitWrongTypes[name]...)
		t.Run(name, func(t *testing.T) {
			// A vault per tool, so that a legitimate append to memory.md cannot be
			// found by a search of another tool.
			dir := kitCopy(t, kitDemo)
			reg := kitOpen(t, dir)
			root := filepath.Dir(dir)
			for _, args := range calls {
				before := kitSnapshot(t, root)
				start := time.Now()
				res := kitCall(t, reg, name, args)
				if d := time.Since(start); d > 3*time.Second {
					t.Errorf("%s(%s) took %v", name, kitShort(args), d)
				}
				after := kitSnapshot(t, root)
				if res.IsError() {
					kitSame(t, before, after, name+"("+kitShort(args)+")")
					if res.ErrorCode == tool.CodeInternal {
						t.Errorf("%s(%s): internal error: %s", name, kitShort(args), res.Message)
					}
					continue
				}
				if !kitMaySucceed(name, args) {
					t.Errorf("%s(%s) succeeded:\n%s", name, kitShort(args), kitShort(res.YAML()))
				}
				if name != "memory_notebook_replace" {
					kitSame(t, before, after, name+"("+kitShort(args)+")")
				} else {
					delete(before, "vault/memory.md")
					delete(before, "vault/journey.yaml")
					delete(after, "vault/memory.md")
					delete(after, "vault/journey.yaml")
					kitSame(t, before, after, name+"("+kitShort(args)+")")
				}
			}
		})
	}
}

// TestEveryToolIsCovered keeps the hostile table complete as tools are added.
func TestEveryToolIsCovered(t *testing.T) {
	reg := kitOpen(t, kitCopy(t, kitDemo))
	mine := map[string]bool{}
	for name := range kitHostileTemplates {
		mine[name] = true
		if _, ok := reg.Get(name); !ok {
			t.Errorf("%s is in the hostile table but not registered", name)
		}
		if len(kitWrongTypes[name]) == 0 {
			t.Errorf("%s has no wrong-type cases", name)
		}
	}
	if len(mine) != 14 {
		t.Errorf("%d tools in the hostile table, want the 14 of the relation, tree, search and memory families", len(mine))
	}
}
