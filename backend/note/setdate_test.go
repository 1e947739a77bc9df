package note

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/internal/corpora"
)

// setDateNow is the instant the SetDateLine tests write, with nanoseconds so that a
// layout with fractions shows them.
var setDateNow = time.Date(2026, 11, 25, 23, 30, 45, 123456789, time.FixedZone("X", 3600))

// slowSetDate is what a tool write did before SetDateLine: SetProperties with the
// value DateValue picks; ok is false when SetProperties refuses src.
func slowSetDate(src []byte, key string, now time.Time) ([]byte, bool) {
	out, err := SetProperties(src, []Property{{Key: key, Value: DateValue(src, key, now)}}, nil)
	return out, err == nil
}

// checkSetDate fails unless SetDateLine gives what SetProperties gives, wherever it
// answers; it reports whether it answered.
func checkSetDate(t *testing.T, src []byte) bool {
	t.Helper()
	got, ok := SetDateLine(src, "date modified", setDateNow)
	if !ok {
		return false
	}
	want, wok := slowSetDate(src, "date modified", setDateNow)
	if !wok || !bytes.Equal(got, want) {
		t.Fatalf("SetDateLine differs from SetProperties on %q:\n got %q\nwant %q (ok %v)", src, got, want, wok)
	}
	return true
}

// setDateSeeds are front matter shapes around a date line: the fast path's own, and
// each one it must leave to SetProperties.
var setDateSeeds = []string{
	"---\ntitle: A\ndate modified: 2026-01-02T03:04:05\ntags:\n  - x\n---\nbody\n",
	"---\ndate modified: 2026-01-02T03:04:05\n---\n",
	"\ufeff---\r\ndate modified: 2026-01-02 03:04\r\nx: 1\r\n---\r\nbody",
	"---\ndate modified: 2026-01-02T03:04:05Z\n---\n",
	"---\ndate modified: 2026-01-02T03:04:05+01:00\nx: y\n---\n",
	"---\ndate modified: 2026-01-02T03:04:05.000\n---\n",
	"---\ndate modified: January 2, 2026\n---\n",
	"---\ndate modified: 02.01.2026\n---\n",
	"---\ndate modified: 2026-01-02 # a comment\n---\n",
	"---\ndate modified: 2026-01-02 \n---\n",
	"---\ndate modified:  2026-01-02\n---\n",
	"---\ndate modified: \"2026-01-02\"\n---\n",
	"---\ndate modified: '2026-01-02'\n---\n",
	"---\ndate modified: 2026-01-02\n  continued\n---\n",
	"---\ndate modified: 2026-01-02\n# note\n  # indented\nx: 1\n---\n",
	"---\ndate modified: 2026-01-02\n\nx: 1\n---\n",
	"---\ndate modified: yesterday\n---\n",
	"---\ndate modified:\n---\n",
	"---\ndate modified: 2026-01-02\ndate modified: 2026-01-03\n---\n",
	"---\ndate modified: 2026-01-02\nn:\n  a: 1\n  a: 2\n---\n",
	"---\n\"date modified\": 2026-01-02\n---\n",
	"---\ndate modified : 2026-01-02\n---\n",
	"---\nn:\n  date modified: 2026-01-02\n---\n",
	"---\n{date modified: 2026-01-02}\n---\n",
	"---\ndate modified: &a 2026-01-02\nb: *a\n---\n",
	"---\ndate modified: !!str 2026-01-02\n---\n",
	"---\ndate modified: 2026-01-02\nno close\n",
	"+++\n\"date modified\" = 2026-01-02\n+++\n",
	"---\ndate modified: 2026-01-02\n---\n\xff",
	"---\ncreated: 2026-01-02T03:04\ndate modified: 2026-13-02\n---\n",
	"---\ndate modified: 2026-01-02\n...\nbody",
}

func FuzzSetDateLine(f *testing.F) {
	for _, s := range setDateSeeds {
		f.Add([]byte(s))
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkSetDate(t, src) })
}

// TestSetDateLineTakesPlainDates makes sure the fast path is taken where it should be
// (the notes MemoTree writes), not only that it agrees when taken.
func TestSetDateLineTakesPlainDates(t *testing.T) {
	for _, s := range setDateSeeds[:8] {
		if !checkSetDate(t, []byte(s)) {
			t.Errorf("SetDateLine left %q to SetProperties", s)
		}
	}
	for _, s := range setDateSeeds[8:] {
		if _, ok := SetDateLine([]byte(s), "date modified", setDateNow); ok && !strings.Contains(s, "\n\nx: 1") && !strings.Contains(s, "...") {
			t.Errorf("SetDateLine took %q, which it must leave to SetProperties", s)
		}
	}
}

// TestSetDateLineCorpus gives every note of the Obsidian Help vaults a date line in
// each place of its front matter (first, last, and after each top-level key) and
// checks SetDateLine against SetProperties on each.
func TestSetDateLineCorpus(t *testing.T) {
	taken := 0
	for _, vault := range []string{"obsidian-help-en", "obsidian-help-zh"} {
		root := corpora.Dir(t, vault)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, v := range withDateLines(src) {
				if checkSetDate(t, v) {
					taken++
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if taken == 0 {
		t.Fatal("the fast path was never taken on the corpora")
	}
	t.Logf("%d rewrites on the fast path", taken)
}

// withDateLines returns src with a "date modified" line put at each line start of its
// front matter, or with a front matter holding one when it has none.
func withDateLines(src []byte) [][]byte {
	const line = "date modified: 2025-05-06T07:08:09\n"
	fm := findFrontMatter(src, 0)
	if !fm.ok {
		return [][]byte{append([]byte("---\n"+line+"---\n"), src...)}
	}
	var out [][]byte
	for _, s := range append(lineStarts(src, fm.yamlStart, fm.yamlEnd), fm.yamlEnd) {
		v := make([]byte, 0, len(src)+len(line))
		v = append(append(append(v, src[:s]...), line...), src[s:]...)
		out = append(out, v)
	}
	return out
}

// TestSetDateLineEveryLayout writes a date in each layout a note may use, at several
// instants (every month, both sides of UTC, midnight), and compares SetDateLine with
// SetProperties, which marshals the line with YAML.
func TestSetDateLineEveryLayout(t *testing.T) {
	for _, layout := range dateLayouts {
		for month := time.January; month <= time.December; month++ {
			for _, zone := range []*time.Location{time.UTC, time.FixedZone("E", 5*3600+1800), time.FixedZone("W", -8*3600)} {
				old := time.Date(2024, month, 9, 0, 0, 0, 0, zone).Format(layout)
				now := time.Date(2026, month, 28, 23, 59, 59, 999_000_000, zone)
				for _, nl := range []string{"\n", "\r\n"} {
					src := []byte("---" + nl + "title: T" + nl + "date modified: " + old + nl + "tags: [a]" + nl + "---" + nl + "body")
					got, ok := SetDateLine(src, "date modified", now)
					if !ok {
						t.Fatalf("layout %q: %q left to SetProperties", layout, src)
					}
					want, wok := slowSetDate(src, "date modified", now)
					if !wok || !bytes.Equal(got, want) {
						t.Fatalf("layout %q:\n got %q\nwant %q", layout, got, want)
					}
				}
			}
		}
	}
}
