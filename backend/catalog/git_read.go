package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

type gitDiffIn struct {
	EntityName             string `json:"entity_name,omitempty" jsonschema:"the note to diff; every pending change when absent"`
	Brief                  bool   `json:"brief,omitempty" jsonschema:"true for names and counts of added and deleted lines only"`
	IncludeContentDiff     *bool  `json:"include_content_diff,omitempty" jsonschema:"false leaves out the unified diff and each note's content_change (default true)"`
	IncludeRelationChanges *bool  `json:"include_relation_changes,omitempty" jsonschema:"false leaves out each note's relation_changes (default true)"`
	tool.LibraryArg
}

// diffFile is one changed note in a diff's summary and, unless brief, its structured
// change (seed 000's NodeChangeDetails): what changed in its title, body, tags,
// relations and other properties.
type diffFile struct {
	Entity  string `json:"entity"`
	Added   int    `json:"lines_added"`
	Deleted int    `json:"lines_deleted"`
	Binary  bool   `json:"binary,omitempty"`
	// TooLarge: a side is over 2 MB, so the diff names the note without its lines.
	TooLarge bool `json:"too_large_to_diff,omitempty"`
	// ChangeType is Added, Modified, Deleted or Moved; OldEntity names a moved note as
	// it was.
	ChangeType        string           `json:"change_type"`
	OldEntity         string           `json:"old_entity,omitempty"`
	TitleChange       *textChange      `json:"title_change,omitempty"`
	ContentChange     *contentChange   `json:"content_change,omitempty"`
	TagsChange        *tagsChange      `json:"tags_change,omitempty"`
	RelationChanges   []relationChange `json:"relation_changes,omitempty"`
	PropertiesChanged []string         `json:"properties_changed,omitempty"`
	// Hunks, for a note whose change can be discarded hunk by hunk (modified text),
	// number its hunks from 1 in file order, as git_checkout's hunks name them.
	Hunks []diffHunk `json:"hunks,omitempty"`
}

// diffOut is the output of git_diff: the changed notes with their counts and
// structured changes, and unless brief or asked not to, the diff itself.
type diffOut struct {
	Diff  *string    `json:"diff,omitempty"` // nil when brief or include_content_diff is false
	Files []diffFile `json:"files"`
}

func (e *env) gitDiff(ctx context.Context, call *tool.Call, in gitDiffIn) (tool.Result, *diffOut, error) {
	g, res, err := e.gitOpen(ctx, call, true)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	var names []string
	if in.EntityName != "" {
		names = []string{in.EntityName}
	}
	chosen, _, res, err := g.pending(ctx, names)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	if len(chosen) == 0 {
		what := "no pending changes"
		if in.EntityName != "" {
			what = in.EntityName + " has no pending change"
		}
		return tool.OK(what), &diffOut{Files: []diffFile{}}, nil
	}
	changes := make([]gitrepo.Change, len(chosen))
	for i, c := range chosen {
		changes[i] = *c
	}
	text, stats, err := g.repo.DiffChanges(ctx, changes)
	if err != nil {
		return tool.Result{}, nil, err
	}
	byPath := make(map[vpath.Path]gitrepo.Change, len(changes))
	for _, c := range changes {
		byPath[c.Path] = c
	}
	files := make([]diffFile, len(stats))
	listed := make([]gitrepo.Change, len(stats)) // the change of each file
	added, deleted := 0, 0
	for i, s := range stats {
		c := byPath[s.Path]
		listed[i] = c
		files[i] = diffFile{Entity: s.Path.Name(), Added: s.Added, Deleted: s.Deleted, Binary: s.Binary, TooLarge: s.TooLarge,
			ChangeType: changeType(c.State), OldEntity: c.From.Name()}
		added, deleted = added+s.Added, deleted+s.Deleted
	}
	msg := fmt.Sprintf("%s changed, %s added, %d deleted", plural(len(files), "file"), plural(added, "line"), deleted)
	if in.Brief {
		return tool.OK(msg), &diffOut{Files: files}, nil
	}
	withContent, withRelations := in.IncludeContentDiff == nil || *in.IncludeContentDiff, in.IncludeRelationChanges == nil || *in.IncludeRelationChanges
	cut, err := g.detail(ctx, files, listed, withContent, withRelations)
	if err != nil {
		return tool.Result{}, nil, err
	}
	if err := g.fillHunks(ctx, files, listed); err != nil {
		return tool.Result{}, nil, err
	}
	out := &diffOut{Files: files}
	r := tool.OK(msg)
	if withContent {
		clipped, diffCut := tool.Clip(text, maxDiffBytes)
		out.Diff = &clipped
		if diffCut {
			r = r.WithWarning("the diff is clipped at %d bytes; call git_diff with one entity_name at a time for the rest", maxDiffBytes)
		}
	}
	if cut {
		r = r.WithWarning("content_change holds the old and new bodies of the first notes only (%d bytes in all); "+
			"call git_diff with one entity_name for the others", maxDiffBytes)
	}
	return r, out, nil
}

type gitLogIn struct {
	EntityName string `json:"entity_name,omitempty" jsonschema:"the note whose history to show; the whole library's when absent"`
	Limit      int    `json:"limit,omitempty" jsonschema:"how many commits, newest first (default 20, at most 200)"`
	tool.LibraryArg
}

// logEntry is one commit as git_log shows it.
type logEntry struct {
	Commit   string            `json:"commit"`
	Subject  string            `json:"subject"`
	Author   string            `json:"author"`
	When     string            `json:"when"`
	Trailers map[string]string `json:"trailers,omitempty"`
	Tags     []string          `json:"tags,omitempty"`
}

// logOut is the output of git_log.
type logOut struct {
	Commits []logEntry `json:"commits"`
}

func (e *env) gitLog(ctx context.Context, call *tool.Call, in gitLogIn) (tool.Result, *logOut, error) {
	if in.Limit < 0 {
		return tool.Fail(tool.CodeInvalidArguments, "limit is negative; give a number of commits from 1 to %d", maxLog), nil, nil
	}
	g, res, err := e.gitOpen(ctx, call, false)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	var p vpath.Path
	if in.EntityName != "" {
		if p, res, err = g.gitPath(ctx, in.EntityName, true); res != nil || err != nil {
			return deref(res), nil, err
		}
	}
	limit := in.Limit
	if limit == 0 {
		limit = defaultLog
	}
	limit = min(limit, maxLog)
	commits, err := g.repo.Log(ctx, p, limit)
	if err != nil {
		return tool.Result{}, nil, err
	}
	out := make([]logEntry, len(commits))
	for i, c := range commits {
		out[i] = logEntry{Commit: c.Hash[:12], Subject: c.Subject, Author: c.Author, When: c.When.Format(time.RFC3339), Trailers: c.Trailers, Tags: c.Tags}
	}
	scope := "the library"
	if p != "" {
		scope = p.Name()
	}
	r := tool.OK(fmt.Sprintf("%s of %s, newest first", plural(len(out), "commit"), scope))
	if in.Limit > maxLog {
		r = r.WithWarning("limit is capped at %d", maxLog)
	}
	return r, &logOut{Commits: out}, nil
}
