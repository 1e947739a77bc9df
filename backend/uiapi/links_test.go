package uiapi_test

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
)

// A vault's own folder links lead every write path of MemoTree nowhere but into
// content. Each case is a link that a cloned repository or an unzipped vault may
// carry, into a folder MemoTree never writes: git's (at the root and in a nested
// repository, whose config runs commands), Obsidian's and MemoTree's own.

// linkCase is a folder link to a folder MemoTree never writes.
type linkCase struct {
	link  string // the link's vault path
	to    string // the link's text, relative to its folder
	guard string // the folder it reaches, vault-relative
}

var linkCases = []linkCase{
	{"gl", ".git", ".git"},
	{"ob", ".obsidian", ".obsidian"},
	{"mt", ".memotree", ".memotree"},
	{"inner/gl", ".git", "inner/.git"},
}

// trapMarker is in every text the tests try to write through a link.
const trapMarker = "TRAP-7d1f"

// linkBase are the files of every link test's vault.
var linkBase = map[string]string{
	"Welcome.md":         "# Welcome\n\nSee [[Other]].\n",
	"Other.md":           "# Other\n",
	".gitignore":         ".memotree/\n",
	".obsidian/app.json": "{\"useMarkdownLinks\": false}\n",
	".memotree/keep":     "kept\n",
}

// trapConfig is a git configuration whose core.fsmonitor command leaves the file
// mark: git runs it at the next `git status`.
func trapConfig(mark string) string {
	return fmt.Sprintf("[core]\n\tfsmonitor = \"touch %s\"\n# %s\n", filepath.ToSlash(mark), trapMarker)
}

// makeRepo makes dir a git repository; for a case in a nested repository it makes
// the nested folder one too.
func makeRepo(t *testing.T, dir string, c linkCase) {
	t.Helper()
	git(t, dir, "init", "-q", "-b", "main")
	if c.guard == "inner/.git" {
		if err := os.MkdirAll(filepath.Join(dir, "inner"), 0o755); err != nil {
			t.Fatal(err)
		}
		git(t, filepath.Join(dir, "inner"), "init", "-q", "-b", "main")
	}
}

// placeLink puts c's link into the vault at dir, replacing what is there.
func placeLink(t *testing.T, dir string, c linkCase) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(c.link))
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(c.to, p); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}

// guarded maps every entry under the folder guard of dir (links not followed) to its
// type and content hash.
func guarded(t *testing.T, dir, guard string) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := filepath.Join(dir, filepath.FromSlash(guard))
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p != root {
			return nil // a file of MemoTree's own that went while the folder was read (a fence)
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			to, _ := os.Readlink(p)
			out[rel] = "link " + to
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				return nil // as above
			}
			if err != nil {
				return err
			}
			out[rel] = fmt.Sprintf("file %x", sha256.Sum256(b))
			if strings.Contains(string(b), trapMarker) {
				out[rel] += " " + trapMarker
			}
		default:
			out[rel] = "folder"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// assertUntouched checks that nothing under c's guarded folder changed since before.
// MemoTree's own folder may gain files MemoTree keeps there (its lock, caches), but
// none that a write through the link made; in .git, MemoTree's git layer keeps its
// folder out of git's status in info/exclude when it opens the repository.
func assertUntouched(t *testing.T, dir string, c linkCase, before map[string]string, what string) {
	t.Helper()
	after := guarded(t, dir, c.guard)
	for p, b := range before {
		if after[p] != b && !(strings.HasSuffix(c.guard, ".git") && p == "info/exclude") {
			t.Errorf("%s: %s/%s changed: %q, was %q", what, c.guard, p, after[p], b)
		}
	}
	for p, a := range after {
		if _, ok := before[p]; ok {
			continue
		}
		base := filepath.Base(p)
		made := strings.Contains(a, trapMarker) || strings.HasSuffix(base, ".md") || base == "config"
		if c.guard != ".memotree" || made {
			t.Errorf("%s: %s/%s appeared (%s)", what, c.guard, p, a)
		}
	}
}

// assertRefused checks that an attempt failed with a message naming the link.
func assertRefused(t *testing.T, c linkCase, what string, failed bool, msg string) {
	t.Helper()
	if !failed {
		t.Errorf("%s through %s -> %s succeeded: %s", what, c.link, c.to, msg)
		return
	}
	t.Logf("%s through %s -> %s: %s", what, c.link, c.to, msg)
	if !strings.Contains(msg, "symbolic link "+c.link) {
		t.Errorf("%s through %s -> %s: the error does not name the link: %s", what, c.link, c.to, msg)
	}
}

// linkAPI opens dir, with the agent allowed to write, and returns the API over it and
// the tools' registry.
func linkAPI(t *testing.T, dir string) (*uiapi.API, *tool.Registry) {
	t.Helper()
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "v", Path: dir, Permission: tool.PermWrite}},
		workspace.Options{Watch: true, Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	return uiapi.NewAPI(ws, uiapi.Options{}), reg
}

// TestToolsAndSaveRefuseFolderLinksOutOfContent: the agent's tools (create, move,
// rename, a script) and the window's save, asked to write below a link to .git (at
// the root and in a nested repository), .obsidian or .memotree, are refused with an
// error naming the link, and nothing in the folder the link reaches changes.
func TestToolsAndSaveRefuseFolderLinksOutOfContent(t *testing.T) {
	for _, c := range linkCases {
		t.Run(strings.ReplaceAll(c.link, "/", "_"), func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, linkBase)
			makeRepo(t, dir, c)
			placeLink(t, dir, c)
			before := guarded(t, dir, c.guard)
			api, reg := linkAPI(t, dir)
			body := "# Trap\n\n" + trapMarker + "\n"
			calls := []struct {
				name string
				args map[string]any
			}{
				{"create_entity", map[string]any{"entity_name": c.link + "/Trap", "content": body}},
				{"move_entity", map[string]any{"entity_name": "Welcome", "folder": c.link}},
				{"rename_entity", map[string]any{"old_name": "Welcome", "new_name": c.link + "/Trap"}},
				{"run_starlark", map[string]any{"target": "t", "code": fmt.Sprintf("create_entity(entity_name=%q, content=%q)", c.link+"/Trap", body)}},
			}
			for _, call := range calls {
				args, _ := json.Marshal(call.args)
				res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorAgent}, call.name, args)
				if err != nil {
					t.Fatalf("%s: %v", call.name, err)
				}
				assertRefused(t, c, call.name, res.IsError(), res.Message)
				assertUntouched(t, dir, c, before, call.name)
			}
			res, err := api.SaveNote("v", c.link+"/Trap.md", body, "")
			failed := err != nil || res.Conflict
			msg := fmt.Sprintf("%+v", res)
			if err != nil {
				msg = err.Error()
			}
			assertRefused(t, c, "SaveNote", failed, msg)
			assertUntouched(t, dir, c, before, "SaveNote")
			if got := readFile(t, dir, "Welcome.md"); got != linkBase["Welcome.md"] {
				t.Errorf("Welcome.md = %q after the refused moves", got)
			}
		})
	}
}

// repoOf is the folder of the repository whose .git c's link reaches ("" when it
// reaches no .git).
func repoOf(dir string, c linkCase) string {
	if !strings.HasSuffix(c.guard, ".git") {
		return ""
	}
	return filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(strings.TrimSuffix(c.guard, ".git"), "/")))
}

// assertNoTrap runs the person's own `git status` in the repository c's link reaches,
// and checks that no trap ran: the core.fsmonitor command was never written.
func assertNoTrap(t *testing.T, dir string, c linkCase, mark, what string) {
	t.Helper()
	if repo := repoOf(dir, c); repo != "" {
		cmd := exec.Command("git", "status", "--porcelain")
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s through %s -> %s: git status: %v\n%s", what, c.link, c.to, err, out)
		}
	}
	if _, err := os.Stat(mark); err == nil {
		t.Errorf("%s through %s -> %s: git status ran the core.fsmonitor trap written into %s/config", what, c.link, c.to, c.guard)
	}
}

// TestGitWritesRefuseFolderLinksOutOfContent: history restore, discard and pull,
// whose commits hold <link>/config as a regular file (a git configuration with a
// core.fsmonitor trap) where the working tree now has a link to .git, .obsidian or
// .memotree, are refused with an error naming the link; the folder the link reaches
// is unchanged, and the person's next `git status` runs no trap.
func TestGitWritesRefuseFolderLinksOutOfContent(t *testing.T) {
	for _, c := range linkCases {
		t.Run(strings.ReplaceAll(c.link, "/", "_"), func(t *testing.T) {
			t.Run("restore", func(t *testing.T) { gitRestoreThroughLink(t, c) })
			t.Run("discard", func(t *testing.T) { gitDiscardThroughLink(t, c) })
			t.Run("pull", func(t *testing.T) { gitPullThroughLink(t, c) })
		})
	}
}

// trapped writes the vault base and the trap at <link>/config, and returns the file
// the trap would make.
func trapped(t *testing.T, dir string, c linkCase) string {
	t.Helper()
	mark := filepath.Join(t.TempDir(), "fsmonitor-ran")
	files := map[string]string{c.link + "/config": trapConfig(mark)}
	for k, v := range linkBase {
		files[k] = v
	}
	writeFiles(t, dir, files)
	return mark
}

func gitRestoreThroughLink(t *testing.T, c linkCase) {
	dir := t.TempDir()
	mark := trapped(t, dir, c)
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "with the folder")
	old := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	git(t, dir, "rm", "-q", "-r", c.link)
	git(t, dir, "commit", "-q", "-m", "without it")
	makeRepo(t, dir, linkCase{guard: c.guard}) // the nested repository, if any
	placeLink(t, dir, c)
	before := guarded(t, dir, c.guard)
	api, _ := linkAPI(t, dir)
	changed, err := api.GitRestore("v", c.link+"/config", old)
	msg := fmt.Sprint(changed)
	if err != nil {
		msg = err.Error()
	}
	assertRefused(t, c, "GitRestore", err != nil, msg)
	assertUntouched(t, dir, c, before, "GitRestore")
	assertNoTrap(t, dir, c, mark, "GitRestore")
}

func gitDiscardThroughLink(t *testing.T, c linkCase) {
	dir := t.TempDir()
	mark := trapped(t, dir, c)
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "with the folder")
	makeRepo(t, dir, linkCase{guard: c.guard})
	placeLink(t, dir, c)
	before := guarded(t, dir, c.guard)
	api, _ := linkAPI(t, dir)
	done, err := api.GitDiscard("v", []string{c.link + "/config"})
	msg := fmt.Sprint(done)
	if err != nil {
		msg = err.Error()
	}
	assertRefused(t, c, "GitDiscard", err != nil, msg)
	assertUntouched(t, dir, c, before, "GitDiscard")
	assertNoTrap(t, dir, c, mark, "GitDiscard")
}

func gitPullThroughLink(t *testing.T, c linkCase) {
	_, other, mine := twoClones(t, linkBase)
	writeFiles(t, mine, map[string]string{".obsidian/app.json": linkBase[".obsidian/app.json"], ".memotree/keep": "kept\n"})
	if c.guard == "inner/.git" {
		if err := os.MkdirAll(filepath.Join(mine, "inner"), 0o755); err != nil {
			t.Fatal(err)
		}
		git(t, filepath.Join(mine, "inner"), "init", "-q", "-b", "main")
	}
	placeLink(t, mine, c)
	// The other side commits <link>/config as a regular file: a pull writes it.
	mark := trapped(t, other, c)
	git(t, other, "add", "-A")
	git(t, other, "commit", "-q", "-m", "the trap")
	git(t, other, "push", "-q", "origin", "main")
	before := guarded(t, mine, c.guard)
	config := ""
	if repo := repoOf(mine, c); repo != "" {
		b, err := os.ReadFile(filepath.Join(repo, ".git", "config"))
		if err != nil {
			t.Fatal(err)
		}
		config = string(b)
	}
	api, _ := linkAPI(t, mine)
	res, err := api.GitPull("v")
	msg := fmt.Sprintf("%+v", res)
	if err != nil {
		msg = err.Error()
	}
	assertRefused(t, c, "GitPull", err != nil, msg)
	// A pull writes git's own files (objects, FETCH_HEAD): only the configuration
	// and the hooks are compared there.
	after := guarded(t, mine, c.guard)
	if repo := repoOf(mine, c); repo != "" {
		if b, _ := os.ReadFile(filepath.Join(repo, ".git", "config")); string(b) != config {
			t.Errorf("GitPull: %s/config changed:\n%s", c.guard, b)
		}
		for p, a := range after {
			if strings.Contains(a, trapMarker) || (!strings.HasPrefix(p, "objects/") && before[p] == "" && !pullsOwn(p)) {
				t.Errorf("GitPull: %s/%s appeared or changed (%s)", c.guard, p, a)
			}
		}
	} else {
		assertUntouched(t, mine, c, before, "GitPull")
	}
	assertNoTrap(t, mine, c, mark, "GitPull")
}

// pullsOwn reports whether p, inside .git, is a file a fetch writes.
func pullsOwn(p string) bool {
	for _, own := range []string{"FETCH_HEAD", "ORIG_HEAD", "refs/", "logs/", "packed-refs", "index", "shallow"} {
		if strings.HasPrefix(p, own) {
			return true
		}
	}
	return false
}
