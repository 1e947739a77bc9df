// Command table turns the measurements of bench/run.sh into bench/RESULTS.md:
//
//	table [-o RESULTS.md] [-title T] [-note TEXT]... [-gobench go-bench.txt] ROWS.tsv
//
// ROWS.tsv lists hyperfine exports and single values to compare (see readRows); the
// optional -gobench file is the output of `go test -bench . -benchmem`.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, "; ") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

func main() {
	out := flag.String("o", "", "output file (default standard output)")
	title := flag.String("title", "MemoTree benchmarks", "document title")
	gobench := flag.String("gobench", "", "output of go test -bench to append as a second table")
	var notes multi
	flag.Var(&notes, "note", "a line printed under the title (repeatable)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: table [-o FILE] [-title T] [-note TEXT]... [-gobench FILE] ROWS.tsv")
		os.Exit(2)
	}
	doc, err := render(*title, notes, flag.Arg(0), *gobench)
	if err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(1)
	}
	if *out == "" {
		_, err = os.Stdout.Write(doc)
	} else {
		err = os.WriteFile(*out, doc, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(1)
	}
}

// render builds the whole Markdown document.
func render(title string, notes []string, rowsPath, gobenchPath string) ([]byte, error) {
	rows, rowNotes, checks, err := readRows(rowsPath)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n", title)
	for _, n := range notes {
		fmt.Fprintf(&b, "%s\n", n)
	}
	if len(notes) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("## Whole processes\n\n")
	b.WriteString("Wall time: the median of the runs with their range (min–max). The two commands of a row ran " +
		"interleaved, round by round (bench/cmd/ab), so a slower or faster moment of the machine weighs on both; " +
		"the ratio is MemoTree over the reference, the median of the rounds' ratios with their range, and the CPU " +
		"ratio compares the medians of user plus system time. Below 1, MemoTree is faster or smaller. A target is " +
		"met only when every round holds it; \"met on the median only\" says a rerun may miss it.\n\n")
	writeTable(&b, rows)
	for _, n := range rowNotes {
		fmt.Fprintf(&b, "\n%s\n", n)
	}
	if len(checks) > 0 {
		b.WriteString("\n## Index correctness\n\n")
		b.WriteString("What `memotree index --stats` found, against what vaultgen wrote.\n\n")
		writeChecks(&b, checks)
	}
	if gobenchPath != "" {
		f, err := os.Open(gobenchPath)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		bs, err := readGoBench(f)
		if err != nil {
			return nil, err
		}
		b.WriteString("\n## Go benchmarks\n\n")
		if len(bs) == 0 {
			b.WriteString("No benchmarks ran.\n")
		} else {
			writeGoBench(&b, bs)
		}
	}
	return b.Bytes(), nil
}
