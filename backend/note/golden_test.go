package note

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the .golden files in testdata")

// goldenNote is what a golden file records: the parsed note plus each link's literal
// source text, so a wrong span shows up in the diff.
type goldenNote struct {
	Note     *Note    `json:"note"`
	Literals []string `json:"literals"`
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			n := Parse(src)
			g := goldenNote{Note: n}
			for _, l := range n.Links {
				lit := ""
				if l.Start >= 0 {
					lit = string(src[l.Start:l.End])
				}
				g.Literals = append(g.Literals, lit)
			}
			got, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(file, ".md") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("Parse(%s) (-want +got):\n%s", file, diff)
			}
		})
	}
}
