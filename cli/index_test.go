package cli

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memotree/memotree/internal/corpora"
)

// runCLI runs the CLI with args and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(t.Context(), Env{Stdout: &out, Stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

func TestIndexUsageErrors(t *testing.T) {
	tests := [][]string{
		{"index"},                              // no library
		{"index", "--library", "=x"},           // empty name
		{"index", "--bogus"},                   // unknown flag
		{"index", "--library", "a=.", "extra"}, // stray argument
		{"nope"},                               // unknown command
	}
	for _, args := range tests {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if code, _, stderr := runCLI(t, "index", "--library", "a="+filepath.Join(t.TempDir(), "missing")); code != 1 || !strings.Contains(stderr, "not a folder") {
		t.Errorf("missing folder: exit %d, stderr %q", code, stderr)
	}
}

func TestHelpListsSubcommands(t *testing.T) {
	code, out, _ := runCLI(t, "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, c := range []string{"call", "index", "mcp", "chat", "serve"} {
		if !strings.Contains(out, "  "+c+" ") {
			t.Errorf("--help does not list %s:\n%s", c, out)
		}
	}
}

// independentCount counts, with regular expressions and no code from the product,
// the notes and links of a vault: wikilinks and embeds anywhere outside fenced code
// and inline code, and Markdown links to local files; a link counts as resolved when
// some file's path ends with its target, case-insensitively.
type independent struct{ notes, links, unresolved int }

var (
	wikiRe  = regexp.MustCompile(`!?\[\[([^\[\]]+?)\]\]`)
	mdRe    = regexp.MustCompile(`!?\[[^\[\]]*\]\(([^()\s]+)\)`)
	inlineC = regexp.MustCompile("`[^`\n]+`")
	scheme  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

func countIndependently(t *testing.T, dir string) independent {
	t.Helper()
	var c independent
	names := map[string]bool{} // lowercased basenames and paths of every file, without .md
	var notes []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != dir {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		// Every trailing run of path segments names the file, as Obsidian resolves
		// "folder/Note" against ".../folder/Note.md".
		segs := strings.Split(strings.ToLower(strings.TrimSuffix(filepath.ToSlash(rel), ".md")), "/")
		for i := range segs {
			names[strings.Join(segs[i:], "/")] = true
		}
		if strings.HasSuffix(p, ".md") {
			notes = append(notes, p)
		}
		return nil
	})
	c.notes = len(notes)
	for _, p := range notes {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inFence := false
		for _, line := range strings.Split(string(b), "\n") {
			// A fence may sit inside a block quote or callout ("> ```").
			trim := strings.TrimLeft(strings.TrimSpace(line), "> ")
			if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
				inFence = !inFence
				continue
			}
			if inFence {
				continue
			}
			line = inlineC.ReplaceAllString(line, "")
			for _, m := range wikiRe.FindAllStringSubmatch(line, -1) {
				c.links++
				target := strings.ReplaceAll(m[1], `\|`, "|")
				target, _, _ = strings.Cut(target, "|")
				target, _, _ = strings.Cut(target, "#")
				target = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(target), ".md"))
				if target != "" && !names[target] {
					c.unresolved++
				}
			}
			for _, m := range mdRe.FindAllStringSubmatch(line, -1) {
				dest := strings.TrimSuffix(strings.TrimPrefix(m[1], "<"), ">") // [t](<a b.md>)
				if scheme.MatchString(dest) || strings.HasPrefix(dest, "#") {
					continue
				}
				c.links++
				target, _, _ := strings.Cut(dest, "#")
				if t, err := url.PathUnescape(target); err == nil {
					target = t
				}
				target = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(target, "./"), ".md"))
				if !names[target] {
					c.unresolved++
				}
			}
		}
	}
	return c
}

// TestIndexAgreesWithIndependentCountOnRealVaults checks `memotree index --stats` on
// the Obsidian Help vaults against a count made with regular expressions and no code of
// the product: notes, links and unresolved links must be equal. The counter had to learn
// two things the parser (like Obsidian) already knew, each once a difference this test
// reported: a code fence may sit inside a block quote or callout ("> ```md", whose links
// are code, in "Advanced formatting syntax"), and a Markdown link may wrap its URL in
// angle brackets ("[t](<https://…>)" is external, not a local file).
func TestIndexAgreesWithIndependentCountOnRealVaults(t *testing.T) {
	for _, name := range []string{"obsidian-help-en", "obsidian-help-zh"} {
		t.Run(name, func(t *testing.T) {
			dir := corpora.Dir(t, name)
			code, out, stderr := runCLI(t, "index", "--library", "v="+dir, "--stats")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got IndexStats
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("stats %q: %v", out, err)
			}
			want := countIndependently(t, dir)
			t.Logf("memotree: %+v", got)
			t.Logf("independent: %+v", want)
			if got.Notes != want.notes {
				t.Errorf("notes = %d, independent count %d", got.Notes, want.notes)
			}
			if got.Links != want.links {
				t.Errorf("links = %d, independent count %d", got.Links, want.links)
			}
			if got.Unresolved != want.unresolved {
				t.Errorf("unresolved = %d, independent count %d", got.Unresolved, want.unresolved)
			}
			if got.Resolved+got.Unresolved != got.Links {
				t.Errorf("resolved %d + unresolved %d != links %d", got.Resolved, got.Unresolved, got.Links)
			}
		})
	}
}
