package uiapi_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/workspace"
)

// git runs the git command in dir with a fixed identity and no user configuration.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com",
		"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", "-c", "core.quotepath=off"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_CONFIG_GLOBAL="+filepath.Join(dir, "none"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writeFiles(t *testing.T, dir string, files map[string]string) { vaulttest.Write(t, dir, files) }

// porcelain is git status --porcelain, sorted, journey.yaml left out.
func porcelain(t *testing.T, dir string) []string {
	var out []string
	for _, l := range strings.Split(git(t, dir, "status", "--porcelain", "-uall"), "\n") {
		if l != "" && !strings.HasSuffix(l, "journey.yaml") {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// openAPI opens dir as the library "v", watched, and the API over it.
func openAPI(t *testing.T, dir string) (*uiapi.API, *workspace.Workspace) {
	t.Helper()
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "v", Path: dir}}, workspace.Options{Watch: true, Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return uiapi.NewAPI(ws, uiapi.Options{}), ws
}

// waitGit waits for a git:changed event of library v.
func waitGit(t *testing.T, ch <-chan event.Event, what string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e := <-ch:
			if e.Topic == event.GitChanged && e.Data.(event.GitChange).Library == "v" {
				return
			}
		case <-deadline:
			t.Fatalf("no git:changed after %s", what)
		}
	}
}

func TestGitPanelFlow(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".gitignore": ".memotree/\n", "a.md": "# A\n\nAda was born in 1816.\n", "b.md": "# B\n\nkeep me\n", "c.md": "# C\n"})
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "initial")
	api, ws := openAPI(t, dir)
	events, stop := ws.Bus().Subscribe(256)
	defer stop()

	// An agent turn writes a.md through the vault; b.md is edited outside.
	l, _ := ws.Library("v")
	if _, err := l.Write(t.Context(), "a.md", []byte("# A\n\nAda was born in 1815.\n"), vault.WriteOptions{Actor: "agent@t-7"}); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"b.md": "# B\n\nscribbled over\n"})
	st, err := api.GitStatus("v")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, s := range st.ChangeSets {
		for _, c := range s.Changes {
			got[s.ID] = append(got[s.ID], string(c.Path)+":"+string(c.State))
		}
	}
	want := map[string][]string{"agent@t-7": {"a.md:modified"}, "external": {"b.md:modified"}, "journey": {"journey.yaml:untracked"}}
	if d := cmp.Diff(want, got); d != "" || !st.IsRepo || st.Branch != "main" || st.Total != 3 {
		t.Errorf("GitStatus = %+v\nchange sets (-want +got):\n%s", st, d)
	}

	fd, err := api.GitDiff("v", "a.md", "")
	if err != nil || fd.Added != 1 || fd.Deleted != 1 {
		t.Fatalf("GitDiff = %+v, %v", fd, err)
	}
	var marked []string
	for _, l := range fd.Hunks[0].Lines {
		for _, s := range l.Segments {
			if s.Changed {
				marked = append(marked, string(l.Kind)+":"+s.Text)
			}
		}
	}
	if d := cmp.Diff([]string{"del:1816", "add:1815"}, marked); d != "" {
		t.Errorf("word marks (-want +got):\n%s", d)
	}

	res, err := api.GitCommit("v", uiapi.GitCommitRequest{Paths: []string{"a.md"}, Message: "Fix Ada's year", Tag: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	waitGit(t, events, "a commit")
	if got := git(t, dir, "show", "--name-only", "--format=%s", "HEAD"); got != "Fix Ada's year\n\na.md\n" {
		t.Errorf("git show HEAD = %q", got)
	}
	if got := git(t, dir, "log", "-1", "--format=%(trailers:only,unfold)"); got != "MemoTree-Actor: agent\nMemoTree-Turn: t-7\n\n" {
		t.Errorf("trailers = %q (result %+v)", got, res)
	}
	if got := strings.TrimSpace(git(t, dir, "rev-parse", "ada")); got != res.Hash {
		t.Errorf("tag ada = %s, want %s", got, res.Hash)
	}
	if d := cmp.Diff([]string{" M b.md"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status after the commit (-want +got):\n%s", d)
	}

	if _, err := api.GitDiscard("v", []string{"b.md", "journey.yaml"}); err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Errorf("discarding the journey = %v, want a refusal", err)
	}
	done, err := api.GitDiscard("v", []string{"b.md"})
	if err != nil || !cmp.Equal(done, []string{"b.md"}) {
		t.Fatalf("GitDiscard = %v, %v", done, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.md")); string(b) != "# B\n\nkeep me\n" {
		t.Errorf("b.md after discard = %q", b)
	}
	if got := porcelain(t, dir); len(got) != 0 {
		t.Errorf("git status after the discard = %q", got)
	}

	log, err := api.GitLog("v", "a.md", 10)
	if err != nil || len(log) != 2 || log[0].Subject != "Fix Ada's year" || log[1].Subject != "initial" {
		t.Fatalf("GitLog = %+v, %v", log, err)
	}
	rev, err := api.GitShow("v", "a.md", log[1].Hash)
	if err != nil || !rev.Exists || rev.Content != "# A\n\nAda was born in 1816.\n" {
		t.Errorf("GitShow = %+v, %v", rev, err)
	}
	if rev, err := api.GitShow("v", "nowhere.md", "HEAD"); err != nil || rev.Exists {
		t.Errorf("GitShow of a missing note = %+v, %v", rev, err)
	}
	changed, err := api.GitRestore("v", "a.md", log[1].Hash)
	if err != nil || !changed {
		t.Fatalf("GitRestore = %v, %v", changed, err)
	}
	if d := cmp.Diff([]string{" M a.md"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status after the restore (-want +got):\n%s", d)
	}
	st, _ = api.GitStatus("v")
	if len(st.ChangeSets) == 0 || st.ChangeSets[0].ID != "user" || st.ChangeSets[0].Changes[0].Path != "a.md" {
		t.Errorf("the restore is the person's change set: %+v", st.ChangeSets)
	}

	// A commit by git itself moves HEAD: the window hears of it.
	git(t, dir, "commit", "-q", "-am", "by git")
	waitGit(t, events, "git commit on the command line")
	git(t, dir, "fsck", "--strict", "--no-progress")
}

func TestGitInitFromThePanel(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"n.md": "# N\n"})
	api, ws := openAPI(t, dir)
	st, err := api.GitStatus("v")
	if err != nil || st.IsRepo || st.Total != 0 {
		t.Fatalf("GitStatus of a plain folder = %+v, %v", st, err)
	}
	if _, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: "x"}); err == nil || !strings.Contains(err.Error(), "initialise") {
		t.Errorf("GitCommit in a plain folder = %v, want a hint to initialise", err)
	}
	st, err = api.GitInit("v")
	if err != nil || !st.IsRepo || st.Branch != "main" || st.Head != "" {
		t.Fatalf("GitInit = %+v, %v", st, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); string(b) != ".memotree/\n.memotree-tmp-*\n" {
		t.Errorf(".gitignore = %q", b)
	}
	events, stop := ws.Bus().Subscribe(256)
	defer stop()
	if _, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: "First"}); err != nil {
		t.Fatal(err)
	}
	waitGit(t, events, "the first commit")
	if got := porcelain(t, dir); len(got) != 0 {
		t.Errorf("git status after committing everything = %q", got)
	}
	git(t, dir, "fsck", "--strict", "--no-progress")
	if _, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: "again"}); err == nil {
		t.Error("a commit with nothing pending succeeded")
	}
}

// TestGitPanelShowsObsidiansSettings: a change in .obsidian/ is listed as git lists
// it, its diff shows, and a discard of it is refused (MemoTree never writes there).
func TestGitPanelShowsObsidiansSettings(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".gitignore": ".memotree/\njourney.yaml\n", "a.md": "# A\n", ".obsidian/app.json": "{}\n"})
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "initial")
	api, _ := openAPI(t, dir)
	writeFiles(t, dir, map[string]string{".obsidian/app.json": "{\"newLinkFormat\": \"relative\"}\n"})
	st, err := api.GitStatus("v")
	if err != nil || st.Total != 1 || st.ChangeSets[0].Changes[0].Path != ".obsidian/app.json" {
		t.Fatalf("GitStatus = %+v, %v; want .obsidian/app.json pending", st, err)
	}
	if fd, err := api.GitDiff("v", ".obsidian/app.json", ""); err != nil || fd.Added != 1 || fd.Deleted != 1 {
		t.Errorf("GitDiff of .obsidian/app.json = %+v, %v", fd, err)
	}
	if _, err := api.GitDiscard("v", []string{".obsidian/app.json"}); err == nil || !strings.Contains(err.Error(), "git restore") {
		t.Errorf("GitDiscard of .obsidian/app.json = %v, want a refusal saying how", err)
	}
	if got := readFile(t, dir, ".obsidian/app.json"); got != "{\"newLinkFormat\": \"relative\"}\n" {
		t.Errorf(".obsidian/app.json changed: %q", got)
	}
	if _, err := api.GitDiff("v", ".git/config", ""); err == nil {
		t.Error("GitDiff of .git/config was answered")
	}
}

// TestGitPanelPairsAMoveFromTheJourney: a note moved by a tool and rewritten from top
// to bottom is one renamed change in the review panel, because the journey recorded
// the move (git alone, comparing contents, sees a deletion and a new note). The
// panel's repository reads the journey through the library, its writer.
func TestGitPanelPairsAMoveFromTheJourney(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".gitignore": ".memotree/\n", "notes/Plain.md": "# Plain\n\nA short note about plain things.\n"})
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "initial")
	api, ws := openAPI(t, dir)
	l, _ := ws.Library("v")
	moved := []vault.Change{
		{Path: "notes/Plain.md", Delete: true},
		{Path: "archive/Plain.md", Data: []byte("Entirely different words now.\nA second line.\n"), CreateOnly: true, From: "notes/Plain.md"},
	}
	if _, err := l.Apply(t.Context(), moved, vault.WriteOptions{Actor: "agent@t1", Op: "move_entity"}); err != nil {
		t.Fatal(err)
	}
	st, err := api.GitStatus("v")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range st.ChangeSets {
		for _, c := range s.Changes {
			if c.Path != "journey.yaml" {
				got = append(got, string(c.Path)+":"+string(c.State)+":"+string(c.From))
			}
		}
	}
	if d := cmp.Diff([]string{"archive/Plain.md:renamed:notes/Plain.md"}, got); d != "" {
		t.Errorf("the review panel's changes (-want +got):\n%s", d)
	}
}

// A tag with a description is an annotated tag carrying it, as `git tag -a` makes one;
// a description without a tag is refused and commits nothing.
func TestGitCommitAnnotatedTag(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".gitignore": ".memotree/\n", "a.md": "# A\n"})
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "initial")
	api, _ := openAPI(t, dir)
	writeFiles(t, dir, map[string]string{"a.md": "# A\n\nrevised\n"})

	if _, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: "Revise A", TagDescription: "no tag named"}); err == nil {
		t.Fatal("a tag description without a tag was accepted")
	}
	if got := strings.TrimSpace(git(t, dir, "log", "--format=%s")); got != "initial" {
		t.Fatalf("a refused commit committed: log = %q", got)
	}
	res, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: "Revise A", Tag: "v1.0", TagDescription: "The first revision of A"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(git(t, dir, "cat-file", "-t", "v1.0")); got != "tag" {
		t.Errorf("v1.0 is a %q object, want an annotated tag", got)
	}
	if got := strings.TrimSpace(git(t, dir, "tag", "-l", "--format=%(contents)", "v1.0")); got != "The first revision of A" {
		t.Errorf("the tag's description = %q", got)
	}
	if got := strings.TrimSpace(git(t, dir, "rev-parse", "v1.0^{commit}")); got != res.Hash {
		t.Errorf("v1.0 points at %s, want the new commit %s", got, res.Hash)
	}
}

// TestGitStatusRedactsRemotes: the panel's status names the remotes without a secret
// written into an address (an access token as the user name, a password), as the
// backup settings do.
func TestGitStatusRedactsRemotes(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "# A\n"})
	git(t, dir, "init", "-q")
	git(t, dir, "remote", "add", "origin", "https://ghp_T0kenT0kenT0ken@git.example/me/notes.git")
	api, _ := openAPI(t, dir)
	st, err := api.GitStatus("v")
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Remotes) != 1 || strings.Contains(st.Remotes[0].URL, "ghp_T0kenT0kenT0ken") || !strings.Contains(st.Remotes[0].URL, "git.example/me/notes.git") {
		t.Errorf("GitStatus remotes = %+v, want origin's address without its token", st.Remotes)
	}
}

// twoClones commits files to a repository, makes it a bare remote and clones it twice:
// the other machine's copy and the vault's. It returns the three folders.
func twoClones(t *testing.T, files map[string]string) (remote, other, mine string) {
	t.Helper()
	root := t.TempDir()
	seed := filepath.Join(root, "seed")
	writeFiles(t, seed, files)
	git(t, seed, "init", "-q", "-b", "main")
	git(t, seed, "add", "-A")
	git(t, seed, "commit", "-q", "-m", "seed")
	remote = filepath.Join(root, "remote.git")
	git(t, root, "clone", "-q", "--bare", seed, remote)
	other, mine = filepath.Join(root, "other"), filepath.Join(root, "mine")
	git(t, root, "clone", "-q", "file://"+remote, other)
	git(t, root, "clone", "-q", "file://"+remote, mine)
	return remote, other, mine
}
