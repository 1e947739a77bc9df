package catalog

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

// Seed 000's change types, as git_status and git_diff name them.
const (
	changeAdded    = "Added"
	changeModified = "Modified"
	changeDeleted  = "Deleted"
	changeMoved    = "Moved"
)

// changeType names a pending change's state as seed 000 does: a new file (untracked
// or staged) is Added, a rename or move Moved.
func changeType(s gitrepo.State) string {
	switch s {
	case gitrepo.Added, gitrepo.Untracked:
		return changeAdded
	case gitrepo.Deleted:
		return changeDeleted
	case gitrepo.Renamed:
		return changeMoved
	}
	return changeModified
}

// textChange is a value before and after (seed 000's PropertyChange of a string): Old
// is empty for a new note, New for a deleted one.
type textChange struct {
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// contentChange is the change of a note's body: its lines added and deleted and, while
// the answer has room, the body before and after (each clipped at maxContentSide
// bytes; Clipped says so).
type contentChange struct {
	LinesAdded   int    `json:"lines_added"`
	LinesDeleted int    `json:"lines_deleted"`
	Old          string `json:"old,omitempty"`
	New          string `json:"new,omitempty"`
	Clipped      bool   `json:"clipped,omitempty"`
}

// tagsChange is the change of a note's tags (front matter and body, without "#"):
// the whole lists before and after, and what was added and removed.
type tagsChange struct {
	Old     []string `json:"old"`
	New     []string `json:"new"`
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
}

// relationChange is one typed relation added or removed (seed 000's RelationChange):
// ChangeType is Added or Deleted, Target the linked note's name as written.
type relationChange struct {
	ChangeType string `json:"change_type"`
	Type       string `json:"type"`
	Target     string `json:"target"`
}

// noteSide is what git_status and git_diff compare of one version of a note.
type noteSide struct {
	exists    bool
	title     string
	body      string
	tags      []string
	relations []relationChange // ChangeType empty
	props     map[string]any
	lines     int
}

// readNoteSide parses one version of the note at p.
func readNoteSide(p vpath.Path, data []byte, exists bool) noteSide {
	s := noteSide{exists: exists, title: baseTitle(p)}
	if !exists {
		return s
	}
	n := note.Parse(data)
	if t, ok := n.Properties["title"].(string); ok && strings.TrimSpace(t) != "" {
		s.title = strings.TrimSpace(t)
	}
	s.body = string(data[min(n.BodyStart, len(data)):])
	seen := map[string]bool{}
	for _, t := range n.Tags {
		if !seen[t.Name] {
			seen[t.Name] = true
			s.tags = append(s.tags, t.Name)
		}
	}
	sort.Strings(s.tags)
	for _, r := range n.Relations {
		s.relations = append(s.relations, relationChange{Type: r.Type, Target: r.To})
	}
	s.props = n.Properties
	s.lines = lineTotal(string(data))
	return s
}

// baseTitle is a note's title when it has no title property: its file name without
// ".md".
func baseTitle(p vpath.Path) string {
	b := p.Base()
	if p.IsNote() {
		b = b[:len(b)-len(p.Ext())]
	}
	return b
}

// lineTotal counts the lines of a text, a last line without a line break included.
func lineTotal(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// noteDiff is the structured change of one note between two sides.
type noteDiff struct {
	title     *textChange
	content   *contentChange
	tags      *tagsChange
	relations []relationChange
	props     []string // the other front matter keys whose values changed
}

// diffNotes compares two sides of a note.
func diffNotes(old, cur noteSide) noteDiff {
	var d noteDiff
	if old.title != cur.title || !old.exists || !cur.exists {
		d.title = &textChange{}
		if old.exists {
			d.title.Old = old.title
		}
		if cur.exists {
			d.title.New = cur.title
		}
	}
	if old.body != cur.body {
		c := &contentChange{}
		c.LinesAdded, c.LinesDeleted = gitrepo.LineStat(old.body, cur.body)
		d.content = c
	}
	if !slices.Equal(old.tags, cur.tags) {
		d.tags = &tagsChange{Old: orEmpty(old.tags), New: orEmpty(cur.tags), Added: minus(cur.tags, old.tags), Removed: minus(old.tags, cur.tags)}
	}
	d.relations = relationDelta(old.relations, cur.relations)
	keys := map[string]bool{}
	for k := range old.props {
		keys[k] = true
	}
	for k := range cur.props {
		keys[k] = true
	}
	for k := range keys {
		switch strings.ToLower(k) {
		case "title", "tags", "tag", "relations":
			continue
		}
		if !reflect.DeepEqual(old.props[k], cur.props[k]) {
			d.props = append(d.props, k)
		}
	}
	sort.Strings(d.props)
	return d
}

// relationDelta lists the relations of cur that old lacks (Added) and those of old
// that cur lacks (Deleted), counting repeats.
func relationDelta(old, cur []relationChange) []relationChange {
	count := map[relationChange]int{}
	for _, r := range old {
		count[r]--
	}
	for _, r := range cur {
		count[r]++
	}
	var out []relationChange
	for _, r := range cur {
		if count[r] > 0 {
			count[r]--
			r.ChangeType = changeAdded
			out = append(out, r)
		}
	}
	for _, r := range old {
		if count[r] < 0 {
			count[r]++
			r.ChangeType = changeDeleted
			out = append(out, r)
		}
	}
	return out
}

// minus returns the items of a that b lacks (both sorted and without repeats).
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// describeChange returns the title of a pending change's note (its title property, or
// its file name without ".md"; a deleted note's as it was) and one line saying what
// the change did, for a model and a person: "body +3 -1 lines; tags added x", "moved
// from people/Ada.md; title "Ada" → "Ada Lovelace"", "new note "Idea", 12 lines,
// tags x, 1 relation", "binary file changed, 10 → 12 bytes".
func describeChange(c gitrepo.Change, sd gitrepo.Sides) (title, summary string) {
	var lead string
	if c.State == gitrepo.Renamed {
		lead = "moved from " + string(c.From)
	}
	title = baseTitle(c.Path)
	switch {
	case sd.TooLarge:
		return title, joinSummary(lead, "too large to compare (over 2 MB)")
	case isBinaryData(sd.Old) || isBinaryData(sd.New):
		return title, joinSummary(lead, binarySummary(c, sd))
	case !c.Path.IsNote() || len(sd.Old) > maxSummaryBytes || len(sd.New) > maxSummaryBytes:
		return title, joinSummary(lead, fileSummary(sd))
	}
	from := c.Path
	if c.From != "" {
		from = c.From
	}
	old, cur := readNoteSide(from, sd.Old, sd.InHead), readNoteSide(c.Path, sd.New, sd.OnDisk)
	title = cur.title
	switch {
	case !old.exists && cur.exists:
		return title, joinSummary(lead, newNoteSummary(cur))
	case old.exists && !cur.exists:
		return old.title, joinSummary(lead, fmt.Sprintf("deleted note %q (%s)", old.title, plural(old.lines, "line")))
	}
	what := modifiedSummary(diffNotes(old, cur))
	if what == "" { // the same title, body, tags, relations and property values
		what = "content unchanged"
		if string(sd.Old) != string(sd.New) {
			add, del := gitrepo.LineStat(string(sd.Old), string(sd.New))
			what = fmt.Sprintf("front matter rewritten with the same values, +%d -%d lines", add, del)
		}
	}
	return title, joinSummary(lead, what)
}

// newNoteSummary describes a new note.
func newNoteSummary(s noteSide) string {
	parts := []string{fmt.Sprintf("new note %q", s.title), plural(s.lines, "line")}
	if len(s.tags) > 0 {
		parts = append(parts, "tags "+strings.Join(s.tags, ", "))
	}
	if len(s.relations) > 0 {
		parts = append(parts, plural(len(s.relations), "relation"))
	}
	return strings.Join(parts, ", ")
}

// modifiedSummary describes the change of a note that exists on both sides; "" when
// its title, body, tags, relations and properties are all the same.
func modifiedSummary(d noteDiff) string {
	var parts []string
	if d.title != nil {
		parts = append(parts, fmt.Sprintf("title %q → %q", d.title.Old, d.title.New))
	}
	if d.content != nil {
		parts = append(parts, fmt.Sprintf("body +%d -%d lines", d.content.LinesAdded, d.content.LinesDeleted))
	}
	if d.tags != nil {
		var t []string
		if len(d.tags.Added) > 0 {
			t = append(t, "added "+strings.Join(d.tags.Added, ", "))
		}
		if len(d.tags.Removed) > 0 {
			t = append(t, "removed "+strings.Join(d.tags.Removed, ", "))
		}
		parts = append(parts, "tags "+strings.Join(t, ", "))
	}
	if len(d.relations) > 0 {
		parts = append(parts, relationSummary(d.relations))
	}
	if props := shownProps(d.props, len(parts) > 0); len(props) > 0 {
		parts = append(parts, "properties changed: "+strings.Join(props, ", "))
	}
	return strings.Join(parts, "; ")
}

// shownProps leaves "date modified" out of a list of changed properties unless it is
// all that changed (nothing else is said): every write updates it, so it says nothing
// beside the rest.
func shownProps(props []string, more bool) []string {
	var out []string
	for _, p := range props {
		if !strings.EqualFold(p, "date modified") {
			out = append(out, p)
		}
	}
	if len(out) == 0 && !more {
		return props
	}
	return out
}

// relationSummary names the relations added and removed, the first few in full.
func relationSummary(rs []relationChange) string {
	const shown = 3
	var added, removed []string
	for _, r := range rs {
		s := r.Type + " → " + r.Target
		if r.ChangeType == changeAdded {
			added = append(added, s)
		} else {
			removed = append(removed, s)
		}
	}
	name := func(verb string, list []string) string {
		if len(list) > shown {
			return fmt.Sprintf("%s %s and %d more", verb, strings.Join(list[:shown], ", "), len(list)-shown)
		}
		return verb + " " + strings.Join(list, ", ")
	}
	var parts []string
	if len(added) > 0 {
		parts = append(parts, name("added", added))
	}
	if len(removed) > 0 {
		parts = append(parts, name("removed", removed))
	}
	return "relations " + strings.Join(parts, ", ")
}

// maxSummaryBytes bounds the files git_status compares line by line for a summary
// (git_diff compares up to 2 MB); a larger one is summarised by its size, or by the
// lines appended when that is all that changed (journey.yaml).
const maxSummaryBytes = 256 << 10

// fileSummary describes the change of a text file that is not a note (or of a note too
// large to parse for a summary).
func fileSummary(sd gitrepo.Sides) string {
	switch {
	case !sd.InHead:
		return "new file, " + plural(lineTotal(string(sd.New)), "line")
	case !sd.OnDisk:
		return "deleted file (" + plural(lineTotal(string(sd.Old)), "line") + ")"
	case len(sd.New) > len(sd.Old) && bytes.HasPrefix(sd.New, sd.Old) && (len(sd.Old) == 0 || sd.Old[len(sd.Old)-1] == '\n'):
		return fmt.Sprintf("+%d -0 lines, appended", lineTotal(string(sd.New[len(sd.Old):])))
	case len(sd.Old) > maxSummaryBytes || len(sd.New) > maxSummaryBytes:
		return fmt.Sprintf("changed, %d → %d bytes (too large to count the lines here; git_diff does)", len(sd.Old), len(sd.New))
	}
	add, del := gitrepo.LineStat(string(sd.Old), string(sd.New))
	if add == 0 && del == 0 {
		return "content unchanged"
	}
	return fmt.Sprintf("+%d -%d lines", add, del)
}

// binarySummary describes the change of a binary file.
func binarySummary(c gitrepo.Change, sd gitrepo.Sides) string {
	switch {
	case !sd.InHead:
		return fmt.Sprintf("new binary file, %d bytes", len(sd.New))
	case !sd.OnDisk:
		return "deleted binary file"
	case c.State == gitrepo.Renamed && string(sd.Old) == string(sd.New):
		return "content unchanged"
	}
	return fmt.Sprintf("binary file changed, %d → %d bytes", len(sd.Old), len(sd.New))
}

// joinSummary joins the parts of a summary that are not empty.
func joinSummary(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

// isBinaryData applies git's rule: a NUL byte in the first 8000 bytes.
func isBinaryData(b []byte) bool {
	return slices.Contains(b[:min(len(b), 8000)], 0)
}

// describe lists changes as git_status shows them, with their titles, summaries and
// times.
func (g *gitCtx) describe(ctx context.Context, changes []gitrepo.Change) ([]gitChange, error) {
	sides, err := g.repo.ChangeSides(ctx, changes)
	if err != nil {
		return nil, err
	}
	out := make([]gitChange, len(changes))
	for i, c := range changes {
		title, summary := describeChange(c, sides[i])
		out[i] = gitChange{Entity: c.Path.Name(), Path: c.Path, State: c.State, From: c.From.Name(),
			Title: title, ChangeType: changeType(c.State), OldPath: c.From, Summary: summary}
		if at, ok := g.changeTime(c); ok {
			out[i].Timestamp = at.Format(time.RFC3339)
		}
	}
	return out, nil
}

// changeTime says when a change was made: the file's modification time, or for a
// deletion the time of the newest journey entry naming it (unknown when none does).
func (g *gitCtx) changeTime(c gitrepo.Change) (time.Time, bool) {
	if c.State != gitrepo.Deleted {
		return g.repo.Stamp(c.Path)
	}
	var at time.Time
	for _, e := range g.journeyEntries() {
		if e.Time.After(at) && (slices.Contains(e.Entities, string(c.Path)) || c.Path.IsNote() && slices.Contains(e.Entities, c.Path.Name())) {
			at = e.Time
		}
	}
	return at, !at.IsZero()
}

// maxContentSide bounds each body a content_change carries.
const maxContentSide = 8_000

// detail fills the structured change of each note of files from its change (changes
// in the same order), reading both versions of each; content_change carries the old
// and new bodies while maxDiffBytes of them have not been given, and cut says some
// were left out.
func (g *gitCtx) detail(ctx context.Context, files []diffFile, changes []gitrepo.Change, withContent, withRelations bool) (cut bool, err error) {
	sides, err := g.repo.ChangeSides(ctx, changes)
	if err != nil {
		return false, err
	}
	budget := maxDiffBytes
	for i, c := range changes {
		sd := sides[i]
		if !c.Path.IsNote() || sd.TooLarge || isBinaryData(sd.Old) || isBinaryData(sd.New) {
			continue
		}
		from := c.Path
		if c.From != "" {
			from = c.From
		}
		old, cur := readNoteSide(from, sd.Old, sd.InHead), readNoteSide(c.Path, sd.New, sd.OnDisk)
		d := diffNotes(old, cur)
		f := &files[i]
		f.TitleChange, f.TagsChange, f.PropertiesChanged = d.title, d.tags, d.props
		if withRelations {
			f.RelationChanges = d.relations
		}
		if !withContent || d.content == nil {
			continue
		}
		f.ContentChange = d.content
		if budget <= 0 {
			d.content.Clipped, cut = true, true
			continue
		}
		var c1, c2 bool
		d.content.Old, c1 = tool.Clip(old.body, min(maxContentSide, budget))
		d.content.New, c2 = tool.Clip(cur.body, min(maxContentSide, budget))
		d.content.Clipped = c1 || c2
		budget -= len(d.content.Old) + len(d.content.New)
	}
	return cut, nil
}
