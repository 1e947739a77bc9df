package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/tool"
)

// diffHunk is one hunk of a note's pending change as git_diff lists it: its number
// (what git_checkout's hunks name), its header as in the unified diff, its counts,
// and for a hunk of front matter only, the properties it changes.
type diffHunk struct {
	Hunk       int                      `json:"hunk"`
	Header     string                   `json:"header"`
	Added      int                      `json:"lines_added"`
	Deleted    int                      `json:"lines_deleted"`
	Properties []gitrepo.PropertyChange `json:"properties,omitempty"`
}

// hunkHeader writes a hunk's header as git does: "@@ -3,7 +3,8 @@".
func hunkHeader(h gitrepo.Hunk) string {
	r := func(start, n int) string {
		if n == 1 {
			return fmt.Sprint(start)
		}
		return fmt.Sprintf("%d,%d", start, n)
	}
	return fmt.Sprintf("@@ -%s +%s @@", r(h.OldStart, h.OldLines), r(h.NewStart, h.NewLines))
}

// hunksOut lists the hunks of a file diff whose hunks can be undone one by one; nil
// for any other change (it is discarded whole).
func hunksOut(d gitrepo.FileDiff) []diffHunk {
	if !d.HunkUndo {
		return nil
	}
	out := make([]diffHunk, len(d.Hunks))
	for i, h := range d.Hunks {
		out[i] = diffHunk{Hunk: h.Number, Header: hunkHeader(h), Properties: h.Properties}
		for _, l := range h.Lines {
			switch l.Kind {
			case gitrepo.Add:
				out[i].Added++
			case gitrepo.Del:
				out[i].Deleted++
			}
		}
	}
	return out
}

// hunkText writes hunks as a unified diff's lines, header first, for a person or a
// model to read what they hold.
func hunkText(hunks []gitrepo.Hunk) string {
	var b strings.Builder
	for _, h := range hunks {
		b.WriteString(hunkHeader(h) + "\n")
		for _, l := range h.Lines {
			b.WriteString(map[gitrepo.LineKind]string{gitrepo.Context: " ", gitrepo.Add: "+", gitrepo.Del: "-"}[l.Kind] + l.Text + "\n")
			if l.NoNewline {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}

// fillHunks gives each file of a diff whose change can be undone hunk by hunk its
// numbered hunks (files and changes in the same order).
func (g *gitCtx) fillHunks(ctx context.Context, files []diffFile, changes []gitrepo.Change) error {
	diffs, err := g.repo.FileDiffs(ctx, changes)
	if err != nil {
		return err
	}
	for i, d := range diffs {
		files[i].Hunks = hunksOut(d)
	}
	return nil
}

// hunkPlan is the hunks to discard of one note: its change, the diff they were read
// from, and the hunks.
type hunkPlan struct {
	change *gitrepo.Change
	diff   gitrepo.FileDiff
	hunks  []int
	item   discardItem
}

// planHunks resolves git_checkout's hunks: each note with a pending change that can be
// undone hunk by hunk, and hunk numbers its diff has; res is the answer otherwise.
// notWhole are the changes entity_names discards whole: a note cannot be in both.
func (g *gitCtx) planHunks(ctx context.Context, hunks map[string][]int, notWhole []*gitrepo.Change) ([]hunkPlan, *tool.Result, error) {
	fail := func(format string, args ...any) ([]hunkPlan, *tool.Result, error) {
		r := tool.Fail(tool.CodeInvalidArguments, format, args...)
		return nil, &r, nil
	}
	names := make([]string, 0, len(hunks))
	for n := range hunks {
		names = append(names, n)
	}
	sort.Strings(names)
	var plans []hunkPlan
	for _, name := range names {
		p, res, err := g.gitPath(ctx, name, false)
		if res != nil || err != nil {
			return nil, res, err
		}
		c := g.change(p)
		switch {
		case c == nil:
			r := tool.Fail(tool.CodeNoMatch, "%s has no pending change, so no hunks to discard; git_status lists the notes that have one", p.Name())
			return nil, &r, nil
		case slices.Contains(notWhole, c):
			return fail("%s is named in entity_names (discard it whole) and in hunks (discard some of it): name it in one of them", p.Name())
		case len(hunks[name]) == 0:
			return fail("hunks names no hunk of %s; give the numbers git_diff shows, such as {%q: [2]}", p.Name(), name)
		}
		for _, q := range plans {
			if q.change == c {
				return fail("hunks names %s twice", p.Name())
			}
		}
		d, err := g.repo.FileDiff(ctx, *c)
		if err != nil {
			return nil, nil, err
		}
		if !d.HunkUndo {
			return fail("%s (%s) cannot be discarded hunk by hunk: %s; name it in entity_names to discard its change whole", p.Name(), c.State, wholeWhy(c, d))
		}
		plan := hunkPlan{change: c, diff: d, item: discardItem{Entity: c.Path.Name(), State: c.State}}
		var chosen []gitrepo.Hunk
		for _, n := range hunks[name] {
			if n < 1 || n > len(d.Hunks) {
				return fail("%s has %s, numbered 1 to %d; there is no hunk %d (call git_diff for the numbers)", p.Name(), plural(len(d.Hunks), "hunk"), len(d.Hunks), n)
			}
			if !slices.Contains(plan.hunks, n) {
				plan.hunks = append(plan.hunks, n)
				chosen = append(chosen, d.Hunks[n-1])
			}
		}
		slices.Sort(plan.hunks)
		slices.SortFunc(chosen, func(a, b gitrepo.Hunk) int { return a.Number - b.Number })
		for _, h := range chosen {
			for _, l := range h.Lines {
				switch l.Kind {
				case gitrepo.Add:
					plan.item.Added++
				case gitrepo.Del:
					plan.item.Deleted++
				}
			}
		}
		plan.item.Hunks = plan.hunks
		plan.item.Diff, _ = tool.Clip(hunkText(chosen), maxContentSide)
		left := len(d.Hunks) - len(plan.hunks)
		plan.item.Effect = fmt.Sprintf("put back %s as last committed, losing %d added and %d deleted lines; the rest of the change (%s) stays pending",
			hunkList(plan.hunks), plan.item.Added, plan.item.Deleted, plural(left, "hunk"))
		plans = append(plans, plan)
	}
	return plans, nil, nil
}

// wholeWhy says why a change is undone whole only.
func wholeWhy(c *gitrepo.Change, d gitrepo.FileDiff) string {
	switch {
	case d.Binary:
		return "it is a binary file"
	case d.TooLarge:
		return "it is too large to diff"
	case c.State == gitrepo.Added || c.State == gitrepo.Untracked:
		return "it is new"
	case c.State == gitrepo.Deleted:
		return "it is deleted"
	}
	return "its content is unchanged"
}

// hunkList names hunk numbers: "hunk 2", "hunks 1 and 3", "hunks 1, 2 and 4".
func hunkList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	if len(s) == 1 {
		return "hunk " + s[0]
	}
	return "hunks " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// undoHunks discards the planned hunks, each note by compare-and-swap on the version
// its plan read; res answers a note changed meanwhile (the notes before it are done).
func (g *gitCtx) undoHunks(ctx context.Context, call *tool.Call, plans []hunkPlan) (done []string, res *tool.Result, err error) {
	for _, p := range plans {
		_, err := g.repo.UndoHunks(ctx, gitrepo.HunkUndo{Change: *p.change, Hunks: p.hunks, Base: p.diff.Base,
			Actor: actorOf(call), Turn: call.Turn, Session: call.Session})
		switch {
		case errors.Is(err, gitrepo.ErrStale):
			msg := fmt.Sprintf("%s changed while its hunks were being discarded (someone saved it): nothing of it was discarded; call git_diff again and name the hunks anew", p.change.Path.Name())
			if len(done) > 0 {
				msg += "; already done: " + strings.Join(done, ", ")
			}
			r := tool.Fail(tool.CodeConflict, "%s", msg)
			return done, &r, nil
		case err != nil:
			if r, ok := writeFailure(p.change.Path, err); ok {
				return done, &r, nil
			}
			return done, nil, err
		}
		done = append(done, fmt.Sprintf("%s of %s", hunkList(p.hunks), p.change.Path.Name()))
	}
	return done, nil, nil
}
