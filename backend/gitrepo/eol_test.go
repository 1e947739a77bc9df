package gitrepo_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
)

// eolFiles are notes and files with every kind of line ending git tells apart: LF,
// CRLF, both, a lone CR and a NUL (binary to git's guess), a final ^Z.
var eolFiles = map[string]string{
	"lf.md":       "# LF\nline\n",
	"crlf.md":     "# CRLF\r\nline\r\n",
	"mixed.md":    "# Mixed\r\nline\nline\r\n",
	"lonecr.md":   "# Lone CR\rline\r\n",
	"nul.bin":     "bin\r\n\x00\r\n",
	"ctrlz.md":    "# DOS\r\n\x1a",
	"notes.txt":   "text\r\nmore\r\n",
	"sub/deep.md": "# Deep\r\nline\r\n",
	"sub/lf.md":   "# Deep LF\nline\n",
}

// TestLineEndingsAsGitStoresThem: under core.autocrlf true, input and false, and
// with the text, eol and crlf attributes (in .gitattributes at the root and in a
// folder, in .git/info/attributes, through the binary macro and one of the vault's
// own, unset and unspecified), status sees the notes as `git status` does after their
// times change, after each is rewritten with CRLF line breaks and after an edit, and a
// commit of every change stores exactly the tree `git add -A` makes (CRLF made LF
// where git makes it, kept where git keeps it).
func TestLineEndingsAsGitStoresThem(t *testing.T) {
	cases := []struct {
		name        string
		config      map[string]string // set before the first commit
		configAfter map[string]string // set after it (the committed blobs keep CRLF)
		attrs       map[string]string
		global      string // core.attributesFile's content
	}{
		{name: "autocrlf true", config: map[string]string{"core.autocrlf": "true"}},
		{name: "autocrlf input", config: map[string]string{"core.autocrlf": "input"}},
		{name: "autocrlf false"},
		{name: "autocrlf true after CRLF was committed", configAfter: map[string]string{"core.autocrlf": "true"}},
		{name: "text=auto set after CRLF was committed", attrs: map[string]string{".git/info/attributes": "* text=auto\n"},
			configAfter: map[string]string{"core.autocrlf": "false"}},
		{name: "attributes", attrs: map[string]string{
			".gitattributes": "# notes are text\n* text=auto\n*.txt -text\nmixed.md text\nsub/** eol=lf\n*.bin binary\n" +
				"\"ctrlz.md\" crlf\n",
		}},
		{name: "attributes over autocrlf", config: map[string]string{"core.autocrlf": "true"}, attrs: map[string]string{
			".gitattributes":       "*.md -text\n[attr]prose text\nlf.md prose\nmixed.md eol=crlf\nnotes.txt crlf=input\n",
			"sub/.gitattributes":   "*.md text\n",
			".git/info/attributes": "crlf.md !text\nsub/lf.md -text\n",
		}},
		{name: "core.attributesFile", global: "*.md text\n[attr]keep -text\n", attrs: map[string]string{
			".gitattributes": "mixed.md keep\n*.txt text\n",
		}},
		{name: "eol alone, a macro unset", config: map[string]string{"core.autocrlf": "input"}, attrs: map[string]string{
			".gitattributes": "* eol=crlf\n*.bin -binary\nsub/* -text\n[attr]raw -text\nlonecr.md raw\nmixed.md text=auto eol=lf\n",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "vault")
			write(t, dir, eolFiles)
			run(t, dir, "init", "-q")
			for k, v := range c.config {
				run(t, dir, "config", k, v)
			}
			if c.global != "" {
				global := filepath.Join(t.TempDir(), "attributes")
				if err := os.WriteFile(global, []byte(c.global), 0o644); err != nil {
					t.Fatal(err)
				}
				run(t, dir, "config", "core.attributesFile", global)
			}
			write(t, dir, c.attrs)
			run(t, dir, "add", "-A")
			run(t, dir, "commit", "-q", "-m", "initial")
			for k, v := range c.configAfter {
				run(t, dir, "config", k, v)
			}
			r := open(t, dir)
			time.Sleep(10 * time.Millisecond) // later writes must be seen as later than the index

			old := time.Now().Add(-time.Hour)
			for name := range eolFiles {
				if err := os.Chtimes(filepath.Join(dir, name), old, old); err != nil {
					t.Fatal(err)
				}
			}
			compareWithGit(t, dir, "new times", ourStates(t, r))

			crlf := map[string]string{}
			for name, text := range eolFiles {
				crlf[name] = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n")
			}
			write(t, dir, crlf)
			compareWithGit(t, dir, "rewritten with CRLF", ourStates(t, r))

			edited := map[string]string{"new.md": "# New\r\nnote\r\n", "sub/new.md": "# New\r\n"}
			for name, text := range crlf {
				edited[name] = text + "edited\r\n"
			}
			write(t, dir, edited)
			compareWithGit(t, dir, "edited", ourStates(t, r))
			compareNumstat(t, r, dir)

			scratch := filepath.Join(t.TempDir(), "index")
			copyFile(t, filepath.Join(dir, ".git", "index"), scratch)
			env := append(gitEnv(dir), "GIT_INDEX_FILE="+scratch)
			gitWith(t, dir, env, "add", "-A")
			wantTree := strings.TrimSpace(gitWith(t, dir, env, "write-tree"))
			if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "edits"}); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD^{tree}")); got != wantTree {
				t.Errorf("the commit's tree is not git's; ours:\n%sgit's (git ls-files --eol):\n%s",
					run(t, dir, "ls-files", "--eol"), gitWith(t, dir, env, "ls-files", "--eol"))
			}
			run(t, dir, "fsck", "--strict", "--no-progress")
			compareWithGit(t, dir, "after the commit", ourStates(t, r))

			// A note moved as it is stays a rename, its stored form compared (git may
			// store the moved copy otherwise: a new path has no CRLF in the index).
			if err := os.Rename(filepath.Join(dir, "sub", "deep.md"), filepath.Join(dir, "sub", "moved.md")); err != nil {
				t.Fatal(err)
			}
			copyFile(t, filepath.Join(dir, ".git", "index"), scratch)
			gitWith(t, dir, env, "add", "-A")
			if got := gitWith(t, dir, env, "diff", "--cached", "-M", "--name-status", "HEAD"); !strings.HasPrefix(got, "R") || !strings.HasSuffix(got, "\tsub/deep.md\tsub/moved.md\n") {
				t.Fatalf("git sees the move as %q", got)
			}
			st, err := r.Status(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(st) != 1 || st[0].State != gitrepo.Renamed || st[0].From != "sub/deep.md" {
				t.Errorf("Status of a note moved as it is = %+v, want one rename from sub/deep.md", st)
			}
		})
	}
}

// compareNumstat fails the test when DiffStat counts lines of a tracked file other
// than `git diff --numstat HEAD` does (git converts the working tree's line endings as
// it would store them before it compares).
func compareNumstat(t *testing.T, r *gitrepo.Repo, dir string) {
	t.Helper()
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(run(t, dir, "diff", "--numstat", "HEAD")), "\n") {
		if f := strings.Split(line, "\t"); len(f) == 3 {
			want[f[2]] = f[0] + " " + f[1]
		}
	}
	stats, err := r.DiffStat(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range stats {
		if strings.HasSuffix(string(s.Path), "new.md") {
			continue // untracked: not in git diff
		}
		got[string(s.Path)] = fmt.Sprintf("%d %d", s.Added, s.Deleted)
		if s.Binary {
			got[string(s.Path)] = "- -"
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("DiffStat differs from git diff --numstat HEAD (-git +ours):\n%s", d)
	}
	if d := cmp.Diff(want, sidesNumstat(t, r)); d != "" {
		t.Errorf("ChangeSides' line counts (git_status, git_diff) differ from git diff --numstat HEAD (-git +ours):\n%s", d)
	}
}

// sidesNumstat counts, as git_status and git_diff do, the lines each pending change
// adds and deletes between the two versions ChangeSides reads: "- -" for a binary
// file, untracked new.md files left out as git diff leaves them out.
func sidesNumstat(t *testing.T, r *gitrepo.Repo) map[string]string {
	t.Helper()
	changes, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	sides, err := r.ChangeSides(t.Context(), changes)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for i, c := range changes {
		if strings.HasSuffix(string(c.Path), "new.md") {
			continue
		}
		sd := sides[i]
		add, del := gitrepo.LineStat(string(sd.Old), string(sd.New))
		got[string(c.Path)] = fmt.Sprintf("%d %d", add, del)
		if strings.Contains(string(sd.Old)+string(sd.New), "\x00") {
			got[string(c.Path)] = "- -"
		}
	}
	return got
}

// TestOneLineEditOfCRLFNote: under core.autocrlf=true, or with `*.md text eol=crlf`,
// a CRLF note of which one line is changed counts one line added and one deleted, as
// `git diff --numstat` counts it, not every line of the note.
func TestOneLineEditOfCRLFNote(t *testing.T) {
	for _, c := range []struct {
		name   string
		config map[string]string
		attrs  string
	}{
		{name: "core.autocrlf=true", config: map[string]string{"core.autocrlf": "true"}},
		{name: "*.md text eol=crlf", attrs: "*.md text eol=crlf\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "vault")
			note := "# Ada\r\n\r\nfirst line\r\nsecond line\r\nthird line\r\n"
			write(t, dir, map[string]string{"ada.md": note})
			if c.attrs != "" {
				write(t, dir, map[string]string{".gitattributes": c.attrs})
			}
			run(t, dir, "init", "-q")
			for k, v := range c.config {
				run(t, dir, "config", k, v)
			}
			run(t, dir, "add", "-A")
			run(t, dir, "commit", "-q", "-m", "initial")
			r := open(t, dir)
			write(t, dir, map[string]string{"ada.md": strings.Replace(note, "second line", "second line, revised", 1)})
			want := map[string]string{"ada.md": "1 1"}
			if d := cmp.Diff(want, sidesNumstat(t, r)); d != "" {
				t.Errorf("ChangeSides' line counts (-want +got):\n%s", d)
			}
			if got := strings.Fields(run(t, dir, "diff", "--numstat", "HEAD")); len(got) < 2 || got[0]+" "+got[1] != "1 1" {
				t.Errorf("git diff --numstat HEAD = %q, want 1 1", got)
			}
		})
	}
}

// TestTrackerReadsNewAttributes: a .gitattributes written after a Tracker's last full
// status rules the notes it is told of next, as it rules git status: b.md, committed
// with CRLF, is unchanged when its time changes, and modified once `*.md text` says git
// would store it with LF.
func TestTrackerReadsNewAttributes(t *testing.T) {
	dir, r := newRepo(t)
	tr := gitrepo.NewTracker(r)
	if _, err := tr.Status(t.Context()); err != nil {
		t.Fatal(err)
	}
	for i, attrs := range []string{"", "*.md text\n"} {
		if attrs != "" {
			write(t, dir, map[string]string{".gitattributes": attrs})
			tr.Touch(".gitattributes")
		}
		when := time.Now().Add(time.Duration(i-2) * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, "b.md"), when, when); err != nil {
			t.Fatal(err)
		}
		tr.Touch("b.md")
		st, err := tr.Status(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		compareWithGit(t, dir, fmt.Sprintf(".gitattributes %q", attrs), statesOf(st))
	}
}

// TestAutoCRLFFromTheSystemConfig: core.autocrlf=true set only in the system-wide
// configuration (where Git for Windows' installer puts it; GIT_CONFIG_SYSTEM names the
// file here) rules how MemoTree compares a note: a CRLF note stored with LF is
// unchanged, and a one-line edit counts one line, as git counts it.
func TestAutoCRLFFromTheSystemConfig(t *testing.T) {
	home := t.TempDir()
	sys := filepath.Join(home, "system-gitconfig")
	if err := os.WriteFile(sys, []byte("[core]\n\tautocrlf = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "no-gitconfig"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "")
	t.Setenv("GIT_CONFIG_SYSTEM", sys)
	dir := filepath.Join(t.TempDir(), "vault")
	note := "# Ada\r\n\r\nfirst line\r\nsecond line\r\n"
	write(t, dir, map[string]string{"ada.md": note})
	run(t, dir, "init", "-q")
	run(t, dir, "-c", "core.autocrlf=true", "add", "-A")
	run(t, dir, "-c", "core.autocrlf=true", "commit", "-q", "-m", "initial")
	r := open(t, dir)
	if d := cmp.Diff(map[string]string{}, sidesNumstat(t, r)); d != "" {
		t.Errorf("the CRLF note as checked out (-want +got):\n%s", d)
	}
	write(t, dir, map[string]string{"ada.md": strings.Replace(note, "second line", "second line, revised", 1)})
	if d := cmp.Diff(map[string]string{"ada.md": "1 1"}, sidesNumstat(t, r)); d != "" {
		t.Errorf("after a one-line edit (-want +got):\n%s", d)
	}
}
