package gitrepo

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSystemConfig: the system-wide configuration MemoTree reads is git's own on each
// system; on Windows Git for Windows' (where its installer sets core.autocrlf=true),
// found from the git on the PATH, not /etc/gitconfig. Windows cannot run here: its
// environment and PATH are given.
func TestSystemConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	onPath := func(p string) func(string) (string, error) {
		return func(string) (string, error) {
			if p == "" {
				return "", errors.New("not found")
			}
			return p, nil
		}
	}
	win := map[string]string{"PROGRAMDATA": `C:\ProgramData`, "ProgramFiles": `C:\Program Files`}
	tests := []struct {
		name   string
		goos   string
		env    map[string]string
		onPath string
		want   []string
	}{
		{"Linux", "linux", nil, "/usr/bin/git", []string{"/etc/gitconfig"}},
		{"macOS", "darwin", nil, "/usr/bin/git", []string{"/etc/gitconfig"}},
		{"Git for Windows on the PATH", "windows", win, `D:\Tools\Git\cmd\git.exe`,
			[]string{`C:\ProgramData\Git\config`, `D:\Tools\Git\etc\gitconfig`}},
		{"Windows, no git on the PATH", "windows", win, "",
			[]string{`C:\ProgramData\Git\config`, `C:\Program Files\Git\etc\gitconfig`}},
		{"GIT_CONFIG_SYSTEM", "windows", map[string]string{"GIT_CONFIG_SYSTEM": `C:\mine.cfg`}, "", []string{`C:\mine.cfg`}},
		{"GIT_CONFIG_NOSYSTEM", "linux", map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_SYSTEM": "/x"}, "", nil},
	}
	for _, tt := range tests {
		got := systemConfig(tt.goos, env(tt.env), onPath(tt.onPath))
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, d)
		}
	}
}
