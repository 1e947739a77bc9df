package build

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the repository, two folders up from this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// fakeTools writes, into a folder put first on the PATH, a `go` that records an
// install in the file it returns (and fails it, as it would without the network) and
// runs the real go for anything else.
func fakeTools(t *testing.T) (bin, installed string) {
	t.Helper()
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on the PATH")
	}
	bin = t.TempDir()
	installed = filepath.Join(bin, "installed")
	script := "#!/bin/sh\nif [ \"$1\" = install ]; then echo \"$@\" >>" + installed + "; exit 1; fi\nexec " + realGo + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, installed
}

// runMake runs `make TARGET VARS...` in the repository with bin first on the PATH.
func runMake(t *testing.T, bin string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("make", append([]string{"--no-print-directory", "-C", repoRoot(t)}, args...)...)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "MAKEFLAGS=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestWailsCheckSurvivesABrokenPipe plays a Wails CLI that prints its version and
// then much more (as `wails version` prints a banner and a sponsor notice): read
// through a pipe by `grep -q`, which exits at the first match, such a program dies of
// SIGPIPE, and under pipefail the check failed and reinstalled Wails (in about 7
// runs of 20 with the real CLI; always with this one).
func TestWailsCheckSurvivesABrokenPipe(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on the PATH")
	}
	bin, installed := fakeTools(t)
	wails := filepath.Join(bin, "wails")
	script := "#!/bin/bash\necho 'Wails CLI v2.16.0'\nhead -c 1000000 /dev/zero | tr '\\0' 'x'\necho\n"
	if err := os.WriteFile(wails, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := runMake(t, bin, "deps-wails", "WAILS="+wails)
	if err != nil {
		t.Fatalf("make deps-wails with Wails v2.16.0 installed: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(installed); len(b) > 0 || strings.Contains(out, "installing") {
		t.Errorf("make deps-wails reinstalled the Wails CLI it has (%s):\n%s", b, out)
	}
}

// TestWailsCheckInstallsWhatIsMissing: without the Wails CLI, or with another version,
// the check installs the pinned one.
func TestWailsCheckInstallsWhatIsMissing(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on the PATH")
	}
	bin, installed := fakeTools(t)
	old := filepath.Join(bin, "wails")
	if err := os.WriteFile(old, []byte("#!/bin/sh\necho 'Wails CLI v2.9.2'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, wails := range []string{filepath.Join(bin, "missing"), old} {
		os.Remove(installed)
		out, err := runMake(t, bin, "deps-wails", "WAILS="+wails)
		b, _ := os.ReadFile(installed)
		if err == nil || !strings.Contains(string(b), "github.com/wailsapp/wails/v2/cmd/wails@v2.16.0") {
			t.Errorf("make deps-wails with %s: err %v, installs %q, want the pinned CLI installed:\n%s", filepath.Base(wails), err, b, out)
		}
	}
}
