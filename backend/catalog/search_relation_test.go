package catalog_test

import (
	"strconv"
	"testing"
)

// TestRelationSearchHonoursMaxResults checks that search_type relation answers at most
// max_results notes, best first, the matches and their graph neighbours together.
func TestRelationSearchHonoursMaxResults(t *testing.T) {
	reg := kitOpen(t, kitCopy(t, kitDemo))
	for _, max := range []int{1, 2, 5} {
		res := kitCall(t, reg, "search_nodes", `{"query":"engine babbage","search_type":"relation","max_results":`+strconv.Itoa(max)+`}`)
		kitWant(t, res, "success")
		hits, _ := kitData(t, res)["results"].([]any)
		if len(hits) == 0 || len(hits) > max {
			t.Fatalf("max_results %d: %d results:\n%s", max, len(hits), res.YAML())
		}
		prev := 1e300
		for _, h := range hits {
			score := h.(map[string]any)["score"].(float64)
			if score > prev {
				t.Errorf("max_results %d: not best first:\n%s", max, res.YAML())
			}
			prev = score
		}
	}
	// With room for them, the graph neighbours of the matches join them, each naming
	// the match it came by; the best match leads.
	res := kitCall(t, reg, "search_nodes", `{"query":"jacquard","search_type":"relation","max_results":30}`)
	hits, _ := kitData(t, res)["results"].([]any)
	vias := 0
	for _, h := range hits {
		if h.(map[string]any)["via"] != nil {
			vias++
		}
	}
	if len(hits) < 2 || hits[0].(map[string]any)["via"] != nil || vias == 0 {
		t.Errorf("jacquard: the match first, then its neighbours:\n%s", res.YAML())
	}
}
