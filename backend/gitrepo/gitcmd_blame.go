package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoGit means the git command, which blame runs, is not installed.
var ErrNoGit = errors.New("the git command is not installed")

// runGitBlame runs `git blame` with args in the repository and returns its standard
// output. The command is pointed at this repository alone (GIT_DIR and GIT_WORK_TREE
// set, every GIT_* variable of the environment removed, run in the vault's folder), and
// runs no hook and no file-system monitor. It reads no standard input.
//
// (A small helper of its own: a common one for git subprocesses may replace it.)
func (r *Repo) runGitBlame(ctx context.Context, args ...string) ([]byte, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return nil, ErrNoGit
	}
	full := append([]string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.quotePath=false", "blame"}, args...)
	cmd := exec.CommandContext(ctx, bin, full...)
	cmd.Dir = r.dir
	env := []string{"GIT_DIR=" + filepath.Join(r.dir, ".git"), "GIT_WORK_TREE=" + r.dir, "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 500 {
			msg = msg[:500] + "…"
		}
		return nil, fmt.Errorf("git blame: %w: %s", err, msg)
	}
	return out.Bytes(), nil
}
