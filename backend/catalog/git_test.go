package catalog_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// gitHarness opens entFixture committed by the git command, with .memotree ignored.
func gitHarness(t *testing.T) *entHarness {
	t.Helper()
	files := map[string]string{".gitignore": ".memotree/\n"}
	for k, v := range entFixture {
		files[k] = v
	}
	h := entNew(t, files, workspace.Options{})
	entGit(t, h.dir, "init", "-q", "-b", "main")
	entGit(t, h.dir, "add", "-A")
	entGit(t, h.dir, "commit", "-q", "-m", "initial")
	return h
}

// gitPorcelain returns git status --porcelain as sorted lines, journey.yaml left out
// (every journaled write appends to it).
func gitPorcelain(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(entGit(t, dir, "status", "--porcelain", "-uall"), "\n") {
		if l != "" && !strings.HasSuffix(l, "journey.yaml") {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

func TestGitToolsNotRepository(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	before := entTree(t, h.dir)
	for name, args := range map[string]string{
		"git_status": `{}`, "git_diff": `{}`, "git_log": `{}`,
		"git_commit":   `{"message":"m"}`,
		"git_checkout": `{"entity_names":["Engine"],"confirmed":true}`,
	} {
		res := h.call(name, args)
		if res.ErrorCode != catalog.CodeNotRepository || !strings.Contains(res.Message, "git init") {
			t.Errorf("%s on a plain folder = %s %q, want %s saying how to initialise", name, res.ErrorCode, res.Message, catalog.CodeNotRepository)
		}
	}
	if d := cmp.Diff(before, entTree(t, h.dir)); d != "" {
		t.Errorf("the tree changed (-want +got):\n%s", d)
	}
}

func TestGitToolsReviewCommitDiscard(t *testing.T) {
	h := gitHarness(t)
	ada := filepath.Join(h.dir, "people", "Ada Lovelace.md")
	entWrite(t, ada, strings.Replace(entFixture["people/Ada Lovelace.md"], "born in 1816", "born in 1815", 1))
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "rewritten\n")
	entWrite(t, filepath.Join(h.dir, "drafts", "Idea.md"), "an idea\n")

	st := h.ok("git_status", `{}`)
	groups, _ := st["groups"].(map[string]any)
	if d := cmp.Diff(map[string]any{"modified": []any{"Engine", "people/Ada Lovelace"}, "untracked": []any{"drafts/Idea"}}, groups); d != "" {
		t.Errorf("git_status groups (-want +got):\n%s", d)
	}
	diff := h.ok("git_diff", `{"entity_name":"Ada"}`)
	if s, _ := diff["diff"].(string); !strings.Contains(s, "-born in 1816\n+born in 1815\n") {
		t.Errorf("git_diff of Ada lacks the changed line:\n%s", s)
	}
	brief := h.ok("git_diff", `{"brief":true}`)
	if _, has := brief["diff"]; has || len(brief["files"].([]any)) != 3 {
		t.Errorf("a brief diff lists the 3 files without text: %v", brief)
	}

	h.ok("git_commit", `{"message":"Fix Ada's birth year","entity_names":["Ada Lovelace"],"tag_name":"ada-fixed"}`)
	if got := entGit(t, h.dir, "show", "--name-only", "--format=", "HEAD"); got != "people/Ada Lovelace.md\n" {
		t.Errorf("the commit holds %q, want Ada only", got)
	}
	if d := cmp.Diff([]string{" M Engine.md", "?? drafts/Idea.md"}, gitPorcelain(t, h.dir)); d != "" {
		t.Errorf("git status after the commit (-want +got):\n%s", d)
	}
	if got := entGit(t, h.dir, "log", "-1", "--format=%(trailers:only,unfold)"); got != "MemoTree-Actor: external\n\n" { // edited outside MemoTree, committed by the agent
		t.Errorf("trailers = %q", got)
	}
	entGit(t, h.dir, "fsck", "--strict", "--no-progress")
	log := h.ok("git_log", `{"entity_name":"people/Ada Lovelace","limit":5}`)
	commits, _ := log["commits"].([]any)
	if len(commits) != 2 || commits[0].(map[string]any)["subject"] != "Fix Ada's birth year" {
		t.Errorf("git_log of Ada = %v", commits)
	}

	res := h.call("git_checkout", `{"entity_names":["Engine","drafts/Idea"],"confirmed":false}`)
	if res.ErrorCode != tool.CodeConfirmationRequired || !strings.Contains(res.Message, "never committed") {
		t.Fatalf("unconfirmed checkout = %s: %s", res.ErrorCode, res.Message)
	}
	if h.read("Engine.md") != "rewritten\n" || h.read("drafts/Idea.md") != "an idea\n" {
		t.Fatal("an unconfirmed checkout changed files")
	}
	h.ok("git_checkout", `{"entity_names":["Engine","drafts/Idea"],"confirmed":true}`)
	if h.read("Engine.md") != entFixture["Engine.md"] {
		t.Errorf("Engine not restored byte for byte: %q", h.read("Engine.md"))
	}
	if _, err := os.Stat(filepath.Join(h.dir, "drafts", "Idea.md")); !os.IsNotExist(err) {
		t.Errorf("the untracked note should be gone: %v", err)
	}
	if got := gitPorcelain(t, h.dir); len(got) != 0 {
		t.Errorf("git status after discarding = %q", got)
	}
	if j := h.read("journey.yaml"); !strings.Contains(j, "op: git_checkout") || !strings.Contains(j, "drafts/Idea") {
		t.Errorf("the discard is not in the journey:\n%s", j)
	}
	if res := h.call("git_commit", `{"message":"again","entity_names":["Engine"]}`); res.ErrorCode != tool.CodeNoMatch {
		t.Errorf("committing a clean note = %s %s", res.ErrorCode, res.Message)
	}
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "again\n")
	head := entGit(t, h.dir, "rev-parse", "HEAD")
	if res := h.call("git_commit", `{"message":"again","tag_name":"ada-fixed"}`); res.ErrorCode != tool.CodeAlreadyExists {
		t.Errorf("reusing a tag = %s %s", res.ErrorCode, res.Message)
	}
	if entGit(t, h.dir, "rev-parse", "HEAD") != head {
		t.Error("a commit with a taken tag name moved HEAD")
	}
}

func TestGitToolsHostile(t *testing.T) {
	h := gitHarness(t)
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "pending\n")
	entWrite(t, filepath.Join(h.dir, ".git", "hooks", "x.md"), "hook\n")
	calls := []struct{ name, args string }{
		{"git_diff", `{"entity_name":"../outside"}`},
		{"git_diff", `{"entity_name":".git/config"}`},
		{"git_diff", `{"entity_name":"Engine\u0000.md"}`},
		{"git_diff", `{"entity_name":["Engine"]}`},
		{"git_diff", `{"brief":"yes"}`},
		{"git_log", `{"entity_name":"../../etc/passwd"}`},
		{"git_log", `{"limit":"ten"}`},
		{"git_log", `{"limit":-3}`},
		{"git_commit", `{"message":""}`},
		{"git_commit", `{"message":5}`},
		{"git_commit", `{"message":"m\u0000x"}`},
		{"git_commit", `{"message":"m","entity_names":[".git/config"]}`},
		{"git_commit", `{"message":"m","entity_names":[".git/hooks/x"]}`},
		{"git_commit", `{"message":"m","entity_names":["../outside"]}`},
		{"git_commit", `{"message":"m","entity_names":"Engine"}`},
		{"git_commit", `{"message":"m","tag_name":"../../x"}`},
		{"git_commit", `{"message":"m","tag_name":"a b"}`},
		{"git_checkout", `{"entity_names":["Engine"]}`},
		{"git_checkout", `{"entity_names":["Engine"],"confirmed":"true"}`},
		{"git_checkout", `{"entity_names":[],"confirmed":true}`},
		{"git_checkout", `{"entity_names":[".git/config"],"confirmed":true}`},
		{"git_checkout", `{"entity_names":[".memotree/lock"],"confirmed":true}`},
		{"git_checkout", `{"entity_names":["Engine\u0000"],"confirmed":true}`},
		{"git_checkout", `{"entity_names":["journey.yaml"],"confirmed":true}`},
		{"git_status", `{"library_name":"nope"}`},
	}
	// Opening the repository excludes MemoTree's own files in .git/info/exclude, once.
	if res := h.call("git_status", `{}`); res.Status != tool.StatusSuccess {
		t.Fatalf("git_status: %s", res.Message)
	}
	before := entTree(t, h.dir)
	for _, c := range calls {
		if res := h.call(c.name, c.args); res.Status != tool.StatusError {
			t.Errorf("%s(%s) = %s: %s; want an error result", c.name, c.args, res.Status, res.Message)
		}
	}
	if d := cmp.Diff(before, entTree(t, h.dir)); d != "" {
		t.Errorf("hostile calls changed the tree (-want +got):\n%s", d)
	}
}

func TestGitToolsConcurrentCommits(t *testing.T) {
	h := gitHarness(t)
	names := []string{"Engine", "notes/Plain", "people/Ada Lovelace", "people/Charles Babbage"}
	for _, n := range names {
		entWrite(t, filepath.Join(h.dir, filepath.FromSlash(n)+".md"), "edited "+n+"\n")
	}
	var wg sync.WaitGroup
	results := make([]tool.Result, len(names))
	for i, n := range names {
		wg.Go(func() { results[i] = h.call("git_commit", `{"message":"edit `+n+`","entity_names":["`+n+`"]}`) })
	}
	wg.Wait()
	for i, res := range results {
		if res.Status != tool.StatusSuccess {
			t.Errorf("commit of %s = %s: %s", names[i], res.ErrorCode, res.Message)
		}
	}
	if got := strings.Count(entGit(t, h.dir, "log", "--format=%s"), "\n"); got != len(names)+1 {
		t.Errorf("git log has %d commits, want %d: a concurrent commit was lost", got, len(names)+1)
	}
	if got := gitPorcelain(t, h.dir); len(got) != 0 {
		t.Errorf("git status after the commits = %q", got)
	}
	entGit(t, h.dir, "fsck", "--strict", "--no-progress")
}

func TestGitToolsPermissions(t *testing.T) {
	h := gitHarness(t)
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "pending\n")
	for _, perm := range []tool.Permission{tool.PermPropose, tool.PermWrite} {
		ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: h.dir, Permission: perm}}, workspace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		reg, err := ws.Registry()
		if err != nil {
			t.Fatal(err)
		}
		agent := &tool.Call{Actor: tool.ActorAgent, Turn: "t9"}
		for name, args := range map[string]string{
			"git_status": `{}`, "git_diff": `{"brief":true}`, "git_log": `{}`,
			"git_checkout":  `{"entity_names":["Engine"],"confirmed":false}`, // a preview: it changes nothing
			"git_checkout ": `{"entity_names":["Nowhere"],"confirmed":true}`, // names no change, so nothing is discarded
			"git_commit":    `{"message":"m","tag_name":"x y"}`,              // invalid, so nothing is committed
		} {
			name = strings.TrimSpace(name)
			res, err := reg.Call(t.Context(), agent, name, []byte(args))
			if err != nil {
				t.Fatal(err)
			}
			// Under propose a commit stays with the person, and a confirmed discard
			// waits for their approval; the discard's preview is anyone's to see.
			want := map[string]tool.Code{"git_commit": tool.CodePermissionDenied}
			if strings.Contains(args, `"confirmed":true`) {
				want[name] = tool.CodeApprovalRequired
			}
			held := res.ErrorCode == tool.CodePermissionDenied || res.ErrorCode == tool.CodeApprovalRequired
			if wantHeld := perm == tool.PermPropose && want[name] != ""; held != wantHeld || held && res.ErrorCode != want[name] {
				t.Errorf("%s %s with permission %s: %s %s", name, args, perm, res.ErrorCode, res.Message)
			}
		}
		ws.Close()
	}
	if h.read("Engine.md") != "pending\n" {
		t.Error("a denied or unconfirmed call changed the note")
	}
}

func TestGitToolsRename(t *testing.T) {
	h := gitHarness(t)
	if err := os.Rename(filepath.Join(h.dir, "notes", "Plain.md"), filepath.Join(h.dir, "notes", "Simple.md")); err != nil {
		t.Fatal(err)
	}
	st := h.ok("git_status", `{}`)
	changes, _ := st["changes"].([]any)
	if len(changes) == 1 {
		if _, err := time.Parse(time.RFC3339, changes[0].(map[string]any)["timestamp"].(string)); err != nil {
			t.Errorf("timestamp: %v", err)
		}
		delete(changes[0].(map[string]any), "timestamp")
	}
	want := []any{map[string]any{"entity": "notes/Simple", "path": "notes/Simple.md", "state": "renamed", "renamed_from": "notes/Plain",
		"change_type": "Moved", "old_path": "notes/Plain.md", "title": "Simple", "summary": `moved from notes/Plain.md; title "Plain" → "Simple"`}}
	if d := cmp.Diff(want, changes); d != "" {
		t.Errorf("git_status after a rename (-want +got):\n%s", d)
	}
	diff := h.ok("git_diff", `{"entity_name":"notes/Plain"}`)
	if s, _ := diff["diff"].(string); !strings.Contains(s, "rename from notes/Plain.md\nrename to notes/Simple.md\n") || strings.Contains(s, "@@") {
		t.Errorf("git_diff of a pure rename:\n%s", s)
	}
	h.ok("git_commit", `{"message":"Rename Plain","entity_names":["notes/Simple"]}`)
	if got := entGit(t, h.dir, "show", "--name-status", "-M", "--format=", "HEAD"); got != "R100\tnotes/Plain.md\tnotes/Simple.md\n" {
		t.Errorf("the commit is %q, want the whole rename", got)
	}
	if got := gitPorcelain(t, h.dir); len(got) != 0 {
		t.Errorf("git status after committing the rename = %q", got)
	}
	log := h.ok("git_log", `{"entity_name":"notes/Plain"}`) // gone from the tree, not from history
	if commits, _ := log["commits"].([]any); len(commits) != 2 {
		t.Errorf("git_log of the old name = %v, want the rename and the first commit", commits)
	}
}

func TestGitStatusChangeSets(t *testing.T) {
	h := gitHarness(t)
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "rewritten outside\n")
	h.ok("create_entity", `{"entity_name":"drafts/By the agent","content":"from turn t1"}`)
	sets := h.ok("git_status", `{}`)["change_sets"]
	want := []any{
		map[string]any{"change_set": "agent@t1", "entities": []any{"drafts/By the agent"}},
		map[string]any{"change_set": "external", "entities": []any{"Engine"}},
		map[string]any{"change_set": "journey", "entities": []any{"journey.yaml"}},
	}
	if d := cmp.Diff(want, sets); d != "" {
		t.Errorf("git_status change sets (-want +got):\n%s", d)
	}
}

// TestGitCommitByNameNeedsNoScan: naming pending notes resolves them against the
// pending changes, so a one-shot `memotree call git_commit` on a lazy library does not
// parse the whole vault first.
func TestGitCommitByNameNeedsNoScan(t *testing.T) {
	dir := gitHarness(t).dir
	if err := os.WriteFile(filepath.Join(dir, "Welcome.md"), []byte("# Welcome\n\nedited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "v", Path: dir}}, workspace.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorCLI}, "git_commit", []byte(`{"message":"one","entity_names":["Welcome"]}`))
	if err != nil || res.IsError() {
		t.Fatalf("git_commit: %v %+v", err, res)
	}
	l, _ := ws.Library("")
	if l.Scanned() {
		t.Error("committing a pending note by name scanned the whole library")
	}
	if got := gitPorcelain(t, dir); len(got) != 0 {
		t.Errorf("after the commit: %v", got)
	}
}

// TestGitCheckoutIndexesWithoutWatcher discards a change in a library that has no
// watcher: what git restored is in the graph when the call returns, since the
// repository writes through the library.
func TestGitCheckoutIndexesWithoutWatcher(t *testing.T) {
	h := gitHarness(t)
	h.ok("update_entity", `{"entity_name":"notes/Plain","content":"Now about [[Engine]].","mode":"replace"}`)
	if n := len(h.graph().Backlinks("Engine.md")); n != 2 {
		t.Fatalf("after the edit Engine has %d backlinks, want 2", n)
	}
	h.ok("git_checkout", `{"entity_names":["notes/Plain"],"confirmed":true}`)
	if got := h.read("notes/Plain.md"); got != entFixture["notes/Plain.md"] {
		t.Fatalf("the note was not restored: %q", got)
	}
	if n := len(h.graph().Backlinks("Engine.md")); n != 1 {
		t.Errorf("after the discard Engine has %d backlinks, want 1: the graph missed the restore", n)
	}
}

// TestGitCommitLeavesWhatThePersonStaged is the case: with a note the person
// staged by hand, git_commit of another note commits that note alone, under the
// trailers of whoever made it (the agent's turn), and the staged note stays staged with
// its index entry untouched. Committing everything then names both actors.
func TestGitCommitLeavesWhatThePersonStaged(t *testing.T) {
	h := gitHarness(t)
	h.ok("update_entity", `{"entity_name":"Engine","content":"by the agent\n","mode":"append"}`)
	entWrite(t, filepath.Join(h.dir, "people", "Ada Lovelace.md"), "staged by the person\n")
	entGit(t, h.dir, "add", "people/Ada Lovelace.md")
	staged := entGit(t, h.dir, "ls-files", "-s", "people/Ada Lovelace.md")

	res := h.ok("git_commit", `{"message":"The agent's engine note","entity_names":["Engine"]}`)
	if got := entGit(t, h.dir, "show", "--name-only", "--format=", "HEAD"); got != "Engine.md\n" {
		t.Errorf("the commit holds %q, want Engine.md alone", got)
	}
	if got := entGit(t, h.dir, "log", "-1", "--format=%(trailers:only,unfold)"); got != "MemoTree-Actor: agent\nMemoTree-Turn: t1\n\n" {
		t.Errorf("trailers = %q", got)
	}
	if ents, _ := res["entities"].([]any); len(ents) != 1 {
		t.Errorf("git_commit reports %v", res["entities"])
	}
	if got := entGit(t, h.dir, "ls-files", "-s", "people/Ada Lovelace.md"); got != staged {
		t.Errorf("the person's staged note: index entry %q, was %q", got, staged)
	}
	if d := cmp.Diff([]string{`M  "people/Ada Lovelace.md"`}, gitPorcelain(t, h.dir)); d != "" {
		t.Errorf("git status after the commit (-want +got):\n%s", d)
	}
	h.ok("git_commit", `{"message":"Everything"}`)
	if got := entGit(t, h.dir, "log", "-1", "--format=%(trailers:key=MemoTree-Actor,valueonly,unfold)"); !strings.Contains(got, "external") {
		t.Errorf("the commit of every change names %q, want the outside edit's actor too", got)
	}
	if got := gitPorcelain(t, h.dir); len(got) != 0 {
		t.Errorf("git status after committing everything = %q", got)
	}
	entGit(t, h.dir, "fsck", "--strict", "--no-progress")
}

// TestGitCommitRefusals: no identity, a rebase in progress and a partial commit during
// a merge are answered git_refused, saying why, with nothing committed.
func TestGitCommitRefusals(t *testing.T) {
	h := gitHarness(t)
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "edited\n")
	head := entGit(t, h.dir, "rev-parse", "HEAD")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(t.TempDir(), "none"))
	res := h.call("git_commit", `{"message":"m"}`)
	if res.ErrorCode != catalog.CodeGitRefused || !strings.Contains(res.Message, "git config user.name") {
		t.Errorf("git_commit without an identity = %s %q", res.ErrorCode, res.Message)
	}
	t.Setenv("GIT_AUTHOR_NAME", "A")
	t.Setenv("GIT_AUTHOR_EMAIL", "a@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "C")
	t.Setenv("GIT_COMMITTER_EMAIL", "c@example.com")
	entWrite(t, filepath.Join(h.dir, ".git", "rebase-merge", "head-name"), "refs/heads/main\n")
	res = h.call("git_commit", `{"message":"m"}`)
	if res.ErrorCode != catalog.CodeGitRefused || !strings.Contains(res.Message, "git rebase --continue") {
		t.Errorf("git_commit mid-rebase = %s %q", res.ErrorCode, res.Message)
	}
	if entGit(t, h.dir, "rev-parse", "HEAD") != head {
		t.Error("HEAD moved")
	}
	if err := os.RemoveAll(filepath.Join(h.dir, ".git", "rebase-merge")); err != nil {
		t.Fatal(err)
	}
	// A configuration git cannot read: both tools refuse, naming the file and line.
	config := filepath.Join(h.dir, ".git", "config")
	good, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	entWrite(t, config, string(good)+"[broken\n")
	for _, tl := range []struct{ name, args string }{{"git_status", `{}`}, {"git_commit", `{"message":"m"}`}} {
		res = h.call(tl.name, tl.args)
		if res.ErrorCode != catalog.CodeGitRefused || !strings.Contains(res.Message, config) || !strings.Contains(res.Message, "line ") {
			t.Errorf("%s with a broken .git/config = %s %q", tl.name, res.ErrorCode, res.Message)
		}
	}
	entWrite(t, config, string(good))
	// An index split in two: both tools refuse, naming the command that joins it.
	entGit(t, h.dir, "update-index", "--split-index")
	for _, tl := range []struct{ name, args string }{{"git_status", `{}`}, {"git_commit", `{"message":"m"}`}} {
		res = h.call(tl.name, tl.args)
		if res.ErrorCode != catalog.CodeGitRefused || !strings.Contains(res.Message, "git update-index --no-split-index") {
			t.Errorf("%s with a split index = %s %q", tl.name, res.ErrorCode, res.Message)
		}
	}
	entGit(t, h.dir, "update-index", "--no-split-index")
	h.ok("git_commit", `{"message":"m"}`)
	if got := entGit(t, h.dir, "log", "-1", "--format=%an <%ae> / %cn <%ce>"); got != "A <a@example.com> / C <c@example.com>\n" {
		t.Errorf("the commit is signed %q, want git's environment's identities", got)
	}
}

// TestGitConfigErrorsNeverQuoteAnIncludedFile: a vault's .git/config that includes a
// file outside the vault which git cannot read as configuration (an access token)
// answers git_status and git_commit with git_refused, naming the file and the line,
// never a word of the file.
func TestGitConfigErrorsNeverQuoteAnIncludedFile(t *testing.T) {
	h := gitHarness(t)
	secret := filepath.Join(t.TempDir(), "secrets", "token.txt")
	entWrite(t, secret, "\nHunter2Secret XyzzyPlugh\n")
	config := filepath.Join(h.dir, ".git", "config")
	good, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	head := entGit(t, h.dir, "rev-parse", "HEAD")
	entWrite(t, config, string(good)+"[include]\n\tpath = "+secret+"\n")
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "edited\n")
	for _, tl := range []struct{ name, args string }{{"git_status", `{}`}, {"git_commit", `{"message":"m"}`}} {
		res := h.call(tl.name, tl.args)
		msg := strings.ToLower(res.Message)
		switch {
		case res.ErrorCode != catalog.CodeGitRefused || !strings.Contains(res.Message, secret+", line 2:"):
			t.Errorf("%s = %s %q, want %s naming %s and line 2", tl.name, res.ErrorCode, res.Message, catalog.CodeGitRefused, secret)
		case strings.Contains(msg, "hunter2") || strings.Contains(msg, "xyzzy"):
			t.Errorf("%s quotes the included file: %q", tl.name, res.Message)
		}
	}
	entWrite(t, config, string(good))
	if entGit(t, h.dir, "rev-parse", "HEAD") != head {
		t.Error("HEAD moved")
	}
}
