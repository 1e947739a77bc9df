package vault

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/internal/notice"
	"github.com/memotree/memotree/backend/vpath"
)

// crashSeed is the vault a crashed batch is made in.
var crashSeed = map[string]string{"a.md": "alpha\n", "b.md": "beta\n", "d/c.md": "gamma\n"}

// crashedBatch makes in v a batch — a.md rewritten, new/n.md created, b.md removed —
// and "kills" its writer right after its intent is recorded: the new contents are in
// their temporary files, the intent names them, and no target is replaced yet.
func crashedBatch(t *testing.T, v *Vault) {
	t.Helper()
	changes := []Change{
		{Path: "a.md", Data: []byte("ALPHA by the batch\n")},
		{Path: "new/n.md", Data: []byte("made by the batch\n"), CreateOnly: true},
		{Path: "b.md", Delete: true},
	}
	unlock, err := v.lockOnly(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	dirs := v.newBatchDirs()
	defer dirs.close()
	targets, err := v.checkBatch(dirs, changes)
	if err != nil {
		t.Fatal(err)
	}
	st, err := v.stageBatch(dirs, changes, targets)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.root.Rename(osName(st.itmp), internalDir+"/"+intentName); err != nil {
		t.Fatal(err)
	}
}

// afterBatch is crashSeed with the crashed batch finished.
var afterBatch = map[string]string{"a.md": "ALPHA by the batch\n", "new/n.md": "made by the batch\n", "d/c.md": "gamma\n"}

// assertFinished fails unless dir holds want and nothing of the batch is left: no
// intent, no temporary file.
func assertFinished(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	if d := cmp.Diff(want, contents(t, dir)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, err := os.Stat(filepath.Join(dir, internalDir, intentName)); !os.IsNotExist(err) {
		t.Errorf("the intent is left: %v", err)
	}
	if left := temps(dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestLockFinishesACrashedBatch: the next write, by another Vault on the folder (in
// effect another process), finishes the batch whose writer crashed before its own
// lands, so that it never lands on the half of the batch: a compare-and-swap on a.md
// as it was before the batch fails, and a write of another note goes through.
func TestLockFinishesACrashedBatch(t *testing.T) {
	v, dir := openWith(t, crashSeed)
	crashedBatch(t, v)
	other, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx := t.Context()
	if _, err := other.Write(ctx, "a.md", []byte("over the old a.md\n"), WriteOptions{IfHash: HashOf([]byte("alpha\n"))}); !errors.Is(err, ErrConflict) {
		t.Errorf("a compare-and-swap on a.md as it was before the batch = %v; want ErrConflict", err)
	}
	if _, err := other.Write(ctx, "d/c.md", []byte("GAMMA\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.md": "ALPHA by the batch\n", "new/n.md": "made by the batch\n", "d/c.md": "GAMMA\n"}
	assertFinished(t, dir, want)
}

// TestRecoverStale: with no intent in .memotree RecoverStale returns at once, without
// waiting for the vault lock that a writer holds; with a crashed batch's intent it
// finishes the batch; with an intent that names a path that is not content it
// refuses it, leaves the vault as it is, and says so to the next caller that collects
// notices.
func TestRecoverStale(t *testing.T) {
	v, dir := openWith(t, crashSeed)
	watcher, err := Open(dir) // the library's Vault, watching
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()

	unlock, err := v.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	err = watcher.RecoverStale(ctx)
	cancel()
	unlock()
	if err != nil {
		t.Fatalf("RecoverStale with no intent, the lock held by a writer = %v; want nil at once", err)
	}

	crashedBatch(t, v)
	if err := watcher.RecoverStale(t.Context()); err != nil {
		t.Fatalf("RecoverStale after the crash = %v", err)
	}
	assertFinished(t, dir, afterBatch)

	b, _ := json.Marshal(intent{Steps: []step{{Target: vpath.Path(".git/config")}}})
	if err := v.WriteInternal(intentName, b); err != nil {
		t.Fatal(err)
	}
	if err := watcher.RecoverStale(t.Context()); err == nil || !strings.Contains(err.Error(), ".git/config") {
		t.Errorf("RecoverStale of an intent naming .git/config = %v; want it refused", err)
	}
	nctx, notes := notice.With(t.Context())
	if _, err := watcher.Write(nctx, "x.md", []byte("x\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(notes.Take(), "\n"); !strings.Contains(got, "could not be finished") {
		t.Errorf("notices of the next write: %q; want the unfinished batch", got)
	}
	want := map[string]string{"a.md": "ALPHA by the batch\n", "new/n.md": "made by the batch\n", "d/c.md": "gamma\n", "x.md": "x\n"}
	if d := cmp.Diff(want, contents(t, dir)); d != "" {
		t.Errorf("after the refused intent (-want +got):\n%s", d)
	}
}
