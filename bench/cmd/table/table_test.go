package main

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/want.md")

func TestRenderGolden(t *testing.T) {
	got, err := render("MemoTree benchmarks", []string{"Run on a test machine."},
		"testdata/rows.tsv", "testdata/gobench.txt")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("testdata/want.md", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/want.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("render mismatch; got:\n%s", got)
	}
}

func TestRows(t *testing.T) {
	rows, notes, checks, err := readRows("testdata/rows.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || len(notes) != 1 || len(checks) != 1 {
		t.Fatalf("rows %v notes %v", rows, notes)
	}
	// testdata/hyperfine.json: memotree mean 36.46 ms, rg 24.21 ms.
	r := rows[0]
	if r.op != "index (warm)" || r.vault != "1k" || r.refTool != "rg" ||
		!strings.HasPrefix(r.memotree, "36.5 ms ± ") || !strings.HasPrefix(r.reference, "24.2 ms ± ") || r.ratio != "1.51×" {
		t.Errorf("time row = %+v", r)
	}
	if r := rows[1]; r.memotree != "20.0 MB" || r.reference != "10.0 MB" || r.ratio != "2.00×" {
		t.Errorf("value row = %+v", r)
	}
	// testdata/ab.json: round ratios 2.73, 2.80, 3.30, 2.42; the last over 3.
	if r := rows[2]; r.memotree != "295 ms (280 ms–330 ms)" || r.ratio != "2.76× (2.42–3.30)" || r.target != "≤ 3×" || r.verdict != "met on the median only" {
		t.Errorf("ab row = %+v", r)
	}
	if r := rows[3]; r.target != "≤ 2000 tokens" || r.verdict != "met" {
		t.Errorf("value row with a target = %+v", r)
	}
}

func TestVerdicts(t *testing.T) {
	for _, c := range []struct {
		spec    string
		samples []float64
		want    string
	}{
		{"ratio<=3", []float64{2.5, 2.9}, "met"},
		{"ratio<=3", []float64{2.5, 2.9, 3.1}, "met on the median only"},
		{"ratio<=3", []float64{3.5, 3.1, 2.9}, "**missed**"},
		{"value>=30", []float64{31, 45}, "met"},
		{"value>=30", []float64{29, 45, 50}, "met on the median only"},
		{"-", []float64{9}, ""},
	} {
		tg, err := parseTarget(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := tg.verdict(c.samples); got != c.want {
			t.Errorf("%s %v: %q, want %q", c.spec, c.samples, got, c.want)
		}
	}
	if _, err := parseTarget("about 3"); err == nil {
		t.Error("parseTarget accepted nonsense")
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{seconds(2.5, 0.1), "2.50 s ± 0.10"},
		{seconds(0.0123, 0.0004), "12.3 ms ± 0.4"},
		{seconds(0.000250, 0.000010), "250 µs ± 10"},
		{ratio(1, 0), "—"},
		{ratio(1, 4), "0.25×"},
		{quantity(3, "files"), "3 files"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestBadRows(t *testing.T) {
	p := t.TempDir() + "/rows.tsv"
	for _, bad := range []string{"time\tx\t1k\n", "value\tm\t1k\tx\trg\t1\tKB\n", "what\n", "check\t1k\tnone.json\tnone.json\n", "time\tx\t1k\tmissing.json\n"} {
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := readRows(p); err == nil {
			t.Errorf("readRows accepted %q", bad)
		}
	}
}

func TestGoBench(t *testing.T) {
	f, err := os.Open("testdata/gobench.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bs, err := readGoBench(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 2 || bs[0].metrics["MB/s"] != "284.31" || bs[1].metrics["links/op"] != "12.0" ||
		bs[1].pkg != "github.com/memotree/memotree/backend/note" {
		t.Errorf("parsed %+v", bs)
	}
}
