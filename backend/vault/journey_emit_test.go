package vault

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// journeyStrings are values for every string field of an entry: ordinary ones that
// formatEntries writes itself and hostile ones it must leave to the encoder.
var journeyStrings = []string{
	"agent", "user", "mcp:claude", "external", "add_entities", "create_relations", "ok",
	"bench/Entity 00042.md", "people/Ada Lovelace.md", "v1.2 (draft).md", "error: not found",
	"yes", "No", "on", "null", "~", "123", "1e5", "2026-11-22", "a #b", "#x", "a: b",
	"'q'", `"q"`, " lead", "trail ", "two\nlines", "東京.md", "café", "[x]", "- a", "",
	strings.Repeat("long ", 30),
}

// encoderEntries is what the YAML encoder writes for entries.
func encoderEntries(t testing.TB, entries []Entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(entries); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFormatEntriesMatchesEncoder checks that whenever formatEntries writes entries
// itself, its bytes are the encoder's and ParseJourney reads them back unchanged.
func TestFormatEntriesMatchesEncoder(t *testing.T) {
	times := []time.Time{
		time.Date(2026, 11, 22, 20, 9, 3, 0, time.UTC),
		time.Date(2026, 11, 22, 20, 9, 3, 120_000_000, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.FixedZone("", 5*3600+1800)),
		time.Date(1999, 12, 31, 23, 59, 59, 999_000_000, time.FixedZone("", -8*3600)),
	}
	written := 0
	for i, s := range journeyStrings {
		o := journeyStrings[(i*5+2)%len(journeyStrings)]
		for j, at := range times {
			entries := []Entry{
				{Time: at, Actor: s, Op: o, Entities: []string{s, o}, Outcome: "ok"},
				{Time: at, Actor: "agent", Op: s, Outcome: o},
				{Time: at, Actor: o, Op: "write", Entities: []string{"a.md"}, Outcome: s},
			}[:1+j%3]
			got, ok := formatEntries(entries)
			if !ok {
				continue
			}
			written++
			if diff := cmp.Diff(string(encoderEntries(t, entries)), string(got)); diff != "" {
				t.Fatalf("formatEntries(%+v) differs from the encoder (-want +got):\n%s", entries, diff)
			}
			back, warns := ParseJourney(got)
			if len(warns) > 0 {
				t.Fatalf("ParseJourney: %v", warns)
			}
			if diff := cmp.Diff(entries, back, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
				t.Fatalf("parsed back differently (-want +got):\n%s", diff)
			}
		}
	}
	if written == 0 {
		t.Fatal("formatEntries never wrote: the test compares nothing")
	}
	if _, ok := formatEntries([]Entry{{Time: times[0], Actor: "agent", Op: "x", Args: "a", Outcome: "ok"}}); ok {
		t.Error("an entry with args was formatted by hand")
	}
}

// FuzzFormatEntries checks the same for any strings.
func FuzzFormatEntries(f *testing.F) {
	for _, s := range journeyStrings {
		f.Add(s, "ok", int64(1764000000123))
	}
	f.Fuzz(func(t *testing.T, s, outcome string, ms int64) {
		entries := []Entry{{Time: time.UnixMilli(ms).UTC(), Actor: s, Op: s, Entities: []string{s}, Outcome: outcome}}
		got, ok := formatEntries(entries)
		if !ok {
			return
		}
		if want := encoderEntries(t, entries); string(want) != string(got) {
			t.Fatalf("formatEntries = %q, encoder %q", got, want)
		}
	})
}
