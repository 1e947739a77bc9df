package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVersionLines: the three lines of `memotree version` from what the binary
// carries: a stamped revision, one with uncommitted changes, one set by -ldflags, none.
func TestVersionLines(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.0", Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-12-07T10:00:00Z"}, {Key: "vcs.modified", Value: "false"}}}
	modified := &debug.BuildInfo{GoVersion: "go1.26.0", Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}, {Key: "vcs.modified", Value: "true"}}}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name     string
		bi       *debug.BuildInfo
		ok       bool
		override string
		want     string
	}{
		{"stamped", stamped, true, "", "memotree " + Version + "\ncommit 0123456789abcdef0123456789abcdef01234567 (2026-12-07T10:00:00Z)\ngo1.26.0 " + platform + "\n"},
		{"modified", modified, true, "", "memotree " + Version + "\ncommit 0123456789abcdef0123456789abcdef01234567 (with uncommitted changes)\ngo1.26.0 " + platform + "\n"},
		{"ldflags", stamped, true, "feedface", "memotree " + Version + "\ncommit feedface\ngo1.26.0 " + platform + "\n"},
		{"nothing", nil, false, "", "memotree " + Version + "\ncommit unknown (built without version control information)\n" + runtime.Version() + " " + platform + "\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		writeVersion(&b, tt.bi, tt.ok, tt.override)
		if d := cmp.Diff(tt.want, b.String()); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, d)
		}
	}
}

// TestVersionCommand builds the real binary from this checkout as the Makefile does:
// `memotree --version` and `memotree version` print the version, the commit git names
// as HEAD and the Go version, and exit 0; an extra argument is a usage error.
func TestVersionCommand(t *testing.T) {
	head, err := exec.Command("git", "-C", "..", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v", err)
	}
	bin := headlessBinary(t)
	for _, arg := range []string{"--version", "-version", "version"} {
		out, err := exec.Command(bin, arg).CombinedOutput()
		if err != nil {
			t.Errorf("memotree %s: %v\n%s", arg, err, out)
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 3 || lines[0] != "memotree "+Version || !strings.HasPrefix(lines[1], "commit "+strings.TrimSpace(string(head))) ||
			!strings.HasPrefix(lines[2], "go1.") {
			t.Errorf("memotree %s printed:\n%s\nwant the version, commit %s and the Go version", arg, out, head)
		}
	}
	out, err := exec.Command(bin, "version", "extra").CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), `unexpected argument "extra"`) {
		t.Errorf("memotree version extra: exit %d, %s", code, out)
	}
}

// built is the headless binary the tests of this package share, built once.
var built struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

// headlessBinary returns the path of a headless memotree built from this checkout as
// `make headless` builds it (CGO_ENABLED=0, the Makefile's LDFLAGS naming the commit:
// go stamps no revision in a git worktree, nor where GOFLAGS turns it off), building
// it on first use. TestMain removes it. make test-go, which has just built that very
// binary, names it in MEMOTREE_TEST_BIN: building it again from inside `go test ./...`
// took minutes on a loaded machine.
func headlessBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("MEMOTREE_TEST_BIN"); bin != "" {
		return bin
	}
	built.once.Do(func() {
		var ldflags []byte
		ldflags, built.err = exec.Command("make", "-s", "-C", "..", "--eval", "print-ldflags: ; @echo $(LDFLAGS)", "print-ldflags").Output()
		if built.err != nil {
			built.err = fmt.Errorf("read the Makefile's LDFLAGS: %w", built.err)
			return
		}
		built.dir, built.err = os.MkdirTemp("", "memotree-cli-test-")
		if built.err != nil {
			return
		}
		build := exec.Command("go", "build", "-ldflags", strings.TrimSpace(string(ldflags)), "-o", filepath.Join(built.dir, "memotree"), "..")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		built.out, built.err = build.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return filepath.Join(built.dir, "memotree")
}

// exitCode returns the exit code err carries, 0 for nil and -1 for an error that is
// not an exit.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}
