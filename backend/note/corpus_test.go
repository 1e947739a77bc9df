package note

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/internal/corpora"
)

// TestCorpus parses every note of the real Obsidian Help vaults (English and Chinese)
// and checks the invariants that must hold on any real vault: no warnings on notes
// Obsidian reads without complaint, every span exact, every note name linked to
// exists, is an alias or is an attachment (a few in the Help vaults link to notes
// that do not exist).
func TestCorpus(t *testing.T) {
	for _, vault := range []string{"obsidian-help-en", "obsidian-help-zh"} {
		t.Run(vault, func(t *testing.T) { checkVault(t, corpora.Dir(t, vault)) })
	}
}

// checkVault parses every Markdown file under root.
func checkVault(t *testing.T, root string) {
	names := map[string]bool{}
	type parsed struct {
		path string
		n    *Note
	}
	var notes []parsed
	fast := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n := Parse(src)
		checkSpans(t, path, src, n)
		checkLean(t, src, n)
		if fm := findFrontMatter(src, 0); fm.ok {
			checkFastYAML(t, src[fm.yamlStart:fm.yamlEnd])
			if fastFrontMatter(src, fm.yamlStart, fm.yamlEnd) != nil {
				fast++
			}
		}
		names[strings.ToLower(strings.TrimSuffix(d.Name(), ".md"))] = true
		for _, a := range n.Aliases {
			names[strings.ToLower(a)] = true
		}
		notes = append(notes, parsed{path, n})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	links, unresolved := 0, 0
	for _, p := range notes {
		for _, w := range p.n.Warnings {
			t.Errorf("%s:%d: %s", p.path, w.Line, w.Message)
		}
		for _, l := range p.n.Links {
			if l.Kind == MarkdownLink || l.Target() == "" {
				continue
			}
			links++
			base := strings.ToLower(l.Target()[strings.LastIndex(l.Target(), "/")+1:])
			if !names[strings.TrimSuffix(base, ".md")] && !strings.Contains(base, ".") {
				unresolved++
			}
		}
	}
	t.Logf("%d notes (%d front matter blocks read by the fast path), %d wikilinks, %d to a missing note", len(notes), fast, links, unresolved)
	if links == 0 || unresolved*50 > links {
		t.Errorf("%d of %d wikilinks point at no note: the link parser is likely wrong", unresolved, links)
	}
}

// checkSpans checks that every link's span holds the link syntax.
func checkSpans(t *testing.T, path string, src []byte, n *Note) {
	t.Helper()
	for _, l := range n.Links {
		if l.Start < 0 {
			continue
		}
		lit := src[l.Start:l.End]
		ok := bytes.HasSuffix(lit, []byte("]]")) && (bytes.HasPrefix(lit, []byte("[[")) || bytes.HasPrefix(lit, []byte("![[")))
		switch l.Kind {
		case MarkdownLink:
			ok = bytes.HasPrefix(lit, []byte("[")) && bytes.HasSuffix(lit, []byte(")"))
		case MarkdownEmbed:
			ok = bytes.HasPrefix(lit, []byte("![")) && bytes.HasSuffix(lit, []byte(")"))
		}
		if !ok || int(l.Line) != lineOf(src, int(l.Start)) {
			t.Errorf("%s:%d: bad span %q for %+v", path, l.Line, lit, l)
		}
	}
}
