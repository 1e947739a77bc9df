package vault

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestJourneyAppend(t *testing.T) {
	v, dir := openTemp(t)
	ctx := t.Context()
	at := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	want := []Entry{
		{Time: at, Actor: "agent", Op: "create_entity", Entities: []string{"people/Ada"}, Args: "entity_name: Ada\nmulti-line: yes", Outcome: "ok", Turn: "t1"},
		{Time: at.Add(time.Second), Actor: "mcp:claude", Op: "delete_entities", Outcome: "error: not found"},
	}
	for _, e := range want {
		if err := v.AppendJourney(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	got, warns, err := v.Journey()
	if err != nil || len(warns) > 0 {
		t.Fatalf("Journey: %v %v", warns, err)
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("journey (-want +got):\n%s", diff)
	}
	if err := v.AppendJourney(ctx, Entry{Op: "x"}); err == nil {
		t.Error("entry without actor accepted")
	}
	if _, err := os.Stat(filepath.Join(dir, "journey.yaml")); err != nil {
		t.Error(err)
	}
}

func TestWriteJournal(t *testing.T) {
	v, _ := openTemp(t)
	ctx := t.Context()
	o := WriteOptions{Actor: "agent", Op: "update_entity"}
	if _, err := v.Write(ctx, "n.md", []byte("1"), o); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Write(ctx, "n.md", []byte("2"), WriteOptions{Actor: "agent", IfHash: HashOf([]byte("0"))}); !errors.Is(err, ErrConflict) {
		t.Fatal(err)
	}
	if err := v.RenameWith(ctx, "n.md", "m.md", WriteOptions{Actor: "user"}); err != nil {
		t.Fatal(err)
	}
	if err := v.RemoveWith(ctx, "m.md", WriteOptions{Actor: "user"}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Write(ctx, "quiet.md", []byte("1"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	got, warns, err := v.Journey()
	if err != nil || len(warns) > 0 {
		t.Fatalf("Journey: %v %v", warns, err)
	}
	type row struct{ Actor, Op, Ents, From, Outcome string }
	var rows []row
	for _, e := range got {
		rows = append(rows, row{e.Actor, e.Op, strings.Join(e.Entities, ","), e.From, e.Outcome})
	}
	want := []row{
		{"agent", "update_entity", "n.md", "", "ok"},
		{"agent", "write", "n.md", "", "write n.md: changed since it was read: content hash is 6b86b273ff34, not 5feceb66ffc8"},
		{"user", "rename", "n.md,m.md", "n.md", "ok"},
		{"user", "remove", "m.md", "", "ok"},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("journey (-want +got):\n%s", diff)
	}
}

func TestParseJourneyTorn(t *testing.T) {
	whole := "- time: 2026-01-02T03:04:05Z\n  actor: user\n  op: write\n  outcome: ok\n"
	tests := []struct {
		name      string
		in        string
		wantOps   int
		wantWarns int
	}{
		{"empty", "", 0, 0},
		{"one", whole, 1, 0},
		{"two", whole + whole, 2, 0},
		{"torn in a value", whole + "- time: 2026-01-0", 1, 1},
		{"torn after a key", whole + "- time: 2026-01-02T03:04:05Z\n  actor: us", 1, 1},
		{"torn in a quote", whole + "- time: 2026-01-02T03:04:05Z\n  actor: \"us", 1, 1},
		{"torn then appended", whole + "- time: 2026-01-02T03:04:05Z\n  act\n" + whole, 2, 1},
		{"comment first", "# journey\n" + whole, 1, 0},
		{"not a list", "hello: world\n", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warns := ParseJourney([]byte(tt.in))
			if len(got) != tt.wantOps || len(warns) != tt.wantWarns {
				t.Errorf("got %d entries, warnings %q; want %d and %d", len(got), warns, tt.wantOps, tt.wantWarns)
			}
		})
	}
}

func TestAppendAfterTornTail(t *testing.T) {
	v, dir := openTemp(t)
	torn := "- time: 2026-01-02T03:04:05Z\n  actor: user\n  op: write\n  outcome: ok\n- time: 2026-01-02T03:04:06Z\n  actor: ag"
	if err := os.WriteFile(filepath.Join(dir, "journey.yaml"), []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := v.AppendJourney(t.Context(), Entry{Actor: "agent", Op: "read_manual"}); err != nil {
		t.Fatal(err)
	}
	got, warns, err := v.Journey()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Op != "read_manual" || len(warns) != 1 || !strings.Contains(warns[0], "line 5") {
		t.Errorf("got %+v, warnings %q", got, warns)
	}
}

func FuzzParseJourney(f *testing.F) {
	f.Add([]byte("- time: 2026-01-02T03:04:05Z\n  actor: user\n  op: write\n  outcome: ok\n- ti"))
	f.Add([]byte("- [\n-\n- {}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ParseJourney(b)
	})
}

// The writes of one turn carry its turn and session, in single writes and batches
// alike, so a reader can group them into one change set.
func TestJournalTurnAndSession(t *testing.T) {
	v, _ := openTemp(t)
	ctx := t.Context()
	o := WriteOptions{Actor: "agent@t-1", Op: "update_entity", Turn: "t-1", Session: "s-9"}
	if _, err := v.Write(ctx, "a.md", []byte("1"), o); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Apply(ctx, []Change{{Path: "b.md", Data: []byte("2")}, {Path: "c.md", Data: []byte("3")}}, o); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Write(ctx, "d.md", []byte("4"), WriteOptions{Actor: "user"}); err != nil {
		t.Fatal(err)
	}
	got, warns, err := v.Journey()
	if err != nil || len(warns) > 0 {
		t.Fatalf("Journey: %v %v", warns, err)
	}
	var rows []string
	for _, e := range got {
		rows = append(rows, strings.Join(e.Entities, ",")+" "+e.Turn+" "+e.Session)
	}
	want := []string{"a.md t-1 s-9", "b.md t-1 s-9", "c.md t-1 s-9", "d.md  "}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("journey (-want +got):\n%s", diff)
	}
}
