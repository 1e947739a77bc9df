package portable

import (
	"strings"
)

// GitSystemConfigs returns the system-wide git configuration files git reads on the
// system goos, lowest precedence first, where neither GIT_CONFIG_SYSTEM nor
// GIT_CONFIG_NOSYSTEM says otherwise. gitExe is the path of the git program found on
// the PATH, "" when there is none.
//
// Elsewhere it is /etc/gitconfig. Git for Windows keeps its own beside the program:
// INSTALL\etc\gitconfig, where its installer writes core.autocrlf=true ("checkout
// Windows-style, commit Unix-style", the default choice), after
// %PROGRAMDATA%\Git\config, which Git for Windows reads first. Read from /etc/gitconfig
// on Windows, core.autocrlf would be missed, and every note checked out with CRLF line
// endings would look modified.
func GitSystemConfigs(goos string, getenv func(string) string, gitExe string) []string {
	if goos != "windows" {
		return []string{"/etc/gitconfig"}
	}
	var out []string
	if pd := getenv("PROGRAMDATA"); pd != "" {
		out = append(out, winJoin(pd, `Git\config`))
	}
	return append(out, winJoin(gitForWindowsRoot(getenv, gitExe), `etc\gitconfig`))
}

// gitForWindowsRoot returns the folder Git for Windows is installed in, from where its
// git.exe is: INSTALL\cmd\git.exe (what the installer puts on the PATH),
// INSTALL\bin\git.exe, or INSTALL\mingw64\bin\git.exe (mingw32, clangarm64 on other
// machines); %ProgramFiles%\Git, the installer's default, when the layout is another.
func gitForWindowsRoot(getenv func(string) string, gitExe string) string {
	parts := strings.FieldsFunc(gitExe, func(r rune) bool { return r == '\\' || r == '/' })
	n := len(parts)
	if n >= 3 && strings.EqualFold(parts[n-1], "git.exe") {
		dir := strings.ToLower(parts[n-2])
		switch {
		case n >= 4 && dir == "bin" && isMingwFolder(parts[n-3]):
			return strings.Join(parts[:n-3], `\`)
		case dir == "cmd" || dir == "bin":
			return strings.Join(parts[:n-2], `\`)
		}
	}
	pf := getenv("ProgramFiles")
	if pf == "" {
		pf = `C:\Program Files`
	}
	return winJoin(pf, "Git")
}

// isMingwFolder reports whether name is one of the folders Git for Windows keeps its
// programs in, one per architecture.
func isMingwFolder(name string) bool {
	switch strings.ToLower(name) {
	case "mingw64", "mingw32", "clangarm64":
		return true
	}
	return false
}

// winJoin joins a Windows folder and a relative path with one backslash.
func winJoin(dir, rel string) string {
	return strings.TrimRight(dir, `\/`) + `\` + rel
}
