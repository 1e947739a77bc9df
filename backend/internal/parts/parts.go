// Package parts shares work on n items among the processors: consecutive parts of
// [0, n), one goroutine each.
package parts

import (
	"runtime"
	"sync"
)

// Count is how many parts n items make with at least per items a part: one a
// processor (GOMAXPROCS), one when n is small.
func Count(n, per int) int {
	return min(runtime.GOMAXPROCS(0), max(1, n/max(per, 1)))
}

// Bounds returns part i of k consecutive parts of [0, n).
func Bounds(k, n, i int) (from, to int) { return i * n / k, (i + 1) * n / k }

// Run calls fn with each of k parts of [0, n) (Bounds), each on a goroutine of its
// own, and returns when every call has.
func Run(k, n int, fn func(part, from, to int)) {
	if k <= 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for i := range k {
		wg.Go(func() {
			from, to := Bounds(k, n, i)
			fn(i, from, to)
		})
	}
	wg.Wait()
}
