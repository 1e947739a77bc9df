package note

import (
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/internal/benchtest"
)

// TestHostileInputIsLinear parses inputs built to make a naive scanner rescan the rest
// of the line or note at every byte, at 256 KB and at 1 MB: linear work takes about 4
// times longer on the larger one, a quadratic path 16 times (and a quadratic rescan of
// 1 MB takes seconds: 10^12 steps at its most naive). It counts the process's CPU
// time, not wall time, so that other processes loading the machine do not count (the
// race detector's and the collector's work grow with the input as the parse does).
func TestHostileInputIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	timeOf := func(p string, size int) time.Duration {
		src := []byte(strings.Repeat(p, size/len(p)))
		best := time.Duration(1 << 62)
		for range 2 { // the faster of two runs
			start, cpu := time.Now(), benchtest.CPU()
			Parse(src)
			d := benchtest.CPU() - cpu
			if cpu <= 0 { // CPU time is not measured on this platform
				d = time.Since(start)
			}
			best = min(best, d)
		}
		return best
	}
	patterns := []string{"[", "[[a ", "]] ", "` `` ``` ", "$a ", "<!-- ", "[a](b ", "[a](<b ", "#", "#12 ", "a#b ", "![", "\\", "%", "[x]( \"", "> ", "- ```\n", "$$ ", "[a] ", "`a\n"}
	for _, p := range patterns {
		small, large := timeOf(p, 1<<18), timeOf(p, 1<<20)
		if large > 500*time.Millisecond && large > 12*small {
			t.Errorf("Parse(%q × n) took %v at 256 KB and %v at 1 MB: not linear", p, small, large)
		}
	}
}

// TestLargeNote parses a 10 MB note with 100,000 links.
func TestLargeNote(t *testing.T) {
	src := largeNote()
	n := Parse(src)
	if len(n.Links) < 100000 || len(n.Warnings) != 0 {
		t.Errorf("%d links, warnings %v", len(n.Links), n.Warnings)
	}
}
