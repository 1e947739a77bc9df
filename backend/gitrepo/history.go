package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// DiscardOptions say what to discard and who asks.
type DiscardOptions struct {
	// Paths are restored from HEAD; a path HEAD does not have is removed.
	Paths []vpath.Path
	// RemoveUntracked allows removing paths HEAD does not have; without it such a
	// path fails the whole discard with ErrUntracked.
	RemoveUntracked bool
	// Actor and Op are recorded in the journey for the restoring write, with the
	// Turn and Session of the change set when set.
	Actor, Op, Turn, Session string
}

// Discard restores paths to their content in HEAD through the vault's atomic batch
// write, removes the ones HEAD does not have (when allowed), and resets their index
// entries to match. It returns the paths that changed. The caller confirms first.
func (r *Repo) Discard(ctx context.Context, o DiscardOptions) ([]vpath.Path, error) {
	if err := checkPaths(o.Paths); err != nil {
		return nil, fmt.Errorf("git discard: %w", err)
	}
	for _, p := range o.Paths {
		if !content(string(p)) {
			return nil, fmt.Errorf("git discard: %w: %s is Obsidian's (its settings or trash), which MemoTree never writes; "+
				"discard it with `git restore -- %s` or in Obsidian", ErrInvalidPath, p, p)
		}
	}
	changes, err := r.restores(o)
	if err != nil {
		return nil, fmt.Errorf("git discard: %w", err)
	}
	var done []vpath.Path
	for _, c := range changes {
		done = append(done, c.Path)
	}
	if len(changes) > 0 {
		wo := vault.WriteOptions{Actor: o.Actor, Op: o.Op, Turn: o.Turn, Session: o.Session}
		if _, err := r.w.Apply(ctx, changes, wo); err != nil {
			return nil, fmt.Errorf("git discard: %w", err)
		}
	}
	unlock, err := r.w.Lock(ctx)
	if err != nil {
		return done, fmt.Errorf("git discard: restored, but %w", err)
	}
	defer unlock()
	if err := r.stage(ctx, o.Paths); err != nil {
		return done, fmt.Errorf("git discard: restored, but %w", err)
	}
	return done, nil
}

// restores computes the vault changes that bring paths back to HEAD.
func (r *Repo) restores(o DiscardOptions) ([]vault.Change, error) {
	_, head, err := r.headTree()
	if err != nil {
		return nil, err
	}
	var out []vault.Change
	for _, p := range o.Paths {
		old, inHead, err := head.file(p)
		if err != nil {
			return nil, err
		}
		data, onDisk, err := r.readWork(p)
		if err != nil {
			return nil, err
		}
		switch {
		case inHead && onDisk && string(old.data) == string(data):
		case inHead:
			out = append(out, vault.Change{Path: p, Data: old.data})
		case onDisk && !o.RemoveUntracked:
			return nil, fmt.Errorf("%s: %w: it was never committed", p, ErrUntracked)
		case onDisk:
			out = append(out, vault.Change{Path: p, Delete: true, IfHash: vault.HashOf(data)})
		}
	}
	return out, nil
}

// Commit describes one commit of the history.
type Commit struct {
	Hash     string            `json:"hash"`
	Subject  string            `json:"subject"`
	Message  string            `json:"message"`
	Author   string            `json:"author"`
	Email    string            `json:"email"`
	When     time.Time         `json:"when"`
	Trailers map[string]string `json:"trailers,omitempty"`
	Tags     []string          `json:"tags,omitempty"`
}

// Log returns up to limit commits reachable from HEAD, newest first; with a path,
// only those that changed it. A repository without commits has an empty log.
func (r *Repo) Log(ctx context.Context, path vpath.Path, limit int) ([]Commit, error) {
	opts := &git.LogOptions{Order: git.LogOrderCommitterTime}
	if path != "" {
		if err := checkPaths([]vpath.Path{path}); err != nil {
			return nil, fmt.Errorf("git log: %w", err)
		}
		s := string(path)
		opts.FileName = &s
	}
	iter, err := r.repo.Log(opts)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("git log: %w", err)
	}
	defer iter.Close()
	tags := r.tagsByCommit()
	var out []Commit
	err = iter.ForEach(func(c *object.Commit) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if limit > 0 && len(out) >= limit {
			return storer.ErrStop
		}
		out = append(out, commitOf(c, tags[c.Hash]))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("git log: %w", err)
	}
	return out, nil
}

// tagsByCommit maps commits to the names of the tags pointing at them.
func (r *Repo) tagsByCommit() map[plumbing.Hash][]string {
	out := map[plumbing.Hash][]string{}
	iter, err := r.repo.Tags()
	if err != nil {
		return out
	}
	_ = iter.ForEach(func(ref *plumbing.Reference) error {
		h := ref.Hash()
		if t, err := r.repo.TagObject(h); err == nil {
			h = t.Target
		}
		out[h] = append(out[h], ref.Name().Short())
		return nil
	})
	return out
}

// commitOf describes c, parsing the trailers of its last paragraph.
func commitOf(c *object.Commit, tags []string) Commit {
	msg := strings.TrimRight(c.Message, "\n")
	subject, _, _ := strings.Cut(msg, "\n")
	out := Commit{Hash: c.Hash.String(), Subject: subject, Message: msg, Author: c.Author.Name,
		Email: c.Author.Email, When: c.Author.When, Tags: tags}
	paras := strings.Split(msg, "\n\n")
	if len(paras) < 2 {
		return out
	}
	tr := map[string]string{}
	for _, line := range strings.Split(paras[len(paras)-1], "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return out
		}
		tr[k] = v
	}
	out.Trailers = tr
	return out
}
