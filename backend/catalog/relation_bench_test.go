package catalog_test

import (
	"testing"

	"github.com/memotree/memotree/backend/tool"
)

func BenchmarkFindRelations(b *testing.B) {
	reg := kitBenchVault(b)
	cases := []struct{ name, args string }{
		{"all-relations", `{"limit":50}`},
		{"by-type", `{"relation_type":"located in","limit":50}`},
		{"from-one-note", `{"from":"` + kitFirstNote(b, reg) + `"}`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res := kitCall(b, reg, "find_relations", c.args)
				if res.IsError() {
					b.Fatal(res.YAML())
				}
			}
		})
	}
}

// kitFirstNote names the first note of the library, found with search_in_names.
func kitFirstNote(b *testing.B, reg *tool.Registry) string {
	b.Helper()
	res := kitCall(b, reg, "search_in_names", `{"entity_glob":"**","limit":1}`)
	ents, _ := kitData(b, res)["entities"].([]any)
	if len(ents) == 0 {
		b.Fatal(res.YAML())
	}
	return ents[0].(map[string]any)["entity_name"].(string)
}
