package agent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompactOutline(t *testing.T) {
	paths := []string{"Welcome.md", "people/Ada Lovelace.md", "people/Charles Babbage.md", "machines/mechanical/Difference Engine.md", "meta.md"}
	want := "5 notes in 3 folders; names are vault paths without .md (folder/name)\n" +
		"(top level)/ (2): Welcome, meta\n" +
		"machines/mechanical/ (1): Difference Engine\n" +
		"people/ (2): Ada Lovelace, Charles Babbage"
	if diff := cmp.Diff(want, CompactOutline(paths, 1000)); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
}

func TestCompactOutlineKeepsItsBudget(t *testing.T) {
	var paths []string
	for f := range 400 {
		for n := range 25 {
			paths = append(paths, fmt.Sprintf("folder %03d/note %02d.md", f, n))
		}
	}
	got := CompactOutline(paths, DefaultOutlineBytes)
	if len(got) > DefaultOutlineBytes {
		t.Errorf("outline of %d bytes, budget %d", len(got), DefaultOutlineBytes)
	}
	if !strings.HasPrefix(got, "10000 notes in 400 folders") || !strings.Contains(got, "more folders") {
		t.Errorf("outline:\n%s", got)
	}
}

func BenchmarkCompactOutline(b *testing.B) {
	var paths []string
	for f := range 400 {
		for n := range 25 {
			paths = append(paths, fmt.Sprintf("folder %03d/note %02d.md", f, n))
		}
	}
	for b.Loop() {
		CompactOutline(paths, DefaultOutlineBytes)
	}
}
