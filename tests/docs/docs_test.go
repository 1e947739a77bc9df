// Package docs tests the README and docs/ as a reader meets them: the README stays
// the front door, its links lead somewhere, and every picture shown is one the
// end-to-end tests make from the real app (docs/pictures.json), at its size.
package docs

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the repository, two folders up.
var root = filepath.Join("..", "..")

// documents returns README.md and docs/*.md, as paths from the repository root.
func documents(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md"}
	for _, d := range docs {
		out = append(out, filepath.Join("docs", filepath.Base(d)))
	}
	return out
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	imageRE = regexp.MustCompile(`!\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src="([^"]+)"`)
	linkRE  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// picture is an entry of docs/pictures.json.
type picture struct {
	File   string `json:"file"`
	Test   string `json:"test"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// TestPicturesAreTheTestsOwn checks every picture README.md and docs/ show: listed
// in docs/pictures.json, made by the test it names (which saves a file of that name),
// present, and a PNG of the listed size; and every listed picture is shown somewhere.
func TestPicturesAreTheTestsOwn(t *testing.T) {
	var list struct{ Pictures []picture }
	if err := json.Unmarshal([]byte(read(t, "docs/pictures.json")), &list); err != nil {
		t.Fatalf("docs/pictures.json: %v", err)
	}
	listed := map[string]picture{}
	for _, p := range list.Pictures {
		listed[p.File] = p
		src := read(t, filepath.Join("frontend", p.Test))
		if !strings.Contains(src, "'"+p.File+"'") {
			t.Errorf("docs/pictures.json says frontend/%s makes %s, but it never names it", p.Test, p.File)
		}
	}
	shown := map[string]bool{}
	for _, doc := range documents(t) {
		for _, m := range imageRE.FindAllStringSubmatch(read(t, doc), -1) {
			src := m[1] + m[2]
			if strings.Contains(src, "://") {
				t.Errorf("%s shows a picture from elsewhere: %s", doc, src)
				continue
			}
			rel := filepath.ToSlash(filepath.Join(filepath.Dir(doc), src))
			name, inDocs := strings.CutPrefix(rel, "docs/")
			p, ok := listed[name]
			if !inDocs || !ok {
				t.Errorf("%s shows %s, which no test makes (docs/pictures.json)", doc, src)
				continue
			}
			shown[name] = true
			w, h, err := pngSize(filepath.Join(root, "docs", name))
			if err != nil {
				t.Errorf("%s shows %s: %v", doc, src, err)
			} else if w != p.Width || h != p.Height {
				t.Errorf("docs/%s is %d×%d, but %s makes it %d×%d: make it again (make screenshots)", name, w, h, p.Test, p.Width, p.Height)
			}
		}
	}
	for name := range listed {
		if !shown[name] {
			t.Errorf("docs/%s is listed in docs/pictures.json but no document shows it", name)
		}
	}
	pngs, _ := filepath.Glob(filepath.Join(root, "docs", "*.png"))
	for _, f := range pngs {
		if _, ok := listed[filepath.Base(f)]; !ok {
			t.Errorf("docs/%s is made by no test (docs/pictures.json): remove it or make it in one", filepath.Base(f))
		}
	}
}

// pngSize reads the width and height of a PNG file from its IHDR chunk.
func pngSize(file string) (w, h int, err error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, 0, err
	}
	if len(b) < 24 || string(b[:8]) != "\x89PNG\r\n\x1a\n" || string(b[12:16]) != "IHDR" {
		return 0, 0, os.ErrInvalid
	}
	return int(binary.BigEndian.Uint32(b[16:20])), int(binary.BigEndian.Uint32(b[20:24])), nil
}

// TestLinksLeadSomewhere checks that every relative link of README.md and docs/
// names a file of the repository.
func TestLinksLeadSomewhere(t *testing.T) {
	for _, doc := range documents(t) {
		for _, m := range linkRE.FindAllStringSubmatch(read(t, doc), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.Dir(doc), target)); err != nil {
				t.Errorf("%s links to %s, which is not there", doc, m[1])
			}
		}
	}
}

// TestREADMEIsTheFrontDoor keeps the README short and with what a newcomer looks for
// first; the rest is in docs/.
func TestREADMEIsTheFrontDoor(t *testing.T) {
	readme := read(t, "README.md")
	if n := strings.Count(readme, "\n"); n > 400 {
		t.Errorf("README.md has %d lines: keep it the front door (at most 400) and move the rest into docs/", n)
	}
	var sections []string
	for _, line := range strings.Split(readme, "\n") {
		if s, ok := strings.CutPrefix(line, "## "); ok {
			sections = append(sections, s)
		}
	}
	for _, want := range []string{
		"Install it",
		"Chat with a model: OpenAI, Ollama, LM Studio or any compatible endpoint",
		"Use it from Claude Desktop (or any MCP client)",
		"Architecture",
		"Performance",
		"Tests",
		"Where to read on",
	} {
		if !slices.Contains(sections, want) {
			t.Errorf("README.md has no section %q (sections: %q)", want, sections)
		}
	}
	for _, want := range []string{"make run", "make test", "make package-windows", "wails build -platform darwin/universal", "go1.26", "| operation | vault | MemoTree |"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}
