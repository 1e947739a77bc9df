package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// gitProtections are given to every git command MemoTree starts, after the person's
// and the repository's configuration, so that a repository's configuration (which
// may have come with the vault, from anywhere) makes it run no program of its
// choosing: no file system monitor (core.fsmonitor), and no hooks (core.hooksPath names
// a folder that cannot exist).
var gitProtections = []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=" + os.DevNull}

// keptGitVars are the GIT_ variables of MemoTree's environment a git command it starts
// keeps: they say where the person's own configuration is (Repo.config reads them
// too). Every other GIT_ variable could point the command at another repository
// (GIT_DIR, GIT_WORK_TREE, GIT_COMMON_DIR, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
// GIT_CEILING_DIRECTORIES…) or give it configuration of its own (GIT_CONFIG,
// GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT with its keys and values) — a MemoTree
// started from a git hook or alias in another repository has them set for that
// repository — and is dropped.
var keptGitVars = []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM"}

// gitEnviron returns environ for a git command MemoTree starts: without the GIT_
// variables keptGitVars does not name, with PATH holding only absolute folders (an
// empty or relative entry would make git find its helpers in the folder it runs in,
// the vault), and with prompting turned off (git must never wait for a terminal or ask
// through a program core.askPass names; an empty GIT_ASKPASS wins over it).
func gitEnviron(environ []string) []string {
	out := make([]string, 0, len(environ)+3)
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name) // Windows' names ignore case
		switch {
		case upper == "PATH":
			var dirs []string
			for _, d := range filepath.SplitList(value) {
				if filepath.IsAbs(d) {
					dirs = append(dirs, d)
				}
			}
			kv = name + "=" + strings.Join(dirs, string(os.PathListSeparator))
		case strings.HasPrefix(upper, "GIT_") && !slices.Contains(keptGitVars, upper),
			upper == "SSH_ASKPASS":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=")
}

// gitCommand returns a git command for the repository: it runs in the working tree,
// with GIT_DIR and GIT_WORK_TREE naming the repository (so neither the folder
// MemoTree was started in nor its environment chooses another), gitEnviron's
// environment and gitProtections. The repository's own configuration and the
// person's (system and global) apply, as they do to git run in the vault.
func (r *Repo) gitCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append(slices.Clone(gitProtections), args...)...)
	cmd.Dir = r.dir
	cmd.Env = append(gitEnviron(os.Environ()), "GIT_DIR="+r.gitDir(), "GIT_WORK_TREE="+r.dir)
	return cmd
}
