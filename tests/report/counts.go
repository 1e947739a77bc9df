package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
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

// total prints every summary line of dir (the *.txt files, in name order) and the
// run's total, "tests: N passed, N failed, N skipped".
func total(dir string, out io.Writer) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return err
	}
	slices.Sort(files)
	var sum counts
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return fmt.Errorf("read the summary %s: %w", f, err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			fmt.Fprintln(out, sc.Text())
			if m := lineRE.FindStringSubmatch(sc.Text()); m != nil {
				sum.passed += atoi(m[2])
				sum.failed += atoi(m[3])
				sum.skipped += atoi(m[4])
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			return fmt.Errorf("read the summary %s: %w", f, err)
		}
	}
	fmt.Fprintf(out, "tests: %d passed, %d failed, %d skipped\n", sum.passed, sum.failed, sum.skipped)
	return nil
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
