package parts

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestRunCoversEveryItemOnce: the parts of Run cover [0, n) exactly, for any count of
// parts, and Count makes one part for a few items and one a processor for many.
func TestRunCoversEveryItemOnce(t *testing.T) {
	for _, n := range []int{0, 1, 5, 1000, 1001} {
		for _, k := range []int{1, 2, 3, 7} {
			seen := make([]atomic.Int32, n)
			Run(k, n, func(_, from, to int) {
				for i := from; i < to; i++ {
					seen[i].Add(1)
				}
			})
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("n=%d k=%d: item %d seen %d times", n, k, i, c)
				}
			}
		}
	}
	if Count(10, 1024) != 1 {
		t.Errorf("Count(10, 1024) = %d, want 1", Count(10, 1024))
	}
	if got, want := Count(1<<20, 1024), runtime.GOMAXPROCS(0); got != want {
		t.Errorf("Count(1<<20, 1024) = %d, want %d", got, want)
	}
}
