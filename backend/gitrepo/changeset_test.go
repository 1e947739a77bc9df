package gitrepo_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// summary names each set by id and lists its paths.
func summary(sets []gitrepo.ChangeSet) map[string][]string {
	out := map[string][]string{}
	for _, s := range sets {
		for _, c := range s.Changes {
			out[s.ID] = append(out[s.ID], string(c.Path))
		}
	}
	return out
}

func TestChangeSetsFromTheJourney(t *testing.T) {
	dir, r := newRepo(t)
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx := t.Context()
	// Two agent turns, the person in the app, an MCP client, and a batch.
	writes := []struct {
		path, actor string
	}{
		{"a.md", "agent@t-1"},
		{"people/New.md", "agent@t-1"},
		{"b.md", "agent@t-2"},
		{"people/Ada.md", "user"},
		{"mcp.md", "mcp:claude"},
	}
	for _, w := range writes {
		if _, err := v.Write(ctx, vpath.Path(w.path), []byte(w.path+" by "+w.actor+"\n"), vault.WriteOptions{Actor: w.actor}); err != nil {
			t.Fatal(err)
		}
	}
	if err := v.RemoveWith(ctx, "people/Charles.md", vault.WriteOptions{Actor: "agent@t-2"}); err != nil {
		t.Fatal(err)
	}
	// Edited outside: never journaled, and journaled by the app but changed later.
	write(t, dir, map[string]string{"outside.md": "typed in another editor\n", "attachments/x.png": "changed"})
	later := time.Now().Add(time.Minute)
	write(t, dir, map[string]string{"mcp.md": "then changed by hand\n"})
	if err := os.Chtimes(filepath.Join(dir, "mcp.md"), later, later); err != nil {
		t.Fatal(err)
	}
	// A note the watcher saw changing outside the app.
	// A minute later the watcher saw a.md change outside the app: it moves to the
	// outside edits.
	if err := v.AppendJourney(ctx, vault.Entry{Time: time.Now().Add(time.Minute), Actor: "external", Op: "edit", Entities: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	sets, err := r.ChangeSets(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"agent@t-1": {"people/New.md"},
		"agent@t-2": {"b.md", "people/Charles.md"},
		"user":      {"people/Ada.md"},
		"external":  {"a.md", "attachments/x.png", "mcp.md", "outside.md"},
		"journey":   {"journey.yaml"},
	}
	if d := cmp.Diff(want, summary(sets)); d != "" {
		t.Errorf("change sets (-want +got):\n%s", d)
	}
	var ids []string
	for _, s := range sets {
		ids = append(ids, s.ID)
	}
	// Newest first (t-2 removed a note last, the person wrote after t-1), then the
	// outside edits and the journey.
	if d := cmp.Diff([]string{"agent@t-2", "user", "agent@t-1", "external", "journey"}, ids); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
	if sets[0].Actor != "agent" || sets[0].Turn != "t-2" || sets[0].Latest.IsZero() {
		t.Errorf("set %+v: want actor agent, turn t-2 and a time", sets[0])
	}
	tr := gitrepo.Trailers(sets, []vpath.Path{"b.md", "people/New.md", "outside.md", "journey.yaml"})
	if d := cmp.Diff(map[string]string{"MemoTree-Actor": "agent, external", "MemoTree-Turn": "t-2, t-1"}, tr); d != "" {
		t.Errorf("trailers (-want +got):\n%s", d)
	}
}

func TestGroupChangesTurnField(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	changes := []gitrepo.Change{{Path: "n.md", State: gitrepo.Modified}, {Path: "gone.md", State: gitrepo.Deleted}}
	journey := []vault.Entry{
		{Time: at, Actor: "agent", Turn: "t-9", Op: "update_entity", Entities: []string{"n.md"}, Outcome: "ok"},
		{Time: at, Actor: "agent", Turn: "t-10", Op: "update_entity", Entities: []string{"n.md"}, Outcome: "conflict"},
		{Time: at, Actor: "script@run-1", Op: "delete", Entities: []string{"gone.md"}, Outcome: "ok"},
	}
	// The file was written long after: it still counts as t-9's when stamps are unknown.
	got := summary(gitrepo.GroupChanges(changes, journey, nil))
	if d := cmp.Diff(map[string][]string{"agent@t-9": {"n.md"}, "script@run-1": {"gone.md"}}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// An outside edit the watcher journaled a second after the turn's write, or a
	// minute after, is the person's, not the turn's: the watcher journals no echo of
	// another MemoTree process's write (vault.AppendExternal tells them apart), so an
	// external entry is never taken for one.
	for _, after := range []time.Duration{time.Second, time.Minute} {
		edit := append(slices.Clone(journey), vault.Entry{Time: at.Add(after), Actor: "external", Op: "edit", Entities: []string{"n"}, Outcome: "ok"})
		if got := summary(gitrepo.GroupChanges(changes, edit, nil)); got["external"] == nil {
			t.Errorf("an outside edit %v after the turn's write counts as the turn's: %v", after, got)
		}
	}
	stamp := func(vpath.Path) (time.Time, bool) { return at.Add(time.Hour), true }
	got = summary(gitrepo.GroupChanges(changes, journey, stamp))
	if d := cmp.Diff(map[string][]string{"external": {"n.md"}, "script@run-1": {"gone.md"}}, got); d != "" {
		t.Errorf("with a later mtime (-want +got):\n%s", d)
	}
}
