package catalog_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// testSearchTimeout bounds the content searches of these tests: they compare whole
// answers with an independent scan, which a search cut by the product's 10 s bound
// would fail on a loaded machine (the race detector slows RE2 tenfold).
const testSearchTimeout = 10 * time.Minute

// TestSearchOutOfTime: a content search that runs out of time answers what it has,
// says it stopped and what to do, and does not fail the call — nor says that nothing
// matches when it found nothing before it stopped.
func TestSearchOutOfTime(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a", "b", "c"} {
		if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte("harbour "+name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: dir}}, workspace.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg := tool.NewRegistry()
	if err := catalog.Register(reg, catalog.Deps{SearchTimeout: time.Nanosecond, Libraries: ws}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"search_in_contents", "search_anywhere"} {
		arg := map[string]string{"search_in_contents": "content_glob", "search_anywhere": "pattern_glob"}[name]
		args, _ := json.Marshal(map[string]string{arg: "/harb[aeiou]ur/"})
		res := kitCall(t, reg, name, string(args))
		if res.Status != tool.StatusPartial || strings.Contains(res.Message, "nothing matches") {
			t.Fatalf("%s out of time: %s %s %q, want a partial result with what was found", name, res.Status, res.ErrorCode, res.Message)
		}
		warned := false
		for _, w := range res.Warnings {
			warned = warned || strings.Contains(w, "stopped after 1ns") && strings.Contains(w, "narrow entity_glob")
		}
		if !warned {
			t.Errorf("%s out of time: warnings %q, want one saying the search stopped and what to do", name, res.Warnings)
		}
	}
}

// oneShot opens dir as `memotree call` does (a lazy workspace, a fresh registry)
// and returns the registry and a function that closes the workspace.
func oneShot(t *testing.T, dir string) (*tool.Registry, func()) {
	t.Helper()
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: dir}}, workspace.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := catalog.Register(reg, catalog.Deps{SearchTimeout: testSearchTimeout, Libraries: ws}); err != nil {
		t.Fatal(err)
	}
	return reg, func() { ws.Close() }
}

// scanNames is the independent answer, as grep or ripgrep gives it: the notes of dir
// whose text (front matter aside) re matches, read from disk one by one.
func scanNames(t *testing.T, dir string, re *regexp.Regexp) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != dir {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		body := string(data)
		if strings.HasPrefix(body, "---\n") {
			if end := strings.Index(body[4:], "\n---\n"); end >= 0 {
				body = body[4+end+5:]
			}
		}
		if re.MatchString(body) {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, strings.TrimSuffix(filepath.ToSlash(rel), ".md"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestRegexSearchThroughPersistedIndexSeesOutsideEdits runs regular expression
// searches as separate one-shot processes do, each reopening the persisted index
// (which a page consults note by note, search/pattern_ordered.go), and checks every
// answer against a plain scan of the files: before there is an index, after a note is edited
// in place from outside (appended to, as an editor or `echo >>` does, which leaves
// its folder's time alone), after a note is created and after one is deleted, all
// while nothing watches the vault.
func TestRegexSearchThroughPersistedIndexSeesOutsideEdits(t *testing.T) {
	dir := kitCorpus(t, "obsidian-help-en")
	patterns := []string{`/linked mentions/i`, `/quorble \w+ marker/`, `/Backlinks? (core )?plugin/`, `/zyxw[a-z]+ flange/i`}
	check := func(when string) {
		t.Helper()
		reg, done := oneShot(t, dir)
		defer done()
		for _, pat := range patterns {
			args, _ := json.Marshal(map[string]any{"content_glob": pat, "limit": 500})
			res := kitCall(t, reg, "search_in_contents", string(args))
			var got []string
			if res.ErrorCode != tool.CodeNoMatch {
				kitWant(t, res, tool.StatusSuccess)
				got = kitResultNames(t, res)
			}
			slices.Sort(got)
			expr := pat[1:strings.LastIndexByte(pat, '/')]
			if strings.HasSuffix(pat, "/i") {
				expr = "(?i)" + expr
			}
			want := scanNames(t, dir, regexp.MustCompile(expr))
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s: %s (-scan +search):\n%s", when, pat, d)
			}
		}
	}
	check("first search, no index yet")
	// A page walks the folders in path order and builds no index; a count does.
	reg, done := oneShot(t, dir)
	kitWant(t, kitCall(t, reg, "search_in_contents", `{"content_glob":"/linked mentions/i","summary_only":true}`), tool.StatusSuccess)
	done()
	if _, err := os.Stat(filepath.Join(dir, ".memotree/search/index.bin")); err != nil {
		t.Fatalf("no persisted index after the first search: %v", err)
	}
	check("reopened, nothing changed")

	// Outside edits: an append in place (the folder's time restored, so only the
	// note's own size and time tell), a new note, a deleted one.
	edited := filepath.Join(dir, "Plugins/Backlinks.md")
	folder, err := os.Stat(filepath.Dir(edited))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(edited, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\nA quorble brass marker and a ZYXWVU flange.\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(filepath.Dir(edited), time.Time{}, folder.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Quorble notes.md"), []byte("# Quorble\n\nThe quorble steel marker.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mentions := scanNames(t, dir, regexp.MustCompile(`(?i)linked mentions`))
	if len(mentions) < 2 {
		t.Fatalf("the corpus has too few notes mentioning linked mentions: %v", mentions)
	}
	gone := mentions[len(mentions)-1]
	if gone == "Plugins/Backlinks" {
		gone = mentions[0]
	}
	if err := os.Remove(filepath.Join(dir, gone+".md")); err != nil {
		t.Fatal(err)
	}
	check("reopened after outside edits")
	reg, done = oneShot(t, dir)
	got := kitResultNames(t, kitCall(t, reg, "search_in_contents", `{"content_glob":"/quorble \\w+ marker/"}`))
	done()
	if d := cmp.Diff([]string{"Plugins/Backlinks", "Quorble notes"}, got); d != "" {
		t.Errorf("the edited and the new note (-want +got):\n%s", d)
	}
}

// TestOneShotContentSearchNeedsNoScan: a content search in a lazily opened library
// (`memotree call`) lists the folder and reads the notes it searches, without
// scanning the library into its graph, whether the pattern goes through the search
// index (a literal) or reads every note (no trigram to look up); it finds the same
// notes as after a scan.
func TestOneShotContentSearchNeedsNoScan(t *testing.T) {
	dir := t.TempDir()
	vaulttest.Write(t, dir, entFixture)
	for _, pat := range []string{"Lovelace", "/e./"} {
		ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: dir}}, workspace.Options{Lazy: true})
		if err != nil {
			t.Fatal(err)
		}
		reg := tool.NewRegistry()
		if err := catalog.Register(reg, catalog.Deps{SearchTimeout: testSearchTimeout, Libraries: ws}); err != nil {
			t.Fatal(err)
		}
		args, _ := json.Marshal(map[string]any{"content_glob": pat, "limit": 50})
		before := kitResultNames(t, kitCall(t, reg, "search_in_contents", string(args)))
		l, _ := ws.Library("t")
		if l.Scanned() {
			t.Errorf("searching for %s scanned the whole library", pat)
		}
		if _, err := l.Graph(t.Context()); err != nil {
			t.Fatal(err)
		}
		after := kitResultNames(t, kitCall(t, reg, "search_in_contents", string(args)))
		if len(before) == 0 || !slices.Equal(before, after) {
			t.Errorf("%s: before the scan %v, after it %v", pat, before, after)
		}
		ws.Close()
	}
}

// TestOneShotNodeSearchNeedsNoScan: a full-text search_nodes in a lazily opened library
// (`memotree call`) answers from the search index without scanning the library into
// its graph, also within a folder (scope subtree); a relation search, a related scope
// and a subtree named by its note read the graph. Each answer equals the one after a
// scan.
func TestOneShotNodeSearchNeedsNoScan(t *testing.T) {
	dir := t.TempDir()
	vaulttest.Write(t, dir, entFixture)
	cases := []struct {
		args      map[string]any
		needsScan bool
	}{
		{map[string]any{"query": "lovelace"}, false},
		{map[string]any{"query": "ada", "scope": "subtree", "entity_name": "people"}, false},
		{map[string]any{"query": "lovelace", "search_type": "relation"}, true},
		{map[string]any{"query": "babbage", "scope": "related", "entity_name": "Engine"}, true},
		{map[string]any{"query": "ada", "scope": "subtree", "entity_name": "Engine"}, true},
	}
	for _, c := range cases {
		ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: dir}}, workspace.Options{Lazy: true})
		if err != nil {
			t.Fatal(err)
		}
		reg := tool.NewRegistry()
		if err := catalog.Register(reg, catalog.Deps{SearchTimeout: testSearchTimeout, Libraries: ws}); err != nil {
			t.Fatal(err)
		}
		args, _ := json.Marshal(c.args)
		before := kitCall(t, reg, "search_nodes", string(args))
		if before.Status != tool.StatusSuccess || len(kitResultNames(t, before)) == 0 {
			t.Errorf("search_nodes %s found nothing: %+v", args, before)
		}
		l, _ := ws.Library("t")
		if l.Scanned() != c.needsScan {
			t.Errorf("search_nodes %s: scanned the library %v, want %v", args, l.Scanned(), c.needsScan)
		}
		if _, err := l.Graph(t.Context()); err != nil {
			t.Fatal(err)
		}
		after := kitCall(t, reg, "search_nodes", string(args))
		if before.Status != after.Status || before.ErrorCode != after.ErrorCode || !slices.Equal(kitResultNames(t, before), kitResultNames(t, after)) {
			t.Errorf("search_nodes %s: before the scan %+v, after it %+v", args, before, after)
		}
		ws.Close()
	}
}
