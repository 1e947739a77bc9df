package script

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarktest"
)

// TestStarFiles runs every testdata/*.star script with the assert module, each on a
// fresh vault. A script must finish (its asserts report to t); the name of a file
// ending in _fails.star must instead stop with the error its first line names
// ("# fails: <substring>").
func TestStarFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/*.star")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	assert, err := starlarktest.LoadAssertModule()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			e := newEnv(t, writeVault(t, false), Limits{})
			e.run.extra = starlark.StringDict{"assert": assert["assert"]}
			e.run.onThread = func(th *starlark.Thread) { starlarktest.SetReporter(th, t) }
			o := e.mustRun(t, string(src), false)
			first, _, _ := strings.Cut(string(src), "\n")
			want, failing := strings.CutPrefix(first, "# fails: ")
			switch {
			case failing && o.Failure == nil:
				t.Fatalf("the script finished; want it to fail with %q", want)
			case failing && !strings.Contains(string(o.Failure.Code)+" "+o.Failure.Message, want):
				t.Fatalf("failure %s %q; want %q", o.Failure.Code, o.Failure.Message, want)
			case !failing && o.Failure != nil:
				t.Fatalf("failure %s: %s\noutput:\n%s", o.Failure.Code, o.Failure.Message, o.Output)
			}
		})
	}
}
