package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/internal/wait"
)

func TestTempPrefixMatchesVault(t *testing.T) {
	if tempPrefix != vault.TempPrefix {
		t.Errorf("tempPrefix = %q, vault.TempPrefix = %q", tempPrefix, vault.TempPrefix)
	}
}

func start(t *testing.T, dir string, o Options) *Watcher {
	t.Helper()
	w, err := New(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// collect gathers batches until every path in want has been seen (or a Rescan came),
// then waits quiet for more batches, and returns the union.
func collect(t *testing.T, w *Watcher, want ...vpath.Path) (seen map[vpath.Path]bool, rescan bool) {
	t.Helper()
	seen = map[vpath.Path]bool{}
	timeout := time.After(30 * time.Second) // a last guard: batches come as soon as the kernel reports
	quiet := 150 * time.Millisecond
	for {
		done := rescan
		if !done {
			done = true
			for _, p := range want {
				done = done && seen[p]
			}
		}
		var wait <-chan time.Time
		if done {
			wait = time.After(quiet)
		}
		select {
		case b, ok := <-w.Batches():
			if !ok {
				t.Fatal("Batches closed")
			}
			if !slices.IsSorted(b.Paths) || len(slices.Compact(slices.Clone(b.Paths))) != len(b.Paths) {
				t.Errorf("batch not sorted or has duplicates: %v", b.Paths)
			}
			for _, p := range b.Paths {
				seen[p] = true
			}
			rescan = rescan || b.Rescan
		case <-wait:
			return seen, rescan
		case <-timeout:
			t.Fatalf("timed out; seen %v, want %v", keys(seen), want)
		}
	}
}

func keys(m map[vpath.Path]bool) []vpath.Path {
	var ks []vpath.Path
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestNoteLifecycle(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "people"), 0o755); err != nil {
		t.Fatal(err)
	}
	w := start(t, dir, Options{Debounce: 5 * time.Millisecond})
	steps := []struct {
		name string
		do   func()
		want []vpath.Path
	}{
		{"create", func() { write(t, dir, "people/Ada.md", "a") }, []vpath.Path{"people/Ada.md"}},
		{"modify", func() { write(t, dir, "people/Ada.md", "b") }, []vpath.Path{"people/Ada.md"}},
		{"rename", func() {
			os.Rename(filepath.Join(dir, "people", "Ada.md"), filepath.Join(dir, "Ada.md"))
		}, []vpath.Path{"Ada.md", "people/Ada.md"}},
		{"delete", func() { os.Remove(filepath.Join(dir, "Ada.md")) }, []vpath.Path{"Ada.md"}},
		{"rename folder", func() {
			os.Rename(filepath.Join(dir, "people"), filepath.Join(dir, "persons"))
		}, []vpath.Path{"people", "persons"}},
		{"write in renamed folder", func() { write(t, dir, "persons/Bob.md", "b") }, []vpath.Path{"persons/Bob.md"}},
		{"move a full folder in", func() {
			src := filepath.Join(t.TempDir(), "import")
			os.MkdirAll(filepath.Join(src, "sub"), 0o755)
			write(t, src, "one.md", "1")
			write(t, src, "sub/two.md", "2")
			if err := os.Rename(src, filepath.Join(dir, "import")); err != nil {
				t.Skip("cannot move across file systems:", err)
			}
		}, []vpath.Path{"import", "import/one.md", "import/sub", "import/sub/two.md"}},
		{"ignored folders", func() {
			os.MkdirAll(filepath.Join(dir, ".git", "objects"), 0o755)
			write(t, dir, ".git/objects/x", "x")
			write(t, dir, "visible.md", "v")
		}, []vpath.Path{"visible.md"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.do()
			seen, rescan := collect(t, w, s.want...)
			if diff := cmp.Diff(s.want, keys(seen)); diff != "" || rescan {
				t.Errorf("paths (-want +got):\n%s rescan=%v", diff, rescan)
			}
		})
	}
}

func TestNestedFolders(t *testing.T) {
	dir := t.TempDir()
	w := start(t, dir, Options{Debounce: 5 * time.Millisecond})
	if err := os.MkdirAll(filepath.Join(dir, "a", "b", "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "a/b/c/x.md", "x")
	want := []vpath.Path{"a", "a/b", "a/b/c", "a/b/c/x.md"}
	seen, _ := collect(t, w, want...)
	if diff := cmp.Diff(want, keys(seen)); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	// The new folders are watched too.
	write(t, dir, "a/b/c/y.md", "y")
	if seen, _ := collect(t, w, "a/b/c/y.md"); !seen["a/b/c/y.md"] {
		t.Error("write in a new nested folder not seen")
	}
}

func TestAtomicWriteHidesTemp(t *testing.T) {
	dir := t.TempDir()
	w := start(t, dir, Options{Debounce: 5 * time.Millisecond})
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for i := range 3 {
		if _, err := v.Write(t.Context(), "notes/n.md", []byte(fmt.Sprint(i)), vault.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	write(t, dir, tempPrefix+"orphan", "x")
	want := []vpath.Path{"notes", "notes/n.md"}
	seen, rescan := collect(t, w, want...)
	if diff := cmp.Diff(want, keys(seen)); diff != "" || rescan {
		t.Errorf("paths (-want +got):\n%s rescan=%v", diff, rescan)
	}
}

func TestBurst(t *testing.T) {
	dir := t.TempDir()
	w := start(t, dir, Options{Debounce: 10 * time.Millisecond})
	const n = 2000
	var want []vpath.Path
	if err := os.Mkdir(filepath.Join(dir, "burst"), 0o755); err != nil {
		t.Fatal(err)
	}
	want = append(want, "burst")
	for i := range n {
		name := fmt.Sprintf("burst/n%04d.md", i)
		write(t, dir, name, "x")
		want = append(want, vpath.Path(name))
	}
	seen, rescan := collect(t, w, want...)
	if rescan {
		t.Log("burst reported as a rescan")
		return
	}
	if diff := cmp.Diff(want, keys(seen)); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
}

func TestMaxPathsRescan(t *testing.T) {
	dir := t.TempDir()
	w := start(t, dir, Options{Debounce: 20 * time.Millisecond, MaxPaths: 10})
	for i := range 50 {
		write(t, dir, fmt.Sprintf("n%02d.md", i), "x")
	}
	if _, rescan := collect(t, w); !rescan {
		t.Error("no Rescan after more than MaxPaths paths")
	}
}

func TestCloseLeaksNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 5 {
		dir := t.TempDir()
		ready := make(chan struct{}, 1)
		w, err := New(dir, Options{ready: func() {
			select {
			case ready <- struct{}{}:
			default:
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, "x.md", "x")
		select { // a batch built and left unread: the loop is blocked sending it
		case <-ready:
		case <-time.After(wait.Timeout):
			t.Fatalf("no batch built in %v for a written note", wait.Timeout)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		for range w.Batches() { // closed after Close
		}
	}
	wait.Until(t, "the watchers' goroutines to end", func() error {
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			return fmt.Errorf("%d goroutines after Close, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
		}
		return nil
	})
}

func TestDebounceLimit(t *testing.T) {
	dir := t.TempDir()
	const d = 20 * time.Millisecond
	w := start(t, dir, Options{Debounce: d})
	stop := make(chan struct{})
	go func() { // an event every 5ms: never quiet for 20ms
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				os.WriteFile(filepath.Join(dir, "busy.md"), []byte(fmt.Sprint(i)), 0o644)
			}
		}
	}()
	defer close(stop)
	begin := time.Now()
	select {
	case <-w.Batches():
		if el := time.Since(begin); el > 20*d {
			t.Errorf("first batch after %v under constant events, want about %v", el, 4*d)
		}
	case <-time.After(30 * time.Second): // a last guard on a busy machine
		t.Fatal("no batch while events keep coming")
	}
}

func BenchmarkEventLatency(b *testing.B) {
	dir := b.TempDir()
	w, err := New(dir, Options{Debounce: time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	for i := 0; b.Loop(); i++ {
		p := vpath.Path(fmt.Sprintf("n%d.md", i)) // a new name: no earlier batch can match
		if err := os.WriteFile(filepath.Join(dir, string(p)), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
		for got := false; !got; {
			got = slices.Contains((<-w.Batches()).Paths, p)
		}
	}
}

// TestBatchIntent: the intent of a batch appearing (renamed into place, as Apply
// records it), changing or going away in .memotree is reported as Batch.Intent, also
// when .memotree is made after the watch began; nothing else in .memotree is reported,
// an undo journal an older MemoTree left included.
func TestBatchIntent(t *testing.T) {
	dir := t.TempDir()
	w := start(t, dir, Options{Debounce: 10 * time.Millisecond})
	internal := filepath.Join(dir, ".memotree")
	if err := os.Mkdir(internal, 0o755); err != nil {
		t.Fatal(err)
	}
	// Until the watch on the new folder is in place its events are not seen: keep
	// recording the intent until one is reported.
	intent := filepath.Join(internal, "intent.json")
	deadline := time.Now().Add(10 * time.Second)
	for got := false; !got; {
		if time.Now().After(deadline) {
			t.Fatal("no Intent batch in 10 s for an intent in a new .memotree")
		}
		tmp := filepath.Join(internal, ".memotree-tmp-INTENT")
		if err := os.WriteFile(tmp, []byte(`{"steps":[]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, intent); err != nil {
			t.Fatal(err)
		}
		select {
		case b := <-w.Batches():
			if len(b.Paths) > 0 {
				t.Errorf("an intent reported as vault paths: %v", b.Paths)
			}
			got = b.Intent
		case <-time.After(200 * time.Millisecond):
		}
	}
	write(t, dir, ".memotree/search.idx", "x")
	write(t, dir, ".memotree/undo-script-x.log", "{}\n")
	write(t, dir, "a.md", "a")
	for seen := false; !seen; {
		select {
		case b := <-w.Batches():
			if b.Intent || slices.ContainsFunc(b.Paths, func(p vpath.Path) bool { return p != "a.md" }) {
				t.Errorf("got %+v; want only a.md (nothing of .memotree but the intent)", b)
			}
			seen = slices.Contains(b.Paths, "a.md")
		case <-time.After(30 * time.Second):
			t.Fatal("a.md was not reported")
		}
	}
	if err := os.Remove(intent); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-w.Batches():
		if !b.Intent {
			t.Errorf("removing the intent gave %+v, want Intent", b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the intent's removal was not reported")
	}
}

// TestIntentInANewMemoTreeFolder: a .memotree folder that arrives with a batch's
// intent and a fence already in it (made and filled before the watch on it could be
// in place; here moved in whole, so that no event inside it ever comes) reports both.
func TestIntentInANewMemoTreeFolder(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "vault")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w := start(t, dir, Options{Debounce: 10 * time.Millisecond})
	made := filepath.Join(root, "made")
	if err := os.Mkdir(made, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, made, "intent.json", `{"steps":[]}`)
	write(t, made, FencePrefix+"1", "")
	if err := os.Rename(made, filepath.Join(dir, ".memotree")); err != nil {
		t.Fatal(err)
	}
	var intent, fence bool
	for !intent || !fence {
		select {
		case b := <-w.Batches():
			intent = intent || b.Intent
			fence = fence || slices.Contains(b.Fences, FencePrefix+"1")
		case <-time.After(10 * time.Second):
			t.Fatalf("in 10 s: intent reported %v, fence reported %v; want both", intent, fence)
		}
	}
}

// TestFence: a fence file created in .memotree ends the pending batch at once, with a
// long debounce still running, and that batch (or an earlier one) holds every change
// made before the fence, across folders.
func TestFence(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".memotree"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	w := start(t, dir, Options{Debounce: time.Hour}) // only a fence can end a batch
	for round := range 20 {
		var want []vpath.Path
		for k := range 5 {
			p := vpath.Path(fmt.Sprintf("a/b/n%d-%d.md", round, k))
			if k%2 == 1 {
				p = vpath.Path(fmt.Sprintf("top%d-%d.md", round, k))
			}
			write(t, dir, string(p), "x")
			want = append(want, p)
		}
		fence := fmt.Sprintf("%sr%d", FencePrefix, round)
		write(t, dir, ".memotree/"+fence, "")
		select {
		case b := <-w.Batches():
			if !slices.Equal(b.Fences, []string{fence}) {
				t.Fatalf("round %d: fences %v, want [%s]", round, b.Fences, fence)
			}
			for _, p := range want {
				if !slices.Contains(b.Paths, p) {
					t.Fatalf("round %d: the batch ending at the fence lacks %s: %v", round, p, b.Paths)
				}
			}
		case <-time.After(30 * time.Second): // a last guard: the batch goes at once
			t.Fatalf("round %d: no batch for the fence", round)
		}
	}
}
