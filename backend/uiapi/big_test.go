package uiapi_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/uiapi"
)

// writeBig writes size bytes of text lines (a link in the first) to dir/name.
func writeBig(t *testing.T, dir, name string, size int, binary bool) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	line := "A long line of a very large note, with nothing to find in it but words. [[a]]\n"
	if binary {
		line = "\x00\x01\x02 binary attachment data \xff\xfe\n"
	}
	for n := 0; n < size; n += len(line) {
		w.WriteString(line)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// A vault with a 100 MB note, a 100 MB attachment and a note of 100,000 links opens in
// bounded time; the big note is listed and reported, not indexed; the window is never
// sent 100 MB (the note is refused with a message saying what to do); the graph and
// the search work; the note of links opens with every link, while the index keeps
// its first library.MaxLinksPerNote links and says so.
func TestBigFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200 MB")
	}
	dir := t.TempDir()
	writeBig(t, dir, "big.md", 100<<20, false)
	writeBig(t, dir, "video.bin", 100<<20, true)
	var links strings.Builder
	links.WriteString("# Links\n\n")
	for i := range 100_000 {
		fmt.Fprintf(&links, "- [[n%d]] and [[a]]\n", i%50_000)
	}
	writeFiles(t, dir, map[string]string{"a.md": "# A\n\nthe needle is here\n", "links.md": links.String()})

	start := time.Now()
	api, ws := openAPI(t, dir)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("opening took %v", d)
	}
	t.Logf("opened in %v", time.Since(start))
	l, _ := ws.Library("")
	warned := false
	for _, w := range l.Warnings() {
		if w.Path == "big.md" && strings.Contains(w.Message, "not indexed") {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning for the 100 MB note: %v", l.Warnings())
	}
	// The index keeps the first library.MaxLinksPerNote links of links.md, and says so.
	cut := false
	for _, w := range l.Warnings() {
		if w.Path == "links.md" && strings.Contains(w.Message, fmt.Sprintf("the first %d of 200000 links", library.MaxLinksPerNote)) {
			cut = true
		}
	}
	if !cut {
		t.Errorf("no warning that the index keeps part of links.md: %v", l.Warnings())
	}
	files, err := api.Files("v")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, f := range files.Entries() {
		listed[f.Path] = true
	}
	if !listed["big.md"] || !listed["video.bin"] || !listed["links.md"] {
		t.Errorf("files = %v", listed)
	}
	for _, p := range []string{"big.md", "video.bin"} {
		start = time.Now()
		_, err = api.Note("v", p)
		if err == nil || !strings.Contains(err.Error(), "another editor") {
			t.Errorf("Note(%s) = %v, want a refusal saying what to do", p, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("refusing %s took %v (was it read?)", p, d)
		}
	}
	start = time.Now()
	v, err := api.Note("v", "links.md")
	if err != nil || len(v.Links) != 200_000 {
		t.Fatalf("links.md: %d links, %v", len(v.Links), err)
	}
	t.Logf("links.md opened in %v", time.Since(start))
	a, err := api.Note("v", "a.md")
	t.Logf("and a.md in %v", time.Since(start))
	if err != nil || len(a.Backlinks) != uiapi.MaxBacklinks || a.BacklinksTotal != library.MaxLinksPerNote/2 {
		t.Errorf("a.md backlinks: %d of %d, %v", len(a.Backlinks), a.BacklinksTotal, err)
	}
	// The bounds are loose (the race detector slows this tenfold): they catch a
	// quadratic blow-up, which would take hours at this size, not a slow machine.
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("opening the note of 100,000 links took %v", d)
	}
	g, err := api.Graph("v")
	if err != nil || len(g.Nodes) < library.MaxLinksPerNote/2 {
		t.Errorf("graph: %d nodes, %v", len(g.Nodes), err)
	}
	res, err := api.Search("v", "needle", uiapi.SearchOptions{})
	if err != nil || len(res.Hits) == 0 || res.Hits[0].EntityName != "a" {
		t.Errorf("search: %+v, %v", res, err)
	}
	items, err := api.QuickSwitch("v", "big", 5)
	if err != nil || len(items) == 0 {
		t.Errorf("the big note cannot be found by name: %+v, %v", items, err)
	}
	if _, err := api.SaveNote("v", "huge.md", strings.Repeat("x", 65<<20), ""); err == nil {
		t.Error("a 65 MB save was accepted")
	}
}

// The window's API reads nothing outside the vault: path escapes, reserved folders
// and links out are refused.
func TestNoteStaysInTheVault(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "vault")
	writeFiles(t, dir, map[string]string{"a.md": "# A\n"})
	if err := os.WriteFile(filepath.Join(root, "secret.md"), []byte("TOP SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"out.md": "../secret.md", "abs.md": filepath.Join(root, "secret.md"), "dir": ".."} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	api, _ := openAPI(t, dir)
	for _, p := range []string{"../secret.md", "/etc/passwd", filepath.Join(root, "secret.md"), "out.md", "abs.md", "dir/secret.md",
		".git/config", "a.md/../../secret.md", `..\secret.md`, "a\x00.md", "%2e%2e/secret.md"} {
		v, err := api.Note("v", p)
		if err == nil || strings.Contains(v.Content, "SECRET") {
			t.Errorf("Note(%q) = %q, %v", p, v.Content, err)
		}
		if r, err := api.GitShow("v", p, "HEAD"); err == nil && strings.Contains(r.Content, "SECRET") {
			t.Errorf("GitShow(%q) showed the secret", p)
		}
	}
}
