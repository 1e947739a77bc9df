package vault

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestJourneyLatest(t *testing.T) {
	v, _ := openTemp(t)
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	entries := []Entry{
		{Time: at, Actor: "agent@t-1", Op: "create_entity", Entities: []string{"a.md", "b.md"}, Outcome: "ok"},
		{Time: at.Add(1 * time.Second), Actor: "user", Op: "write", Entities: []string{"a.md"}, Outcome: "ok"},
		{Time: at.Add(2 * time.Second), Actor: "agent@t-2", Op: "write", Entities: []string{"a.md"}, Outcome: "conflict"},
		{Time: at.Add(3 * time.Second), Actor: "external", Op: "edit", Entities: []string{"odd: name #1"}, Outcome: "ok"},
		{Time: at.Add(4 * time.Second), Actor: "mcp:x", Op: "write", Args: "with args\nover lines", Turn: "s-1", Entities: []string{"c.md"}, Outcome: "ok"},
		// The watcher's echo of mcp:x's write: the write is returned too.
		{Time: at.Add(5 * time.Second), Actor: "external", Op: "edit", Entities: []string{"c.md"}, Outcome: "ok"},
	}
	for _, e := range entries {
		if err := v.AppendJourney(t.Context(), e); err != nil {
			t.Fatal(err)
		}
	}
	// A hand-written entry in flow style is read too.
	if err := v.AppendJourneyEntries(t.Context(), []byte("- {time: 2026-11-22T10:00:05Z, actor: cli, op: write, entities: [d.md], outcome: ok}\n")); err != nil {
		t.Fatal(err)
	}
	got, err := v.JourneyLatest(1<<20, []string{"a.md", "b.md", "c.md", "d.md", "odd: name #1", "never.md"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range got {
		ids = append(ids, fmt.Sprintf("%s %v", e.Actor, e.Entities))
	}
	want := []string{"agent@t-1 [a.md b.md]", "user [a.md]", "external [odd: name #1]", "mcp:x [c.md]", "external [c.md]", "cli [d.md]"}
	if d := cmp.Diff(want, ids); d != "" {
		t.Errorf("JourneyLatest (-want +got):\n%s", d)
	}
	// agent@t-1's entry stands for b.md only: a.md's newest is the user's.
	if got[0].Time != at || got[1].Actor != "user" {
		t.Errorf("entries %+v", got)
	}
}

func BenchmarkJourneyLatest(b *testing.B) {
	v, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	var es []Entry
	for i := range 40000 {
		es = append(es, Entry{Time: time.Now(), Actor: "agent@t-12345678", Op: "update_entity", Entities: []string{fmt.Sprintf("people/Person %d.md", i)}, Outcome: "ok"})
	}
	bs, _ := encodeEntries(es)
	if err := v.appendFile(bs); err != nil {
		b.Fatal(err)
	}
	// Ten pending notes: five written lately, five never journaled (a whole scan).
	names := []string{"people/Person 39990.md", "people/Person 39000.md", "people/Person 38000.md", "people/Person 30000.md", "people/Person 20000.md",
		"x1.md", "x2.md", "x3.md", "x4.md", "x5.md"}
	b.Run("some-journaled", func(b *testing.B) {
		for b.Loop() {
			if _, err := v.JourneyLatest(4<<20, names); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Ten pending notes edited outside the app and never journaled: the usual status
	// of a vault edited in another program.
	b.Run("none-journaled", func(b *testing.B) {
		for b.Loop() {
			if _, err := v.JourneyLatest(4<<20, names[5:]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestJourneyLatestEscapedNames: names a YAML writer quotes or escapes are found
// however the journey spells them, and names absent from it give nothing.
func TestJourneyLatestEscapedNames(t *testing.T) {
	v, _ := openTemp(t)
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	odd := []string{"it's.md", `back\slash "q".md`, "中文.md", "tab\tname.md"}
	if err := v.AppendJourney(t.Context(), Entry{Time: at, Actor: "user", Op: "write", Entities: odd, Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	// Written by another program, escaped where it need not be.
	if err := v.AppendJourneyEntries(t.Context(), []byte("- time: 2026-11-22T10:00:01Z\n  actor: cli\n  op: write\n  entities:\n    - \"\\x61scaped.md\"\n  outcome: ok\n")); err != nil {
		t.Fatal(err)
	}
	got, err := v.JourneyLatest(1<<20, append([]string{"ascaped.md", "absent.md"}, odd...))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Actor != "user" || got[1].Actor != "cli" {
		t.Fatalf("JourneyLatest = %+v, want the user's entry and the cli's", got)
	}
	if got, err := v.JourneyLatest(1<<20, []string{"absent.md", "other.md"}); err != nil || got != nil {
		t.Fatalf("JourneyLatest of absent names = %+v, %v", got, err)
	}
}

// TestJourneyLatestTruncatedWhileMapped: a journey cut short by another program while
// JourneyLatest reads it mapped is read again instead of crashing the process.
func TestJourneyLatestTruncatedWhileMapped(t *testing.T) {
	v, dir := openTemp(t)
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var es []Entry
	for i := range 2000 {
		es = append(es, Entry{Time: at, Actor: "user", Op: "write", Entities: []string{fmt.Sprintf("n%d.md", i)}, Outcome: "ok"})
	}
	bs, _ := encodeEntries(es)
	if err := v.appendFile(bs); err != nil {
		t.Fatal(err)
	}
	keep := []byte("- time: 2026-11-22T10:00:01Z\n  actor: cli\n  op: write\n  entities:\n    - kept.md\n  outcome: ok\n")
	v.afterJourneyMapped = func() {
		if err := os.WriteFile(filepath.Join(dir, string(JourneyPath)), keep, 0o644); err != nil { // truncates in place
			t.Error(err)
		}
	}
	got, err := v.JourneyLatest(1<<20, []string{"n5.md", "kept.md"})
	if err != nil || len(got) != 1 || got[0].Actor != "cli" {
		t.Fatalf("JourneyLatest after the journey was cut short = %+v, %v; want the one entry left", got, err)
	}
}
