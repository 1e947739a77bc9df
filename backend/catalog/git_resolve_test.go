package catalog_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// gitConflictVault makes a bare remote and two clones, commits different edits of the
// same lines of Plan.md in each, and leaves the vault clone mid-merge after git's own
// pull; it opens the vault and returns the harness and the other clone.
func gitConflictVault(t *testing.T) (*entHarness, string) {
	t.Helper()
	root := t.TempDir()
	seed := filepath.Join(root, "seed")
	entWrite(t, filepath.Join(seed, "Plan.md"), "---\nstatus: draft\n---\n# Plan\n\nfirst\nsecond\nthird\nfourth\nfifth\nsixth\nseventh\neighth\nninth\ntenth\n")
	entWrite(t, filepath.Join(seed, ".gitignore"), ".memotree/\njourney.yaml\n")
	entGit(t, seed, "init", "-q", "-b", "main")
	entGit(t, seed, "add", "-A")
	entGit(t, seed, "commit", "-qm", "seed")
	remote := filepath.Join(root, "remote.git")
	entGit(t, root, "clone", "-q", "--bare", seed, remote)
	other, vault := filepath.Join(root, "other"), filepath.Join(root, "vault")
	entGit(t, root, "clone", "-q", "file://"+remote, other)
	entGit(t, root, "clone", "-q", "file://"+remote, vault)
	entWrite(t, filepath.Join(other, "Plan.md"), "---\nstatus: done\n---\n# Plan\n\nfirst\nsecond, theirs\nthird\nfourth\nfifth\nsixth\nseventh\neighth\nninth\ntenth, theirs\n")
	entGit(t, other, "commit", "-qam", "theirs")
	entGit(t, other, "push", "-q", "origin", "main")
	entWrite(t, filepath.Join(vault, "Plan.md"), "---\nstatus: dropped\n---\n# Plan\n\nfirst\nsecond, ours\nthird\nfourth\nfifth\nsixth\nseventh\neighth\nninth\ntenth, ours\n")
	entGit(t, vault, "commit", "-qam", "ours")
	cmd := exec.Command("git", "-c", "pull.rebase=false", "pull", "-q", "origin", "main")
	cmd.Dir = vault
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("git pull met no conflict:\n%s", out)
	}
	return entOpen(t, root, vault, workspace.Options{}), other
}

// TestGitResolveTool: the agent sees a conflict git's pull left (listed apart, with
// its hunks and the merge in progress), is refused a commit, resolves it hunk by hunk
// through git_resolve, and its commit completes the merge.
func TestGitResolveTool(t *testing.T) {
	h, other := gitConflictVault(t)
	st := h.ok("git_status", `{}`)
	cs, _ := st["conflicts"].([]any)
	if len(cs) != 1 {
		t.Fatalf("git_status conflicts = %v", st["conflicts"])
	}
	c, _ := cs[0].(map[string]any)
	if c["entity"] != "Plan" || c["kind"] != "content" || c["hunks"] != float64(3) {
		t.Errorf("conflict = %v", c)
	}
	if op, _ := st["operation"].(string); !strings.Contains(op, "git merge --abort") {
		t.Errorf("operation = %q", op)
	}
	if ch, _ := st["changes"].([]any); len(ch) != 0 {
		t.Errorf("the conflicted note is listed among the changes too: %v", ch)
	}
	head := entGit(t, h.dir, "rev-parse", "HEAD")
	if res := h.call("git_commit", `{"message":"merge"}`); res.ErrorCode != catalog.CodeGitRefused || !strings.Contains(res.Message, "Plan.md") {
		t.Errorf("git_commit while conflicted = %s %q", res.ErrorCode, res.Message)
	}
	for args, code := range map[string]tool.Code{
		`{"entity_name":"Plan","take":"mine"}`:              tool.CodeInvalidArguments,
		`{"entity_name":"Plan","take":"ours","hunks":[4]}`:  tool.CodeInvalidArguments,
		`{"entity_name":"Plan","take":"both","hunks":[1]}`:  tool.CodeInvalidArguments, // status: one value
		`{"entity_name":"Plan","take":"as_edited"}`:         tool.CodeInvalidArguments,
		`{"entity_name":"Nowhere","take":"ours"}`:           tool.CodeNotFound,
		`{"entity_name":"Plan","take":"ours","hunks":[-1]}`: tool.CodeInvalidArguments,
	} {
		if res := h.call("git_resolve", args); res.ErrorCode != code {
			t.Errorf("git_resolve(%s) = %s %q, want %s", args, res.ErrorCode, res.Message, code)
		}
	}
	res := h.ok("git_resolve", `{"entity_name":"Plan","take":"theirs","hunks":[1,3]}`)
	if res["resolved"] != false || res["hunks_left"] != float64(1) {
		t.Errorf("git_resolve of two hunks = %v", res)
	}
	res = h.ok("git_resolve", `{"entity_name":"Plan","take":"both"}`)
	if res["resolved"] != true {
		t.Errorf("git_resolve of the last hunk = %v", res)
	}
	want := "---\nstatus: done\n---\n# Plan\n\nfirst\nsecond, ours\nsecond, theirs\nthird\nfourth\nfifth\nsixth\nseventh\neighth\nninth\ntenth, theirs\n"
	if got := h.read("Plan.md"); got != want {
		t.Errorf("Plan.md:\n%s\nwant:\n%s", got, want)
	}
	if res := h.call("git_resolve", `{"entity_name":"Plan","take":"ours"}`); res.ErrorCode != tool.CodeNoMatch {
		t.Errorf("git_resolve of a resolved note = %s %q", res.ErrorCode, res.Message)
	}
	h.ok("git_commit", `{"message":"Merge theirs"}`)
	parents := strings.Fields(entGit(t, h.dir, "rev-list", "--parents", "-1", "HEAD"))
	if len(parents) != 3 || parents[1] != strings.TrimSpace(head) || parents[2] != strings.TrimSpace(entGit(t, other, "rev-parse", "HEAD")) {
		t.Errorf("the merge's parents = %v", parents)
	}
	if got := strings.TrimSpace(entGit(t, h.dir, "log", "--merges", "--format=%s")); got != "Merge theirs" {
		t.Errorf("git log --merges = %q", got)
	}
	if d := cmp.Diff([]string(nil), gitPorcelain(t, h.dir)); d != "" {
		t.Errorf("git status (-want +got):\n%s", d)
	}
	entGit(t, h.dir, "fsck", "--strict", "--no-progress")
}
