package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
)

// check compares what `memotree index --stats` found in a vault with the truth
// reported by vaultgen when it wrote the vault.
type check struct {
	vault        string
	truth, stats map[string]float64
}

func readJSONNumbers(path string) (map[string]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := map[string]float64{}
	for k, v := range raw {
		if f, ok := v.(float64); ok {
			out[k] = f
		}
	}
	return out, nil
}

func newCheck(vault, summaryPath, statsPath string) (check, error) {
	t, err := readJSONNumbers(summaryPath)
	if err != nil {
		return check{}, err
	}
	s, err := readJSONNumbers(statsPath)
	if err != nil {
		return check{}, err
	}
	return check{vault: vault, truth: t, stats: s}, nil
}

func writeChecks(w io.Writer, cs []check) {
	fmt.Fprintln(w, "| vault | quantity | generator | MemoTree | match |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | :---: |")
	for _, c := range cs {
		t, s := c.truth, c.stats
		links := t["links"]
		withMD := links + t["markdown_links"]
		lines := []struct {
			name  string
			want  []float64
			shown string
			got   string
		}{
			{"notes", []float64{t["notes"]}, num(t["notes"]), "notes"},
			// Whether the indexer counts relations and local Markdown links as links
			// is its own choice; any of these totals is consistent with the vault.
			{"links", []float64{links, withMD, t["body_links"], t["body_links"] + t["markdown_links"]},
				fmt.Sprintf("%s (%s with Markdown links)", num(links), num(withMD)), "links"},
			{"unresolved", []float64{t["dangling"], t["dangling"] - t["dangling_relations"]}, num(t["dangling"]), "unresolved"},
			{"relations", []float64{t["relations"]}, num(t["relations"]), "relations"},
		}
		for _, l := range lines {
			got, ok := s[l.got]
			mark, shown := "✗", "—"
			if ok {
				shown = num(got)
				if slices.Contains(l.want, got) {
					mark = "✓"
				}
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", c.vault, l.name, l.shown, shown, mark)
		}
	}
}

func num(f float64) string { return fmt.Sprintf("%.0f", f) }
