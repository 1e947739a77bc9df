package script

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/memotree/memotree/backend/library"
)

// FileChange is one file of a script's change set.
type FileChange struct {
	// Library is the library's mount name.
	Library string `json:"library"`
	// Path is the vault-relative path; Entity the note's name (the path without .md).
	Path   string `json:"path"`
	Entity string `json:"entity,omitempty"`
	// Change is created, modified or deleted.
	Change string `json:"change"`
	// Diff is a unified-style line diff (- removed, + added, two lines of context),
	// clipped; empty for binary files and once the change set's diffs grew too long.
	Diff string `json:"diff,omitempty"`
}

// Diff size caps, so that a 400-note change set stays readable in a context window.
const (
	maxFileDiff  = 2000
	maxTotalDiff = 64 << 10
)

// changes lists what the transaction's forks changed, against what the script found.
func (r *Runner) changes(tx *library.Tx) []FileChange {
	out := []FileChange{}
	total := 0
	for _, l := range tx.Forks() {
		for _, f := range l.Staged() {
			c := FileChange{Library: l.Name(), Path: string(f.Path)}
			if f.Path.IsNote() {
				c.Entity = f.Path.Name()
			}
			switch {
			case !f.Existed:
				c.Change = "created"
			case !f.Exists:
				c.Change = "deleted"
			default:
				c.Change = "modified"
			}
			if total < maxTotalDiff && utf8.Valid(f.Before) && utf8.Valid(f.After) {
				c.Diff = lineDiff(string(f.Before), string(f.After))
				total += len(c.Diff)
			}
			out = append(out, c)
		}
	}
	return out
}

// lineDiff renders the line differences of a and b with two lines of context.
func lineDiff(a, b string) string {
	var sb strings.Builder
	diffs := diff.DoWithTimeout(a, b, 200*time.Millisecond)
	for i, d := range diffs {
		lines := strings.SplitAfter(d.Text, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			writeLines(&sb, "-", lines)
		case diffmatchpatch.DiffInsert:
			writeLines(&sb, "+", lines)
		default:
			head, tail := 0, 0
			if i > 0 {
				head = 2
			}
			if i < len(diffs)-1 {
				tail = 2
			}
			if head+tail >= len(lines) {
				writeLines(&sb, " ", lines)
				break
			}
			writeLines(&sb, " ", lines[:head])
			fmt.Fprintf(&sb, "@@ %d unchanged lines @@\n", len(lines)-head-tail)
			writeLines(&sb, " ", lines[len(lines)-tail:])
		}
		if sb.Len() > maxFileDiff {
			s := sb.String()[:maxFileDiff]
			for !utf8.ValidString(s) {
				s = s[:len(s)-1]
			}
			return s + "\n… (diff clipped)\n"
		}
	}
	return sb.String()
}

func writeLines(sb *strings.Builder, prefix string, lines []string) {
	for _, l := range lines {
		sb.WriteString(prefix)
		sb.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			sb.WriteString("\n\\ no newline at end of file\n")
		}
	}
}
