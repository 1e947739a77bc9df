package catalog_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/bench/vaultgen"
)

// countPatterns are the kinds of pattern whose summary_only count must be exact,
// each with the Go regular expression a plain scan runs over a note's text for it.
// names, when set, is an entity_glob, and nameScan the expression the plain scan
// runs over the note's name (or the name's last part, as a glob without "/" is
// matched) to choose the notes it reads. None of the patterns can match across a
// line break, so the scan over the whole text and the search's lines agree.
var countPatterns = []struct {
	name, pattern, scan string
	names, nameScan     string
}{
	{name: "literal", pattern: `/harbour/`, scan: `harbour`},
	{name: "common literal", pattern: `/the/`, scan: `the`},
	{name: "alternation", pattern: `/question|silver/`, scan: `question|silver`},
	{name: "literal, Chinese", pattern: `/知识/`, scan: `知识`},
	{name: "literal, invented word", pattern: `/dramor/`, scan: `dramor`},
	{name: "alternation, Chinese", pattern: `/园林|医学/`, scan: `园林|医学`},
	{name: "alternation of scripts", pattern: `/的|бы|τερ|の/`, scan: `的|бы|τερ|の`},
	{name: "word boundary", pattern: `/\bqu[a-z]*(ion|ness)\b/`, scan: `\bqu[a-z]*(ion|ness)\b`},
	{name: "class", pattern: `/[A-Z][a-z]+ [A-Z][a-z]+/`, scan: `[A-Z][a-z]+ [A-Z][a-z]+`},
	{name: "no literal", pattern: `/[0-9]{4}-[0-9]{2}/`, scan: `[0-9]{4}-[0-9]{2}`},
	{name: "no literal, most notes", pattern: `/\w{3}/`, scan: `\w{3}`},
	{name: "no literal, no match", pattern: `/\d{2}Q[xz]{3}\b/`, scan: `\d{2}Q[xz]{3}\b`},
	{name: "case-insensitive glob", pattern: `*HARBOUR*`, scan: `(?i)harbour`},
	{name: "case-insensitive word boundary", pattern: `/\bTHE\b/i`, scan: `(?i)\bthe\b`},
	{name: "case-insensitive alternation", pattern: `/QUESTION|Silver/i`, scan: `(?i)question|silver`},
	{name: "case-insensitive class", pattern: `/QUIET[a-z]*/i`, scan: `(?i)quiet[a-z]*`},
	{name: "case-insensitive no literal", pattern: `/[a-z]{12,}/i`, scan: `(?i)[a-z]{12,}`},
	{name: "case-insensitive invented words", pattern: `/DRAMOR|Samisa/i`, scan: `(?i)dramor|samisa`},
	{name: "case-insensitive scripts", pattern: `/БЫТ|ΤΕΡΜΟΡ|SCHÄKA/i`, scan: `(?i)быт|τερμορ|schäka`},
	{name: "literal in some notes", pattern: `/the/`, scan: `the`, names: `/^[a-m]/i`, nameScan: `(?i)^[a-m]`},
	{name: "no literal in some notes", pattern: `/\w{3}/`, scan: `\w{3}`, names: `/^[a-m]/i`, nameScan: `(?i)^[a-m]`},
}

// TestSummaryCountsEqualPlainScan checks that search_in_contents with summary_only
// counts exactly the notes a plain scan finds: every file the vault holds that is a
// note (vpath's IsNote and Ignored, as the search lists them), its front matter
// aside, searched with Go's regexp. It runs every pattern of countPatterns over
// generated vaults of several shapes, with notes the filtering must leave out or keep
// (under .obsidian and .trash, not Markdown, an upper-case .MD, a match in the front
// matter alone), three ways: a one-shot process building the search index, another
// reopening the persisted index, and a loaded library. Each shape has a pattern that
// matches more notes than a page holds, so a count that stopped with its first page
// fails.
func TestSummaryCountsEqualPlainScan(t *testing.T) {
	shapes := []vaultgen.Shape{vaultgen.ShapeFlow, vaultgen.ShapeCRLF, vaultgen.ShapeChinese, vaultgen.ShapeNames, vaultgen.ShapeMixed, vaultgen.ShapeCode}
	for _, shape := range shapes {
		t.Run(string(shape), func(t *testing.T) {
			dir := t.TempDir()
			if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: 200, Seed: 7, Shape: shape, MinWords: 80, MaxWords: 500}); err != nil {
				t.Fatal(err)
			}
			writeFilteredNotes(t, dir)
			checkCountsAllWays(t, dir)
		})
	}
}

// TestSummaryCountsEqualPlainScanCorpora is TestSummaryCountsEqualPlainScan over the
// two real vaults in ../shared/corpora; it says so and skips when they are absent.
func TestSummaryCountsEqualPlainScanCorpora(t *testing.T) {
	for _, name := range []string{"obsidian-help-en", "obsidian-help-zh"} {
		t.Run(name, func(t *testing.T) {
			checkCountsAllWays(t, kitCorpus(t, name))
		})
	}
}

// checkCountsAllWays compares every countPatterns count in the vault at dir with a
// plain scan, from a one-shot process that builds the index, one that reopens it,
// and a loaded library.
func checkCountsAllWays(t *testing.T, dir string) {
	t.Helper()
	want := make([]int, len(countPatterns))
	most, counts := 0, make([]string, len(countPatterns))
	for i, cp := range countPatterns {
		want[i] = len(plainScan(t, dir, cp.scan, cp.nameScan))
		most = max(most, want[i])
		counts[i] = fmt.Sprintf("%s %d", cp.name, want[i])
	}
	t.Logf("notes a plain scan finds: %s", strings.Join(counts, ", "))
	if most <= 2*tool.DefaultLimit { // a count that stopped with a default page
		t.Fatalf("no pattern matches more than %d notes in %s (at most %d): a count that stopped early would pass", 2*tool.DefaultLimit, dir, most)
	}
	ways := []struct {
		name string
		open func() (*tool.Registry, func())
	}{
		{"one-shot, building the index", func() (*tool.Registry, func()) { return oneShot(t, dir) }},
		{"one-shot, reopening the index", func() (*tool.Registry, func()) { return oneShot(t, dir) }},
		{"loaded", func() (*tool.Registry, func()) { return kitOpen(t, dir), func() {} }},
	}
	for _, w := range ways {
		reg, done := w.open()
		for i, cp := range countPatterns {
			got, res := summaryCount(t, reg, cp.pattern, cp.names)
			if got != want[i] {
				t.Errorf("%s: %s %s (entity_glob %q): summary_only counts %d notes, a plain scan finds %d (%q)", w.name, cp.name, cp.pattern, cp.names, got, want[i], res.Message)
			}
		}
		done()
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree/search/index.bin")); err != nil {
		t.Errorf("no persisted index after the one-shot searches, so none was reopened: %v", err)
	}
}

// summaryCount asks search_in_contents for a summary of pattern (in the notes whose
// names match names, when set) and returns the count, checking that it is exact
// (not "at least") and that the message says the same number: 0 for no match.
func summaryCount(t *testing.T, reg *tool.Registry, pattern, names string) (int, tool.Result) {
	t.Helper()
	in := map[string]any{"content_glob": pattern, "summary_only": true}
	if names != "" {
		in["entity_glob"] = names
	}
	args, _ := json.Marshal(in)
	res := kitCall(t, reg, "search_in_contents", string(args))
	if res.ErrorCode == tool.CodeNoMatch {
		return 0, res
	}
	kitWant(t, res, tool.StatusSuccess)
	var data struct {
		Page tool.PageInfo `json:"page"`
	}
	if err := json.Unmarshal(mustJSON(t, res.Data), &data); err != nil {
		t.Fatal(err)
	}
	if data.Page.AtLeast || !data.Page.SummaryOnly {
		t.Errorf("summary of %s: page %+v, want an exact count", pattern, data.Page)
	}
	if msg := fmt.Sprintf("%d notes with matches", data.Page.Total); !strings.HasPrefix(res.Message, msg) {
		t.Errorf("summary of %s: message %q, want it to start with %q", pattern, res.Message, msg)
	}
	return data.Page.Total, res
}

// plainScan returns the notes of dir whose text, front matter aside, expr matches,
// by reading every file: a note is a regular file whose path vpath calls a note and
// not ignored. nameExpr, when set, keeps only the notes whose name or the name's
// last part it matches.
func plainScan(t *testing.T, dir, expr, nameExpr string) []string {
	t.Helper()
	re := regexp.MustCompile(expr)
	var names *regexp.Regexp
	if nameExpr != "" {
		names = regexp.MustCompile(nameExpr)
	}
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		vp := vpath.Path(filepath.ToSlash(rel))
		switch {
		case d.IsDir() && p != dir && vp.Ignored():
			return filepath.SkipDir
		case !d.Type().IsRegular() || !vp.IsNote():
			return nil
		}
		name := vp.Name()
		if names != nil && !names.MatchString(name) && !names.MatchString(name[strings.LastIndexByte(name, '/')+1:]) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if re.Match(withoutFrontMatter(data)) {
			out = append(out, name)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("scan %s: %v", dir, err)
	}
	return out
}

// withoutFrontMatter returns a note's text after its front matter: a first line
// "---" (after an optional byte order mark) up to a line "---" or "..." (trailing
// blanks and a carriage return allowed). Without a closing line there is no front
// matter and the whole note is text.
func withoutFrontMatter(data []byte) []byte {
	rest := bytes.TrimPrefix(data, []byte("\ufeff"))
	if !bytes.HasPrefix(rest, []byte("---\n")) && !bytes.HasPrefix(rest, []byte("---\r\n")) {
		return data
	}
	lines := bytes.SplitAfter(rest, []byte("\n"))
	at := len(data) - len(rest) + len(lines[0])
	for _, l := range lines[1:] {
		at += len(l)
		fence := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(string(l), "\n"), "\r"), " \t")
		if fence == "---" || fence == "..." {
			return data[at:]
		}
	}
	return data
}

// filterText matches most of countPatterns.
const filterText = "The harbour question, Silver Quietness 2024-06 and 12345; schäka бытщи τερμορ 的 の extraordinarily.\n"

// writeFilteredNotes adds to the vault at dir files that the count must leave out
// (under ignored folders, not notes, a match in the front matter alone) and notes it
// must keep (an upper-case extension, a byte order mark and CRLF front matter, front
// matter never closed, a dot folder the vault does not ignore).
func writeFilteredNotes(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		".obsidian/workspace notes.md":   filterText,
		".trash/deleted note.md":         filterText,
		"attachments/plain text.txt":     filterText,
		"attachments/page.markdown":      filterText,
		"Filtering/front only.md":        "---\ntitle: " + filterText + "---\n\nnothing to see\n",
		"Filtering/front only dots.md":   "---\ntitle: " + filterText + "...  \n\n-\n",
		"Filtering/LOUD.MD":              filterText,
		"Filtering/crlf.md":              "\ufeff---\r\ntitle: " + strings.TrimSuffix(filterText, "\n") + "\r\n---\r\n\r\n" + strings.ReplaceAll(filterText, "\n", "\r\n"),
		"Filtering/never closed.md":      "---\ntitle: x\n" + filterText,
		".drafts/in a dot folder.md":     filterText,
		"Filtering/empty body.md":        "---\ntitle: " + filterText + "---\n",
		"Filtering/fence only at end.md": "---\ntitle: " + filterText + "---",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
