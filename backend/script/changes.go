package script

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/memotree/memotree/backend/vault"
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

// changes lists what the undo journal's vaults hold now against the pre-images.
func (r *Runner) changes(u *vault.Undo) []FileChange {
	out := []FileChange{}
	total := 0
	for _, t := range u.Touched() {
		l := r.libraryOf(t.Vault)
		name := ""
		if l != nil {
			name = l.Name()
		}
		for _, pre := range t.Pre {
			cur, err := t.Vault.ReadFile(pre.Path)
			exists := err == nil
			if err != nil && !errors.Is(err, vault.ErrNotFound) {
				continue
			}
			c := FileChange{Library: name, Path: string(pre.Path)}
			if pre.Path.IsNote() {
				c.Entity = pre.Path.Name()
			}
			switch {
			case !pre.Existed && !exists, pre.Existed && exists && bytes.Equal(pre.Data, cur):
				continue
			case !pre.Existed:
				c.Change = "created"
			case !exists:
				c.Change = "deleted"
			default:
				c.Change = "modified"
			}
			if total < maxTotalDiff && utf8.Valid(pre.Data) && utf8.Valid(cur) {
				c.Diff = lineDiff(string(pre.Data), string(cur))
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
