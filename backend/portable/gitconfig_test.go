package portable

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGitSystemConfigs(t *testing.T) {
	env := map[string]string{"PROGRAMDATA": `C:\ProgramData`, "ProgramFiles": `C:\Program Files`}
	tests := []struct {
		name   string
		goos   string
		env    map[string]string
		gitExe string
		want   []string
	}{
		{"linux", "linux", env, "/usr/bin/git", []string{"/etc/gitconfig"}},
		{"macOS", "darwin", nil, "/usr/bin/git", []string{"/etc/gitconfig"}},
		{"Git for Windows on the PATH (cmd)", "windows", env, `C:\Program Files\Git\cmd\git.exe`,
			[]string{`C:\ProgramData\Git\config`, `C:\Program Files\Git\etc\gitconfig`}},
		{"Git for Windows' bin", "windows", env, `D:\Tools\Git\bin\git.exe`,
			[]string{`C:\ProgramData\Git\config`, `D:\Tools\Git\etc\gitconfig`}},
		{"Git for Windows' mingw64\\bin", "windows", env, `C:\Users\Ada\AppData\Local\Programs\Git\mingw64\bin\git.exe`,
			[]string{`C:\ProgramData\Git\config`, `C:\Users\Ada\AppData\Local\Programs\Git\etc\gitconfig`}},
		{"forward slashes, any case", "windows", env, `C:/Program Files/Git/CMD/GIT.EXE`,
			[]string{`C:\ProgramData\Git\config`, `C:\Program Files\Git\etc\gitconfig`}},
		{"no git on the PATH: the installer's default folder", "windows", env, "",
			[]string{`C:\ProgramData\Git\config`, `C:\Program Files\Git\etc\gitconfig`}},
		{"another layout, no environment", "windows", nil, `E:\scoop\shims\git.exe`,
			[]string{`C:\Program Files\Git\etc\gitconfig`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := GitSystemConfigs(tt.goos, func(k string) string { return tt.env[k] }, tt.gitExe)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("GitSystemConfigs (-want +got):\n%s", diff)
			}
		})
	}
}
