package catalog

import (
	"context"
	"errors"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// answer carries a result out of a vault update function: the change was refused and
// this says why, nothing was written.
type answer struct{ r tool.Result }

func (a *answer) Error() string { return a.r.Message }

// rewriteFn computes a note's new content from its current content (exists false when
// there is none), or the answer to give instead. It may be called more than once.
type rewriteFn func(cur []byte, exists bool) ([]byte, *tool.Result)

// rewriteFile rewrites the file at p from its current content, under the vault lock
// (vault.UpdateFile), so that two writers never conflict and neither loses the other's
// change: fn sees the file as it is when it is written. With base, the caller read the
// file and means its change for that version: the file must still have that hash (a
// compare-and-swap), or the answer is a conflict. res is the answer when the rewrite
// was refused; a Go error means the infrastructure broke. The library indexes what it
// wrote (Library.UpdateFile).
func rewriteFile(ctx context.Context, l *library.Library, call *tool.Call, op string, p vpath.Path, base string, fn rewriteFn) (vault.Hash, *tool.Result, error) {
	h, err := l.UpdateFile(ctx, p, func(cur []byte, exists bool) ([]byte, error) {
		if exists {
			if r := checkBase(p, base, vault.HashOf(cur)); r != nil {
				return nil, &answer{*r}
			}
		}
		out, r := fn(cur, exists)
		if r != nil {
			return nil, &answer{*r}
		}
		if p.IsNote() {
			out = note.KeepStyle(cur, out) // its line endings, BOM and final line break
		}
		return out, nil
	}, writeOpts(call, op))
	var a *answer
	switch {
	case errors.As(err, &a):
		return "", &a.r, nil
	case err != nil:
		if r, ok := writeFailure(p, err); ok {
			return "", &r, nil
		}
		return "", nil, err
	}
	return h, nil, nil
}

// mustExist answers not_found for a note that is gone, as readEntity would.
func mustExist(p vpath.Path, exists bool) *tool.Result {
	if exists {
		return nil
	}
	r, _ := writeFailure(p, vault.ErrNotFound)
	return &r
}
