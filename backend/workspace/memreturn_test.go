package workspace

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/internal/wait"
)

// goMemory is what the Go runtime holds of the operating system's memory now
// (everything it mapped, less what it gave back: the resident memory of its heap,
// stacks and metadata, whether live or free), and the live heap as of the last
// collection. Reading them runs no collection.
func goMemory() (held, live int64) {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64()), int64(s[2].Value.Uint64())
}

// residentMemory is the process's resident set size on Linux (VmRSS), 0 elsewhere.
func residentMemory() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestHugeNoteMemoryGoesBackToTheSystem: after a 20 MB note of 500,000 links has
// been indexed, searched and cached by a pattern search, and then deleted, the
// memory it took goes back to the operating system within seconds — what the Go
// runtime holds, and on Linux the process's resident memory, come back near where
// they were before the note — with nothing searching meanwhile and without the test
// collecting garbage itself (the pattern search's cache let go of the note's text
// only at the next search, and the runtime collects an idle heap every two minutes
// and hands pages back slowly: `serve` kept 900 MB for minutes).
func TestHugeNoteMemoryGoesBackToTheSystem(t *testing.T) {
	// A pattern without three letters in a row: no trigram narrows it, so every note
	// is read, and kept in the pattern search's cache.
	const glob = "l?n?e?"
	h := openHugeNoteVault(t, glob)
	debug.FreeOSMemory() // the test's start: the runtime holds what is live
	baseHeld, baseLive := goMemory()
	baseRSS := residentMemory()

	h.add(t)
	wait.Within(t, 2*time.Minute, "the search index to hold huge.md", func() bool { return h.search(t) })
	h.pattern(t, glob) // its text is cached now
	withHeld, withLive := goMemory()
	withRSS := residentMemory()
	t.Logf("before: held %d MB, live %d MB, resident %d MB", baseHeld>>20, baseLive>>20, baseRSS>>20)
	t.Logf("with the note: held %d MB, live %d MB, resident %d MB", withHeld>>20, withLive>>20, withRSS>>20)

	deleted := time.Now()
	h.remove(t)
	// Nothing searches now, as in a window left alone: the search index follows the
	// deletion in the background, and the pattern search's cache as it happens.
	// Back within 32 MB of the start (the note alone is 20 MB; 12 MB for the race
	// detector's note of 4 MB), well within the two minutes after which the runtime
	// would collect an idle heap on its own.
	slack := int64(32 << 20)
	if raceDetector {
		slack = 12 << 20
	}
	back := func() bool {
		held, _ := goMemory()
		rss := residentMemory()
		return held <= baseHeld+slack && (rss == 0 || raceDetector || rss <= baseRSS+slack)
	}
	for stop := deleted.Add(60 * time.Second); !back() && time.Now().Before(stop); time.Sleep(100 * time.Millisecond) {
	}
	afterHeld, afterLive := goMemory()
	afterRSS := residentMemory()
	t.Logf("%v after the deletion: held %d MB, live %d MB, resident %d MB", time.Since(deleted).Round(time.Second), afterHeld>>20, afterLive>>20, afterRSS>>20)
	if !back() {
		t.Errorf("a minute after the note was deleted the runtime holds %d MB (%d MB before it), resident %d MB (%d MB before): the memory did not go back", afterHeld>>20, baseHeld>>20, afterRSS>>20, baseRSS>>20)
	}
	if afterLive > baseLive+4<<20 {
		t.Errorf("after the note was deleted the live heap is %d MB, %d MB more than before it; want at most 4 MB more", afterLive>>20, (afterLive-baseLive)>>20)
	}
	if h.search(t) {
		t.Error("the search index still finds the deleted note")
	}
}
