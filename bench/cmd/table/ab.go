package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// abExport is the part of bench/cmd/ab's JSON that is used.
type abExport struct {
	Results []struct {
		Name   string    `json:"name"`
		Wall   []float64 `json:"wall_s"`
		CPU    []float64 `json:"cpu_s"`
		Failed int       `json:"failed"`
	} `json:"results"`
	Load []string `json:"load_average"`
}

// target is what a row must show: a bound on the ratio (MemoTree over the reference,
// round by round), on MemoTree's own value, or nothing.
type target struct {
	what  string // "ratio", "value" or "" (none)
	upper bool   // a bound from above (≤); else from below (≥)
	bound float64
}

// parseTarget reads "ratio<=3", "value<=0.2", "value>=30" or "-".
func parseTarget(s string) (target, error) {
	if s == "" || s == "-" {
		return target{}, nil
	}
	for _, op := range []string{"<=", ">="} {
		what, num, ok := strings.Cut(s, op)
		if !ok {
			continue
		}
		b, err := strconv.ParseFloat(num, 64)
		if err != nil || what != "ratio" && what != "value" {
			break
		}
		return target{what: what, upper: op == "<=", bound: b}, nil
	}
	return target{}, fmt.Errorf("target %q: want ratio<=N, value<=N, value>=N or -", s)
}

// String writes the target as the table shows it.
func (t target) String(unit func(float64) string) string {
	if t.what == "" {
		return "—"
	}
	op := "≤ "
	if !t.upper {
		op = "≥ "
	}
	if t.what == "ratio" {
		return op + strconv.FormatFloat(t.bound, 'f', -1, 64) + "×"
	}
	return op + unit(t.bound)
}

// verdict judges samples (ratios or values) against the target: met when every
// sample holds, "met on the median" when only the median does, else missed.
func (t target) verdict(samples []float64) string {
	if t.what == "" || len(samples) == 0 {
		return ""
	}
	holds := func(v float64) bool {
		if t.upper {
			return v <= t.bound
		}
		return v >= t.bound
	}
	worst := slices.Max(samples)
	if !t.upper {
		worst = slices.Min(samples)
	}
	switch {
	case holds(worst):
		return "met"
	case holds(median(samples)):
		return "met on the median only"
	}
	return "**missed**"
}

// abRow turns interleaved runs into a row: medians with their range, the median of
// the round-by-round ratios with its range, the CPU ratio, and the verdict.
func abRow(op, vault, targetSpec, path string) (row, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return row{}, err
	}
	var e abExport
	if err := json.Unmarshal(b, &e); err != nil {
		return row{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(e.Results) != 2 || len(e.Results[0].Wall) == 0 || len(e.Results[0].Wall) != len(e.Results[1].Wall) {
		return row{}, fmt.Errorf("%s: want two commands with the same number of runs", path)
	}
	t, err := parseTarget(targetSpec)
	if err != nil {
		return row{}, err
	}
	m, ref := e.Results[0], e.Results[1]
	ratios := make([]float64, len(m.Wall))
	for i := range m.Wall {
		ratios[i] = m.Wall[i] / ref.Wall[i]
	}
	r := row{
		op: op, vault: vault,
		memotree: spread(m.Wall, secondsShort), refTool: ref.Name, reference: spread(ref.Wall, secondsShort),
		ratio:  fmt.Sprintf("%.2f× (%.2f–%.2f)", median(ratios), slices.Min(ratios), slices.Max(ratios)),
		cpu:    ratio(median(m.CPU), median(ref.CPU)),
		target: t.String(secondsShort),
	}
	switch t.what {
	case "ratio":
		r.verdict = t.verdict(ratios)
	case "value":
		r.verdict = t.verdict(m.Wall)
	}
	if m.Failed+ref.Failed > 0 {
		r.verdict += fmt.Sprintf(" (%d runs failed)", m.Failed+ref.Failed)
	}
	return r, nil
}

// spread writes the median of v with its range.
func spread(v []float64, f func(float64) string) string {
	return fmt.Sprintf("%s (%s–%s)", f(median(v)), f(slices.Min(v)), f(slices.Max(v)))
}

// secondsShort writes a time in seconds with a unit that suits it.
func secondsShort(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.2f s", s)
	case s >= 0.001:
		return fmt.Sprintf("%.0f ms", s*1e3)
	}
	return fmt.Sprintf("%.0f µs", s*1e6)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
