package catalog_test

import (
	stdcmp "cmp"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/internal/corpora"
)

// entCorpus is the real Obsidian vault the deep rename and merge are proven on;
// entCorpusZH, its Chinese twin (CJK names), is used for rename as well.
const (
	entCorpus   = "obsidian-help-en"
	entCorpusZH = "obsidian-help-zh"
)

// entEdge is one resolved link or relation as the test remembers it.
type entEdge struct {
	To, Subpath, Display string
	Kind                 int
	target               string // the target as written; compared only where said
}

// entCorpusHarness copies the corpus into a git repository and opens it.
func entCorpusHarness(t *testing.T, corpus string) *entHarness {
	t.Helper()
	src := corpora.Dir(t, corpus)
	parent := t.TempDir()
	dir := filepath.Join(parent, "vault")
	entCopyTree(t, src, dir)
	entGit(t, dir, "init", "-q")
	entWrite(t, filepath.Join(dir, ".git", "info", "exclude"), ".memotree/\njourney.yaml\n")
	entGit(t, dir, "add", "-A")
	entGit(t, dir, "commit", "-q", "-m", "corpus")
	return entOpen(t, parent, dir, workspace.Options{})
}

// entEdges returns every resolved edge of every note, by source, in source order.
func entEdges(g *graph.Graph) map[vpath.Path][]entEdge {
	out := map[vpath.Path][]entEdge{}
	for _, p := range g.Notes() {
		for _, e := range g.Outlinks(p) {
			x := entEdge{To: string(e.To), Kind: -1}
			if !e.Resolved {
				x.To = "(unresolved)"
			}
			if e.Link != nil {
				x.Subpath, x.Display, x.Kind, x.target = e.Link.Subpath(), e.Link.Display(), int(e.Link.Kind), e.Link.Target()
			}
			out[p] = append(out[p], x)
		}
	}
	return out
}

// entMostLinked returns the notes with the most distinct linking notes, most first.
func entMostLinked(g *graph.Graph) []vpath.Path {
	notes := g.Notes()
	count := map[vpath.Path]int{}
	for _, p := range notes {
		seen := map[vpath.Path]bool{}
		for _, e := range g.Backlinks(p) {
			if e.From != p && !seen[e.From] {
				seen[e.From] = true
				count[p]++
			}
		}
	}
	sort.SliceStable(notes, func(i, j int) bool {
		if count[notes[i]] != count[notes[j]] {
			return count[notes[i]] > count[notes[j]]
		}
		return notes[i] < notes[j]
	})
	return notes
}

// entLinkRE matches wikilinks, embeds and Markdown links in a line.
var entLinkRE = regexp.MustCompile(`!?\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)`)

// entCheckDiff asserts, from git diff, that only the files in want changed and that
// in every modified file but skip each changed line differs from the old one only
// inside links.
func entCheckDiff(t *testing.T, dir string, want []string, skip string) {
	t.Helper()
	entGit(t, dir, "add", "-A")
	names := strings.Split(strings.Trim(entGit(t, dir, "diff", "--cached", "--no-renames", "--name-only", "-z"), "\x00"), "\x00")
	slices.Sort(names)
	slices.Sort(want)
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("files changed (-want +got):\n%s", diff)
	}
	args := []string{"diff", "--cached", "-U0", "--no-color", "--no-renames", "--diff-filter=M", "--", "."}
	if skip != "" {
		args = append(args, ":(exclude,literal)"+skip)
	}
	out := entGit(t, dir, args...)
	var minus, plus []string
	flush := func() {
		if len(minus) != len(plus) {
			t.Errorf("a hunk changes the number of lines: -%q +%q", minus, plus)
		}
		for i := range min(len(minus), len(plus)) {
			a, b := entLinkRE.ReplaceAllString(minus[i], "LINK"), entLinkRE.ReplaceAllString(plus[i], "LINK")
			if a != b {
				t.Errorf("a line changed outside its links:\n-%s\n+%s", minus[i], plus[i])
			}
		}
		minus, plus = nil, nil
	}
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "@@"), strings.HasPrefix(line, "diff "):
			flush()
		case strings.HasPrefix(line, "---"), strings.HasPrefix(line, "+++"):
		case strings.HasPrefix(line, "-"):
			minus = append(minus, line[1:])
		case strings.HasPrefix(line, "+"):
			plus = append(plus, line[1:])
		}
	}
	flush()
}

func TestRenameEntityCorpus(t *testing.T) {
	for _, corpus := range []string{entCorpus, entCorpusZH} {
		t.Run(filepath.Base(corpus), func(t *testing.T) { entRenameCorpus(t, corpus, false) })
	}
	t.Run("move", func(t *testing.T) { entRenameCorpus(t, entCorpus, true) })
}

// entRenameCorpus renames (or moves to a new folder) the most linked note of a copy
// of corpus and checks every link, and the git diff.
func entRenameCorpus(t *testing.T, corpus string, move bool) {
	h := entCorpusHarness(t, corpus)
	g := h.graph()
	old := entMostLinked(g)[0]
	newP := vpath.Path(strings.TrimSuffix(string(old), old.Base()) + "Renamed hub.md")
	tool, args := "rename_entity", map[string]string{"old_name": old.Name(), "new_name": "Renamed hub"}
	if move {
		newP = vpath.Path("Moved/deeper/" + old.Base())
		tool, args = "move_entity", map[string]string{"entity_name": old.Name(), "folder": "Moved/deeper"}
	}
	before := entEdges(g)
	sources := map[string]bool{}
	for _, e := range g.Backlinks(old) {
		if e.From != old {
			sources[string(e.From)] = true
		}
	}
	raw, _ := json.Marshal(args)
	d := h.ok(tool, string(raw))
	if d["new_name"] != newP.Name() {
		t.Fatalf("new name %v, want %s", d["new_name"], newP.Name())
	}
	rewritten := map[string]bool{}
	for _, r := range d["rewritten"].([]any) {
		rewritten[r.(string)+".md"] = true
	}
	t.Logf("%s %s: %d linking notes, %d rewritten", tool, old, len(sources), len(rewritten))
	if !move {
		if diff := cmp.Diff(sources, rewritten); diff != "" {
			t.Errorf("rewritten notes (-linking +rewritten):\n%s", diff)
		}
	}
	after := entEdges(g)
	for from, edges := range before {
		at := from
		if from == old {
			at = newP
		}
		for i, e := range edges {
			if e.To == string(old) {
				e.To = string(newP)
			}
			if i >= len(after[at]) {
				t.Errorf("%s lost edges", at)
				break
			}
			got := after[at][i]
			e.target, got.target = "", ""
			if e.To != "(unresolved)" && got != e {
				t.Errorf("%s edge %d: got %+v, want %+v", at, i, got, e)
			}
		}
	}
	want := []string{string(old), string(newP)}
	for s := range rewritten {
		want = append(want, s)
	}
	entCheckDiff(t, h.dir, want, "")
	if got := h.read(string(newP)); !move && !strings.Contains(got, "  - "+baseOf(old)+"\n") {
		t.Errorf("the old name is not kept as an alias:\n%.300s", got)
	}
}

func TestMergeEntitiesCorpus(t *testing.T) {
	h := entCorpusHarness(t, entCorpus)
	g := h.graph()
	ranked := entMostLinked(g)
	target, source := ranked[0], ranked[1]
	before := entEdges(g)
	linking := map[string]bool{}
	for _, e := range g.Backlinks(source) {
		linking[string(e.From)] = true
	}
	args, _ := json.Marshal(map[string]any{"source_names": []string{source.Name()}, "target_name": target.Name()})
	d := h.ok("merge_entities", string(args))
	t.Logf("merged %s into %s: %d notes rewritten", source, target, len(d["rewritten"].([]any)))
	after := entEdges(g)
	for from, edges := range before {
		if from == source || from == target {
			continue
		}
		for i, e := range edges {
			if e.To == "(unresolved)" {
				continue
			}
			want, got := e, after[from][i]
			if e.To == string(source) {
				want.To = string(target)
				if e.Kind != -1 && want.Subpath == "" {
					want.Subpath, want.Display = baseOf(source), stdcmp.Or(e.Display, e.target)
				}
			}
			want.target, got.target = "", ""
			if got != want {
				t.Errorf("%s edge %d: got %+v, want %+v", from, i, got, want)
			}
		}
	}
	for _, e := range before[source] {
		if e.To != "(unresolved)" && e.To != string(target) && e.To != string(source) &&
			!slices.ContainsFunc(after[target], func(x entEdge) bool { return x.To == e.To }) {
			t.Errorf("the source's link to %s is lost in the target", e.To)
		}
	}
	var want []string
	for s := range d["rewritten"].([]any) {
		want = append(want, d["rewritten"].([]any)[s].(string)+".md")
	}
	for s := range linking {
		if s != string(source) && s != string(target) && !slices.Contains(want, s) {
			t.Errorf("%s linked to the merged notes but was not rewritten", s)
		}
	}
	entCheckDiff(t, h.dir, append(want, string(source), string(target)), string(target))
	if got := h.read(string(target)); !strings.Contains(got, "\n## "+baseOf(source)+"\n") {
		t.Errorf("no section for the source in the target")
	}
}

// baseOf returns a note's basename without .md.
func baseOf(p vpath.Path) string { return strings.TrimSuffix(p.Base(), ".md") }
