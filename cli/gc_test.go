package cli

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// TestLazyGC: the collector is lazy on a small heap and back to its default once the
// live heap passes lazyGCUntil.
func TestLazyGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	startLazyGC() // lazyGC itself acts once per process, maybe already in another test
	if p := gogc(); p != lazyGCPercent {
		t.Fatalf("GC percent after lazyGC = %d, want %d", p, lazyGCPercent)
	}
	runtime.GC() // a small heap: stays lazy
	time.Sleep(10 * time.Millisecond)
	if p := gogc(); p != lazyGCPercent {
		t.Fatalf("GC percent on a small heap = %d, want %d", p, lazyGCPercent)
	}
	live := make([]byte, 2*lazyGCUntil)
	for i := range live {
		live[i] = byte(i)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		p := gogc()
		if p == 100 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GC percent with %d MB live = %d, want the default 100", len(live)>>20, p)
		}
	}
	runtime.KeepAlive(live)
}

// gogc reads the collector's percent without changing it.
func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
