package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// row is one line of the comparison table.
type row struct {
	op, vault, memotree, refTool, reference, ratio string
	cpu, target, verdict                           string // "" when not measured
}

// hyperfineExport is the part of `hyperfine --export-json` output that is used.
type hyperfineExport struct {
	Results []struct {
		Command string  `json:"command"`
		Mean    float64 `json:"mean"`
		Stddev  float64 `json:"stddev"`
		Median  float64 `json:"median"`
	} `json:"results"`
}

// readRows parses the rows file the bench script writes. Each non-empty line that does
// not start with '#' is tab-separated:
//
//	ab     OPERATION VAULT TARGET AB.json   (bench/cmd/ab: results[0] is MemoTree, results[1] the reference)
//	time   OPERATION VAULT HYPERFINE.json   (results[0] is MemoTree, results[1] the reference)
//	value  OPERATION VAULT MEMOTREE REFTOOL REFERENCE UNIT [TARGET]
//	note   TEXT
//	check  VAULT VAULTGEN-SUMMARY.json MEMOTREE-STATS.json
//
// A TARGET is ratio<=N, value<=N, value>=N (MemoTree's own value, in the row's unit;
// seconds for ab rows) or -.
//
// Relative JSON paths are taken from the rows file's folder.
func readRows(path string) (rows []row, notes []string, checks []check, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(filepath.Dir(path), p)
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		bad := func(msg string) error { return fmt.Errorf("%s:%d: %s", path, n, msg) }
		switch {
		case fields[0] == "note" && len(fields) == 2:
			notes = append(notes, fields[1])
		case fields[0] == "ab" && len(fields) == 5:
			r, err := abRow(fields[1], fields[2], fields[3], rel(fields[4]))
			if err != nil {
				return nil, nil, nil, bad(err.Error())
			}
			rows = append(rows, r)
		case fields[0] == "time" && len(fields) == 4:
			r, err := timeRow(fields[1], fields[2], rel(fields[3]))
			if err != nil {
				return nil, nil, nil, bad(err.Error())
			}
			rows = append(rows, r)
		case fields[0] == "check" && len(fields) == 4:
			c, err := newCheck(fields[1], rel(fields[2]), rel(fields[3]))
			if err != nil {
				return nil, nil, nil, bad(err.Error())
			}
			checks = append(checks, c)
		case fields[0] == "value" && (len(fields) == 7 || len(fields) == 8):
			r, err := valueRow(fields[1:])
			if err != nil {
				return nil, nil, nil, bad(err.Error())
			}
			rows = append(rows, r)
		default:
			return nil, nil, nil, bad("want time, value, check or note with the right number of tab-separated fields")
		}
	}
	return rows, notes, checks, sc.Err()
}

func timeRow(op, vault, path string) (row, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return row{}, err
	}
	var h hyperfineExport
	if err := json.Unmarshal(b, &h); err != nil {
		return row{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(h.Results) != 2 {
		return row{}, fmt.Errorf("%s: %d results, want 2 (MemoTree, reference)", path, len(h.Results))
	}
	m, ref := h.Results[0], h.Results[1]
	return row{
		op: op, vault: vault,
		memotree:  seconds(m.Mean, m.Stddev),
		refTool:   ref.Command,
		reference: seconds(ref.Mean, ref.Stddev),
		ratio:     ratio(m.Mean, ref.Mean),
	}, nil
}

func valueRow(f []string) (row, error) {
	m, err1 := strconv.ParseFloat(f[2], 64)
	ref, err2 := strconv.ParseFloat(f[4], 64)
	if err1 != nil || err2 != nil {
		return row{}, fmt.Errorf("values %q and %q must be numbers", f[2], f[4])
	}
	r := row{
		op: f[0], vault: f[1],
		memotree: quantity(m, f[5]), refTool: f[3], reference: quantity(ref, f[5]),
		ratio: ratio(m, ref),
	}
	if len(f) == 7 {
		t, err := parseTarget(f[6])
		if err != nil {
			return row{}, err
		}
		r.target = t.String(func(v float64) string { return quantity(v, f[5]) })
		switch t.what {
		case "ratio":
			r.verdict = t.verdict([]float64{m / ref})
		case "value":
			r.verdict = t.verdict([]float64{m})
		}
	}
	return r, nil
}

// seconds formats a mean and standard deviation given in seconds.
func seconds(mean, sd float64) string {
	switch {
	case mean >= 1:
		return fmt.Sprintf("%.2f s ± %.2f", mean, sd)
	case mean >= 0.001:
		return fmt.Sprintf("%.1f ms ± %.1f", mean*1e3, sd*1e3)
	default:
		return fmt.Sprintf("%.0f µs ± %.0f", mean*1e6, sd*1e6)
	}
}

// quantity formats a value; kilobytes (as /usr/bin/time reports them) become MB.
func quantity(v float64, unit string) string {
	if unit == "KB" {
		return fmt.Sprintf("%.1f MB", v/1024)
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + " " + unit
}

// ratio is MemoTree's value divided by the reference's: above 1, MemoTree is slower
// or larger.
func ratio(m, ref float64) string {
	if ref == 0 || math.IsNaN(m/ref) {
		return "—"
	}
	return fmt.Sprintf("%.2f×", m/ref)
}

func writeTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| operation | vault | MemoTree | reference tool | reference | ratio | CPU ratio | target | verdict |")
	fmt.Fprintln(w, "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | --- |")
	dash := func(s string) string {
		if s == "" {
			return "—"
		}
		return s
	}
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			cell(r.op), cell(r.vault), cell(r.memotree), cell(r.refTool), cell(r.reference), r.ratio,
			dash(r.cpu), dash(r.target), dash(r.verdict))
	}
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// goBench is one result line of `go test -bench -benchmem`.
type goBench struct {
	pkg, name, iters string
	metrics          map[string]string // unit -> value
	order            []string
}

// readGoBench parses `go test -bench` output, keeping the package of each result.
func readGoBench(r io.Reader) ([]goBench, error) {
	var out []goBench
	pkg := ""
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "pkg:":
			pkg = f[1]
		case len(f) >= 4 && strings.HasPrefix(f[0], "Benchmark") && len(f)%2 == 0:
			if _, err := strconv.Atoi(f[1]); err != nil {
				continue
			}
			b := goBench{pkg: pkg, name: f[0], iters: f[1], metrics: map[string]string{}}
			for i := 2; i+1 < len(f); i += 2 {
				b.metrics[f[i+1]] = f[i]
				b.order = append(b.order, f[i+1])
			}
			out = append(out, b)
		}
	}
	return out, sc.Err()
}

func writeGoBench(w io.Writer, bs []goBench) {
	fmt.Fprintln(w, "| package | benchmark | runs | ns/op | MB/s | B/op | allocs/op | other |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
	std := map[string]bool{"ns/op": true, "MB/s": true, "B/op": true, "allocs/op": true}
	for _, b := range bs {
		get := func(u string) string {
			if v, ok := b.metrics[u]; ok {
				return v
			}
			return "—"
		}
		var other []string
		for _, u := range b.order {
			if !std[u] {
				other = append(other, b.metrics[u]+" "+u)
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
			strings.TrimPrefix(b.pkg, "github.com/memotree/memotree/"), b.name, b.iters,
			get("ns/op"), get("MB/s"), get("B/op"), get("allocs/op"), cell(strings.Join(other, ", ")))
	}
}
