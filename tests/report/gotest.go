package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // of build-output and build-fail
	Test       string
	Output     string
}

// testState is what is known of one test while the stream runs.
type testState struct {
	output   []string
	result   string // pass, fail or skip
	hasChild bool
}

// logLine is a line t.Log or t.Skip wrote: indented, "file.go:12: text".
var logLine = regexp.MustCompile(`^\s+\S+\.go:\d+: (.*)$`)

// goTest reads `go test -json` from in, prints to out what go test prints without
// -json — each package's result line, a failed test's whole output, build errors —
// and counts the tests: those without subtests (a parent passes or fails with its
// subtests), and a package that fails outside any test (a build error, a panic at
// init) as one failed test.
func goTest(in io.Reader, out io.Writer) (counts, error) {
	var c counts
	tests := map[string]*testState{} // package + " " + test
	var order []string
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(out, sc.Text()) // not an event: say it as it came
			continue
		}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Action == "build-fail":
			// The package's own fail event follows, and counts it.
		case e.Test == "":
			if e.Action == "output" && strings.TrimSpace(e.Output) != "PASS" && strings.TrimSpace(e.Output) != "FAIL" {
				fmt.Fprint(out, e.Output)
			}
			if e.Action == "fail" && !anyTestFailed(tests, e.Package) {
				c.failed++
			}
		default:
			key := e.Package + " " + e.Test
			st := tests[key]
			if st == nil {
				st = &testState{}
				tests[key] = st
				order = append(order, key)
				if i := strings.LastIndex(e.Test, "/"); i > 0 {
					if parent := tests[e.Package+" "+e.Test[:i]]; parent != nil {
						parent.hasChild = true
					}
				}
			}
			switch e.Action {
			case "output":
				st.output = append(st.output, e.Output)
			case "pass", "fail", "skip":
				st.result = e.Action
				if e.Action == "fail" && !strings.Contains(e.Test, "/") {
					for _, o := range outputOf(tests, order, e.Package, e.Test) {
						if !strings.HasPrefix(o, "=== ") { // RUN, PAUSE, CONT, NAME
							fmt.Fprint(out, o)
						}
					}
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("read go test's output: %w", err)
	}
	for _, key := range order {
		st := tests[key]
		if st.hasChild {
			continue
		}
		switch st.result {
		case "pass":
			c.passed++
		case "fail":
			c.failed++
		case "skip":
			c.skip(skipReason(st.output))
		}
	}
	return c, nil
}

// anyTestFailed reports whether a test of pkg failed (so the package's failure is
// counted already).
func anyTestFailed(tests map[string]*testState, pkg string) bool {
	for key, st := range tests {
		if st.result == "fail" && strings.HasPrefix(key, pkg+" ") {
			return true
		}
	}
	return false
}

// outputOf returns the output of the test name of pkg and of its subtests, in order.
func outputOf(tests map[string]*testState, order []string, pkg, name string) []string {
	var out []string
	for _, key := range order {
		test := strings.TrimPrefix(key, pkg+" ")
		if test == key || (test != name && !strings.HasPrefix(test, name+"/")) {
			continue
		}
		out = append(out, tests[key].output...)
	}
	return out
}

// skipReason is the last line a skipped test logged (t.Skip's message), without its
// file and line.
func skipReason(output []string) string {
	for i := len(output) - 1; i >= 0; i-- {
		if m := logLine.FindStringSubmatch(strings.TrimRight(output[i], "\n")); m != nil {
			return strings.TrimSpace(m[1])
		}
	}
	return ""
}
