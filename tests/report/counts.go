package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// counts is one suite's result: how many tests passed, failed and were skipped, and
// how many were skipped for each reason.
type counts struct {
	passed, failed, skipped int
	reasons                 map[string]int
}

// skip counts one skipped test with its reason.
func (c *counts) skip(reason string) {
	c.skipped++
	if c.reasons == nil {
		c.reasons = map[string]int{}
	}
	if reason == "" {
		reason = "no reason given"
	}
	c.reasons[reason]++
}

// maxReasons is how many distinct reasons a line names; the rest are counted.
const maxReasons = 3

// line is the suite's summary line: "NAME: 3 passed, 0 failed, 2 skipped (2: why)",
// the reasons most frequent first.
func (c counts) line(name string) string {
	s := fmt.Sprintf("%s: %d passed, %d failed", name, c.passed, c.failed)
	if c.skipped == 0 {
		return s
	}
	s += fmt.Sprintf(", %d skipped", c.skipped)
	rs := make([]string, 0, len(c.reasons))
	for text := range c.reasons {
		rs = append(rs, text)
	}
	slices.SortFunc(rs, func(a, b string) int { return cmp.Or(cmp.Compare(c.reasons[b], c.reasons[a]), cmp.Compare(a, b)) })
	var parts []string
	for i, r := range rs {
		if i == maxReasons {
			rest := 0
			for _, o := range rs[i:] {
				rest += c.reasons[o]
			}
			parts = append(parts, fmt.Sprintf("%d for %d other reasons", rest, len(rs)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%d: %s", c.reasons[r], r))
	}
	return s + " (" + strings.Join(parts, "; ") + ")"
}

// lineRE reads a summary line back.
var lineRE = regexp.MustCompile(`^(\S+): (\d+) passed, (\d+) failed(?:, (\d+) skipped)?`)

// total prints the summary line of each suite of names (from dir/NAME.txt, with the
// time it took when dir/NAME.begin says when it began) and the run's total, "tests: N passed, N failed, N skipped". A suite without its file
// stopped short (a failing command before its tests were counted, or never run) and
// counts as one failure.
func total(dir string, names []string, out io.Writer) error {
	var sum counts
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name+".txt"))
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(out, "%s: stopped short, see its output above (counted as 1 failed)\n", name)
			sum.failed++
			continue
		}
		if err != nil {
			return fmt.Errorf("read the summary of %s: %w", name, err)
		}
		line := strings.TrimSpace(string(b))
		fmt.Fprintln(out, line+took(dir, name))
		m := lineRE.FindStringSubmatch(line)
		if m == nil {
			return fmt.Errorf("the summary of %s is not a summary line: %q", name, line)
		}
		sum.passed += atoi(m[2])
		sum.failed += atoi(m[3])
		sum.skipped += atoi(m[4])
	}
	fmt.Fprintf(out, "tests: %d passed, %d failed, %d skipped\n", sum.passed, sum.failed, sum.skipped)
	return nil
}

// took returns " (in N s)", the time from the second the suite began, which make
// test writes to dir/NAME.begin, to its line's writing; "" when either is missing. So
// a CI run that grows too long says which suite grew.
func took(dir, name string) string {
	b, err := os.ReadFile(filepath.Join(dir, name+".begin"))
	if err != nil {
		return ""
	}
	began, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return ""
	}
	fi, err := os.Stat(filepath.Join(dir, name+".txt"))
	if err != nil {
		return ""
	}
	n := max(fi.ModTime().Unix()-began, 0)
	if n >= 60 {
		return fmt.Sprintf(" (in %d min %d s)", n/60, n%60)
	}
	return fmt.Sprintf(" (in %d s)", n)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
