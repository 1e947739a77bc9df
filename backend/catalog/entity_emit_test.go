package catalog

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/note"
)

// emitStrings are values for every string field of a new entity: ordinary ones that
// emitEntity writes itself, and hostile ones it must leave to the YAML encoder.
var emitStrings = []string{
	"", "person", "Ada Lovelace", "bench/Entity 00042", "v1.2 (draft)", "a-b_c.d/e",
	"yes", "No", "ON", "off", "y", "N", "true", "False", "null", "Null", "~",
	"123", "1e5", "0x1F", ".inf", ".nan", "2026-11-22", "12:30", "-", "- a", "? a",
	"a: b", "a:b", "a #b", "#tag", "a'b", `a"b`, "'quoted'", `"dq"`, " lead", "trail ",
	"two\nlines", "tab\there", "[x]", "{x}", "a, b", "*ref", "&anchor", "!tag", "%x",
	"@at", "`tick", "|", ">", "東京", "café", "Ünïcödé", "a\u00a0b", "\x7f",
	strings.Repeat("long ", 30), "e", "E5", "nan", "inf", "NaN",
}

// TestEmitEntityMatchesSetProperties checks that whenever emitEntity writes a note
// itself, its bytes are exactly those of note.SetProperties, and that the note parses
// back to the values given.
func TestEmitEntityMatchesSetProperties(t *testing.T) {
	stamps := []time.Time{
		time.Date(2026, 11, 22, 20, 9, 3, 0, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("", 5*3600+1800)),
		time.Date(1999, 12, 31, 23, 59, 59, 0, time.FixedZone("", -8*3600)),
	}
	bodies := []string{"", "\nhello\n", "\none sentence. With: colon # hash\n", "\n東京\n", "---\nx: y\n---\n", "\r\nwin\r\n"}
	emitted := 0
	for i, s := range emitStrings {
		other := emitStrings[(i*7+3)%len(emitStrings)]
		var lists [][]string
		for _, l := range [][]string{nil, {s}, {s, other}, {"Ada", s}} {
			var c []string
			for _, v := range l {
				if v != "" {
					c = append(c, v)
				}
			}
			lists = append(lists, c)
		}
		for j, body := range bodies {
			stamp := stamps[(i+j)%len(stamps)]
			for k, list := range lists {
				typ, summary := s, other
				if k%2 == 1 {
					typ, summary = other, s
				}
				got, ok := emitEntity(typ, list, stamp, lists[(k+1)%len(lists)], summary, body)
				if !ok {
					continue
				}
				emitted++
				want := setPropertiesEntity(t, typ, list, stamp, lists[(k+1)%len(lists)], summary, body)
				if diff := cmp.Diff(string(want), string(got)); diff != "" {
					t.Fatalf("emitEntity(%q, %q, %q, %q) differs from SetProperties (-want +got):\n%s", typ, list, summary, body, diff)
				}
				checkParsed(t, got, typ, list, summary)
			}
		}
	}
	if emitted == 0 {
		t.Fatal("emitEntity never wrote a note: the test compares nothing")
	}
}

// setPropertiesEntity builds the note as buildEntity did with SetProperties only.
func setPropertiesEntity(t *testing.T, typ string, aliases []string, stamp time.Time, tags []string, summary, body string) []byte {
	t.Helper()
	b, err := note.SetProperties([]byte(body), entityProps(typ, aliases, stamp, nil, tags, summary), nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkParsed parses b and compares its entity type, aliases and summary with what
// was written.
func checkParsed(t *testing.T, b []byte, typ string, aliases []string, summary string) {
	t.Helper()
	n := note.Parse(b)
	if len(n.Warnings) > 0 {
		t.Fatalf("%q: warnings %v", b, n.Warnings)
	}
	got := map[string]any{"entity type": n.Properties["entity type"], "summary": n.Properties["summary"], "aliases": n.Aliases}
	want := map[string]any{"entity type": nilIfEmpty(typ), "summary": nilIfEmpty(summary), "aliases": aliases}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%q parses back differently (-want +got):\n%s", b, diff)
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// FuzzEmitEntity checks the same equality for any string.
func FuzzEmitEntity(f *testing.F) {
	for _, s := range emitStrings {
		f.Add(s, "\nbody\n")
	}
	stamp := time.Date(2026, 11, 22, 20, 9, 3, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s, body string) {
		got, ok := emitEntity(s, []string{s}, stamp, []string{s}, s, body)
		if !ok {
			return
		}
		want := setPropertiesEntity(t, s, []string{s}, stamp, []string{s}, s, body)
		if string(want) != string(got) {
			t.Fatalf("emitEntity(%q, body %q) = %q, SetProperties %q", s, body, got, want)
		}
	})
}
