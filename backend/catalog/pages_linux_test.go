//go:build linux

package catalog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/workspace"
)

// get_children pages a big folder as asked, and describes only the page it shows: a
// note's has_detail reads its file, so the notes of other pages must stay unread (a
// folder of thousands of notes would be read whole for each page). Reads are seen in
// the files' access times, set in the past first (a relatime mount records the next
// read).
func TestChildPagesReadOnlyThePage(t *testing.T) {
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("big/n%02d.md", i)] = fmt.Sprintf("---\nsummary: note %d\n---\nbody %d\n", i, i)
	}
	h := entNew(t, files, workspace.Options{})
	h.lib() // scanned: the scan's reads come before the clock below
	past := time.Now().Add(-48 * time.Hour)
	for name := range files {
		p := filepath.Join(h.dir, filepath.FromSlash(name))
		if err := os.Chtimes(p, past, past.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	probe := filepath.Join(h.dir, "big", "n00.md")
	if _, err := os.ReadFile(probe); err != nil {
		t.Fatal(err)
	}
	if !accessedSince(t, probe, past.Add(2*time.Hour)) {
		t.Skip("this file system does not record reads in access times (noatime): nothing to observe")
	}
	if err := os.Chtimes(probe, past, past.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}

	d := h.ok("get_children", `{"page_index":"t:big/","offset":10,"limit":5}`)
	got := indexes(t, d["children"])
	want := []string{"t:big/n10", "t:big/n11", "t:big/n12", "t:big/n13", "t:big/n14"}
	if !cmp.Equal(got, want) {
		t.Fatalf("children 10-14: %v, want %v", got, want)
	}
	for _, c := range d["children"].([]any) {
		if p := pageOf(t, c); p["has_detail"] != true || !strings.HasPrefix(p["description"].(string), "note ") {
			t.Errorf("child %v: want has_detail and its summary", p)
		}
	}
	if page := d["page"].(map[string]any); page["total"] != float64(30) || page["next_offset"] != float64(15) {
		t.Errorf("page = %v, want 30 in all and the next page at 15", page)
	}
	var read []string
	for i := range 30 {
		if accessedSince(t, filepath.Join(h.dir, "big", fmt.Sprintf("n%02d.md", i)), past.Add(2*time.Hour)) {
			read = append(read, fmt.Sprintf("n%02d", i))
		}
	}
	if !cmp.Equal(read, []string{"n10", "n11", "n12", "n13", "n14"}) {
		t.Errorf("notes read for the page: %v, want only n10-n14", read)
	}
}

// accessedSince reports whether the file at p was read after t (its access time).
func accessedSince(tb testing.TB, p string, t time.Time) bool {
	tb.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		tb.Fatal(err)
	}
	return time.Unix(st.Atim.Unix()).After(t)
}
