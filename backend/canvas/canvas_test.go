package canvas

import (
	"fmt"
	"github.com/memotree/memotree/backend/vault"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/internal/wait"
)

var fixture = map[string]string{
	"people/Ada Lovelace.md":    "---\nentity type: person\nsummary: English mathematician; first published an algorithm.\n---\n\n# Ada Lovelace\n\nWrote notes on the [[Engine]].\n\n## Early life\n\nBorn in 1815 in London.\n\n## Work\n\nThe notes.\n\n## Legacy\n\nA language is named after her.\n",
	"people/Charles Babbage.md": "---\nentity type: person\n---\n\n# Charles Babbage\n\nDesigned the [[Engine]] and worked with [[Ada Lovelace]].\nHe lived in London.\n\nSecond paragraph.\n",
	"Engine.md":                 "The Analytical Engine, a [[Charles Babbage]] design.\n",
	"projects/Loom.md":          "A loom.\n",
}

func TestLevels(t *testing.T) {
	c := New(openLib(t, writeVault(t, fixture)), nil)
	ctx := t.Context()
	r, err := c.Render(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- / [summary] 2 folders, 1 note (4 below)", "+ people/ 2 notes", "· Engine [title] 1 link, 2 backlinks", "Most linked: Engine (2)"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("default view lacks %q:\n%s", want, r.Text)
		}
	}
	if strings.Contains(r.Text, "· people/Ada Lovelace") {
		t.Errorf("a closed folder shows its notes:\n%s", r.Text)
	}

	ch, err := c.Expand(ctx, "", "people/", Summary, ExpandOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ch.Text, "- people/ [summary]") || !strings.Contains(ch.Text, "· people/Ada Lovelace [title] person") {
		t.Errorf("an open folder does not list its notes:\n%s", ch.Text)
	}
	if ch.Tokens <= r.Tokens {
		t.Errorf("opening a folder did not cost tokens: %d then %d", r.Tokens, ch.Tokens)
	}

	ch, _ = c.Expand(ctx, "", "people/Ada Lovelace", Summary, ExpandOptions{})
	if !strings.Contains(ch.Text, "summary: English mathematician; first published an algorithm.") {
		t.Errorf("summary level lacks the front matter summary:\n%s", ch.Text)
	}
	if !strings.Contains(ch.Text, "sections (expand \"people/Ada Lovelace#Heading\"): Ada Lovelace · Early life · Work · Legacy") {
		t.Errorf("summary level lacks the sections:\n%s", ch.Text)
	}
	ch, _ = c.Expand(ctx, "", "people/Charles Babbage", Summary, ExpandOptions{})
	if !strings.Contains(ch.Text, "summary: Designed the [[Engine]] and worked with [[Ada Lovelace]]. He lived in London.\n") {
		t.Errorf("a note without summary is not summarised by its first paragraph:\n%s", ch.Text)
	}
	ch, _ = c.Expand(ctx, "", "people/Charles Babbage", Full, ExpandOptions{})
	if !strings.Contains(ch.Text, "<note name=\"people/Charles Babbage\">\n---\nentity type: person\n---\n\n# Charles Babbage") || !strings.Contains(ch.Text, "Second paragraph.\n</note>") {
		t.Errorf("full level lacks the note:\n%s", ch.Text)
	}
	ch, _ = c.Expand(ctx, "", "people/Ada Lovelace#Early life", Full, ExpandOptions{})
	if !strings.Contains(ch.Text, "<section name=\"people/Ada Lovelace#Early life\">\n\nBorn in 1815 in London.\n</section>") {
		t.Errorf("a section at full:\n%s", ch.Text)
	}
	// A folder closed without recursive hides what the view holds below it (seed
	// 000's collapse); expanding a note below it opens the way to that note again.
	before := ch.Tokens
	ch, _ = c.Collapse(ctx, "", "people/", false)
	if !strings.Contains(ch.Text, "+ people/ 2 notes") || strings.Contains(ch.Text, "· people/Charles Babbage") || ch.Tokens >= before {
		t.Errorf("after closing the folder (%d tokens, %d before):\n%s", ch.Tokens, before, ch.Text)
	}
	ch, _ = c.Expand(ctx, "", "people/Charles Babbage", Full, ExpandOptions{})
	if !strings.Contains(ch.Text, "· people/Charles Babbage [full]") || strings.Contains(ch.Text, "\n    · people/Ada Lovelace [title]") {
		t.Errorf("a note expanded in the closed folder:\n%s", ch.Text)
	}
	sum := ch.HeaderTokens
	for _, n := range ch.Nodes {
		sum += n.Tokens
	}
	if sum != ch.Tokens || ch.HeaderTokens == 0 {
		t.Errorf("header %d and node costs add up to %d of %d tokens", ch.HeaderTokens, sum, ch.Tokens)
	}
}

func TestBudgetCollapsesLeastRecent(t *testing.T) {
	files := map[string]string{}
	for i := range 6 {
		files[fmt.Sprintf("n/Note %d.md", i)] = strings.Repeat(fmt.Sprintf("word%d sentence here. ", i), 60) + "\n"
	}
	budget := 0
	c := New(openLib(t, writeVault(t, files)), func() int { return budget })
	ctx := t.Context()
	base, _ := c.Render(ctx, "v")
	one, err := c.Expand(ctx, "v", "n/Note 0", Full, ExpandOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cost := one.Tokens - base.Tokens
	budget = base.Tokens + 4*cost + cost/2 // room for four notes at full
	if _, err := c.Pin(ctx, "v", "n/Note 0", true); err != nil {
		t.Fatal(err)
	}
	var last Change
	for i := 1; i <= 4; i++ {
		if last, err = c.Expand(ctx, "v", fmt.Sprintf("n/Note %d", i), Full, ExpandOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// Note 0 is pinned; Note 1 was expanded least recently, so it went when Note 4 came.
	if got := strings.Join(last.Collapsed, ","); got != "n/Note 1" {
		t.Errorf("collapsed %q, want n/Note 1", got)
	}
	if last.Tokens > budget {
		t.Errorf("%d tokens over the budget %d", last.Tokens, budget)
	}
	for i, want := range []bool{true, false, true, true, true} {
		if got := strings.Contains(last.Text, fmt.Sprintf("<note name=\"n/Note %d\">", i)); got != want {
			t.Errorf("Note %d at full: %v, want %v", i, got, want)
		}
	}
	budget = MinBudget
	_, err = c.Expand(ctx, "v", "n/Note 5", Full, ExpandOptions{})
	if err == nil || !strings.Contains(err.Error(), "over the canvas budget") {
		t.Errorf("a note larger than the budget: %v", err)
	}
}

func TestViewPersistsAndFollowsRenames(t *testing.T) {
	dir := writeVault(t, fixture)
	l := openLib(t, dir)
	ctx := t.Context()
	if _, err := New(l, nil).Expand(ctx, "", "people/Ada Lovelace#Work", Full, ExpandOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := New(l, nil).Expand(ctx, "", "people/Ada Lovelace", Summary, ExpandOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree/views/default.json")); err != nil {
		t.Fatal(err)
	}
	// Another process is another Canvas on another Library.
	l2 := openLib(t, dir)
	r, _ := New(l2, nil).Render(ctx, "default")
	if !strings.Contains(r.Text, "· people/Ada Lovelace [summary]") || !strings.Contains(r.Text, "§ people/Ada Lovelace#Work [full]") {
		t.Fatalf("the view did not survive:\n%s", r.Text)
	}

	ada, err := os.ReadFile(filepath.Join(dir, "people/Ada Lovelace.md"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l2.Apply(ctx, []vault.Change{{Path: "Ada.md", Data: ada, From: "people/Ada Lovelace.md"}, {Path: "people/Ada Lovelace.md", Delete: true}}, vault.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	c := New(l2, nil)
	if err := c.Renamed(ctx, "people/Ada Lovelace.md", "Ada.md"); err != nil {
		t.Fatal(err)
	}
	r, _ = c.Render(ctx, "")
	if !strings.Contains(r.Text, "· Ada [summary]") || !strings.Contains(r.Text, "§ Ada#Work [full]") || strings.Contains(r.Text, "Ada Lovelace [") {
		t.Errorf("the view did not follow the rename:\n%s", r.Text)
	}
	// A deleted note leaves the view at its next change.
	if _, err := l2.Apply(ctx, []vault.Change{{Path: "Ada.md", Delete: true}}, vault.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	ch, err := c.Expand(ctx, "", "Engine", Summary, ExpandOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ".memotree/views/default.json"))
	if strings.Contains(string(b), "Ada") || strings.Contains(ch.Text, "Ada [") {
		t.Errorf("a deleted note stayed in the view: %s\n%s", b, ch.Text)
	}
}

func TestConcurrentChangesAreNotLost(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("f%d/Note %d.md", i%4, i)] = "text\n"
	}
	dir := writeVault(t, files)
	// Two libraries on one folder stand for two processes.
	a, b := New(openLib(t, dir), nil), New(openLib(t, dir), nil)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := a
			if i%2 == 1 {
				c = b
			}
			if _, err := c.Expand(t.Context(), "", fmt.Sprintf("f%d/Note %d", i%4, i), Summary, ExpandOptions{}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	r, _ := a.Render(t.Context(), "")
	for i := range 40 {
		if !strings.Contains(r.Text, fmt.Sprintf("· f%d/Note %d [summary]", i%4, i)) {
			t.Errorf("Note %d lost:\n%s", i, r.Text)
		}
	}
}

func TestChildrenAndRelations(t *testing.T) {
	c := New(openLib(t, writeVault(t, fixture)), nil)
	ch, err := c.Expand(t.Context(), "", "people/", Summary, ExpandOptions{Children: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ch.Text, "· people/Charles Babbage [summary]") {
		t.Errorf("children not raised:\n%s", ch.Text)
	}
	ch, _ = c.Expand(t.Context(), "", "projects/Loom", Title, ExpandOptions{})
	ch, _ = c.Expand(t.Context(), "other", "Engine", Summary, ExpandOptions{Relations: true})
	if !strings.Contains(ch.Text, "· people/Charles Babbage [title]") || !strings.Contains(ch.Text, "· people/Ada Lovelace [title]") {
		t.Errorf("relations not shown:\n%s", ch.Text)
	}
	shown, _ := c.Shown(t.Context(), "other")
	if !shown["Engine.md"] || !shown["people/Ada Lovelace.md"] || shown["projects/Loom.md"] {
		t.Errorf("shown in view other: %v", shown)
	}
}

// TestReachOnAGeneratedVault checks the design goal on a generated vault with large
// flat folders: the default view fits 2,000 tokens, and every note appears after at
// most 3 expansions, which a sample of notes confirms by doing them.
func TestReachOnAGeneratedVault(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 2000
	}
	dir := genVault(t, n)
	c := New(openLib(t, dir), nil)
	ctx := t.Context()
	r, err := c.Render(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Tokens > 2000 {
		t.Errorf("default view of %d notes: %d tokens, want at most 2000", n, r.Tokens)
	}
	reach, err := c.Reach(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(reach) != n {
		t.Fatalf("reach covers %d notes of %d", len(reach), n)
	}
	worst := 0
	var paths []vpath.Path
	for p, k := range reach {
		worst = max(worst, k)
		paths = append(paths, p)
	}
	if worst > 3 {
		t.Errorf("a note is %d expansions away, want at most 3", worst)
	}
	for i, p := range paths {
		if i%(n/12) != 0 {
			continue
		}
		view := fmt.Sprintf("probe%d", i)
		steps, err := c.PathTo(ctx, view, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(steps) != reach[p] {
			t.Errorf("%s: path %v, reach %d", p, steps, reach[p])
		}
		var ch Change
		for _, id := range steps {
			if ch, err = c.Expand(ctx, view, id, Summary, ExpandOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if len(steps) == 0 {
			ch.Rendering, _ = c.Render(ctx, view)
		}
		if !strings.Contains(ch.Text, "· "+p.Name()+" [") {
			t.Errorf("%s not shown after expanding %v", p, steps)
		}
	}
}

func TestFirstParagraphAndSection(t *testing.T) {
	tests := []struct{ in, want string }{
		{"---\na: 1\n---\n# T\n\nFirst line\nsecond line\n\nnext", "First line second line"},
		{"```\ncode\n```\n\npara", "code"},
		{"", ""},
		{"# only a heading\n", ""},
		{strings.Repeat("long ", 100), strings.TrimSpace(strings.Repeat("long ", 48)) + "…"},
	}
	for _, tt := range tests {
		if got := FirstParagraph([]byte(tt.in)); got != tt.want {
			t.Errorf("FirstParagraph(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	src := []byte("# A\n\none\n\n## B\n\ntwo\n\n# C\n\nthree\n")
	if got, ok := Section(src, "a"); !ok || got != "\none\n\n## B\n\ntwo\n\n" {
		t.Errorf("Section A = %q, %v", got, ok)
	}
	if _, ok := Section(src, "D"); ok {
		t.Error("a missing heading was found")
	}
}

func TestFollowsOutsideMoves(t *testing.T) {
	dir := writeVault(t, fixture)
	bus := event.NewBus()
	l, err := library.Open(t.Context(), "test", dir, library.Options{Watch: true, Bus: bus, Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c := New(l, nil)
	stop := c.Follow(bus)
	defer stop()
	if _, err := c.Expand(t.Context(), "", "people/Charles Babbage", Summary, ExpandOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "archive"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A move by another program: the watcher sees one note leave and one arrive.
	if err := os.Rename(filepath.Join(dir, "people/Charles Babbage.md"), filepath.Join(dir, "archive/Charles Babbage.md")); err != nil {
		t.Fatal(err)
	}
	wait.Until(t, "the view to follow the move", func() error {
		r, err := c.Render(t.Context(), "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Text, "· archive/Charles Babbage [summary]") {
			return fmt.Errorf("the view:\n%s", r.Text)
		}
		return nil
	})
}

// TestRenderCacheFollowsChanges: a rendering is reused while nothing changed (every
// model call renders the view), and made again after an expansion or a note change.
func TestRenderCacheFollowsChanges(t *testing.T) {
	dir := writeVault(t, fixture)
	l := openLib(t, dir)
	c := New(l, nil)
	ctx := t.Context()
	render := func() Rendering {
		t.Helper()
		r, err := c.Render(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := render()
	again := render()
	if again.Text != first.Text || again.Tokens != first.Tokens {
		t.Fatalf("two renderings of an unchanged view differ:\n%s\n---\n%s", first.Text, again.Text)
	}
	again.Nodes[0].Tokens = -1 // a caller changing its copy must not change the cache
	if render().Nodes[0].Tokens == -1 {
		t.Fatal("the cached rendering was handed out, not a copy")
	}
	if _, err := c.Expand(ctx, "", "people/", Summary, ExpandOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := render(); !strings.Contains(r.Text, "- people/ [summary]") {
		t.Fatalf("after an expansion the old rendering came back:\n%s", r.Text)
	}
	if _, err := l.Write(ctx, "people/Grace Hopper.md", []byte("# Grace Hopper\n"), vault.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := render(); !strings.Contains(r.Text, "people/Grace Hopper") {
		t.Fatalf("after a new note the old rendering came back:\n%s", r.Text)
	}
}
