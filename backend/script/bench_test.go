package script

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/internal/benchtest"
	"github.com/memotree/memotree/bench/vaultgen"
)

// BenchmarkThousandReads runs one script making 1,000 read-tool calls (read_entities
// and get_entities_toc, on 500 notes each) on a generated 10k-note vault. Target: under
// 200 ms per script. BenchmarkThousandReadsDirect makes the same calls straight on
// the registry, to show what the script itself costs.
func BenchmarkThousandReads(b *testing.B) {
	e, notes := benchVault(b)
	var names []string
	for _, n := range notes {
		names = append(names, fmt.Sprintf("%q", n))
	}
	code := "names = [" + strings.Join(names, ", ") + `]
total = 0
for n in names:
    total += len(read_entities(entity_names=[n])["entities"][0]["content"])
    total += len(get_entities_toc(entity_names=[n]))
__result__ = total
`
	b.ResetTimer()
	cpu := benchtest.CPU()
	defer benchtest.ReportCPU(b, cpu)
	for b.Loop() {
		o := e.mustRun(b, code, false)
		if o.Failure != nil || o.ToolCalls != 1000 {
			b.Fatalf("failure %+v after %d calls", o.Failure, o.ToolCalls)
		}
	}
}

func BenchmarkThousandReadsDirect(b *testing.B) {
	e, notes := benchVault(b)
	b.ResetTimer()
	cpu := benchtest.CPU()
	defer benchtest.ReportCPU(b, cpu)
	for b.Loop() {
		for _, n := range notes {
			q, _ := json.Marshal([]string{n})
			for _, c := range []string{"read_entities", "get_entities_toc"} {
				res, err := e.reg.Call(b.Context(), agent, c, json.RawMessage(`{"entity_names":`+string(q)+`}`))
				if err != nil || res.IsError() {
					b.Fatalf("%s: %v %s", c, err, res.Message)
				}
			}
		}
	}
}

// benchVault opens a generated 10k-note vault and returns 500 of its note names.
func benchVault(b *testing.B) (*env, []string) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: 10_000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	e := newEnv(b, dir, Limits{})
	g, err := e.lib.Graph(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	notes := g.Notes()
	if len(notes) < 500 {
		b.Fatalf("the generated vault has %d notes", len(notes))
	}
	names := make([]string, 500)
	for i, p := range notes[:500] {
		names[i] = p.Name()
	}
	return e, names
}
