package graph

import (
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestDeferredReverseEqualsEager loads the same nested vault twice, once building the
// reverse indexes with the load and once deferring them, checks that the deferred
// load left them out, and that once built by the first reader (takeSnapshot asks for
// backlinks first) they and everything else equal the eager graph's.
func TestDeferredReverseEqualsEager(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	entries := nestedVault(2100) // enough for LoadSorted to split its parts
	eager, deferred := New(), New()
	deferred.DeferReverse()
	for _, g := range []*Graph{eager, deferred} {
		g.LoadSorted(len(entries), func(i int) Entry { return entries[i] })
	}
	if deferred.reversed || built(deferred) != 0 {
		t.Fatalf("a deferred load built its reverse indexes (%d entries)", built(deferred))
	}
	if !eager.reversed || built(eager) == 0 {
		t.Fatalf("an eager load left its reverse indexes out")
	}
	if deferred.Stats() != eager.Stats() || len(deferred.Edges()) != len(eager.Edges()) {
		t.Fatalf("the deferred graph resolves differently: %+v, eager %+v", deferred.Stats(), eager.Stats())
	}
	want, got := takeSnapshot(eager), takeSnapshot(deferred)
	if !deferred.reversed {
		t.Fatalf("reading backlinks did not build the deferred reverse indexes")
	}
	if len(want.Backrefs) == 0 || len(want.Deps) == 0 {
		t.Fatalf("the vault has no backlinks or link dependencies to compare: %d, %d", len(want.Backrefs), len(want.Deps))
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("built late, the reverse indexes differ (-eager +deferred):\n%s", cmp.Diff(want, got, cmp.AllowUnexported(ref{}), cmpopts.EquateEmpty()))
	}
}

// TestDeferredReverseBuiltOnceByConcurrentReaders has readers ask for backlinks and
// neighbours of a deferred graph at once, while it is loaded again (deferring
// again); under -race it checks that the build takes the write lock, and every
// answer must be the eager graph's.
func TestDeferredReverseBuiltOnceByConcurrentReaders(t *testing.T) {
	entries := nestedVault(1500)
	eager, deferred := New(), New()
	deferred.DeferReverse()
	for _, g := range []*Graph{eager, deferred} {
		g.LoadSorted(len(entries), func(i int) Entry { return entries[i] })
	}
	paths := eager.Files()
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 3 {
			deferred.LoadSorted(len(entries), func(i int) Entry { return entries[i] })
		}
	})
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(paths); i += 37 {
				p := paths[i]
				if got, want := deferred.Backlinks(p), eager.Backlinks(p); !reflect.DeepEqual(got, want) {
					t.Errorf("Backlinks(%s) = %d edges, eager %d", p, len(got), len(want))
					return
				}
				if got, want := deferred.Neighbors(p, 1, nil), eager.Neighbors(p, 1, nil); !reflect.DeepEqual(got, want) {
					t.Errorf("Neighbors(%s) = %v, eager %v", p, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// built counts the entries of the reverse indexes of links.
func built(g *Graph) int {
	n := 0
	for _, f := range g.files {
		n += len(f.back)
	}
	for _, b := range g.byStem {
		n += len(b.deps)
	}
	return n
}
