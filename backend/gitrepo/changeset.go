package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// The change sets that are not an actor's turn.
const (
	// OutsideID is the change set of edits made outside MemoTree: with another editor
	// while the app was not watching, by git, or after MemoTree's last write.
	OutsideID = "external"
	// JourneyID is the change set of journey.yaml, the log every operation appends to.
	JourneyID = "journey"
)

// JourneyTailBytes is how much of the journey's end ChangeSets reads: the last
// thousands of operations, scanned in a few milliseconds.
const JourneyTailBytes = 1 << 20

// Journal reads the journey for ChangeSets; *vault.Vault implements it.
type Journal interface {
	// JourneyLatest returns the newest successful entry naming each of names (see
	// vault.Vault.JourneyLatest).
	JourneyLatest(maxBytes int64, names []string) ([]vault.Entry, error)
}

// JourneyNames lists the names under which the journey may record the changes: their
// paths, and for notes their names without ".md" (as the watcher writes them).
func JourneyNames(changes []Change) []string {
	out := make([]string, 0, 2*len(changes))
	for _, c := range changes {
		out = append(out, string(c.Path))
		if c.Path.IsNote() {
			out = append(out, c.Path.Name())
		}
	}
	return out
}

// mtimeSlack is how much later than its last journey entry a file may have been
// modified and still count as that entry's write (clocks and the entry being written
// after the file).
const mtimeSlack = 2 * time.Second

// ChangeSet is the pending changes one actor made in one turn (or script run, or MCP
// session): what the person reviews, commits or discards together.
type ChangeSet struct {
	// ID identifies the set: "actor" or "actor@turn", or OutsideID, or JourneyID.
	ID string `json:"id"`
	// Actor is "agent", "user", "mcp:<client>", "script", "cli", OutsideID or
	// JourneyID.
	Actor string `json:"actor"`
	// Turn is the agent turn, script run or MCP session; "" when the actor had none.
	Turn string `json:"turn,omitempty"`
	// Session is the chat session (or MCP connection) the turn belongs to, as the
	// journey recorded it; "" when unknown. The window sends the person's feedback on
	// an undone change there.
	Session string `json:"session,omitempty"`
	// Latest is the time of the set's newest journey entry; zero for OutsideID.
	Latest time.Time `json:"latest"`
	// Changes are the set's pending changes, sorted by path.
	Changes []Change `json:"changes"`
}

// Stamp says when a working-tree file was last modified; ok is false when it does not
// exist.
type Stamp func(p vpath.Path) (mtime time.Time, ok bool)

// GroupChanges sorts pending changes into change sets using the journey (oldest entry
// first, as Vault.Journey and Vault.JourneyTail return it). A change belongs to the
// actor and turn of the newest successful journey entry that touched its path, unless
// the file was modified after that entry (stamp tells) or the entry is an external
// edit: then it is an outside edit. journey.yaml has a set of its own. Sets come
// newest first, outside edits and then the journey last.
func GroupChanges(changes []Change, journey []vault.Entry, stamp Stamp) []ChangeSet {
	latest := latestEntries(changes, journey)
	byID := map[string]*ChangeSet{}
	var order []*ChangeSet
	for _, c := range changes {
		actor, turn, session, at := OutsideID, "", "", time.Time{}
		switch e, ok := latest[c.Path]; {
		case c.Path == vault.JourneyPath:
			actor = JourneyID
		case !ok || e.Actor == OutsideID:
		case modifiedAfter(stamp, c, e.Time):
		default:
			actor, turn = splitActor(e)
			session, at = e.Session, e.Time
		}
		id := actor
		if turn != "" {
			id += "@" + turn
		}
		s := byID[id]
		if s == nil {
			s = &ChangeSet{ID: id, Actor: actor, Turn: turn, Session: session}
			byID[id] = s
			order = append(order, s)
		}
		s.Changes = append(s.Changes, c)
		if at.After(s.Latest) {
			s.Latest = at
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		ri, rj := rank(order[i].ID), rank(order[j].ID)
		if ri != rj {
			return ri < rj
		}
		return order[i].Latest.After(order[j].Latest)
	})
	out := make([]ChangeSet, len(order))
	for i, s := range order {
		sort.Slice(s.Changes, func(a, b int) bool { return s.Changes[a].Path < s.Changes[b].Path })
		out[i] = *s
	}
	return out
}

// rank orders the actors' sets first, then outside edits, then the journey.
func rank(id string) int {
	switch id {
	case OutsideID:
		return 1
	case JourneyID:
		return 2
	}
	return 0
}

// latestEntries finds, for each changed path, the newest successful journey entry
// naming it (as a path, or as a note name as the watcher writes them). An external
// edit counts as one however soon it followed another actor's write: the watcher
// journals none of the echoes of another MemoTree process's writes (it tells them
// under the vault lock, see vault.Vault.AppendExternal), so that a person's save a
// second after the agent's is never taken for the agent's, nor undone with it. An undo of hunks (OpUndoHunks) leaves the file to the entry before
// it, timed at the undo (so that the file, written by the undo, is not taken for an
// outside edit); with no entry before it, the file is an outside edit.
func latestEntries(changes []Change, journey []vault.Entry) map[vpath.Path]vault.Entry {
	want := make(map[string]vpath.Path, 2*len(changes))
	for _, c := range changes {
		want[string(c.Path)] = c.Path
		if c.Path.IsNote() {
			want[c.Path.Name()] = c.Path
		}
	}
	byPath := map[vpath.Path][]vault.Entry{} // newest first
	for i := len(journey) - 1; i >= 0; i-- {
		e := journey[i]
		if e.Outcome != "ok" {
			continue
		}
		seen := map[vpath.Path]bool{}
		for _, name := range e.Entities {
			if p, ok := want[name]; ok && !seen[p] {
				seen[p] = true
				byPath[p] = append(byPath[p], e)
			}
		}
	}
	out := make(map[vpath.Path]vault.Entry, len(byPath))
	for p, es := range byPath {
		if e, ok := owner(es); ok {
			out[p] = e
		}
	}
	return out
}

// owner picks from a path's entries (newest first) the one its pending change belongs
// to (see latestEntries).
func owner(es []vault.Entry) (vault.Entry, bool) {
	if es[0].Op != OpUndoHunks {
		return es[0], true
	}
	at := es[0].Time
	for k := 1; k < len(es); k++ {
		if es[k].Op != OpUndoHunks {
			e := es[k]
			e.Time = at
			return e, true
		}
	}
	return vault.Entry{}, false
}

// modifiedAfter reports whether the file of c was modified well after at.
func modifiedAfter(stamp Stamp, c Change, at time.Time) bool {
	if stamp == nil || c.State == Deleted {
		return false
	}
	m, ok := stamp(c.Path)
	return ok && m.After(at.Add(mtimeSlack))
}

// splitActor returns the actor and turn of an entry: its Turn field, or the
// "actor@turn" form tools write.
func splitActor(e vault.Entry) (actor, turn string) {
	actor, turn = e.Actor, e.Turn
	if a, t, ok := strings.Cut(e.Actor, "@"); ok && a != "" {
		actor = a
		if turn == "" {
			turn = t
		}
	}
	return actor, turn
}

// Trailers returns the commit trailers naming who made the given changes:
// MemoTree-Actor (the actors, comma-separated) and MemoTree-Turn (their turns, when
// any), in the order of sets. Changes not in sets are not named.
func Trailers(sets []ChangeSet, paths []vpath.Path) map[string]string {
	chosen := make(map[vpath.Path]bool, len(paths))
	for _, p := range paths {
		chosen[p] = true
	}
	var actors, turns []string
	seenActor, seenTurn := map[string]bool{}, map[string]bool{}
	for _, s := range sets {
		hit := len(paths) == 0
		for _, c := range s.Changes {
			hit = hit || chosen[c.Path] || (c.From != "" && chosen[c.From])
		}
		if !hit || s.Actor == JourneyID {
			continue
		}
		if !seenActor[s.Actor] {
			seenActor[s.Actor] = true
			actors = append(actors, s.Actor)
		}
		if s.Turn != "" && !seenTurn[s.Turn] {
			seenTurn[s.Turn] = true
			turns = append(turns, s.Turn)
		}
	}
	out := map[string]string{}
	if len(actors) > 0 {
		out["MemoTree-Actor"] = strings.Join(actors, ", ")
	}
	if len(turns) > 0 {
		out["MemoTree-Turn"] = strings.Join(turns, ", ")
	}
	return out
}

// ChangeSets returns the pending changes (Status) grouped by GroupChanges, from the
// journey's last JourneyTailBytes bytes and the working tree's modification times. An
// unreadable journey makes every change an outside edit.
func (r *Repo) ChangeSets(ctx context.Context, j Journal) ([]ChangeSet, error) {
	changes, err := r.Status(ctx)
	if err != nil {
		return nil, err
	}
	return r.group(changes, j), nil
}

// group sorts pending changes into change sets with the journey entries that name
// them.
func (r *Repo) group(changes []Change, j Journal) []ChangeSet {
	journey, _ := j.JourneyLatest(JourneyTailBytes, JourneyNames(changes))
	return GroupChanges(changes, journey, r.Stamp)
}

// Stamp returns the modification time of a working-tree file (a Stamp).
func (r *Repo) Stamp(p vpath.Path) (time.Time, bool) {
	fi, err := os.Lstat(filepath.Join(r.dir, filepath.FromSlash(string(p))))
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}
