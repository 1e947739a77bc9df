package search

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/internal/filelock"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/backend/watch"
)

// voucherProcess is what a running process does for its index: a real watcher whose
// batches go to the index (as the library's notifications do) and whose fences go to
// the voucher.
type voucherProcess struct {
	ix *Index
	vc *Voucher
	w  *watch.Watcher
}

func startVoucher(t *testing.T, dir string) *voucherProcess {
	t.Helper()
	_, ix, _ := openIndex(t, dir, Options{SaveDelay: time.Hour}) // saved when the test says
	w, err := watch.New(dir, watch.Options{Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p := &voucherProcess{ix: ix, vc: NewVoucher(ix), w: w}
	go func() {
		for b := range w.Batches() {
			ix.Changed(b.Paths, b.Rescan)
			if len(b.Fences) > 0 {
				p.vc.Answer(b.Fences)
			}
		}
	}()
	if err := p.vc.Start(t.Context()); err != nil || !p.vc.Vouching() {
		t.Fatalf("the voucher does not vouch: %v", err)
	}
	t.Cleanup(func() {
		p.vc.Close()
		w.Close()
	})
	return p
}

// outsideEdits appends to a note in place (its folder's time restored, so that only
// the note itself tells), creates one and deletes one, with word, as an editor does.
func outsideEdits(t *testing.T, dir, word, created, deleted string) {
	t.Helper()
	edited := filepath.Join(dir, "notes/engines.md")
	folder, err := os.Stat(filepath.Dir(edited))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(edited, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("A " + word + " flywheel.\n")
	f.Close()
	if err := os.Chtimes(filepath.Dir(edited), time.Time{}, folder.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, created), []byte("Another "+word+" flywheel.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, deleted)); err != nil {
		t.Fatal(err)
	}
}

// indexGen is the generation of the persisted index file.
func indexGen(t *testing.T, dir string) uint64 {
	t.Helper()
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	x, err := load(v.State())
	if err != nil {
		t.Fatal(err)
	}
	return x.gen
}

// TestVouchedOpenSeesOutsideEdits: with a running process vouching for the persisted
// index, an index opened right after outside edits (one in place, its folder's time
// restored) reads the changed notes on the voucher's word without walking the vault,
// answers as a plain scan would, and leaves the file to the voucher. A voucher whose
// watcher stopped, and one that is gone, leave the opener to walk, still seeing every
// edit.
func TestVouchedOpenSeesOutsideEdits(t *testing.T) {
	if !vouchSupported {
		t.Skip("vouching needs inotify (Linux)")
	}
	dir := writeVault(t, small)
	_, built, _ := openIndex(t, dir, Options{})
	built.Close()
	p := startVoucher(t, dir)
	gen := indexGen(t, dir)

	outsideEdits(t, dir, "quorble", "new.md", "people/Charles Babbage.md")
	_, ix, st := openIndex(t, dir, Options{Deferred: true})
	if !st.Vouched || st.Reread < 3 { // the watcher may name the folder too
		t.Fatalf("opened with %+v; want vouched, the 3 notes read again", st)
	}
	if got := search(t, ix, Request{Query: "quorble"}); !sameSet(got, "new.md", "notes/engines.md") {
		t.Errorf("quorble after a vouched open: %v", got)
	}
	if got := search(t, ix, Request{Query: "babbage"}); slices.Contains(got, "people/Charles Babbage.md") {
		t.Errorf("the deleted note is still found: %v", got)
	}
	ix.Close()
	if g := indexGen(t, dir); g != gen {
		t.Errorf("the vouched process rewrote the index file (generation %x, was %x): the voucher's word no longer holds", g, gen)
	}

	// The voucher's watcher stops while the process (and its lock) lives on: the
	// opener waits for an answer that never comes, then walks.
	p.w.Close()
	outsideEdits(t, dir, "zindle", "newer.md", "people/Ada Lovelace.md")
	_, ix2, st := openIndex(t, dir, Options{Deferred: true})
	if st.Vouched {
		t.Fatalf("vouched by a voucher whose watcher stopped: %+v", st)
	}
	if got := search(t, ix2, Request{Query: "zindle"}); !sameSet(got, "newer.md", "notes/engines.md") {
		t.Errorf("zindle after the voucher's watcher stopped: %v", got)
	}
	ix2.Close()

	// The voucher is gone: nobody holds the lock, and the opener walks at once.
	p.vc.Close()
	if held, err := filelock.Held(filepath.Join(dir, ".memotree", vouchLock)); err != nil || held {
		t.Fatalf("the lock is held after the voucher closed: %v, %v", held, err)
	}
	outsideEdits(t, dir, "frabble", "newest.md", "machines/Analytical Engine.md")
	_, ix3, st := openIndex(t, dir, Options{Deferred: true})
	if st.Vouched {
		t.Fatalf("vouched with no voucher: %+v", st)
	}
	if got := search(t, ix3, Request{Query: "frabble"}); !sameSet(got, "newest.md", "notes/engines.md") {
		t.Errorf("frabble without a voucher: %v", got)
	}
}

// TestVoucherAnswersAfterSaving: once the voucher has applied and saved what changed,
// it vouches for the new file with nothing to read again; a change reported while it
// saves stays in its answer.
func TestVoucherAnswersAfterSaving(t *testing.T) {
	if !vouchSupported {
		t.Skip("vouching needs inotify (Linux)")
	}
	dir := writeVault(t, small)
	_, built, _ := openIndex(t, dir, Options{})
	built.Close()
	p := startVoucher(t, dir)
	outsideEdits(t, dir, "quorble", "new.md", "people/Charles Babbage.md")
	_, ix, st := openIndex(t, dir, Options{Deferred: true})
	ix.Close()
	if !st.Vouched || st.Reread < 3 {
		t.Fatalf("opened with %+v; want vouched, the 3 notes read again", st)
	}
	if err := p.ix.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	p.ix.Changed([]vpath.Path{"late.md"}, false) // reported, not applied, when the save runs
	if err := p.ix.save(true); err != nil {
		t.Fatal(err)
	}
	a := p.ix.vouchAnswer()
	if a.Gen == "" || !slices.Equal(a.Paths, []string{"late.md"}) {
		t.Fatalf("answer after the save: %+v; want the new file with late.md alone", a)
	}
	if err := p.ix.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := p.ix.save(true); err != nil {
		t.Fatal(err)
	}
	_, ix2, st := openIndex(t, dir, Options{Deferred: true})
	if !st.Vouched || st.Reread != 0 {
		t.Fatalf("opened after the voucher saved: %+v; want vouched, nothing read again", st)
	}
	if got := search(t, ix2, Request{Query: "quorble"}); !sameSet(got, "new.md", "notes/engines.md") {
		t.Errorf("quorble from the voucher's saved file: %v", got)
	}
}

func sameSet(got []string, want ...string) bool {
	return slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want)))
}

// git runs git in dir with no configuration but the identity a commit needs.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@memotree.invalid", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestVouchedOpenSeesCheckoutAndRenames: with a running process vouching, a git
// checkout of another branch (a note rewritten, one added, one deleted) and an editor's
// save by rename over the note are seen by the next open exactly as the files hold
// them, and a checkout back drops them again.
func TestVouchedOpenSeesCheckoutAndRenames(t *testing.T) {
	if !vouchSupported {
		t.Skip("vouching needs inotify (Linux)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := writeVault(t, small)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".memotree/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	git(t, dir, "checkout", "-q", "-b", "other")
	outsideEdits(t, dir, "quorble", "new.md", "people/Charles Babbage.md")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "other")
	git(t, dir, "checkout", "-q", "main")

	_, built, _ := openIndex(t, dir, Options{})
	built.Close()
	startVoucher(t, dir)
	reopen := func(when string) *Index {
		t.Helper()
		_, ix, st := openIndex(t, dir, Options{Deferred: true})
		if !st.Vouched {
			t.Fatalf("%s: opened with %+v; want vouched", when, st)
		}
		return ix
	}

	git(t, dir, "checkout", "-q", "other")
	ix := reopen("after checking out other")
	if got := search(t, ix, Request{Query: "quorble"}); !sameSet(got, "new.md", "notes/engines.md") {
		t.Errorf("quorble after checking out other: %v", got)
	}
	if got := search(t, ix, Request{Query: "babbage"}); slices.Contains(got, "people/Charles Babbage.md") {
		t.Errorf("the note the checkout deleted is still found: %v", got)
	}
	ix.Close()

	// An editor's save: the new text written beside the note, renamed over it.
	tmp := filepath.Join(dir, "people", ".Ada Lovelace.md.tmp")
	if err := os.WriteFile(tmp, []byte("# Ada Lovelace\n\nA zindle of notes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "people", "Ada Lovelace.md")); err != nil {
		t.Fatal(err)
	}
	ix = reopen("after a save by rename")
	if got := search(t, ix, Request{Query: "zindle"}); !sameSet(got, "people/Ada Lovelace.md") {
		t.Errorf("zindle after a save by rename: %v", got)
	}
	if got := search(t, ix, Request{Query: "algorithm"}); len(got) != 0 {
		t.Errorf("the text the rename replaced is still found: %v", got)
	}
	ix.Close()

	git(t, dir, "checkout", "-q", "-f", "main")
	ix = reopen("after checking out main")
	if got := search(t, ix, Request{Query: "quorble"}); len(got) != 0 {
		t.Errorf("quorble after checking out main again: %v", got)
	}
	if got := search(t, ix, Request{Query: "babbage"}); !slices.Contains(got, "people/Charles Babbage.md") {
		t.Errorf("the note the checkout restored is not found: %v", got)
	}
	if got := search(t, ix, Request{Query: "algorithm"}); !sameSet(got, "people/Ada Lovelace.md") {
		t.Errorf("the text the checkout restored is not found: %v", got)
	}
}

// TestVoucherWritesNothingUntilTheVaultHasMemotree: a running process whose vault keeps
// its caches outside (no .memotree yet: nothing is written in it until someone writes)
// creates nothing in the vault to vouch, and vouches once .memotree exists.
func TestVoucherWritesNothingUntilTheVaultHasMemotree(t *testing.T) {
	if !vouchSupported {
		t.Skip("vouching needs inotify (Linux)")
	}
	defer func(d time.Duration) { insideEvery = d }(insideEvery)
	insideEvery = time.Millisecond
	dir := writeVault(t, small)
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.SetCacheDir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	ix, _, err := Open(t.Context(), v.State(), Options{SaveDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	w, err := watch.New(dir, watch.Options{Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	vc := NewVoucher(ix)
	defer vc.Close()
	go func() {
		for b := range w.Batches() {
			ix.Changed(b.Paths, b.Rescan)
			vc.Answer(b.Fences)
		}
	}()
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond) // many looks at 1 ms
	err = vc.Start(ctx)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || vc.Vouching() {
		t.Fatalf("Start without .memotree: %v, vouching %v; want it waiting", err, vc.Vouching())
	}
	if _, err := os.Lstat(filepath.Join(dir, ".memotree")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the voucher wrote in a vault without .memotree: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".memotree"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := vc.Start(t.Context()); err != nil || !vc.Vouching() {
		t.Fatalf("Start once .memotree exists: %v, vouching %v", err, vc.Vouching())
	}
}

// A voucher that starts removes the fences askers killed while waiting left behind,
// and only those: a fence younger than a minute may still be waited on, and a file
// that is not a fence is not its to remove.
func TestVoucherSweepsLeftFences(t *testing.T) {
	if !vouchSupported {
		t.Skip("vouching needs inotify (Linux)")
	}
	dir := writeVault(t, small)
	internal := filepath.Join(dir, ".memotree")
	if err := os.MkdirAll(internal, 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-10 * time.Minute)
	files := map[string]time.Time{
		watch.FencePrefix + "left-1": old,                 // an asker killed long ago
		watch.FencePrefix + "waited": time.Now(),          // an asker waiting now
		"notes.db":                   old,                 // not a fence
		watch.FencePrefix + "left-2": old.Add(-time.Hour), // another one
	}
	for name, at := range files {
		p := filepath.Join(internal, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	startVoucher(t, dir)
	for name := range files {
		_, err := os.Lstat(filepath.Join(internal, name))
		gone := errors.Is(err, fs.ErrNotExist)
		if want := strings.Contains(name, "left-"); gone != want {
			t.Errorf("%s: removed %v, want %v (%v)", name, gone, want, err)
		}
	}
}
