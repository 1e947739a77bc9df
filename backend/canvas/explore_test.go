package canvas

import (
	"os"
	"testing"
)

func TestExplore(t *testing.T) {
	dir := os.Getenv("MEMOTREE_BENCH_VAULT")
	if dir == "" {
		t.Skip()
	}
	c := New(openLib(t, dir), nil)
	r, err := c.Render(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tokens\n%s", r.Tokens, r.Text)
	reach, _ := c.Reach(t.Context(), "")
	m := 0
	for _, k := range reach {
		m = max(m, k)
	}
	t.Logf("max reach %d over %d", m, len(reach))
}
