package gitrepo

import (
	"context"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// ConflictSide is one version of a conflicted file.
type ConflictSide struct {
	Exists bool   `json:"exists"`
	Text   string `json:"text"`
	Binary bool   `json:"binary,omitempty"`
	// TooLarge says the file is over MaxDiffBytes: Text is left empty.
	TooLarge bool `json:"too_large,omitempty"`
}

// ConflictHunk is one conflict region of a file: both sides' lines, and the base's
// when known (from git's diff3 markers, or the same region merged again from the
// index's three sides).
type ConflictHunk struct {
	// Number counts the file's regions from 1, in order.
	Number int `json:"number"`
	// Line is the 1-based line of its opening marker in the working file.
	Line        int    `json:"line"`
	Ours        string `json:"ours"`
	Base        string `json:"base"`
	BaseKnown   bool   `json:"base_known"`
	Theirs      string `json:"theirs"`
	OursLabel   string `json:"ours_label"`
	TheirsLabel string `json:"theirs_label"`
	// Property is the front matter property the region changes, when it lies in the
	// front matter (both sides of it cannot be kept).
	Property string `json:"property,omitempty"`
}

// ConflictDetail is what a three-way view shows of a conflicted file.
type ConflictDetail struct {
	Path vpath.Path `json:"path"`
	Kind string     `json:"kind"`
	// Base, Ours and Theirs are the sides the index holds; Working is the file now.
	Base    ConflictSide `json:"base"`
	Ours    ConflictSide `json:"ours"`
	Theirs  ConflictSide `json:"theirs"`
	Working ConflictSide `json:"working"`
	// WorkingHash is the working file's hash, for a resolution made from what was
	// shown (ResolveOptions.IfHash); "" when there is no file.
	WorkingHash string         `json:"working_hash"`
	Hunks       []ConflictHunk `json:"hunks"`
}

// Conflict returns the sides and hunks of a conflicted path, or an error wrapping
// ErrNotConflicted when it has no unmerged index entries.
func (r *Repo) Conflict(ctx context.Context, p vpath.Path) (ConflictDetail, error) {
	if err := checkPaths([]vpath.Path{p}); err != nil {
		return ConflictDetail{}, fmt.Errorf("git conflict: %w", err)
	}
	u, err := r.unmerged()
	if err != nil {
		return ConflictDetail{}, fmt.Errorf("git conflict: %w", err)
	}
	e := u[p]
	if e == nil {
		return ConflictDetail{}, fmt.Errorf("git conflict: %w: %s has no unmerged entries", ErrNotConflicted, p)
	}
	s, err := r.stageSides(e)
	if err != nil {
		return ConflictDetail{}, fmt.Errorf("git conflict: %w", err)
	}
	data, ok, err := r.readWork(p)
	if err != nil {
		return ConflictDetail{}, fmt.Errorf("git conflict: %w", err)
	}
	d := ConflictDetail{Path: p, Kind: kindOf(s), Base: sideOf(s[0]), Ours: sideOf(s[1]), Theirs: sideOf(s[2]),
		Working: sideOf(version{data: data, ok: ok}), Hunks: []ConflictHunk{}}
	if ok {
		d.WorkingHash = string(vault.HashOf(data))
	}
	if d.Kind == ConflictContent && ok && !d.Working.TooLarge {
		d.Hunks = hunksOf(string(data), s, p.IsNote())
	}
	return d, ctx.Err()
}

// sideOf shows one version.
func sideOf(v version) ConflictSide {
	switch {
	case !v.ok:
		return ConflictSide{}
	case len(v.data) > MaxDiffBytes:
		return ConflictSide{Exists: true, TooLarge: true}
	case isBinary(v.data):
		return ConflictSide{Exists: true, Binary: true}
	}
	return ConflictSide{Exists: true, Text: string(v.data)}
}

// hunksOf lists the conflict regions of text, each with its base: from the markers,
// or from the region the same merge of the three sides writes with the base.
func hunksOf(text string, s stageSet, markdown bool) []ConflictHunk {
	regions := conflictRegions(text, false)
	var again []region
	if len(regions) > 0 && !regions[0].hasBase && s[1].ok && s[2].ok {
		m, _ := mergeText(markdown, string(s[0].data), string(s[1].data), string(s[2].data), markers{ours: "ours", theirs: "theirs", base: "base", diff3: true})
		again = conflictRegions(m, false)
	}
	fmEnd := frontMatterEnd(text, regions)
	out := make([]ConflictHunk, len(regions))
	for i, rg := range regions {
		h := ConflictHunk{Number: i + 1, Line: rg.line, Ours: rg.ours, Theirs: rg.theirs, OursLabel: rg.oursLabel, TheirsLabel: rg.theirsLabel}
		if rg.hasBase {
			h.Base, h.BaseKnown = rg.base, true
		}
		for _, a := range again {
			if !h.BaseKnown && sameLines(a.ours, rg.ours) && sameLines(a.theirs, rg.theirs) {
				h.Base, h.BaseKnown = a.base, true
			}
		}
		if rg.start < fmEnd {
			h.Property = propertyOf(rg.ours, rg.theirs, rg.base)
		}
		out[i] = h
	}
	return out
}

// sameLines compares two sides of a region, line endings apart.
func sameLines(a, b string) bool {
	return strings.ReplaceAll(a, "\r\n", "\n") == strings.ReplaceAll(b, "\r\n", "\n")
}

// frontMatterEnd returns the offset of the line that closes text's front matter,
// skipping the lines of conflict regions, or 0 when it has none.
func frontMatterEnd(text string, regions []region) int {
	body := strings.TrimPrefix(text, bom)
	off := len(text) - len(body)
	first, _, ok := strings.Cut(body, "\n")
	if !ok || strings.TrimSuffix(first, "\r") != "---" {
		return 0
	}
	pos := off + len(first) + 1
	for pos < len(text) {
		in := false
		for _, rg := range regions {
			if pos >= rg.start && pos < rg.end {
				pos, in = rg.end, true
				break
			}
		}
		if in {
			continue
		}
		line, _, _ := strings.Cut(text[pos:], "\n")
		if l := strings.TrimSuffix(line, "\r"); l == "---" || l == "..." {
			return pos
		}
		pos += len(line) + 1
	}
	return 0
}

// propertyOf returns the key of the first property line of the first side that has
// one.
func propertyOf(sides ...string) string {
	for _, s := range sides {
		for _, line := range strings.Split(s, "\n") {
			if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' {
				continue
			}
			if k, _, ok := strings.Cut(line, ":"); ok {
				return strings.Trim(strings.TrimSpace(k), `"'`)
			}
		}
	}
	return ""
}
