// Command report turns the output of make test's suites into the lines its end
// prints: one line a suite, "NAME: N passed, N failed, N skipped", with why tests were
// skipped, then the whole run's total on a line of its own.
//
//	go test -json ./... | go run ./tests/report gotest NAME FILE
//	    prints what go test prints without -json (each package's result, and the
//	    output of failed tests), and writes the suite's line to FILE
//	go run ./tests/report vitest NAME JSON FILE
//	    writes the line of a Vitest run from its JSON report
//	go run ./tests/report total DIR NAME...
//	    prints each suite's line from DIR/NAME.txt, in the order given, then the
//	    total; a suite without its line stopped short, and counts as one failure
//
// The Node test runner's end-to-end suites write their line through
// tests/report/node-reporter.mjs; the shell suites write theirs with printf.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// errFailed means the suite read had failures: the command exits 1, as the suite did.
var errFailed = errors.New("tests failed")

func main() {
	err := run(os.Args[1:], os.Stdin, os.Stdout)
	if errors.Is(err, errFailed) {
		os.Exit(1)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(2)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	usage := fmt.Errorf("usage: report gotest NAME FILE | vitest NAME JSON FILE | total DIR NAME...")
	if len(args) == 0 {
		return usage
	}
	switch {
	case args[0] == "gotest" && len(args) == 3:
		c, err := goTest(stdin, stdout)
		if err != nil {
			return err
		}
		if err := writeLine(args[2], c.line(args[1])); err != nil {
			return err
		}
		if c.failed > 0 {
			return errFailed
		}
		return nil
	case args[0] == "vitest" && len(args) == 4:
		c, err := vitest(args[2])
		if err != nil {
			return err
		}
		return writeLine(args[3], c.line(args[1]))
	case args[0] == "total" && len(args) >= 3:
		return total(args[1], args[2:], stdout)
	}
	return usage
}

// writeLine writes line to file, with a line break.
func writeLine(file, line string) error {
	if err := os.WriteFile(file, []byte(line+"\n"), 0o644); err != nil {
		return fmt.Errorf("write the summary %s: %w", file, err)
	}
	return nil
}
