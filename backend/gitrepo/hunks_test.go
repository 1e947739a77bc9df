package gitrepo_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// openVault opens dir as a vault and a repository writing through it.
func openVault(t testing.TB, dir string) (*vault.Vault, *gitrepo.Repo) {
	t.Helper()
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	r, err := gitrepo.Open(dir, writer{Vault: v})
	if err != nil {
		t.Fatal(err)
	}
	return v, r
}

// gitHunks returns the hunks of `git diff` for one path, each its header (without
// git's function context) and lines, "\ No newline at end of file" included.
func gitHunks(t testing.TB, dir, path string) []string {
	t.Helper()
	out := run(t, dir, "diff", "-U3", "--no-color", "--", path)
	var hunks []string
	for _, l := range strings.SplitAfter(out, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			hunks = append(hunks, l[:strings.LastIndex(l, "@@")+2]+"\n")
		case len(hunks) > 0 && l != "":
			hunks[len(hunks)-1] += l
		}
	}
	return hunks
}

// hunkBody drops a hunk's header line: what stays the same when an earlier hunk that
// changed the line count is undone.
func hunkBody(hunk string) string {
	_, b, _ := strings.Cut(hunk, "\n")
	return b
}

// numbered lists the lines 1..n of a note, each with its line break.
func numbered(n int, eol string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("line %d of the note%s", i+1, eol)
	}
	return out
}

// threeEdits applies three far-apart edits to lines (each optional): line 5 reworded,
// two lines inserted after line 20 and line 22 deleted, and line 38 reworded.
func threeEdits(lines []string, eol string, one, two, three bool) string {
	out := append([]string{}, lines...)
	if three {
		out[37] = "line 38, rewritten by the agent" + eol
	}
	if two {
		out = append(out[:21], out[22:]...)
		out = append(out[:20], append([]string{"an inserted line" + eol, "and another" + eol}, out[20:]...)...)
	}
	if one {
		out[4] = "line 5 of the edited note" + eol
	}
	return strings.Join(out, "")
}

// TestUndoHunkAgainstGit undoes the middle one of three hunks: the file's bytes are
// the change without that hunk, and `git diff` afterwards shows the other two exactly
// as before it.
func TestUndoHunkAgainstGit(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		t.Run(fmt.Sprintf("%q", eol), func(t *testing.T) {
			dir, _ := newRepo(t)
			lines := numbered(40, eol)
			write(t, dir, map[string]string{"long.md": strings.Join(lines, "")})
			run(t, dir, "add", "long.md")
			run(t, dir, "commit", "-q", "-m", "long")
			write(t, dir, map[string]string{"long.md": threeEdits(lines, eol, true, true, true)})
			_, r := openVault(t, dir)

			before := gitHunks(t, dir, "long.md")
			fd, err := r.FileDiff(t.Context(), gitrepo.Change{Path: "long.md", State: gitrepo.Modified})
			if err != nil {
				t.Fatal(err)
			}
			if len(before) != 3 || len(fd.Hunks) != 3 || !fd.HunkUndo {
				t.Fatalf("git shows %d hunks, FileDiff %d (undo %v), want 3", len(before), len(fd.Hunks), fd.HunkUndo)
			}
			for i, h := range fd.Hunks {
				if h.Number != i+1 || !strings.HasPrefix(before[i], fmt.Sprintf("@@ -%s +%s @@", rangeOf(h.OldStart, h.OldLines), rangeOf(h.NewStart, h.NewLines))) {
					t.Errorf("hunk %d: number %d, header %d,%d %d,%d; git: %q", i+1, h.Number, h.OldStart, h.OldLines, h.NewStart, h.NewLines, before[i])
				}
			}
			res, err := r.UndoHunks(t.Context(), gitrepo.HunkUndo{Change: gitrepo.Change{Path: "long.md"}, Hunks: []int{2}, Base: fd.Base, Actor: "user"})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := read(t, dir, "long.md"), threeEdits(lines, eol, true, false, true); got != want {
				t.Errorf("the file after the undo (-want +got):\n%s", cmp.Diff(want, got))
			}
			after := gitHunks(t, dir, "long.md")
			if len(after) != 2 || after[0] != before[0] || hunkBody(after[1]) != hunkBody(before[2]) {
				t.Errorf("git diff after undoing hunk 2:\n%s\nwant hunks 1 and 3 of:\n%s", strings.Join(after, ""), strings.Join(before, ""))
			}
			if len(res.Undone) != 1 || res.Undone[0].Number != 2 || len(res.Diff.Hunks) != 2 || res.Diff.Hunks[1].Number != 2 {
				t.Errorf("result: undone %+v, %d hunks left", res.Undone, len(res.Diff.Hunks))
			}
		})
	}
}

// TestUndoHunksEdges undoes hunks of notes with a byte order mark, without a final
// line break, renamed in the change, and stored by git with LF while written with
// CRLF: the bytes outside the hunk stay as they were.
func TestUndoHunksEdges(t *testing.T) {
	body20 := strings.Join(numbered(20, "\n"), "")
	cases := []struct {
		name           string
		config         map[string]string
		committed      string
		path, from     string
		work           string
		hunks          []int
		want           string
		wantGitHunks   int // left after the undo
		wantProperties []gitrepo.PropertyChange
	}{{
		name:      "byte order mark",
		committed: "\ufeff# Title\n" + body20,
		path:      "bom.md",
		work:      "\ufeff# A new title\n" + strings.Replace(body20, "line 19 of", "line nineteen of", 1),
		hunks:     []int{1},
		want:      "\ufeff# Title\n" + strings.Replace(body20, "line 19 of", "line nineteen of", 1),
	}, {
		name:      "no final line break, last line undone",
		committed: body20 + "the end",
		path:      "eof.md",
		work:      strings.Replace(body20, "line 2 of", "line two of", 1) + "the very end\n",
		hunks:     []int{2},
		want:      strings.Replace(body20, "line 2 of", "line two of", 1) + "the end",
	}, {
		name:      "no final line break, first hunk undone",
		committed: body20 + "the end",
		path:      "eof2.md",
		work:      strings.Replace(body20, "line 2 of", "line two of", 1) + "the very end",
		hunks:     []int{1},
		want:      body20 + "the very end",
	}, {
		name:      "renamed with edits",
		committed: body20,
		from:      "old name.md",
		path:      "folder/new name.md",
		work:      strings.Replace(strings.Replace(body20, "line 3 of", "line III of", 1), "line 17 of", "line XVII of", 1),
		hunks:     []int{2},
		want:      strings.Replace(body20, "line 3 of", "line III of", 1),
	}, {
		name:      "CRLF written, LF stored (core.autocrlf true)",
		config:    map[string]string{"core.autocrlf": "true"},
		committed: body20,
		path:      "crlf.md",
		work:      strings.ReplaceAll(strings.Replace(strings.Replace(body20, "line 3 of", "line III of", 1), "line 17 of", "line XVII of", 1), "\n", "\r\n"),
		hunks:     []int{1},
		want:      strings.ReplaceAll(strings.Replace(body20, "line 17 of", "line XVII of", 1), "\n", "\r\n"),
	}, {
		name:      "front matter shown as properties",
		committed: "---\nstatus: draft\ntags: [a, b]\nkeep: same\n---\n" + body20,
		path:      "props.md",
		work:      "---\nstatus: published\ntags: [a, b, c]\nkeep: same\nowner: Ada\n---\n" + strings.Replace(body20, "line 17 of", "line XVII of", 1),
		hunks:     []int{1},
		want:      "---\nstatus: draft\ntags: [a, b]\nkeep: same\n---\n" + strings.Replace(body20, "line 17 of", "line XVII of", 1),
		wantProperties: []gitrepo.PropertyChange{
			{Key: "status", Old: ptr("draft"), New: ptr("published")},
			{Key: "tags", Old: ptr(`["a","b"]`), New: ptr(`["a","b","c"]`)},
			{Key: "owner", New: ptr("Ada")},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := newRepo(t)
			for k, v := range tc.config {
				run(t, dir, "config", k, v)
			}
			committedAt := tc.path
			if tc.from != "" {
				committedAt = tc.from
			}
			write(t, dir, map[string]string{committedAt: tc.committed})
			run(t, dir, "add", "-A")
			run(t, dir, "commit", "-q", "-m", "committed")
			if tc.from != "" {
				if err := os.Remove(filepath.Join(dir, tc.from)); err != nil {
					t.Fatal(err)
				}
			}
			write(t, dir, map[string]string{tc.path: tc.work})
			_, r := openVault(t, dir)
			c := gitrepo.Change{Path: vpath.Path(tc.path), From: vpath.Path(tc.from)}
			fd, err := r.FileDiff(t.Context(), c)
			if err != nil {
				t.Fatal(err)
			}
			if !fd.HunkUndo {
				t.Fatalf("no hunk undo offered for %+v", fd)
			}
			if tc.wantProperties != nil {
				if d := cmp.Diff(tc.wantProperties, fd.Hunks[0].Properties); d != "" {
					t.Errorf("properties of hunk 1 (-want +got):\n%s", d)
				}
				if fd.Hunks[1].Properties != nil {
					t.Errorf("the body's hunk has properties %+v", fd.Hunks[1].Properties)
				}
			}
			if _, err := r.UndoHunks(t.Context(), gitrepo.HunkUndo{Change: c, Hunks: tc.hunks, Base: fd.Base, Actor: "user"}); err != nil {
				t.Fatal(err)
			}
			if got := read(t, dir, tc.path); got != tc.want {
				t.Errorf("the file after the undo (-want +got):\n%s", cmp.Diff(tc.want, got))
			}
		})
	}
}

func ptr(s string) *string { return &s }

// TestUndoHunksRefuses: a note saved since its diff, or saved by another program
// while the undo runs, is never overwritten (ErrStale, the other program's bytes
// stay); a binary file, a new note, an unknown hunk number are refused too.
func TestUndoHunksRefuses(t *testing.T) {
	dir, _ := newRepo(t)
	lines := numbered(40, "\n")
	write(t, dir, map[string]string{"long.md": strings.Join(lines, "")})
	run(t, dir, "add", "long.md")
	run(t, dir, "commit", "-q", "-m", "long")
	agent := threeEdits(lines, "\n", true, true, true)
	write(t, dir, map[string]string{"long.md": agent, "attachments/x.png": "\x89PNG\x00\x02changed", "new.md": "new\n"})
	_, r := openVault(t, dir)
	ctx := t.Context()
	long := gitrepo.Change{Path: "long.md"}
	fd, err := r.FileDiff(ctx, long)
	if err != nil {
		t.Fatal(err)
	}

	saved := agent + "a line the person typed\n"
	write(t, dir, map[string]string{"long.md": saved})
	if _, err := r.UndoHunks(ctx, gitrepo.HunkUndo{Change: long, Hunks: []int{2}, Base: fd.Base}); !errors.Is(err, gitrepo.ErrStale) {
		t.Errorf("undo after the note was saved: %v, want ErrStale", err)
	}
	if got := read(t, dir, "long.md"); got != saved {
		t.Errorf("the saved note was overwritten:\n%s", got)
	}

	// Another program saves the note between the undo's read and its write.
	write(t, dir, map[string]string{"long.md": agent})
	fd, err = r.FileDiff(ctx, long)
	if err != nil {
		t.Fatal(err)
	}
	gitrepo.SetBeforeHunkWrite(r, func() { write(t, dir, map[string]string{"long.md": saved}) })
	_, err = r.UndoHunks(ctx, gitrepo.HunkUndo{Change: long, Hunks: []int{2}, Base: fd.Base})
	gitrepo.SetBeforeHunkWrite(r, nil)
	if !errors.Is(err, gitrepo.ErrStale) {
		t.Errorf("undo racing a save: %v, want ErrStale", err)
	}
	if got := read(t, dir, "long.md"); got != saved {
		t.Errorf("the note saved during the undo was overwritten:\n%s", got)
	}

	for _, tc := range []struct {
		c     gitrepo.Change
		hunks []int
		want  error
	}{
		{gitrepo.Change{Path: "attachments/x.png"}, []int{1}, gitrepo.ErrWholeOnly},
		{gitrepo.Change{Path: "new.md"}, []int{1}, gitrepo.ErrWholeOnly},
		{long, []int{9}, gitrepo.ErrNoHunk},
		{long, nil, gitrepo.ErrNoHunk},
	} {
		if _, err := r.UndoHunks(ctx, gitrepo.HunkUndo{Change: tc.c, Hunks: tc.hunks}); !errors.Is(err, tc.want) {
			t.Errorf("undo %s %v: %v, want %v", tc.c.Path, tc.hunks, err, tc.want)
		}
	}
	fd, err = r.FileDiff(ctx, gitrepo.Change{Path: "attachments/x.png"})
	if err != nil || !fd.Binary || fd.HunkUndo || len(fd.Hunks) != 0 {
		t.Errorf("binary diff = %+v, %v; want binary, no hunks", fd, err)
	}
}

// TestUndoHunkKeepsTheChangeSet: what is left of an agent's change after the person
// undid a hunk stays in the agent's change set.
func TestUndoHunkKeepsTheChangeSet(t *testing.T) {
	dir, _ := newRepo(t)
	lines := numbered(40, "\n")
	write(t, dir, map[string]string{"long.md": strings.Join(lines, "")})
	run(t, dir, "add", "long.md")
	run(t, dir, "commit", "-q", "-m", "long")
	v, r := openVault(t, dir)
	ctx := t.Context()
	// The agent wrote the note ten minutes ago; the person undoes a hunk now.
	then := time.Now().Add(-10 * time.Minute)
	write(t, dir, map[string]string{"long.md": threeEdits(lines, "\n", true, true, true)})
	if err := os.Chtimes(filepath.Join(dir, "long.md"), then, then); err != nil {
		t.Fatal(err)
	}
	if err := v.AppendJourney(ctx, vault.Entry{Time: then, Actor: "agent", Op: "edit_entity", Entities: []string{"long.md"}, Turn: "t-7", Session: "s-1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.UndoHunks(ctx, gitrepo.HunkUndo{Change: gitrepo.Change{Path: "long.md"}, Hunks: []int{1}, Actor: "user"}); err != nil {
		t.Fatal(err)
	}
	sets, err := r.ChangeSets(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string][]string{"agent@t-7": {"long.md"}, "journey": {"journey.yaml"}}, summary(sets)); d != "" {
		t.Errorf("change sets (-want +got):\n%s", d)
	}
	if sets[0].Session != "s-1" {
		t.Errorf("the agent's set names session %q, want s-1", sets[0].Session)
	}
}

// TestGroupChangesAfterUndo: an undo of hunks keeps the file in the set of the write
// it partly undid; an outside edit after it, however soon, or an undo of an outside
// edit, is an outside edit.
func TestGroupChangesAfterUndo(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	agent := vault.Entry{Time: t0, Actor: "agent", Turn: "t1", Session: "s1", Op: "edit_entity", Entities: []string{"n.md"}, Outcome: "ok"}
	undo := vault.Entry{Time: t0.Add(time.Minute), Actor: "user", Op: gitrepo.OpUndoHunks, Entities: []string{"n.md"}, Outcome: "ok"}
	soon := vault.Entry{Time: undo.Time.Add(time.Second), Actor: gitrepo.OutsideID, Op: "external_edit", Entities: []string{"n"}, Outcome: "ok"}
	later := soon
	later.Time = undo.Time.Add(time.Minute)
	changes := []gitrepo.Change{{Path: "n.md", State: gitrepo.Modified}}
	for _, tc := range []struct {
		name    string
		journey []vault.Entry
		mtime   time.Time
		want    string
	}{
		{"undo", []vault.Entry{agent, undo}, undo.Time, "agent@t1"},
		{"two undos", []vault.Entry{agent, undo, undo}, undo.Time, "agent@t1"},
		{"an outside edit a second after the undo", []vault.Entry{agent, undo, soon}, undo.Time, gitrepo.OutsideID},
		{"an outside edit after the undo", []vault.Entry{agent, undo, later}, later.Time, gitrepo.OutsideID},
		{"an outside edit undone", []vault.Entry{undo}, undo.Time, gitrepo.OutsideID},
		{"modified after the undo", []vault.Entry{agent, undo}, undo.Time.Add(time.Minute), gitrepo.OutsideID},
	} {
		sets := gitrepo.GroupChanges(changes, tc.journey, func(vpath.Path) (time.Time, bool) { return tc.mtime, true })
		if len(sets) != 1 || sets[0].ID != tc.want {
			t.Errorf("%s: sets %+v, want %s", tc.name, sets, tc.want)
		}
	}
}
