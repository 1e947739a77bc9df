package demo

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// dangling are the links the demo vault leaves unresolved on purpose: notes that are
// still to be written, listed in "Open Questions".
var dangling = map[string]bool{"Colossus": true, "Konrad Zuse": true, "毕昇": true}

func TestCopyToReproducesVault(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vault")
	if err := CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	n := 0
	err := fs.WalkDir(FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		want, err := fs.ReadFile(FS(), name)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs after CopyTo", name)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 30 {
		t.Errorf("only %d files copied", n)
	}
	// A second copy into the same, now non-empty, folder must fail and change nothing.
	if err := CopyTo(dir); err == nil {
		t.Error("CopyTo into a non-empty folder succeeded")
	}
}

func TestCopyToEmptyDirAndNoOverwrite(t *testing.T) {
	if err := CopyTo(t.TempDir()); err != nil {
		t.Fatalf("empty existing folder: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.md"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CopyTo(dir); err == nil {
		t.Fatal("CopyTo wrote into a non-empty folder")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "mine.md")); string(b) != "keep" {
		t.Error("an existing file was changed")
	}
}

type relation struct {
	Type string `yaml:"relation type"`
	To   string `yaml:"relation to"`
}

type frontMatter struct {
	EntityType   string     `yaml:"entity type"`
	Aliases      []string   `yaml:"aliases"`
	DateCreated  string     `yaml:"date created"`
	DateModified string     `yaml:"date modified"`
	Relations    []relation `yaml:"relations"`
	Tags         []string   `yaml:"tags"`
	Summary      string     `yaml:"summary"`
}

var (
	linkRe    = regexp.MustCompile(`!?\[\[([^\]]*)\]\]`)
	codeRe    = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")
	headingRe = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
)

type note struct {
	fm       frontMatter
	body     string
	headings map[string]bool
}

// loadNotes parses every note of the embedded vault, keyed by path without ".md".
func loadNotes(t *testing.T) map[string]*note {
	t.Helper()
	notes := map[string]*note{}
	err := fs.WalkDir(FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !strings.HasSuffix(name, ".md") {
			t.Errorf("%s: not a Markdown note", name)
			return nil
		}
		b, err := fs.ReadFile(FS(), name)
		if err != nil {
			return err
		}
		text := string(b)
		rest, ok := strings.CutPrefix(text, "---\n")
		end := strings.Index(rest, "\n---\n")
		if !ok || end < 0 {
			t.Errorf("%s: no front matter", name)
			return nil
		}
		n := &note{body: rest[end+5:], headings: map[string]bool{}}
		if err := yaml.Unmarshal([]byte(rest[:end+1]), &n.fm); err != nil {
			t.Errorf("%s: front matter: %v", name, err)
		}
		if n.fm.EntityType == "" || n.fm.Summary == "" || n.fm.DateCreated == "" || len(n.fm.Tags) == 0 {
			t.Errorf("%s: front matter lacks entity type, summary, date or tags", name)
		}
		for _, m := range headingRe.FindAllStringSubmatch(codeRe.ReplaceAllString(n.body, ""), -1) {
			n.headings[m[1]] = true
		}
		notes[strings.TrimSuffix(name, ".md")] = n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return notes
}

func TestNotesAndLinks(t *testing.T) {
	notes := loadNotes(t)
	if len(notes) < 30 {
		t.Errorf("%d notes, want about 30", len(notes))
	}
	for _, need := range []string{"meta", "memory", "Welcome"} {
		if notes[need] == nil {
			t.Errorf("no %s.md at the vault root", need)
		}
	}
	byName := map[string]*note{}
	for p, n := range notes {
		byName[p] = n
		base := path.Base(p)
		if byName[base] != nil && base != p {
			t.Errorf("basename %q is not unique", base)
		}
		byName[base] = n
	}
	missing := map[string]bool{}
	resolve := func(from, link string) {
		target, _, _ := strings.Cut(link, "|")
		target = strings.TrimSuffix(target, `\`)
		target, heading, _ := strings.Cut(target, "#")
		var n *note
		if target == "" {
			n = notes[from]
		} else {
			n = byName[target]
		}
		if n == nil {
			if !dangling[target] {
				t.Errorf("%s: link [[%s]] does not resolve", from, link)
			}
			missing[target] = true
			return
		}
		if heading != "" && !n.headings[heading] {
			t.Errorf("%s: link [[%s]]: no heading %q", from, link, heading)
		}
	}
	forms := map[string]bool{}
	for p, n := range notes {
		for _, r := range n.fm.Relations {
			m := linkRe.FindStringSubmatch(r.To)
			if r.Type == "" || m == nil || m[0] != r.To {
				t.Errorf("%s: relation %+v is not {type, \"[[link]]\"}", p, r)
				continue
			}
			resolve(p, m[1])
		}
		for _, m := range linkRe.FindAllStringSubmatch(codeRe.ReplaceAllString(n.body, ""), -1) {
			resolve(p, m[1])
			switch {
			case strings.HasPrefix(m[0], "!"):
				forms["embed"] = true
			case strings.Contains(m[1], `\|`):
				forms["table"] = true
			case strings.HasPrefix(m[1], "#"):
				forms["self heading"] = true
			case strings.Contains(m[1], "|"):
				forms["display"] = true
			case strings.Contains(m[1], "#"):
				forms["heading"] = true
			default:
				forms["plain"] = true
			}
		}
		if strings.Contains(n.body, "[[not a link]]") {
			forms["code"] = true
		}
	}
	for _, f := range []string{"plain", "display", "heading", "self heading", "embed", "table", "code"} {
		if !forms[f] {
			t.Errorf("no link of form %q in the vault", f)
		}
	}
	var got []string
	for m := range missing {
		got = append(got, m)
	}
	sort.Strings(got)
	if len(got) != len(dangling) {
		t.Errorf("dangling links %v, want exactly %v", got, dangling)
	}
}
