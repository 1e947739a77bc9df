package search

import (
	"os"
	"regexp/syntax"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/vault"
)

func TestLoadTiming(t *testing.T) {
	dir := os.Getenv("LT")
	if dir == "" {
		t.Skip()
	}
	v, _ := vault.Open(dir)
	t0 := time.Now()
	ix, st, err := Open(t.Context(), v, Options{SaveDelay: -1})
	t1 := time.Now()
	tree, _ := syntax.Parse("(?m)Gallolum thijomor", syntax.Perl)
	c, _ := ix.PatternCandidates(t.Context(), tree)
	t2 := time.Now()
	t.Logf("open %v %+v %v; candidates %d others %d in %v", t1.Sub(t0), st, err, len(c.Notes), len(c.Others), t2.Sub(t1))
}
