package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/memotree/memotree/internal/wait"
)

// TestLazyGC: the collector is lazy on a small heap and back to its default once the
// live heap passes lazyGCUntil.
func TestLazyGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	startLazyGC() // lazyGC itself acts once per process, maybe already in another test
	if p := gogc(); p != lazyGCPercent {
		t.Fatalf("GC percent after lazyGC = %d, want %d", p, lazyGCPercent)
	}
	checks := lazyGCChecks.Load()
	runtime.GC() // a small heap: stays lazy
	wait.For(t, "the lazy collector's check of the heap after a collection", func() bool {
		return lazyGCChecks.Load() > checks
	})
	if p := gogc(); p != lazyGCPercent {
		t.Fatalf("GC percent on a small heap = %d, want %d", p, lazyGCPercent)
	}
	live := make([]byte, 2*lazyGCUntil)
	for i := range live {
		live[i] = byte(i)
	}
	wait.Until(t, "the default GC percent with a large live heap", func() error {
		runtime.GC()
		if p := gogc(); p != 100 {
			return fmt.Errorf("GC percent with %d MB live = %d, want 100", len(live)>>20, p)
		}
		return nil
	})
	runtime.KeepAlive(live)
}

// gogc reads the collector's percent without changing it.
func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
