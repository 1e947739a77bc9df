package gitrepo_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vpath"
)

// configErrors returns the errors of everything that reads git's configuration and
// its includes: status, identity, commit and pull.
func configErrors(t *testing.T, r *gitrepo.Repo) map[string]error {
	t.Helper()
	_, statusErr := r.Status(t.Context())
	_, idErr := r.Identity()
	_, commitErr := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", Paths: []vpath.Path{"a.md"}})
	_, pullErr := r.Pull(t.Context(), gitrepo.SyncOptions{})
	return map[string]error{"Status": statusErr, "Identity": idErr, "Commit": commitErr, "Pull": pullErr}
}

// TestConfigErrorsNeverQuoteTheFile: a vault's .git/config that includes a file
// outside the vault (`[include] path = ~/secrets/token.txt`) which git cannot read as
// configuration makes every reader refuse with an error (which reaches the model and
// the window) naming the file and the line, and never a word of the file.
func TestConfigErrorsNeverQuoteTheFile(t *testing.T) {
	home := noIdentity(t)
	dir, r := newRepo(t)
	secret := filepath.Join(home, "secrets", "token.txt")
	config := filepath.Join(dir, ".git", "config")
	good := read(t, dir, ".git/config")
	cases := []struct {
		name, text string
		line       int
	}{
		{"a token", "Hunter2Secret\tXyzzyPlugh\n", 1},
		{"a token after a colon", "\n\nghp:Hunter2Secret\n", 3},
		{"a section of words", "[Hunter2Secret@XyzzyPlugh]\n", 1},
		{"an escape", "[core]\n\tx = Hunter2Secret\\XyzzyPlugh\n", 2},
		{"an unclosed quote", "[core]\n\tx = \"Hunter2Secret XyzzyPlugh\n", 2},
	}
	write(t, dir, map[string]string{"a.md": "changed\n"})
	if err := os.WriteFile(config, []byte(good+"[include]\n\tpath = ~/secrets/token.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			write(t, home, map[string]string{"secrets/token.txt": c.text})
			if out, ok := gitOwnEnv(dir, "status", "--porcelain"); ok {
				t.Fatalf("git reads it: %s", out)
			}
			for what, err := range configErrors(t, r) {
				msg := strings.ToLower(fmt.Sprint(err))
				switch {
				case !errors.Is(err, gitrepo.ErrBadConfig):
					t.Errorf("%s = %v, want ErrBadConfig", what, err)
				case !strings.Contains(err.Error(), fmt.Sprintf("%s, line %d:", secret, c.line)):
					t.Errorf("%s's error does not name %s and line %d: %v", what, secret, c.line, err)
				case strings.Contains(msg, "hunter2") || strings.Contains(msg, "xyzzy") || strings.Contains(msg, "ghp"):
					t.Errorf("%s's error quotes the file: %v", what, err)
				}
			}
		})
	}
}

// hugeConfig writes a configuration file of about mib MiB.
func hugeConfig(t *testing.T, path string, mib int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := bytes.Repeat([]byte("\tname = A very long name of somebody\n"), (1<<20)/37)
	if _, err := f.WriteString("[user]\n"); err != nil {
		t.Fatal(err)
	}
	for range mib {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConfigReadingIsBounded: a configuration file larger than MemoTree reads (512
// KiB), whether the vault's .git/config or a file it includes, and includes that add
// up to more than 1 MiB (one file named many times, many empty files), are refused
// quickly and in little memory, with an error naming the file.
func TestConfigReadingIsBounded(t *testing.T) {
	home := noIdentity(t)
	dir, r := newRepo(t)
	config := filepath.Join(dir, ".git", "config")
	good := read(t, dir, ".git/config")
	huge := filepath.Join(home, "huge.inc")
	hugeConfig(t, huge, 100)
	third := strings.Repeat("\tname = A very long name of somebody\n", (300<<10)/37)
	write(t, home, map[string]string{"third.inc": "[user]\n" + third, "empty.inc": ""})
	cases := []struct {
		name, config, names string
	}{
		{"a huge include", good + "[include]\n\tpath = " + huge + "\n", huge},
		{"a huge .git/config", "", config},
		{"one file included many times", good + "[include]\n" + strings.Repeat("\tpath = ~/third.inc\n", 100), filepath.Join(home, "third.inc")},
		{"many empty files", good + "[include]\n" + strings.Repeat("\tpath = ~/empty.inc\n", 20000), filepath.Join(home, "empty.inc")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.config == "" {
				hugeConfig(t, config, 20)
			} else if err := os.WriteFile(config, []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.WriteFile(config, []byte(good), 0o644) })
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			errs := configErrors(t, r)
			if c.names == config { // go-git reads this one whole when it opens the repository
				_, errs["Open"] = gitrepo.Open(dir, nil)
			}
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			for what, err := range errs {
				if !errors.Is(err, gitrepo.ErrBadConfig) || !strings.Contains(err.Error(), c.names) {
					t.Errorf("%s = %v, want ErrBadConfig naming %s", what, err, c.names)
				}
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
				t.Errorf("reading took %d MiB of memory; want the reading bounded", alloc>>20)
			}
			if took > 10*time.Second {
				t.Errorf("reading took %v; want it refused at once", took)
			}
		})
	}
}
