package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
)

// TestDescribeChange checks the title and one-line summary of each kind of change.
func TestDescribeChange(t *testing.T) {
	ada := "---\ntitle: Ada\ntags: [history]\nrelations:\n  - relation type: knows\n    relation to: \"[[Charles]]\"\nstatus: draft\n---\n\n# Ada\n\nborn in 1815\n"
	journey := strings.Repeat("- time: 2026-01-01T00:00:00Z\n  actor: user\n  op: write\n  outcome: ok\n", 5000) // over maxSummaryBytes
	many := "---\nrelations:\n"
	for _, r := range []string{"A", "B", "C", "D", "E"} {
		many += "  - relation type: cites\n    relation to: \"[[" + r + "]]\"\n"
	}
	many += "---\nbody\n"
	for _, tc := range []struct {
		name           string
		c              gitrepo.Change
		sd             gitrepo.Sides
		title, summary string
	}{
		{"edited", gitrepo.Change{Path: "Ada.md", State: gitrepo.Modified},
			sides(ada, strings.NewReplacer("tags: [history]", "tags: [math]", "status: draft", "status: done", "born in 1815\n", "born in 1815\nin London\n").Replace(ada)),
			"Ada", "body +1 -0 lines; tags added math, removed history; properties changed: status"},
		{"title and relations", gitrepo.Change{Path: "Ada.md", State: gitrepo.Modified},
			sides(ada, strings.NewReplacer("title: Ada", "title: Ada Lovelace", "[[Charles]]", "[[Charles Babbage]]").Replace(ada)),
			"Ada Lovelace", `title "Ada" → "Ada Lovelace"; relations added knows → Charles Babbage, removed knows → Charles`},
		{"many relations", gitrepo.Change{Path: "m.md", State: gitrepo.Untracked}, gitrepo.Sides{New: []byte(many), OnDisk: true},
			"m", `new note "m", 14 lines, 5 relations`},
		{"relations added, more than three", gitrepo.Change{Path: "m.md", State: gitrepo.Modified}, sides("---\n---\nbody\n", many),
			"m", "relations added cites → A, cites → B, cites → C and 2 more"},
		{"moved unchanged", gitrepo.Change{Path: "b/Ada.md", From: "a/Ada.md", State: gitrepo.Renamed}, sides(ada, ada),
			"Ada", "moved from a/Ada.md; content unchanged"},
		{"front matter reformatted", gitrepo.Change{Path: "Ada.md", State: gitrepo.Modified},
			sides(ada, strings.Replace(ada, "tags: [history]", "tags:\n  - history", 1)),
			"Ada", "front matter rewritten with the same values, +2 -1 lines"},
		{"only date modified", gitrepo.Change{Path: "n.md", State: gitrepo.Modified},
			sides("---\ndate modified: 2026-01-01\n---\nx\n", "---\ndate modified: 2026-01-02\n---\nx\n"), "n", "properties changed: date modified"},
		{"date modified beside others", gitrepo.Change{Path: "n.md", State: gitrepo.Modified},
			sides("---\ndate modified: 2026-01-01\n---\nx\n", "---\ndate modified: 2026-01-02\n---\ny\n"), "n", "body +1 -1 lines"},
		{"deleted", gitrepo.Change{Path: "Ada.md", State: gitrepo.Deleted}, gitrepo.Sides{Old: []byte(ada), InHead: true},
			"Ada", `deleted note "Ada" (12 lines)`},
		{"journey appended", gitrepo.Change{Path: "journey.yaml", State: gitrepo.Modified}, sides(journey, journey+"- time: x\n  op: y\n"),
			"journey.yaml", "+2 -0 lines, appended"},
		{"large rewrite", gitrepo.Change{Path: "journey.yaml", State: gitrepo.Modified}, sides(journey, "short\n"+journey),
			"journey.yaml", "changed, 345000 → 345006 bytes (too large to count the lines here; git_diff does)"},
		{"binary", gitrepo.Change{Path: "x.png", State: gitrepo.Modified}, sides("\x00ab", "\x00abc"), "x.png", "binary file changed, 3 → 4 bytes"},
		{"text file", gitrepo.Change{Path: ".obsidian/app.json", State: gitrepo.Modified}, sides("{\n}\n", "{\n \"a\": 1\n}\n"), "app.json", "+1 -0 lines"},
		{"too large", gitrepo.Change{Path: "big.md", State: gitrepo.Modified}, gitrepo.Sides{InHead: true, OnDisk: true, TooLarge: true},
			"big", "too large to compare (over 2 MB)"},
	} {
		title, summary := describeChange(tc.c, tc.sd)
		if d := cmp.Diff([]string{tc.title, tc.summary}, []string{title, summary}); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

func sides(old, cur string) gitrepo.Sides {
	return gitrepo.Sides{Old: []byte(old), New: []byte(cur), InHead: true, OnDisk: true}
}

// TestRelationDelta: repeated relations count, and the order is added first.
func TestRelationDelta(t *testing.T) {
	r := func(typ, to string) relationChange { return relationChange{Type: typ, Target: to} }
	got := relationDelta([]relationChange{r("a", "X"), r("a", "X"), r("b", "Y")}, []relationChange{r("a", "X"), r("c", "Z")})
	want := []relationChange{{ChangeType: "Added", Type: "c", Target: "Z"}, {ChangeType: "Deleted", Type: "a", Target: "X"}, {ChangeType: "Deleted", Type: "b", Target: "Y"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
