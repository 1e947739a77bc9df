package catalog_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/bench/vaultgen"
)

// kitBenchVault generates a 1,000-note vault with a rare marker written into three
// notes, and opens it.
func kitBenchVault(b *testing.B) *tool.Registry {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: 1000, Seed: 7}); err != nil {
		b.Fatal(err)
	}
	n := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" || n >= 3 {
			return err
		}
		n++
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteString("\nA zyxwvut marker line.\n")
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return kitOpen(b, dir)
}

// BenchmarkSearchInContents measures searches once the library's text cache is warm
// (the first search of a library reads every note from disk, through os.Root).
func BenchmarkSearchInContents(b *testing.B) {
	reg := kitBenchVault(b)
	cases := []struct{ name, args string }{
		{"regexp-rare-literal", `{"content_glob":"/zyxwvut\\s+marker/"}`},
		{"regexp-no-literal", `{"content_glob":"/(zyxwvut|zyxwvuu) marker/"}`},
		{"glob-rare", `{"content_glob":"*zyxwvut*marker*"}`},
		{"glob-common", `{"content_glob":"*overview*","max_results":50}`},
	}
	kitCall(b, reg, "search_in_contents", `{"content_glob":"warm the cache"}`)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res := kitCall(b, reg, "search_in_contents", c.args)
				if res.IsError() {
					b.Fatal(res.YAML())
				}
			}
		})
	}
}
