package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

type gitCommitIn struct {
	Message        string     `json:"message" jsonschema:"the commit message: a short first line saying what changed and why"`
	EntityNames    []string   `json:"entity_names,omitempty" jsonschema:"the notes to commit; every pending change when absent"`
	TagName        string     `json:"tag_name,omitempty" jsonschema:"a tag to put on the new commit, such as v1 or before-reorganising"`
	CreateTag      *bool      `json:"create_tag,omitempty" jsonschema:"true tags the commit with tag_name (which it requires); tag_name alone tags it too"`
	TagDescription string     `json:"tag_description,omitempty" jsonschema:"makes the tag an annotated tag carrying this description; needs tag_name"`
	Author         *gitAuthor `json:"author,omitempty" jsonschema:"who wrote the changes; the repository's git identity when absent (the committer is always that identity)"`
	tool.LibraryArg
}

// commitOut is the output of git_commit: the new commit, the notes it holds, who
// authored and committed it, and its tag.
type commitOut struct {
	Author       gitSignature      `json:"author"`
	Commit       string            `json:"commit"`
	Committer    gitSignature      `json:"committer"`
	Entities     []string          `json:"entities"`
	Tag          string            `json:"tag,omitempty"`
	TagAnnotated bool              `json:"tag_annotated,omitempty"`
	Trailers     map[string]string `json:"trailers,omitempty"`
}

// gitAuthor names a commit's author (seed 000's CommitAuthor).
type gitAuthor struct {
	Name      string `json:"name" jsonschema:"the author's name, such as Ada Lovelace"`
	Email     string `json:"email" jsonschema:"the author's email address, such as ada@example.com"`
	Timestamp string `json:"timestamp,omitempty" jsonschema:"when the changes were written, in RFC 3339 such as 2025-07-27T10:00:00+08:00; the time of the commit when absent (the committer's date is always that time)"`
}

// authorTime parses a.Timestamp, zero when it is empty.
func (a gitAuthor) authorTime() (time.Time, error) {
	if strings.TrimSpace(a.Timestamp) == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339, strings.TrimSpace(a.Timestamp))
}

// checkCommitArgs says what is wrong with git_commit's message, tag and author
// arguments, as the result to answer, or nil.
func checkCommitArgs(in gitCommitIn) *tool.Result {
	fail := func(format string, args ...any) *tool.Result {
		r := tool.Fail(tool.CodeInvalidArguments, format, args...)
		return &r
	}
	if bad := cleanText("message", in.Message, maxMessageSize); bad != "" {
		return fail("%s; write a short message saying what changed", bad)
	}
	switch {
	case in.CreateTag != nil && *in.CreateTag && strings.TrimSpace(in.TagName) == "":
		return fail("create_tag is true but tag_name is empty; give the tag's name, such as tag_name=\"v1.2\"")
	case in.CreateTag != nil && !*in.CreateTag && in.TagName != "":
		return fail("create_tag is false but tag_name is %q; drop tag_name, or set create_tag to true", in.TagName)
	case in.TagDescription != "" && strings.TrimSpace(in.TagName) == "":
		return fail("tag_description describes a tag: give tag_name too, such as tag_name=\"v1.2\"")
	}
	if in.TagDescription != "" {
		if bad := cleanText("tag_description", in.TagDescription, maxMessageSize); bad != "" {
			return fail("%s; describe the tag in a few lines", bad)
		}
	}
	if in.Author != nil {
		when, err := in.Author.authorTime()
		if err != nil {
			return fail("author.timestamp %q is not an RFC 3339 date and time; write it such as 2025-07-27T10:00:00+08:00 "+
				"or 2025-07-27T02:00:00Z, or leave it out to date the changes now", in.Author.Timestamp)
		}
		if err := gitrepo.CheckAuthor(gitrepo.Signature{Name: in.Author.Name, Email: in.Author.Email, When: when}); err != nil {
			return fail("%v; give both, such as {\"name\": \"Ada Lovelace\", \"email\": \"ada@example.com\"}, "+
				"or leave author out to commit as the repository's git identity", err)
		}
	}
	return nil
}

func (e *env) gitCommit(ctx context.Context, call *tool.Call, in gitCommitIn) (tool.Result, *commitOut, error) {
	if res := checkCommitArgs(in); res != nil {
		return *res, nil, nil
	}
	g, chosen, warnings, res, err := e.gitPending(ctx, call, in.EntityNames,
		"nothing to commit: no pending change among the named notes; git_status lists the ones that have one")
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	sets := g.groups()
	named := make([]vpath.Path, len(chosen))
	for i, c := range chosen {
		named[i] = c.Path
	}
	if len(in.EntityNames) == 0 {
		named = nil // every pending change, less those MemoTree leaves out (with a warning)
	}
	pc := gitrepo.PendingCommit{Message: in.Message, Paths: named, Tag: in.TagName, TagMessage: in.TagDescription}
	if in.Author != nil {
		when, _ := in.Author.authorTime() // checked by checkCommitArgs
		pc.Author = &gitrepo.Signature{Name: strings.TrimSpace(in.Author.Name), Email: strings.TrimSpace(in.Author.Email), When: when}
	}
	res2, err := g.repo.CommitPending(ctx, sets, pc)
	h := res2.Hash
	switch {
	case errors.Is(err, gitrepo.ErrInvalidTag):
		return tool.Fail(tool.CodeInvalidArguments, "tag_name %q is not a valid git tag name; use letters, digits, dots, dashes and slashes, "+
			"such as v1.2 or release/2026-11 (no spaces, \"..\", any of ~^:?*[\\, a leading \"-\" or \".\", or a trailing \".lock\" or \".\")", in.TagName), nil, nil
	case errors.Is(err, gitrepo.ErrTagExists):
		return tool.Fail(tool.CodeAlreadyExists, "a tag named %q exists already; choose another tag_name", in.TagName), nil, nil
	case errors.Is(err, gitrepo.ErrNothingToCommit) && len(res2.Warnings) > 0:
		return tool.Fail(tool.CodeNoMatch, "nothing to commit: %s", strings.Join(res2.Warnings, "; ")), nil, nil
	case errors.Is(err, gitrepo.ErrNothingToCommit):
		return tool.Fail(tool.CodeNoMatch, "nothing to commit: the named notes match the last commit"), nil, nil
	case errors.Is(err, gitrepo.ErrNotPending):
		return tool.Fail(tool.CodeNoMatch, "%v: it changed meanwhile; git_status lists the pending changes", err), nil, nil
	case errors.Is(err, gitrepo.ErrInvalidPath), errors.Is(err, gitrepo.ErrInvalidAuthor):
		return tool.Fail(tool.CodeInvalidArguments, "%v", err), nil, nil
	case errors.Is(err, gitrepo.ErrNoIdentity):
		return tool.Fail(CodeGitRefused, "%v; ask the person to set their name and email for commits (the review panel offers it)", err), nil, nil
	case errors.Is(err, gitrepo.ErrUnresolved):
		return tool.Fail(CodeGitRefused, "%v; nothing was committed (git_status lists the conflicts, git_resolve resolves them)", err), nil, nil
	case errors.Is(err, gitrepo.ErrInProgress), errors.Is(err, gitrepo.ErrPartialMerge), errors.Is(err, gitrepo.ErrIndexLocked),
		errors.Is(err, gitrepo.ErrHeadMoved), errors.Is(err, gitrepo.ErrBadConfig), errors.Is(err, gitrepo.ErrUnsupportedIndex):
		return tool.Fail(CodeGitRefused, "%v; nothing was committed", err), nil, nil
	case err != nil && h.IsZero():
		return tool.Result{}, nil, err
	}
	names := make([]string, len(res2.Changes))
	for i, c := range res2.Changes {
		names[i] = c.Path.Name()
	}
	msg := fmt.Sprintf("committed %s as %s", plural(len(res2.Changes), "note"), h.String()[:12])
	out := &commitOut{Commit: h.String(), Entities: names,
		Author:    gitSignature{Name: res2.Signed.Author.Name, Email: res2.Signed.Author.Email},
		Committer: gitSignature{Name: res2.Signed.Committer.Name, Email: res2.Signed.Committer.Email}}
	if in.Author != nil && in.Author.Timestamp != "" {
		out.Author.Timestamp = res2.Signed.Author.When.Format(time.RFC3339)
	}
	if in.TagName != "" {
		msg += ", tagged " + in.TagName
		out.Tag = in.TagName
		if in.TagDescription != "" {
			msg += " (an annotated tag)"
			out.TagAnnotated = true
		}
	}
	out.Trailers = res2.Trailers
	r := tool.OK(msg)
	r.Warnings = append(warnings, res2.Warnings...)
	if err != nil { // committed, but the tag failed
		r.Warnings = append(r.Warnings, err.Error())
	}
	return r, out, nil
}

// gitSignature is who authored or committed a commit, as git_commit shows them; the
// author's timestamp when the caller gave one.
type gitSignature struct {
	Name      string `json:"name"`
	Email     string `json:"email"`
	Timestamp string `json:"timestamp,omitempty"`
}

// CodeGitRefused answers a git tool that git's state or configuration refuses: no
// identity to sign a commit with, a rebase or merge in progress, a locked index.
const CodeGitRefused tool.Code = "git_refused"

type gitCheckoutIn struct {
	EntityNames []string         `json:"entity_names,omitempty" jsonschema:"the notes whose pending changes to throw away whole"`
	Hunks       map[string][]int `json:"hunks,omitempty" jsonschema:"hunks to throw away, by note: {\"ideas/Draft\": [2]} puts back hunk 2 of ideas/Draft as git_diff numbers it, and the rest of its change stays pending"`
	Confirmed   bool             `json:"confirmed,omitempty" jsonschema:"true only after the person agreed; false (the default) answers with what would be discarded"`
	tool.LibraryArg
}

// dryRun reports whether the call only says what it would discard: unless confirmed.
// The handler and the policy (tool.DryRun) decide by it.
func (in gitCheckoutIn) dryRun() bool { return !in.Confirmed }

// discardItem is one note a discard restores or removes, or whose hunks it puts back
// (Hunks, and Diff: those hunks as a unified diff).
type discardItem struct {
	Entity  string        `json:"entity"`
	State   gitrepo.State `json:"state"`
	Effect  string        `json:"effect"`
	Added   int           `json:"lines_added"`
	Deleted int           `json:"lines_deleted"`
	Hunks   []int         `json:"hunks,omitempty"`
	Diff    string        `json:"diff,omitempty"`
}

// discardOut is the output of git_checkout: what was (or, unconfirmed, would be)
// discarded.
type discardOut struct {
	Entities []discardItem `json:"entities"`
}

func (e *env) gitCheckout(ctx context.Context, call *tool.Call, in gitCheckoutIn) (tool.Result, *discardOut, error) {
	if len(in.EntityNames) == 0 && len(in.Hunks) == 0 {
		return tool.Fail(tool.CodeInvalidArguments, "entity_names and hunks are empty: name the notes whose changes to discard, or the hunks to discard by note"), nil, nil
	}
	g, res, err := e.gitOpen(ctx, call, true)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	var chosen []*gitrepo.Change
	var warnings []string
	if len(in.EntityNames) > 0 {
		if chosen, warnings, res, err = g.pending(ctx, in.EntityNames); res != nil || err != nil {
			return deref(res), nil, err
		}
	}
	plans, res, err := g.planHunks(ctx, in.Hunks, chosen)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	if len(chosen) == 0 && len(plans) == 0 {
		return tool.Fail(tool.CodeNoMatch, "nothing to discard: the named notes have no pending change"), nil, nil
	}
	items, err := g.discardPlan(ctx, chosen)
	if err != nil {
		return tool.Result{}, nil, err
	}
	for _, p := range plans {
		items = append(items, p.item)
	}
	data := &discardOut{Entities: items}
	if in.dryRun() {
		var lines []string
		for _, it := range items {
			lines = append(lines, "- "+it.Entity+": "+it.Effect)
		}
		return tool.Fail(tool.CodeConfirmationRequired, "not discarded yet; this would:\n%s\nAsk the person, then call again with confirmed=true",
			strings.Join(lines, "\n")).WithData(data), nil, nil
	}
	done, res, err := g.undoHunks(ctx, call, plans)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	if len(chosen) > 0 {
		paths := withRenames(chosen)
		_, err = g.repo.Discard(ctx, gitrepo.DiscardOptions{Paths: paths, RemoveUntracked: true, Actor: actorOf(call), Op: "git_checkout", Turn: call.Turn, Session: call.Session})
		if err != nil {
			for _, p := range paths {
				if r, ok := writeFailure(p, err); ok {
					return r, nil, nil
				}
			}
			return tool.Result{}, nil, err
		}
		done = append([]string{"the changes of " + plural(len(chosen), "note")}, done...)
	}
	r := tool.OK("discarded " + strings.Join(done, "; "))
	r.Warnings = warnings
	return r, data, nil
}

// gitPending opens the library's repository and picks the pending changes of the named
// notes (every pending change when names is empty); res is the answer when that fails
// or, with the message nothing, when none of the notes has a pending change.
func (e *env) gitPending(ctx context.Context, call *tool.Call, names []string, nothing string) (*gitCtx, []*gitrepo.Change, []string, *tool.Result, error) {
	g, res, err := e.gitOpen(ctx, call, true)
	if res != nil || err != nil {
		return nil, nil, nil, res, err
	}
	chosen, warnings, res, err := g.pending(ctx, names)
	if res != nil || err != nil {
		return nil, nil, nil, res, err
	}
	if len(chosen) == 0 {
		r := tool.Fail(tool.CodeNoMatch, "%s", nothing)
		return nil, nil, nil, &r, nil
	}
	return g, chosen, warnings, nil, nil
}

// pending returns the pending changes named (every one when names is empty), with a
// warning for each named note that has none, or the result to answer.
func (g *gitCtx) pending(ctx context.Context, names []string) ([]*gitrepo.Change, []string, *tool.Result, error) {
	var out []*gitrepo.Change
	if len(names) == 0 {
		for i := range g.changes {
			out = append(out, &g.changes[i])
		}
		return out, nil, nil, nil
	}
	all, res, err := g.gitPaths(ctx, names)
	if res != nil || err != nil {
		return nil, nil, res, err
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
	return out, warnings, nil, nil
}

// discardPlan says what discarding the changes would do to each note.
func (g *gitCtx) discardPlan(ctx context.Context, changes []*gitrepo.Change) ([]discardItem, error) {
	items := make([]discardItem, 0, len(changes))
	for _, c := range changes {
		it := discardItem{Entity: c.Path.Name(), State: c.State}
		_, st, err := g.repo.DiffChanges(ctx, []gitrepo.Change{*c}) // a move against its old path
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
			if it.Added+it.Deleted > 0 {
				it.Effect += fmt.Sprintf(", losing the %d added and %d deleted lines since", it.Added, it.Deleted)
			}
		default:
			it.Effect = fmt.Sprintf("restore it as last committed, losing %d added and %d deleted lines", it.Added, it.Deleted)
		}
		items = append(items, it)
	}
	return items, nil
}
