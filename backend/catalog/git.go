package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, gitTools) }

// The Refs of the git tools (GitStatus is in refs.go): each tool is declared through
// its Ref, which names it with its input and output types, so that the compiler checks
// its handler and rules.
var (
	gitDiff     = tool.NewRef[gitDiffIn, *diffOut]("git_diff")
	gitCommit   = tool.NewRef[gitCommitIn, *commitOut]("git_commit")
	gitCheckout = tool.NewRef[gitCheckoutIn, *discardOut]("git_checkout")
	gitLog      = tool.NewRef[gitLogIn, *logOut]("git_log")
	gitBlame    = tool.NewRef[gitBlameIn, *blameOut]("git_blame")
	gitResolve  = tool.NewRef[gitResolveIn, *resolveOut]("git_resolve")
)

// CodeNotRepository answers a git tool called on a library that is not a git
// repository.
const CodeNotRepository tool.Code = "not_a_repository"

const (
	maxDiffBytes   = 60_000 // a full diff is clipped here; brief or entity_name narrow it
	maxListed      = 500    // pending changes listed by git_status
	defaultLog     = 20
	maxLog         = 200
	maxMessageSize = 10_000
)

// gitTools declares the git family.
func gitTools(e *env) []*tool.Tool {
	ts := []*tool.Tool{
		GitStatus.New(tool.ReadOnly, desc("git_status"), e.gitStatus).WithTitle("Pending changes"),
		gitDiff.New(tool.ReadOnly, desc("git_diff"), e.gitDiff).WithTitle("Diff against the last commit"),
		gitCommit.New(tool.Write, desc("git_commit"), e.gitCommit).WithTitle("Commit changes").
			WithHistory().NotInScripts(), // a commit cannot wait for the script's end
		gitCheckout.New(tool.Destructive, desc("git_checkout"), e.gitCheckout, tool.DryRun(gitCheckoutIn.dryRun)).
			WithTitle("Discard changes").WithHistory().
			NotInScripts(), // git writes the working tree beside a script's transaction

		gitLog.New(tool.ReadOnly, desc("git_log"), e.gitLog).WithTitle("History"),
		gitBlame.New(tool.ReadOnly, desc("git_blame"), e.gitBlame).WithTitle("Who wrote each line"),
		gitResolve.New(tool.Write, desc("git_resolve"), e.gitResolve).WithTitle("Resolve a conflict").WithHistory().
			NotInScripts(), // git writes the working tree beside a script's transaction
	}
	for _, t := range ts {
		t.Describe(tool.LibraryParam, "the library; the default library when absent")
	}
	return ts
}

// The library is the writer of every repository the tools open, and git reads the
// moves the journey recorded through it: it must stay a gitrepo.Journal.
var _ gitrepo.Journal = (*library.Library)(nil)

// gitCtx is what every git handler starts from: the library, its repository and its
// pending changes.
type gitCtx struct {
	lib     *library.Library
	repo    *gitrepo.Repo
	changes []gitrepo.Change
	journey []vault.Entry // see journeyEntries
}

// change returns the pending change of p (as its new or, for a rename, its old
// path), or nil when it has none.
func (g *gitCtx) change(p vpath.Path) *gitrepo.Change {
	i := sort.Search(len(g.changes), func(i int) bool { return g.changes[i].Path >= p })
	if i < len(g.changes) && g.changes[i].Path == p {
		return &g.changes[i]
	}
	for i := range g.changes {
		if g.changes[i].From == p {
			return &g.changes[i]
		}
	}
	return nil
}

// state returns the pending state of p, or "" when it has none.
func (g *gitCtx) state(p vpath.Path) gitrepo.State {
	if c := g.change(p); c != nil {
		return c.State
	}
	return ""
}

// withRenames returns the paths to hand to git for changes: both sides of a rename.
func withRenames(changes []*gitrepo.Change) []vpath.Path {
	flat := make([]gitrepo.Change, len(changes))
	for i, c := range changes {
		flat[i] = *c
	}
	return gitrepo.Paths(flat)
}

// GitTrackers is implemented by a workspace that keeps each repository's status
// current (workspace.Workspace): the git tools then use its trackers.
type GitTrackers interface {
	GitTracker(library string) (*gitrepo.Tracker, error)
}

// gitOpen opens the repository of the call's library and, with status, reads its
// pending changes; res is the result to answer instead (no such library, not a
// repository).
func (e *env) gitOpen(ctx context.Context, call *tool.Call, status bool) (*gitCtx, *tool.Result, error) {
	l, res := e.library(ctx, call)
	if res != nil {
		return nil, res, nil
	}
	// git sees the vault on disk: in a script, without the script's own changes,
	// which are written when it ends (run_starlark's description says so).
	l = l.Parent()
	var r *gitrepo.Repo
	var tr *gitrepo.Tracker
	var err error
	if gt, ok := e.ws.(GitTrackers); ok {
		if tr, err = gt.GitTracker(l.Name()); err == nil {
			r = tr.Repo()
		}
	} else {
		r, err = l.Git()
	}
	if errors.Is(err, gitrepo.ErrNotRepository) {
		f := tool.Fail(CodeNotRepository, "library %q (%s) is not a git repository, so it has no pending changes or history; "+
			"ask the person to initialise one from the git panel, or to run `git init` in that folder", l.Name(), l.Vault().Dir())
		return nil, &f, nil
	}
	if res := badConfig(err); res != nil {
		return nil, res, nil
	}
	if err != nil {
		return nil, nil, err
	}
	g := &gitCtx{lib: l, repo: r}
	if status {
		if tr != nil {
			g.changes, err = tr.Status(ctx)
		} else {
			g.changes, err = r.Status(ctx)
		}
		if res := badConfig(err); res != nil {
			return nil, res, nil
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return g, nil, nil
}

// badConfig answers a git configuration git cannot read (its error names the file and
// the line) or a repository in a form MemoTree does not handle (its error names the
// git commands that fix it); nil for any other error.
func badConfig(err error) *tool.Result {
	if !errors.Is(err, gitrepo.ErrBadConfig) && !errors.Is(err, gitrepo.ErrUnsupportedIndex) {
		return nil
	}
	f := tool.Fail(CodeGitRefused, "%v; ask the person to do it", err)
	return &f
}

// gitPath resolves an entity name for a git tool: a note of the graph, or failing
// that a path (".md" added when missing) that has a pending change — a deleted note
// is no longer in the graph. anyPath accepts any content path (for history).
func (g *gitCtx) gitPath(ctx context.Context, name string, anyPath bool) (vpath.Path, *tool.Result, error) {
	if !anyPath { // a pending change named exactly needs no graph (no full scan in a one-shot call)
		if q, ok := g.pendingNamed(strings.TrimSpace(name)); ok {
			return q, nil, nil
		}
	}
	gr, err := g.lib.Graph(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("read library %s: %w", g.lib.Name(), err)
	}
	p, res := lookup(lib{g.lib, gr}, name)
	if res == nil || res.ErrorCode == tool.CodeAmbiguous {
		return p, res, nil
	}
	for _, cand := range []string{name, strings.TrimSpace(name)} {
		if q, err := vpath.Parse(cand); err == nil && q != "" && !q.Ignored() && g.state(q) != "" {
			return q, nil, nil
		}
	}
	q, bad := newPath(name)
	if bad != nil {
		return "", bad, nil
	}
	if g.state(q) != "" || anyPath {
		return q, nil, nil
	}
	return "", res, nil
}

// pendingNamed finds the one pending change whose path, or path without ".md", is
// name exactly.
func (g *gitCtx) pendingNamed(name string) (vpath.Path, bool) {
	var found vpath.Path
	n := 0
	for _, c := range g.changes {
		for _, p := range []vpath.Path{c.Path, c.From} {
			if p != "" && p != found && (string(p) == name || p.Name() == name) {
				found, n = p, n+1
			}
		}
	}
	return found, n == 1
}

// gitPaths resolves several names, dropping duplicates.
func (g *gitCtx) gitPaths(ctx context.Context, names []string) ([]vpath.Path, *tool.Result, error) {
	seen := map[vpath.Path]bool{}
	var out []vpath.Path
	for _, n := range names {
		p, res, err := g.gitPath(ctx, n, false)
		if res != nil || err != nil {
			return nil, res, err
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil, nil
}

// gitChange is one pending change as the tools show it, with seed 000's fields:
// ChangeType is Added, Modified, Deleted or Moved (a rename or move, with OldPath);
// Timestamp is when the file was last written (for a deletion, when the journey saw
// it; absent when unknown); Summary says in one line what changed.
type gitChange struct {
	Entity     string        `json:"entity"`
	Path       vpath.Path    `json:"path"`
	State      gitrepo.State `json:"state"`
	From       string        `json:"renamed_from,omitempty"`
	Title      string        `json:"title"`
	ChangeType string        `json:"change_type"`
	OldPath    vpath.Path    `json:"old_path,omitempty"`
	Timestamp  string        `json:"timestamp,omitempty"`
	Summary    string        `json:"summary"`
}

// GitStatusIn is the input of git_status.
type GitStatusIn struct {
	tool.LibraryArg
}

// GitStatusOut is the output of git_status: the pending changes (the first 500 of
// them), and when there are any, their names by state and by change set; Total counts
// them all. Conflicted notes are listed apart (Conflicts), with their hunks, and
// Operation says what git is in the middle of (a merge, a rebase) and what ends it.
type GitStatusOut struct {
	ChangeSets []changeSet                `json:"change_sets,omitempty"`
	Changes    []gitChange                `json:"changes"`
	Conflicts  []conflictOut              `json:"conflicts,omitempty"`
	Groups     map[gitrepo.State][]string `json:"groups,omitempty"`
	Operation  string                     `json:"operation,omitempty"`
	Total      int                        `json:"total"`
}

func (e *env) gitStatus(ctx context.Context, call *tool.Call, _ GitStatusIn) (tool.Result, *GitStatusOut, error) {
	g, res, err := e.gitOpen(ctx, call, true)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	op := g.repo.Operation()
	if len(g.changes) == 0 {
		if op.Message != "" {
			return tool.OK("no pending changes; " + op.Message), &GitStatusOut{Changes: []gitChange{}, Operation: op.Message}, nil
		}
		return tool.OK("no pending changes: the notes match the last commit"), &GitStatusOut{Changes: []gitChange{}}, nil
	}
	var conflicts []conflictOut
	plain := g.changes
	if slices.ContainsFunc(g.changes, func(c gitrepo.Change) bool { return c.State == gitrepo.Conflicted }) {
		if conflicts, err = g.conflictsOut(ctx); err != nil {
			return tool.Result{}, nil, err
		}
		plain = slices.DeleteFunc(slices.Clone(g.changes), func(c gitrepo.Change) bool { return c.State == gitrepo.Conflicted })
	}
	groups := map[gitrepo.State][]string{}
	for _, c := range plain {
		groups[c.State] = append(groups[c.State], c.Path.Name())
	}
	list, err := g.describe(ctx, plain[:min(len(plain), maxListed)])
	if err != nil {
		return tool.Result{}, nil, err
	}
	var parts []string
	for _, s := range []gitrepo.State{gitrepo.Modified, gitrepo.Added, gitrepo.Untracked, gitrepo.Deleted, gitrepo.Renamed} {
		if n := len(groups[s]); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	msg := conflictsNote(conflicts, op)
	if len(plain) > 0 {
		if msg != "" {
			msg += "; "
		}
		msg += fmt.Sprintf("%s (%s); git_diff shows them, git_commit records them", plural(len(plain), "pending change"), strings.Join(parts, ", "))
	}
	r := tool.OK(msg)
	if len(plain) > maxListed {
		r = r.WithWarning("only the first %d changes are listed; the groups name them all", maxListed)
	}
	return r, &GitStatusOut{Changes: list, Conflicts: conflicts, Groups: groups, Operation: op.Message, ChangeSets: g.changeSetsOut(), Total: len(g.changes)}, nil
}

// changeSet is one change set as git_status shows it: who made which changes.
type changeSet struct {
	ChangeSet string   `json:"change_set"`
	Entities  []string `json:"entities"`
}

// groups returns the pending changes grouped by the actor and turn that made them,
// from the journey; an unreadable journey leaves every change an outside edit.
func (g *gitCtx) groups() []gitrepo.ChangeSet {
	return gitrepo.GroupChanges(g.changes, g.journeyEntries(), g.repo.Stamp)
}

// journeyEntries returns the newest journey entries naming the pending changes, read
// once.
func (g *gitCtx) journeyEntries() []vault.Entry {
	if g.journey == nil {
		g.journey, _ = g.lib.Vault().JourneyLatest(gitrepo.JourneyTailBytes, gitrepo.JourneyNames(g.changes))
		if g.journey == nil {
			g.journey = []vault.Entry{}
		}
	}
	return g.journey
}

// changeSetsOut lists the change sets as git_status shows them.
func (g *gitCtx) changeSetsOut() []changeSet {
	var out []changeSet
	for _, s := range g.groups() {
		cs := changeSet{ChangeSet: s.ID}
		for _, c := range s.Changes {
			if len(cs.Entities) == maxListed {
				break
			}
			cs.Entities = append(cs.Entities, c.Path.Name())
		}
		out = append(out, cs)
	}
	return out
}

// cleanText says what is wrong with a free text argument, or "".
func cleanText(what, s string, maxLen int) string {
	switch {
	case strings.TrimSpace(s) == "":
		return what + " is empty"
	case len(s) > maxLen:
		return fmt.Sprintf("%s is longer than %d bytes", what, maxLen)
	case !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsControl(r) && r != '\n' && r != '\t'
	}) >= 0:
		return what + " holds control characters or invalid UTF-8"
	}
	return ""
}

// plural writes a count and a noun, adding "s" unless the count is one.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
