package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// SECURITY.md sets each promise beside the tests that keep it. A test renamed or
// removed, or a file moved, would leave a promise beside nothing: every Go test,
// fuzz target and benchmark it names in backticks must be defined, and every file it
// names must exist.
var (
	securityTestName = regexp.MustCompile("`((?:Test|Fuzz|Benchmark)[A-Za-z0-9_]+)`")
	securityFile     = regexp.MustCompile("`((?:frontend|tests|scripts|backend|cli|app)/[A-Za-z0-9_./-]+\\.(?:mjs|ts|sh|go))`")
	goTestDef        = regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)[A-Za-z0-9_]+)\(`)
)

func TestSecurityNamesOnlyTestsThatExist(t *testing.T) {
	text := read(t, "SECURITY.md")
	defined := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		for _, m := range goTestDef.FindAllStringSubmatch(string(b), -1) {
			defined[m[1]] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	named := 0
	for _, m := range securityTestName.FindAllStringSubmatch(text, -1) {
		named++
		if !defined[m[1]] {
			missing = append(missing, m[1])
		}
	}
	slices.Sort(missing)
	if missing = slices.Compact(missing); len(missing) > 0 {
		t.Errorf("SECURITY.md names tests that are not defined anywhere: %s", strings.Join(missing, ", "))
	}
	if named < 100 {
		t.Errorf("SECURITY.md names %d tests: the pattern no longer finds them", named)
	}
	for _, m := range securityFile.FindAllStringSubmatch(text, -1) {
		if _, err := os.Stat(filepath.Join(root, m[1])); err != nil {
			t.Errorf("SECURITY.md names %s: %v", m[1], err)
		}
	}
}
