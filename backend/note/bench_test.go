package note

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/frontmatter"

	"github.com/memotree/memotree/backend/internal/benchtest"
	"github.com/memotree/memotree/bench/vaultgen"
)

// words is a small vocabulary for generated notes.
var words = strings.Fields(`the of and a to in is you that it he was for on are as with his they
at be this have from or one had by word but not what all were we when your can said there use
an each which she do how their if will up other about out many then them these so some her would
make like him into time has look two more write go see number no way could people my than first
water been call who oil its now find long down day did get come made may part graph vault index`)

// typicalNote builds a note of about nWords words with realistic front matter and
// nLinks links of assorted forms.
func typicalNote(nWords, nLinks int) []byte {
	var b strings.Builder
	b.WriteString("---\nentity type: person\naliases:\n  - Ada\n  - Countess of Lovelace\n")
	b.WriteString("date created: 2025-10-26T10:00:00+08:00\ndate modified: 2025-10-27T09:12:00+08:00\n")
	b.WriteString("relations:\n  - relation type: collaborator of\n    relation to: \"[[Charles Babbage]]\"\n")
	b.WriteString("  - relation type: parent of\n    relation to: Byron King\n")
	b.WriteString("tags: [history, mathematics]\nsummary: English mathematician; first published an algorithm.\n---\n\n")
	forms := []string{"[[Note %d]]", "[[Target %d|display]]", "[[Note %d#Heading]]", "![[image%d.png]]", "[text](folder/file%%20%d.md)", "#tag%d"}
	link := 0
	for i := 0; i < nWords; i++ {
		switch {
		case i%300 == 0:
			fmt.Fprintf(&b, "\n\n## Section %d\n\n", i/300)
		case i%80 == 0:
			b.WriteString(".\n\n")
		case i%(nWords/nLinks+1) == nLinks/2 && link < nLinks:
			fmt.Fprintf(&b, forms[link%len(forms)]+" ", link)
			link++
		case i%500 == 250:
			b.WriteString("`inline code` ")
		}
		b.WriteString(words[(i*7+i/13)%len(words)])
		b.WriteByte(' ')
	}
	b.WriteString("\n\n```go\nfunc main() { fmt.Println(\"[[not a link]]\") }\n```\n")
	return []byte(b.String())
}

// BenchmarkParse parses a typical 2,000-word note with front matter and 10 links.
func BenchmarkParse(b *testing.B) {
	benchParse(b, typicalNote(2000, 10))
}

// benchParse measures Parse on src and reports, besides wall time, the process CPU
// time per byte as "cpu-MB/s" (GC included), which a busy machine does not distort.
func benchParse(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu0 := benchtest.CPU()
	for b.Loop() {
		Parse(src)
	}
	if cpu := benchtest.CPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(len(src))*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}

// BenchmarkParseBody parses the same note without its front matter, to separate the
// body scanner from YAML decoding.
func BenchmarkParseBody(b *testing.B) {
	src := typicalNote(2000, 10)
	benchParse(b, src[strings.Index(string(src), "\n---\n")+5:])
}

// BenchmarkParseLarge parses a 10 MB note holding about 100,000 links.
func BenchmarkParseLarge(b *testing.B) {
	benchParse(b, largeNote())
}

// largeNote builds a note of about 10 MB with about 100,000 links.
func largeNote() []byte {
	var b strings.Builder
	for i := 0; b.Len() < 10<<20; i++ {
		fmt.Fprintf(&b, "Paragraph %d mentions [[Note %d]] among plain words that fill the line with text about the vault.\n", i, i%977)
	}
	return []byte(b.String())
}

// BenchmarkParseVault parses every note of a generated vault, as a full index does:
// $MEMOTREE_BENCH_VAULT when set (make bench points it at the 10k-note vault), else
// a fresh 1,000-note one. One op is one note; the bytes are the vault's mean note.
func BenchmarkParseVault(b *testing.B) { benchParseVault(b, Parse) }

// BenchmarkParseLeanVault is BenchmarkParseVault with ParseLean, what a full index
// keeps of every note: its B/op is most of the heap a full index holds per note
// (links, headings, tags and their strings; the keeper's blocks count when each is
// cut, so B/op is a mean over the notes).
func BenchmarkParseLeanVault(b *testing.B) { benchParseVault(b, ParseLean) }

func benchParseVault(b *testing.B, parse func([]byte) *Note) {
	notes := vaultNotes(b)
	total := 0
	for _, n := range notes {
		total += len(n)
	}
	b.SetBytes(int64(total / len(notes)))
	b.ReportAllocs()
	cpu0 := benchtest.CPU()
	i := 0
	for b.Loop() {
		parse(notes[i%len(notes)])
		i++
	}
	if cpu := benchtest.CPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(total/len(notes))*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}

// vaultNotes reads the notes of $MEMOTREE_BENCH_VAULT when set, else of a fresh
// 1,000-note vault.
func vaultNotes(b *testing.B) [][]byte {
	b.Helper()
	dir := os.Getenv("MEMOTREE_BENCH_VAULT")
	if dir == "" {
		dir = b.TempDir()
		if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: 1000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	var notes [][]byte
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		src, err := os.ReadFile(path)
		notes = append(notes, src)
		return err
	})
	if err != nil || len(notes) == 0 {
		b.Fatalf("reading the notes of %s: %d notes, %v", dir, len(notes), err)
	}
	return notes
}

// BenchmarkFrontMatter measures finding and reading the front matter of a vault's
// notes (the same notes as BenchmarkParseVault; one op is one note), three ways:
//   - fast-path: findFrontMatter and the fast path, as Parse and ParseLean do;
//   - adrg-find: adrg/frontmatter finding the block, the fast path decoding it;
//   - adrg-yaml: adrg/frontmatter finding and decoding it with its default YAML.
//
// The numbers chose the first for YAML between "---" lines (frontformat.go): adrg
// reads the note through a buffer that copies it and makes a string of every line.
func BenchmarkFrontMatter(b *testing.B) {
	notes := vaultNotes(b)
	for _, way := range []string{"fast-path", "adrg-find", "adrg-yaml"} {
		b.Run(way, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				src := notes[i%len(notes)]
				i++
				var f fieldValues
				switch way {
				case "fast-path":
					fm := findFrontMatter(src, 0)
					if root, p := fastFrontMatterPooled(src, fm.yamlStart, fm.yamlEnd, false); p != nil {
						fastFields(root, &f)
						p.release()
					}
				case "adrg-find":
					decode := func(data []byte, _ any) error {
						if root, p := fastFrontMatterPooled(data, 0, len(data), false); p != nil {
							fastFields(root, &f)
							p.release()
						}
						return nil
					}
					var v map[string]any
					frontmatter.Parse(bytes.NewReader(src), &v, frontmatter.NewFormat("---", "---", decode))
				case "adrg-yaml":
					var v map[string]any
					frontmatter.Parse(bytes.NewReader(src), &v)
				}
			}
		})
	}
}

// BenchmarkSkipPlain measures finding the next byte the inline scanner must look at
// in a line of prose, eight bytes at a time (skipPlain) and a byte at a time, as the
// scanner did before. One op is one 1,000-byte line with its special byte at the end.
func BenchmarkSkipPlain(b *testing.B) {
	line := []byte(strings.Repeat("Plain prose, words and numbers 1984: ", 27)[:999] + "[")
	for _, way := range []struct {
		name string
		skip func([]byte, int, int) int
	}{{"word", skipPlain}, {"byte", skipPlainSlow}} {
		b.Run(way.name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if way.skip(line, 0, len(line)) != len(line)-1 {
					b.Fatal("missed the '['")
				}
			}
		})
	}
}
