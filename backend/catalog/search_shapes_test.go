package catalog_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/bench/vaultgen"
)

// patternShapes are the kinds of pattern the bench times against ripgrep (bench/run.sh),
// each with the expression ripgrep is given for the same lines.
var patternShapes = []struct {
	name, pattern, rg string
	rgFlags           []string
	none              bool // matches nothing in the flow vault
}{
	{"rare literal", `/Unwritten Of/`, `Unwritten Of`, nil, false},
	{"common word", `/question/`, `question`, nil, false},
	{"alternation", `/foo|bar/`, `foo|bar`, nil, false},
	{"class with word boundaries", `/\bqu[a-z]*(ion|ness)\b/`, `\bqu[a-z]*(ion|ness)\b`, nil, false},
	{"case-insensitive glob", `*QUIET*harbour*`, `quiet.*harbour`, []string{"-i"}, false},
	{"no literal", `/[0-9]{4}-[0-9]{2}/`, `[0-9]{4}-[0-9]{2}`, nil, false},
	{"no literal, no match", `/\d{3}-\d{4}-\d{4}/`, `\d{3}-\d{4}-\d{4}`, nil, true},
	{"digits", `/\d+/`, `[0-9]+`, nil, false},
	{"capitals", `/[A-Z]{5}/`, `[A-Z]{5}`, nil, true},
	{"capitalised words", `/\b[A-Z][a-z]{3} [A-Z]/`, `(?-u:\b)[A-Z][a-z]{3} [A-Z]`, nil, false},
	{"case-insensitive word start", `/\bq\w+/i`, `(?-u:\b)q[0-9A-Za-z_]+`, []string{"-i"}, false},
	{"long line", `/.{200}/`, `.{200}`, nil, false},
	{"empty line", `/^$/`, `^$`, nil, false},
	{"everything", `/\w/`, `[0-9A-Za-z_]`, nil, false},
	{"nothing", `/\d{2}Q[xz]{3}\b/`, `[0-9]{2}Q[xz]{3}(?-u:\b)`, nil, true},
	{"case-insensitive regexp", `/HARBOUR\s+the/i`, `HARBOUR\s+the`, []string{"-i"}, false},
	{"Chinese", `/知识图谱|笔记/`, `知识图谱|笔记`, nil, false},
}

// TestPatternShapesMatchRipgrep runs every pattern shape through search_in_contents
// and search_anywhere on generated vaults of the flow and Chinese shapes, as one-shot
// processes do (through the persisted index), pages through every result, and checks
// the notes found against ripgrep's file set: search_anywhere against ripgrep over the
// files, search_in_contents against ripgrep over the notes without their front matter.
// Without ripgrep installed, a plain scan with Go's regexp stands in for it.
func TestPatternShapesMatchRipgrep(t *testing.T) {
	rg, _ := exec.LookPath("rg")
	if rg == "" {
		t.Log("ripgrep (rg) is not installed: the file sets are checked against a scan with Go's regexp")
	}
	for _, shape := range []vaultgen.Shape{vaultgen.ShapeFlow, vaultgen.ShapeChinese} {
		dir := t.TempDir()
		if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: 160, Seed: 3, Shape: shape, MinWords: 100, MaxWords: 600}); err != nil {
			t.Fatal(err)
		}
		bodies := bodiesOf(t, dir)
		reg, done := oneShot(t, dir)
		for _, ps := range patternShapes {
			t.Run(fmt.Sprintf("%s/%s", shape, ps.name), func(t *testing.T) {
				full := fileSet(t, rg, dir, ps.rg, ps.rgFlags)
				body := fileSet(t, rg, bodies, ps.rg, ps.rgFlags)
				if shape == vaultgen.ShapeFlow && !ps.none && ps.name != "Chinese" && len(full) == 0 {
					t.Fatalf("the pattern matches nothing in the %s vault: the test would prove nothing", shape)
				}
				if d := cmp.Diff(body, pageAll(t, reg, "search_in_contents", "content_glob", ps.pattern, false)); d != "" {
					t.Errorf("search_in_contents %s (-rg over bodies +search):\n%s", ps.pattern, d)
				}
				if d := cmp.Diff(full, pageAll(t, reg, "search_anywhere", "pattern_glob", ps.pattern, true)); d != "" {
					t.Errorf("search_anywhere %s (-rg over files +search):\n%s", ps.pattern, d)
				}
				checkSummary(t, reg, ps.pattern, len(body))
			})
		}
		done()
	}
}

// checkSummary checks that search_in_contents with summary_only counts want notes,
// exactly, and says the number in its message.
func checkSummary(t *testing.T, reg *tool.Registry, pattern string, want int) {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"content_glob": pattern, "summary_only": true})
	res := kitCall(t, reg, "search_in_contents", string(args))
	if want == 0 {
		if res.ErrorCode != tool.CodeNoMatch {
			t.Errorf("summary of %s: want no match, got %s", pattern, res.YAML())
		}
		return
	}
	kitWant(t, res, tool.StatusSuccess)
	var data struct {
		Page tool.PageInfo `json:"page"`
	}
	if err := json.Unmarshal(mustJSON(t, res.Data), &data); err != nil {
		t.Fatal(err)
	}
	if data.Page.Total != want || data.Page.AtLeast || !data.Page.SummaryOnly {
		t.Errorf("summary of %s: page %+v, want a total of exactly %d (rg -l | wc -l over the bodies)", pattern, data.Page, want)
	}
	if msg := fmt.Sprintf("%d notes with matches", want); !strings.HasPrefix(res.Message, msg) {
		t.Errorf("summary of %s: message %q, want it to start with %q", pattern, res.Message, msg)
	}
}

// pageAll calls a content search page by page, 30 notes a page, and returns the notes
// found in text (matches of the name alone left out), checking that each page's
// total is exact or a lower bound of what the pages hold.
func pageAll(t *testing.T, reg *tool.Registry, name, arg, pattern string, anywhere bool) []string {
	t.Helper()
	var out []string
	offset := 0
	for range 1000 {
		args, _ := json.Marshal(map[string]any{arg: pattern, "limit": 30, "offset": offset, "max_results": 500})
		res := kitCall(t, reg, name, string(args))
		if res.ErrorCode == tool.CodeNoMatch {
			break
		}
		kitWant(t, res, tool.StatusSuccess)
		var data struct {
			Results []struct {
				FilePath string `json:"file_path"`
				Matches  []struct {
					MatchedIn string `json:"matched_in"`
				} `json:"matches"`
			} `json:"results"`
			Page tool.PageInfo `json:"page"`
		}
		if err := json.Unmarshal(mustJSON(t, res.Data), &data); err != nil {
			t.Fatal(err)
		}
		for _, r := range data.Results {
			inText := !anywhere
			for _, m := range r.Matches {
				inText = inText || m.MatchedIn != "name"
			}
			if inText {
				out = append(out, strings.TrimSuffix(r.FilePath, ".md"))
			}
		}
		if seen := offset + len(data.Results); data.Page.Total < seen || !data.Page.AtLeast && data.Page.NextOffset > 0 && data.Page.Total <= seen {
			t.Fatalf("%s offset %d: page %+v after %d notes", pattern, offset, data.Page, seen)
		}
		if data.Page.NextOffset == 0 {
			break
		}
		if data.Page.NextOffset <= offset {
			t.Fatalf("%s: next offset %d does not advance from %d", pattern, data.Page.NextOffset, offset)
		}
		offset = data.Page.NextOffset
	}
	slices.Sort(out)
	return out
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fileSet lists the notes under dir that hold a match of expr, by ripgrep (rg -l)
// when it is installed, else by Go's regexp line by line.
func fileSet(t *testing.T, rg, dir, expr string, flags []string) []string {
	t.Helper()
	var out []string
	if rg != "" {
		args := append([]string{"-l", "--no-messages", "--glob", "*.md"}, flags...)
		cmd := exec.Command(rg, append(args, "--", expr, ".")...)
		cmd.Dir = dir
		b, err := cmd.Output()
		if e, ok := err.(*exec.ExitError); err != nil && !(ok && e.ExitCode() == 1) {
			t.Fatalf("rg %s: %v", expr, err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" {
				out = append(out, strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(l, "./")), ".md"))
			}
		}
		slices.Sort(out)
		return out
	}
	prefix := "(?m)"
	if slices.Contains(flags, "-i") {
		prefix = "(?im)"
	}
	re := regexp.MustCompile(prefix + strings.ReplaceAll(expr, ".*", "[^\n]*"))
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil && re.Match(data) {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, strings.TrimSuffix(filepath.ToSlash(rel), ".md"))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// bodiesOf copies the notes of dir without their front matter into a new folder.
func bodiesOf(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	fm := regexp.MustCompile(`(?s)\A---\n.*?\n---\n`)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		dst := filepath.Join(out, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, fm.ReplaceAll(data, nil), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// corpusPatterns are pattern shapes with matches in the Obsidian Help corpora, with
// the expression ripgrep is given for the same lines.
var corpusPatterns = []struct {
	name, pattern, rg string
	rgFlags           []string
}{
	{"literal", `/Obsidian/`, `Obsidian`, nil},
	{"glob", `*link*`, `link`, []string{"-i"}},
	{"alternation", `/note|file/`, `note|file`, nil},
	{"word boundary", `/\bplug[a-z]*\b/i`, `(?-u:\b)plug[a-z]*(?-u:\b)`, []string{"-i"}},
	{"class", `/[A-Z][a-z]+ [A-Z][a-z]+/`, `[A-Z][a-z]+ [A-Z][a-z]+`, nil},
	{"no literal", `/[0-9]{2,}/`, `[0-9]{2,}`, nil},
	{"Chinese literal", `/链接/`, `链接`, nil},
	{"Chinese alternation", `/笔记|插件/`, `笔记|插件`, nil},
}

// TestSummaryCountsCorpora checks summary_only counts on the real vaults against
// ripgrep's count of the notes whose text (front matter aside) matches, through the
// persisted index as a one-shot process searches.
func TestSummaryCountsCorpora(t *testing.T) {
	rg, _ := exec.LookPath("rg")
	for _, name := range []string{"obsidian-help-en", "obsidian-help-zh"} {
		t.Run(name, func(t *testing.T) {
			dir := kitCorpus(t, name)
			bodies := bodiesOf(t, dir)
			reg, done := oneShot(t, dir)
			defer done()
			matched := 0
			for _, ps := range corpusPatterns {
				want := fileSet(t, rg, bodies, ps.rg, ps.rgFlags)
				if len(want) > 0 {
					matched++
				}
				checkSummary(t, reg, ps.pattern, len(want))
			}
			if matched < len(corpusPatterns)/2 {
				t.Errorf("only %d of %d patterns match in %s: the test would prove little", matched, len(corpusPatterns), name)
			}
		})
	}
}
