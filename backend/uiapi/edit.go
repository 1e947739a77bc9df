package uiapi

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// saveTimeout bounds one save from the editor.
const saveTimeout = 30 * time.Second

// SaveResult is the outcome of SaveNote.
type SaveResult struct {
	// Hash is the content hash of the note after the save (or, on a conflict, of the
	// note as it is on disk).
	Hash string `json:"hash"`
	// Conflict is true when the note changed on disk since the editor loaded it: the
	// save wrote nothing, and Current holds what is on disk now.
	Conflict bool   `json:"conflict"`
	Current  string `json:"current,omitempty"`
	// Deleted is true, with Conflict, when the note was deleted meanwhile.
	Deleted bool `json:"deleted,omitempty"`
}

// MaxSaveBytes is the most text SaveNote writes to a note. It is the one limit of a
// save: `memotree serve` reads request bodies up to MaxRequestBytes, which is derived
// from it, so a note the window may save is never refused by the transport first.
const MaxSaveBytes = 32 << 20

// MaxRequestBytes is the largest request body of the window's HTTP transport: a save
// of MaxSaveBytes of text, which JSON escaping at most doubles for text (a quote, a
// backslash, a newline or a tab becomes two characters), and its envelope.
const MaxRequestBytes = 2*MaxSaveBytes + 1<<20

// SaveNote writes the editor's text to a note through the vault's compare-and-swap
// path: baseHash is the hash of the version the editor loaded ("" to create the note,
// which must not exist yet). If the file changed since, nothing is written and the
// result says so, with the current text, so that the window can offer to reload,
// compare or overwrite (a save with the new hash). The write is atomic, journaled as
// the person's, and reaches the graph before SaveNote returns.
func (a *API) SaveNote(libraryName, path, content, baseHash string) (SaveResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), saveTimeout)
	defer cancel()
	l, p, err := a.resolvePath(libraryName, path)
	if err != nil {
		return SaveResult{}, err
	}
	if !p.IsNote() {
		return SaveResult{}, fmt.Errorf("save %s: only Markdown notes (.md) are edited here", p)
	}
	if !utf8.ValidString(content) {
		return SaveResult{}, fmt.Errorf("save %s: the text is not valid UTF-8", p)
	}
	if len(content) > MaxSaveBytes {
		return SaveResult{}, fmt.Errorf("save %s: %d bytes is more than the window saves (%d MiB); edit a note this large in another editor", p, len(content), MaxSaveBytes>>20)
	}
	o := vault.WriteOptions{IfHash: vault.Hash(baseHash), Actor: "user", Op: "edit"}
	if baseHash == "" {
		// A new note: a name every file system holds, and no twin that differs only
		// in case or Unicode form (one file on macOS and Windows), as the tools ask.
		if _, err := vpath.ParseNew(path); err != nil {
			return SaveResult{}, fmt.Errorf("save %s: %w", p, err)
		}
		g, err := graphOf(l)
		if err != nil {
			return SaveResult{}, fmt.Errorf("save %s: %w", p, err)
		}
		for _, q := range g.SameName(p) {
			if q != p {
				return SaveResult{}, fmt.Errorf("save %s: it differs only in case or Unicode form from the existing %s, which macOS and Windows would take for the same file; open that note or choose another name", p, q)
			}
		}
		o.CreateOnly = true
	}
	var h vault.Hash
	if baseHash == "" {
		h, err = l.Write(ctx, p, []byte(content), o)
	} else {
		// The editor may have turned CRLF into LF or dropped the BOM: the note keeps
		// its own conventions (the check of the hash is under the same lock).
		h, err = l.UpdateFile(ctx, p, func(cur []byte, _ bool) ([]byte, error) {
			return note.KeepStyle(cur, []byte(content)), nil
		}, o)
	}
	switch {
	case errors.Is(err, vault.ErrConflict), errors.Is(err, vault.ErrExists):
		cur, curHash, rerr := l.Vault().Read(p)
		if errors.Is(rerr, vault.ErrNotFound) {
			return SaveResult{Conflict: true, Deleted: true}, nil
		}
		if rerr != nil {
			return SaveResult{}, fmt.Errorf("save %s: it changed on disk, and reading it again failed: %w", p, rerr)
		}
		return SaveResult{Conflict: true, Current: string(cur), Hash: string(curHash)}, nil
	case errors.Is(err, vault.ErrNotFound) && baseHash != "":
		return SaveResult{Conflict: true, Deleted: true}, nil
	case err != nil:
		return SaveResult{}, fmt.Errorf("save %s: %w", p, err)
	}
	return SaveResult{Hash: string(h)}, nil
}
