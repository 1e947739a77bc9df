package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestGoTest runs a real `go test -json` on a sample module (a package with passing,
// skipped, nested and failing tests, and one that does not build) and reads it.
func TestGoTest(t *testing.T) {
	cmd := exec.Command("go", "test", "-json", "-count=1", "./...")
	cmd.Dir = filepath.Join("testdata", "sample")
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	stream, err := cmd.Output()
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		t.Fatalf("go test: %v", err)
	}
	var out bytes.Buffer
	c, err := goTest(bytes.NewReader(stream), &out)
	if err != nil {
		t.Fatal(err)
	}
	line := filepath.Join(t.TempDir(), "go.txt")
	if err := run([]string{"gotest", "go", line}, bytes.NewReader(stream), io.Discard); !errors.Is(err, errFailed) {
		t.Errorf("run gotest on a failing stream = %v, want errFailed", err)
	}
	// Leaves: Passes, Parent/a, Parent/c/deep pass; Fails/sub fails and the package
	// that does not build counts one; four skips.
	want := "go: 3 passed, 2 failed, 4 skipped (2: the shared corpora are absent; 1: no display; 1: no reason given)"
	if diff := cmp.Diff(want, c.line("go")); diff != "" {
		t.Errorf("line (-want +got):\n%s", diff)
	}
	text := out.String()
	for _, s := range []string{"--- FAIL: TestFails", "want 1, got 2", "undefined: undefinedName", "FAIL\tsample/fine", "FAIL\tsample/broken"} {
		if !strings.Contains(text, s) {
			t.Errorf("the printed output lacks %q:\n%s", s, text)
		}
	}
	for _, s := range []string{"looking for the corpus", "=== RUN", "--- PASS"} {
		if strings.Contains(text, s) {
			t.Errorf("the printed output has %q, which go test without -v does not print:\n%s", s, text)
		}
	}
}

func TestLine(t *testing.T) {
	tests := []struct {
		c    counts
		want string
	}{
		{counts{passed: 5}, "s: 5 passed, 0 failed"},
		{counts{passed: 1, failed: 2, skipped: 7, reasons: map[string]int{"a": 3, "b": 1, "c": 1, "d": 1, "e": 1}},
			"s: 1 passed, 2 failed, 7 skipped (3: a; 1: b; 1: c; 2 for 2 other reasons)"},
	}
	for _, tt := range tests {
		if got := tt.c.line("s"); got != tt.want {
			t.Errorf("line = %q, want %q", got, tt.want)
		}
	}
}

func TestVitest(t *testing.T) {
	file := filepath.Join(t.TempDir(), "vitest.json")
	if err := os.WriteFile(file, []byte(`{"numTotalTests":12,"numPassedTests":9,"numFailedTests":1,"numPendingTests":1,"numTodoTests":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := vitest(file)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.line("frontend"), "frontend: 9 passed, 1 failed, 2 skipped (2: skipped or todo in the test file)"; got != want {
		t.Errorf("line = %q, want %q", got, want)
	}
}

func TestTotal(t *testing.T) {
	dir := t.TempDir()
	for name, line := range map[string]string{
		"lint.txt": "lint: 5 passed, 0 failed",
		"go.txt":   "go: 100 passed, 0 failed, 21 skipped (21: the shared corpora are absent)",
		"e2e.txt":  "e2e: 40 passed, 1 failed, 5 skipped (5: suite: the corpus is not at /x)",
		"go.log":   "not a summary",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// go began 372 s before its line was written, e2e 41 s; lint has no beginning.
	for name, took := range map[string]int64{"go": 372, "e2e": 41} {
		end := time.Unix(1_800_000_000, 0)
		if err := os.Chtimes(filepath.Join(dir, name+".txt"), end, end); err != nil {
			t.Fatal(err)
		}
		began := strconv.FormatInt(end.Unix()-took, 10)
		if err := os.WriteFile(filepath.Join(dir, name+".begin"), []byte(began+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := run([]string{"total", dir, "lint", "go", "smoke", "e2e"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	want := `lint: 5 passed, 0 failed
go: 100 passed, 0 failed, 21 skipped (21: the shared corpora are absent) (in 6 min 12 s)
smoke: stopped short, see its output above (counted as 1 failed)
e2e: 40 passed, 1 failed, 5 skipped (5: suite: the corpus is not at /x) (in 41 s)
tests: 145 passed, 2 failed, 26 skipped
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
}

// TestNodeReporter runs Node's test runner on a sample with node-reporter.mjs.
func TestNodeReporter(t *testing.T) {
	line := filepath.Join(t.TempDir(), "e2e.txt")
	cmd := exec.Command("node", "--test", "--test-reporter=./node-reporter.mjs", "--test-reporter-destination="+line,
		filepath.Join("testdata", "node", "sample.test.mjs"))
	cmd.Env = append(os.Environ(), "REPORT_SUITE=sample")
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("node --test passed a sample with failures:\n%s", out)
	}
	got, err := os.ReadFile(line)
	if err != nil {
		t.Fatal(err)
	}
	want := "sample: 2 passed, 3 failed, 4 skipped (1: later; 1: suite: no reason given; 1: suite: the corpus is not at /x; 1: todo)\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("line (-want +got):\n%s", diff)
	}
}
