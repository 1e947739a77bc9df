package vault

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/memotree/memotree/backend/internal/benchtest"
	"github.com/memotree/memotree/backend/vpath"
)

func BenchmarkWrite(b *testing.B) {
	dir := b.TempDir()
	v, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	note := bytes.Repeat([]byte("0123456789\n"), 1000)[:10_000]
	ctx := b.Context()
	b.SetBytes(int64(len(note)))
	for i := 0; b.Loop(); i++ {
		if _, err := v.Write(ctx, "notes/bench.md", note, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLock takes and releases the vault lock, as every write does first: the
// lock's look for what a crash left (a batch's intent) lists .memotree, here holding
// a few of the app's files.
func BenchmarkLock(b *testing.B) {
	dir := b.TempDir()
	v, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	if err := v.ensureInternal(); err != nil {
		b.Fatal(err)
	}
	for i := range 8 {
		if err := os.WriteFile(filepath.Join(dir, internalDir, fmt.Sprintf("f%d", i)), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := b.Context()
	for b.Loop() {
		unlock, err := v.Lock(ctx)
		if err != nil {
			b.Fatal(err)
		}
		unlock()
	}
}

func BenchmarkWalk(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			makeTree(b, dir, 100, n)
			v, err := Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			b.Run("vault", func(b *testing.B) {
				cpu := benchtest.CPU()
				defer func() { benchtest.ReportCPU(b, cpu) }()
				for b.Loop() {
					got, err := v.Walk(b.Context())
					if err != nil || len(got) != n {
						b.Fatalf("Walk = %d files, %v", len(got), err)
					}
				}
			})
			b.Run("vault-paths", func(b *testing.B) { // what a full index lists: no stat per file
				cpu := benchtest.CPU()
				defer func() { benchtest.ReportCPU(b, cpu) }()
				for b.Loop() {
					got, err := v.WalkPaths(b.Context())
					if err != nil || len(got) != n {
						b.Fatalf("WalkPaths = %d files, %v", len(got), err)
					}
				}
			})
			b.Run("vault-names", func(b *testing.B) { // what a full index lists now: the paths alone
				cpu := benchtest.CPU()
				defer func() { benchtest.ReportCPU(b, cpu) }()
				for b.Loop() {
					got, err := v.WalkNames(b.Context())
					if err != nil || len(got) != n {
						b.Fatalf("WalkNames = %d files, %v", len(got), err)
					}
				}
			})
			b.Run("filepath.WalkDir", func(b *testing.B) { // the baseline: sequential, same stat per file
				cpu := benchtest.CPU()
				defer func() { benchtest.ReportCPU(b, cpu) }()
				for b.Loop() {
					walkDirBaseline(b, dir, n)
				}
			})
		})
	}
}

func BenchmarkAppendJourney(b *testing.B) {
	dir := b.TempDir()
	v, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	e := Entry{Actor: "agent", Op: "update_entity", Entities: []string{"people/Ada Lovelace"}, Args: "mode: append", Turn: "turn-42"}
	for b.Loop() {
		if err := v.AppendJourney(b.Context(), e); err != nil {
			b.Fatal(err)
		}
	}
	st, _ := os.Stat(dir + "/journey.yaml")
	b.ReportMetric(float64(st.Size())/float64(b.N), "B/entry")
}

func walkDirBaseline(b *testing.B, dir string, n int) {
	var got []FileInfo
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			got = append(got, FileInfo{Path: vpath.Path(p), Size: info.Size(), ModTime: info.ModTime()})
		}
		return err
	})
	if err != nil || len(got) != n {
		b.Fatalf("WalkDir = %d files, %v", len(got), err)
	}
}
