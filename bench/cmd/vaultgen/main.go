// Command vaultgen writes a deterministic synthetic vault and prints its Summary as
// JSON:
//
//	go run ./bench/cmd/vaultgen -n 10000 -seed 1 [-shape flow] -out DIR
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/memotree/memotree/bench/vaultgen"
)

func main() {
	var o vaultgen.Options
	flag.IntVar(&o.Notes, "n", 1000, "number of notes")
	flag.Int64Var(&o.Seed, "seed", 1, "seed; the same seed and options give the same bytes")
	flag.IntVar(&o.MinWords, "min-words", 0, "fewest words in a body (default by shape: 300 for the own shape)")
	flag.IntVar(&o.MaxWords, "max-words", 0, "most words in a body (default by shape: 3000 for the own shape)")
	flag.IntVar(&o.Workers, "workers", 0, "parallel writers (default GOMAXPROCS)")
	shape := flag.String("shape", string(vaultgen.ShapeOwn), fmt.Sprintf("the kind of vault, one of %v", vaultgen.Shapes))
	out := flag.String("out", "", "output directory; must not exist or be empty")
	flag.Parse()
	o.Shape = vaultgen.Shape(*shape)
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: vaultgen -n NOTES -seed SEED -out DIR")
		os.Exit(2)
	}
	s, err := vaultgen.Generate(*out, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vaultgen:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		os.Exit(1)
	}
}
