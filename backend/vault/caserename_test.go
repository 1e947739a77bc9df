package vault

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/portable"
	"github.com/memotree/memotree/backend/vpath"
)

// renameLog records the renames of a vault and makes them.
type renameLog struct {
	next portable.Renamer
	done []string
}

func (r *renameLog) Rename(from, to string) error {
	name := from
	if IsTempName(vpath.Path(from).Base()) {
		name = "(new content)"
	}
	r.done = append(r.done, name+" → "+to)
	return r.next.Rename(from, to)
}

// caseRenameBatch is the batch a rename that only changes case is (the catalog's
// move: the old path deleted, the new one created from it).
func caseRenameBatch() []Change {
	return []Change{
		{Path: "Note.md", Delete: true, IfHash: HashOf([]byte("old\n"))},
		{Path: "note.md", Data: []byte("new\n"), CreateOnly: true, From: "Note.md"},
	}
}

// TestABatchRenamesOnlyTheCase: where the file system ignores case, the batch that
// deletes Note.md and creates note.md finds note.md there (Note.md itself). It must
// not fail with ErrExists, and must not delete Note.md (that deletes note.md too, as
// would a recovery repeating the step after the crash): it renames Note.md to
// note.md, then puts the new content in place.
//
// No file system here ignores case (this kernel has no casefold; Debian 12 has no
// case-insensitive FUSE file system), so note.md is made a hard link of Note.md, for
// the target to exist as the same file, and the test stands in for the decision
// (caseIgnored) as a file system that ignores case answers it: one entry. On Linux
// a rename of a hard link onto the other does nothing, so Note.md stays with its old
// content where a case-insensitive system has one file: what is checked is the
// order of the renames, and that nothing was deleted.
func TestABatchRenamesOnlyTheCase(t *testing.T) {
	v, dir := openWith(t, map[string]string{"Note.md": "old\n"})
	if err := os.Link(filepath.Join(dir, "Note.md"), filepath.Join(dir, "note.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Apply(t.Context(), caseRenameBatch(), WriteOptions{}); !errors.Is(err, ErrExists) {
		t.Fatalf("on Linux, onto a hard link: Apply = %v, want ErrExists", err)
	}
	v.caseIgnored = func(from, to vpath.Path, src, dst fs.FileInfo) bool {
		return portable.CaseOnly(string(from), string(to)) && os.SameFile(src, dst)
	}
	log := &renameLog{}
	v.wrapRenamer = func(r portable.Renamer) portable.Renamer { log.next = r; return log }
	if _, err := v.Apply(t.Context(), caseRenameBatch(), WriteOptions{}); err != nil {
		t.Fatalf("Apply where case is ignored: %v", err)
	}
	if d := cmp.Diff([]string{"Note.md → note.md", "(new content) → note.md"}, log.done); d != "" {
		t.Errorf("renames (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{"Note.md": "old\n", "note.md": "new\n"}, contents(t, dir)); d != "" {
		t.Errorf("vault (-want +got):\n%s", d)
	}
}

// TestRecoverFinishesARenameOfTheCase: a crash in the middle of such a batch is
// finished by the next Open, and finishing it again (a crash before the intent was
// cleared) changes nothing: the rename of Was is skipped once Was is gone.
func TestRecoverFinishesARenameOfTheCase(t *testing.T) {
	v, dir := openWith(t, map[string]string{"Note.md": "old\n"})
	dirs := v.newBatchDirs()
	defer dirs.close()
	tmp, err := v.writeTemp(dirs, target{path: "note.md"}, []byte("new\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	steps := []step{{Temp: tmp, Target: "note.md", Was: "Note.md"}}
	b, _ := json.Marshal(intent{Steps: steps})
	if err := v.WriteInternal(intentName, b); err != nil {
		t.Fatal(err)
	}
	if done, err := v.Recover(t.Context()); err != nil || !done {
		t.Fatalf("Recover = %v, %v", done, err)
	}
	want := map[string]string{"note.md": "new\n"}
	if d := cmp.Diff(want, contents(t, dir)); d != "" {
		t.Errorf("after recovery (-want +got):\n%s", d)
	}
	if err := v.finish(steps); err != nil {
		t.Errorf("finishing again: %v", err)
	}
	if d := cmp.Diff(want, contents(t, dir)); d != "" {
		t.Errorf("after finishing again (-want +got):\n%s", d)
	}
}

// TestRecoverRefusesAWasThatIsNotTheCase: an intent whose Was is another name than
// its target in another case is not MemoTree's, and is left as is.
func TestRecoverRefusesAWasThatIsNotTheCase(t *testing.T) {
	v, dir := openWith(t, map[string]string{"a.md": "A\n", "b.md": "B\n"})
	dirs := v.newBatchDirs()
	defer dirs.close()
	tmp, err := v.writeTemp(dirs, target{path: "b.md"}, []byte("new\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(intent{Steps: []step{{Temp: tmp, Target: "b.md", Was: "a.md"}}})
	if err := v.WriteInternal(intentName, b); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Recover(t.Context()); err == nil {
		t.Fatal("Recover renamed a.md onto b.md for an intent")
	}
	if got := contents(t, dir); got["a.md"] != "A\n" || got["b.md"] != "B\n" {
		t.Errorf("vault = %v, want a.md and b.md as they were", got)
	}
}

// TestAScriptRenamesOnlyTheCase: a script's rename that only changes case (in a
// transaction, Stage) does not meet its source as an existing target where case is
// ignored, and its commit is the batch above. Made on Linux as above.
func TestAScriptRenamesOnlyTheCase(t *testing.T) {
	v, dir := openWith(t, map[string]string{"Note.md": "old\n"})
	if err := os.Link(filepath.Join(dir, "Note.md"), filepath.Join(dir, "note.md")); err != nil {
		t.Fatal(err)
	}
	if err := NewStage(v).Vault().Rename(t.Context(), "Note.md", "note.md"); !errors.Is(err, ErrExists) {
		t.Fatalf("on Linux, onto a hard link: a staged Rename = %v, want ErrExists", err)
	}
	v.caseIgnored = func(from, to vpath.Path, src, dst fs.FileInfo) bool {
		return portable.CaseOnly(string(from), string(to)) && os.SameFile(src, dst)
	}
	s := NewStage(v)
	if err := s.Vault().Rename(t.Context(), "Note.md", "note.md"); err != nil {
		t.Fatalf("a staged Rename where case is ignored: %v", err)
	}
	log := &renameLog{}
	v.wrapRenamer = func(r portable.Renamer) portable.Renamer { log.next = r; return log }
	changes, _ := s.Batch()
	if _, err := v.Apply(t.Context(), changes, WriteOptions{}); err != nil {
		t.Fatalf("Apply of the stage's batch: %v", err)
	}
	if d := cmp.Diff([]string{"Note.md → note.md", "(new content) → note.md"}, log.done); d != "" {
		t.Errorf("renames (-want +got):\n%s", d)
	}
}
