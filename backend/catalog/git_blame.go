package catalog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/tool"
)

// maxBlameLines bounds the lines one git_blame answer lists; start_line and end_line
// page through the rest.
const maxBlameLines = 300

// maxBlameText bounds the text of each line git_blame shows.
const maxBlameText = 160

type gitBlameIn struct {
	EntityName string `json:"entity_name" jsonschema:"the note whose lines to attribute"`
	StartLine  int    `json:"start_line,omitempty" jsonschema:"the first line to list (default 1)"`
	EndLine    int    `json:"end_line,omitempty" jsonschema:"the last line to list (default: 300 lines on from start_line)"`
	tool.LibraryArg
}

// blameLine is one line of a note and who last changed it, as git_blame shows it.
type blameLine struct {
	Line   int    `json:"line"`
	Text   string `json:"text"`
	Commit string `json:"commit"` // short hash; "" for a line not committed yet
	Date   string `json:"date"`
	Author string `json:"author"`
	// Actor is the MemoTree-Actor trailer of a commit MemoTree made, else its author;
	// for a line not committed yet, the ID of its change set.
	Actor string `json:"actor"`
	Turn  string `json:"turn,omitempty"`
}

// blameOut is the output of git_blame.
type blameOut struct {
	Entity     string      `json:"entity"`
	Lines      []blameLine `json:"lines"`
	TotalLines int         `json:"total_lines"`
}

func (e *env) gitBlame(ctx context.Context, call *tool.Call, in gitBlameIn) (tool.Result, *blameOut, error) {
	if in.StartLine < 0 || in.EndLine < 0 || in.EndLine > 0 && in.EndLine < in.StartLine {
		return tool.Fail(tool.CodeInvalidArguments, "start_line %d and end_line %d do not make a range; give 1 <= start_line <= end_line", in.StartLine, in.EndLine), nil, nil
	}
	g, res, err := e.gitOpen(ctx, call, true)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	p, res, err := g.gitPath(ctx, in.EntityName, true)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	o := gitrepo.BlameOptions{Path: p}
	if c := g.change(p); c != nil {
		o.Path, o.From = c.Path, c.From
		for _, s := range g.groups() {
			for _, sc := range s.Changes {
				if sc.Path == c.Path {
					o.ChangeSet = s.ID
				}
			}
		}
	}
	b, err := g.repo.Blame(ctx, o)
	switch {
	case errors.Is(err, gitrepo.ErrNoGit):
		return tool.Fail(CodeGitRefused, "git_blame runs the git command, which is not installed here; ask the person to install git"), nil, nil
	case errors.Is(err, gitrepo.ErrInvalidPath):
		return tool.Fail(tool.CodeNotFound, "%s is neither in the working tree nor in the last commit", p.Name()), nil, nil
	case err != nil:
		return tool.Result{}, nil, err
	case b.Binary:
		return tool.Fail(tool.CodeInvalidArguments, "%s is a binary file: it has no lines to attribute", p), nil, nil
	case b.TooLarge:
		return tool.Fail(tool.CodeTooLarge, "%s is over %d bytes: too large to attribute line by line", p, gitrepo.MaxDiffBytes), nil, nil
	}
	start := max(in.StartLine, 1)
	end := in.EndLine
	if end == 0 || end > len(b.Lines) {
		end = len(b.Lines)
	}
	clipped := end-start+1 > maxBlameLines
	if clipped {
		end = start + maxBlameLines - 1
	}
	out := &blameOut{Entity: o.Path.Name(), Lines: []blameLine{}, TotalLines: len(b.Lines)}
	actors := map[string]bool{}
	for _, l := range b.Lines[min(start-1, len(b.Lines)):end] {
		c := b.Pending
		if l.Commit != "" {
			cc := b.Commits[l.Commit]
			c = &cc
		}
		if c == nil {
			continue
		}
		text, _ := tool.Clip(l.Text, maxBlameText)
		bl := blameLine{Line: l.Line, Text: text, Author: c.Author, Actor: c.Actor, Turn: c.Turn}
		if c.Hash != "" {
			bl.Commit = c.Hash[:12]
		}
		if !c.Date.IsZero() {
			bl.Date = c.Date.Format(time.RFC3339)
		}
		actors[c.Actor] = true
		out.Lines = append(out.Lines, bl)
	}
	r := tool.OK(fmt.Sprintf("%s of %s, last changed by %s", plural(len(out.Lines), "line"), o.Path.Name(), plural(len(actors), "actor")))
	if clipped {
		r = r.WithWarning("only lines %d to %d of %d are listed; call again with start_line=%d for the next ones", start, end, len(b.Lines), end+1)
	}
	return r, out, nil
}
