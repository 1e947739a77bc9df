package gitrepo_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
)

// unified renders hunks as git diff prints them, headers and lines.
func unified(hunks []gitrepo.Hunk) string {
	var b strings.Builder
	for _, h := range hunks {
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", rangeOf(h.OldStart, h.OldLines), rangeOf(h.NewStart, h.NewLines))
		for _, l := range h.Lines {
			b.WriteString(map[gitrepo.LineKind]string{gitrepo.Context: " ", gitrepo.Add: "+", gitrepo.Del: "-"}[l.Kind] + l.Text + "\n")
		}
	}
	return b.String()
}

func rangeOf(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	if n == 0 && start == 0 {
		return "0,0"
	}
	return fmt.Sprintf("%d,%d", start, n)
}

func TestFileDiffAgreesWithGit(t *testing.T) {
	var old, cur []string
	for i := 1; i <= 40; i++ {
		old = append(old, fmt.Sprintf("line %d of the note", i))
	}
	cur = append(cur, old...)
	cur[2] = "line 3 of the edited note"                                   // a word inserted
	cur[9] = "line 10 of the note, longer"                                 // words appended
	cur = append(cur[:20], cur[21:]...)                                    // line 21 deleted
	cur = append(cur[:30], append([]string{"a new line"}, cur[30:]...)...) // a line inserted
	cur[len(cur)-1] = "the last line, rewritten entirely"
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"long.md": strings.Join(old, "\n") + "\n"})
	run(t, dir, "add", "long.md")
	run(t, dir, "commit", "-q", "-m", "long")
	write(t, dir, map[string]string{"long.md": strings.Join(cur, "\n") + "\n"})
	r = open(t, dir)

	fd, err := r.FileDiff(t.Context(), gitrepo.Change{Path: "long.md", State: gitrepo.Modified})
	if err != nil {
		t.Fatal(err)
	}
	gitOut := run(t, dir, "diff", "-U3", "--no-color", "--", "long.md")
	want := gitOut[strings.Index(gitOut, "@@"):]
	// git writes the function context after the header's @@; drop it.
	var wl []string
	for _, l := range strings.Split(want, "\n") {
		if strings.HasPrefix(l, "@@") {
			l = l[:strings.LastIndex(l, "@@")+2]
		}
		wl = append(wl, l)
	}
	if d := cmp.Diff(strings.Join(wl, "\n"), unified(fd.Hunks)); d != "" {
		t.Errorf("FileDiff differs from git diff (-git +ours):\n%s", d)
	}
	if fd.Added != 4 || fd.Deleted != 4 {
		t.Errorf("counts +%d -%d, want +4 -4", fd.Added, fd.Deleted)
	}
	// Word marks: the inserted word, the appended words; none for the rewrite.
	marks := map[string]string{}
	for _, h := range fd.Hunks {
		for _, l := range h.Lines {
			var changed []string
			for _, s := range l.Segments {
				if s.Changed {
					changed = append(changed, s.Text)
				}
			}
			if l.Kind != gitrepo.Context {
				marks[string(l.Kind)+l.Text] = strings.Join(changed, "|")
			}
		}
	}
	wantMarks := map[string]string{
		"delline 3 of the note":                "",
		"addline 3 of the edited note":         "edited ",
		"delline 10 of the note":               "",
		"addline 10 of the note, longer":       ", longer",
		"delline 21 of the note":               "",
		"adda new line":                        "",
		"delline 40 of the note":               "",
		"addthe last line, rewritten entirely": "",
	}
	if d := cmp.Diff(wantMarks, marks); d != "" {
		t.Errorf("word marks (-want +got):\n%s", d)
	}
}

func TestDiffTextWords(t *testing.T) {
	for _, tc := range []struct {
		old, cur, wantOld, wantNew string // changed segments in [brackets]
	}{
		{"Ada was born in 1816.", "Ada was born in 1815.", "Ada was born in [1816].", "Ada was born in [1815]."},
		{"差分机是巴贝奇设计的", "分析机是巴贝奇设计的", "[差]分机是巴贝奇设计的", "分[析]机是巴贝奇设计的"},
		{"- [ ] buy milk", "- [x] buy milk", "- [[ ]] buy milk", "- [[x]] buy milk"},
		{"same words here", "same words here and more", "same words here", "same words here[ and more]"},
	} {
		h := gitrepo.DiffText(tc.old+"\n", tc.cur+"\n", 3)
		if len(h) != 1 || len(h[0].Lines) != 2 {
			t.Fatalf("%q → %q: hunks %+v", tc.old, tc.cur, h)
		}
		for i, want := range []string{tc.wantOld, tc.wantNew} {
			var b strings.Builder
			for _, s := range h[0].Lines[i].Segments {
				if s.Changed {
					b.WriteString("[" + s.Text + "]")
				} else {
					b.WriteString(s.Text)
				}
			}
			if b.String() != want {
				t.Errorf("%q → %q: line %d marked %q, want %q", tc.old, tc.cur, i, b.String(), want)
			}
		}
	}
}

func TestFileDiffNewBinaryRename(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"new.md": "one\ntwo\n", "attachments/x.png": "\x89PNG\x00changed"})
	if err := os.Rename(filepath.Join(dir, "people", "Charles.md"), filepath.Join(dir, "people", "Babbage.md")); err != nil {
		t.Fatal(err)
	}
	fd, err := r.FileDiff(t.Context(), gitrepo.Change{Path: "new.md", State: gitrepo.Untracked})
	if err != nil || unified(fd.Hunks) != "@@ -0,0 +1,2 @@\n+one\n+two\n" {
		t.Errorf("new file: %q, %v", unified(fd.Hunks), err)
	}
	fd, err = r.FileDiff(t.Context(), gitrepo.Change{Path: "attachments/x.png", State: gitrepo.Modified})
	if err != nil || !fd.Binary || len(fd.Hunks) != 0 {
		t.Errorf("binary: %+v, %v", fd, err)
	}
	fd, err = r.FileDiff(t.Context(), gitrepo.Change{Path: "people/Babbage.md", From: "people/Charles.md", State: gitrepo.Renamed})
	if err != nil || len(fd.Hunks) != 0 || fd.From != "people/Charles.md" {
		t.Errorf("pure rename: %+v, %v", fd, err)
	}
	fd, err = r.FileDiff(t.Context(), gitrepo.Change{Path: "a.md", State: gitrepo.Deleted})
	if err != nil || fd.Added != 0 || fd.Deleted != 0 {
		t.Errorf("unchanged: %+v, %v", fd, err)
	}
}

// TestDiffTextEqual: equal texts (a change undone between the status and the diff)
// give no hunk, and the window receives an empty list, not null.
func TestDiffTextEqual(t *testing.T) {
	for _, s := range []string{"", "same\n", "a\nb\nc"} {
		h := gitrepo.DiffText(s, s, 3)
		if h == nil || len(h) != 0 {
			t.Errorf("DiffText(%q, %q) = %#v, want an empty non-nil list", s, s, h)
		}
		b, err := json.Marshal(gitrepo.FileDiff{Path: "n.md", Hunks: h})
		if err != nil || !strings.Contains(string(b), `"hunks":[]`) {
			t.Errorf("JSON %s (%v), want \"hunks\":[]", b, err)
		}
	}
}
