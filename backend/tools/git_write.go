package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

type gitCommitIn struct {
	Message     string   `json:"message" jsonschema:"the commit message: a short first line saying what changed and why"`
	EntityNames []string `json:"entity_names,omitempty" jsonschema:"the notes to commit; every pending change when absent"`
	TagName     string   `json:"tag_name,omitempty" jsonschema:"a tag to put on the new commit, such as v1 or before-reorganising"`
	LibraryName string   `json:"library_name,omitempty" jsonschema:"the library; the default library when absent"`
}

func (e *env) gitCommit(ctx context.Context, call *tool.Call, in gitCommitIn) (tool.Result, error) {
	if bad := cleanText("message", in.Message, maxMessageSize); bad != "" {
		return tool.Fail(tool.CodeInvalidArguments, "%s; write a short message saying what changed", bad), nil
	}
	g, chosen, warnings, res, err := e.gitPending(ctx, call, in.EntityNames,
		"nothing to commit: no pending change among the named notes; git_status lists the ones that have one")
	if res != nil || err != nil {
		return deref(res), err
	}
	sets := g.groups()
	named := make([]vpath.Path, len(chosen))
	for i, c := range chosen {
		named[i] = c.Path
	}
	res2, err := g.repo.CommitPending(ctx, sets, gitrepo.PendingCommit{Message: in.Message, Paths: named, Tag: in.TagName})
	h := res2.Hash
	switch {
	case errors.Is(err, gitrepo.ErrInvalidTag):
		return tool.Fail(tool.CodeInvalidArguments, "tag_name %q is not a valid git tag name; use letters, digits, dots and dashes, such as v1.2", in.TagName), nil
	case errors.Is(err, gitrepo.ErrTagExists):
		return tool.Fail(tool.CodeAlreadyExists, "a tag named %q exists already; choose another tag_name", in.TagName), nil
	case errors.Is(err, gitrepo.ErrNothingToCommit):
		return tool.Fail(tool.CodeNoMatch, "nothing to commit: the named notes match the last commit"), nil
	case errors.Is(err, gitrepo.ErrNotPending):
		return tool.Fail(tool.CodeNoMatch, "%v: it changed meanwhile; git_status lists the pending changes", err), nil
	case errors.Is(err, gitrepo.ErrInvalidPath):
		return tool.Fail(tool.CodeInvalidArguments, "%v", err), nil
	case errors.Is(err, gitrepo.ErrNoIdentity):
		return tool.Fail(CodeGitRefused, "%v; ask the person to set their name and email for commits (the review panel offers it)", err), nil
	case errors.Is(err, gitrepo.ErrInProgress), errors.Is(err, gitrepo.ErrPartialMerge), errors.Is(err, gitrepo.ErrIndexLocked),
		errors.Is(err, gitrepo.ErrHeadMoved):
		return tool.Fail(CodeGitRefused, "%v; nothing was committed", err), nil
	case err != nil && h.IsZero():
		return tool.Result{}, err
	}
	names := make([]string, len(chosen))
	for i, c := range chosen {
		names[i] = c.Path.Name()
	}
	msg := fmt.Sprintf("committed %s as %s", plural(len(chosen), "note"), h.String()[:12])
	data := map[string]any{"commit": h.String(), "entities": names}
	if in.TagName != "" {
		msg += ", tagged " + in.TagName
		data["tag"] = in.TagName
	}
	if len(res2.Trailers) > 0 {
		data["trailers"] = res2.Trailers
	}
	r := tool.OK(msg, data)
	r.Warnings = warnings
	if err != nil { // committed, but the tag failed
		r.Warnings = append(r.Warnings, err.Error())
	}
	return r, nil
}

// CodeGitRefused answers a git tool that git's state or configuration refuses: no
// identity to sign a commit with, a rebase or merge in progress, a locked index.
const CodeGitRefused tool.Code = "git_refused"

type gitCheckoutIn struct {
	EntityNames []string `json:"entity_names" jsonschema:"the notes whose pending changes to throw away"`
	Confirmed   bool     `json:"confirmed" jsonschema:"true only after the person agreed; false answers with what would be discarded"`
	LibraryName string   `json:"library_name,omitempty" jsonschema:"the library; the default library when absent"`
}

// discardItem is one note a discard restores or removes.
type discardItem struct {
	Entity  string        `json:"entity"`
	State   gitrepo.State `json:"state"`
	Effect  string        `json:"effect"`
	Added   int           `json:"lines_added"`
	Deleted int           `json:"lines_deleted"`
}

func (e *env) gitCheckout(ctx context.Context, call *tool.Call, in gitCheckoutIn) (tool.Result, error) {
	if len(in.EntityNames) == 0 {
		return tool.Fail(tool.CodeInvalidArguments, "entity_names is empty: name the notes whose changes to discard"), nil
	}
	g, chosen, warnings, res, err := e.gitPending(ctx, call, in.EntityNames, "nothing to discard: the named notes have no pending change")
	if res != nil || err != nil {
		return deref(res), err
	}
	items, err := g.discardPlan(ctx, chosen)
	if err != nil {
		return tool.Result{}, err
	}
	paths := withRenames(chosen)
	data := map[string]any{"entities": items}
	if !in.Confirmed {
		var lines []string
		for _, it := range items {
			lines = append(lines, "- "+it.Entity+": "+it.Effect)
		}
		return tool.Fail(tool.CodeConfirmationRequired, "not discarded yet; this would:\n%s\nAsk the person, then call again with confirmed=true",
			strings.Join(lines, "\n")).WithData(data), nil
	}
	_, err = g.repo.Discard(ctx, gitrepo.DiscardOptions{Paths: paths, RemoveUntracked: true, Actor: actorOf(call), Op: "git_checkout", Turn: call.Turn, Session: call.Session})
	if err != nil {
		for _, p := range paths {
			if r, ok := writeFailure(p, err); ok {
				return r, nil
			}
		}
		return tool.Result{}, err
	}
	g.lib.Refresh(ctx, paths...)
	r := tool.OK("discarded the changes of "+plural(len(chosen), "note"), data)
	r.Warnings = warnings
	return r, nil
}

// pending returns the pending changes named (every one when names is empty), with a
// warning for each named note that has none, or the result to answer.
// gitPending opens the library's repository and picks the pending changes of the named
// notes (every pending change when names is empty); res is the answer when that fails
// or, with the message nothing, when none of the notes has a pending change.
func (e *env) gitPending(ctx context.Context, call *tool.Call, names []string, nothing string) (*gitCtx, []*gitrepo.Change, []string, *tool.Result, error) {
	g, res, err := e.gitOpen(ctx, call, true)
	if res != nil || err != nil {
		return nil, nil, nil, res, err
	}
	chosen, warnings, res := g.pending(names)
	if res != nil {
		return nil, nil, nil, res, nil
	}
	if len(chosen) == 0 {
		r := tool.Fail(tool.CodeNoMatch, "%s", nothing)
		return nil, nil, nil, &r, nil
	}
	return g, chosen, warnings, nil, nil
}

func (g *gitCtx) pending(names []string) ([]*gitrepo.Change, []string, *tool.Result) {
	var out []*gitrepo.Change
	if len(names) == 0 {
		for i := range g.changes {
			out = append(out, &g.changes[i])
		}
		return out, nil, nil
	}
	all, res := g.gitPaths(names)
	if res != nil {
		return nil, nil, res
	}
	var warnings []string
	seen := map[*gitrepo.Change]bool{}
	for _, p := range all {
		c := g.change(p)
		if c == nil {
			warnings = append(warnings, p.Name()+" has no pending change")
			continue
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, warnings, nil
}

// discardPlan says what discarding the changes would do to each note.
func (g *gitCtx) discardPlan(ctx context.Context, changes []*gitrepo.Change) ([]discardItem, error) {
	items := make([]discardItem, 0, len(changes))
	for _, c := range changes {
		it := discardItem{Entity: c.Path.Name(), State: c.State}
		st, err := g.repo.DiffStat(ctx, c.Path)
		if err != nil {
			return nil, err
		}
		if len(st) == 1 {
			it.Added, it.Deleted = st[0].Added, st[0].Deleted
		}
		switch c.State {
		case gitrepo.Untracked, gitrepo.Added:
			it.Effect = "delete it (it was never committed, so it cannot be recovered)"
		case gitrepo.Deleted:
			it.Effect = "restore it as last committed"
		case gitrepo.Renamed:
			it.Effect = "undo the rename: " + c.From.Name() + " comes back and " + c.Path.Name() + " goes"
		default:
			it.Effect = fmt.Sprintf("restore it as last committed, losing %d added and %d deleted lines", it.Added, it.Deleted)
		}
		items = append(items, it)
	}
	return items, nil
}
