package note

import (
	"strings"
	"unsafe"
)

// keeper holds the bytes of the strings parsed notes keep: link targets, headings,
// tags, front matter values. It hands out pieces of blocks of keepBlock bytes, one
// after the other and from note to note (a keeper lives in the pooled scratch), so
// that the strings of a full index share memory with no allocation of their own and
// next to nothing left over: a block of its own for each note, grown as the note
// needed, left a third of those blocks unused. A strings.Builder never changes the
// bytes it has handed out, so every string stays valid while the keeper goes on.
//
// A block lives as long as any note whose strings it holds: a note parsed again
// after an edit leaves its old strings in place until the notes that share their
// block are gone too, at most keepBlock bytes for each note kept.
type keeper struct {
	b strings.Builder
}

// keepBlock is the size of a keeper's blocks; a string of more than keepOwn bytes
// gets an allocation of its own instead.
const (
	keepBlock = 4 << 10
	keepOwn   = keepBlock / 4
)

// keep returns b as a string that stays valid however the keeper is used later.
func (k *keeper) keep(b []byte) string {
	switch {
	case len(b) == 0:
		return ""
	case len(b) > keepOwn:
		return string(b)
	}
	k.room(len(b))
	start := k.b.Len()
	k.b.Write(b)
	return k.b.String()[start:]
}

// room starts a new block unless the current one has n bytes free; the full block
// stays with the strings cut from it.
func (k *keeper) room(n int) {
	if k.b.Cap()-k.b.Len() < n {
		k.b = strings.Builder{}
		k.b.Grow(keepBlock)
	}
}

// keep3 keeps a, b and c one after the other and returns them as one string.
func (k *keeper) keep3(a, b, c string) string {
	n := len(a) + len(b) + len(c)
	switch {
	case n == 0:
		return ""
	case n > keepOwn:
		return a + b + c
	}
	k.room(n)
	start := k.b.Len()
	k.b.WriteString(a)
	k.b.WriteString(b)
	k.b.WriteString(c)
	return k.b.String()[start:]
}

// keepString is keep for a string.
func (k *keeper) keepString(s string) string {
	return k.keep(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// within reports whether the bytes of s lie in src.
func within(s string, src []byte) bool {
	if len(s) == 0 || len(src) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	b := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	return p >= b && p < b+uintptr(len(src))
}

// aliasOf returns src[from:to] as a string sharing src's bytes, valid only while
// src is neither changed nor reused.
func aliasOf(src []byte, from, to int) string {
	if to <= from {
		return ""
	}
	return unsafe.String(&src[from], to-from)
}

// rehome moves every string of n that shares src's bytes (see aliasOf) into k, so
// that n stays valid once src is reused. It lists each string field of Note:
// TestLeanNoteOwnsItsStrings catches one it misses.
func (k *keeper) rehome(n *Note, src []byte) {
	move := func(s *string) {
		if within(*s, src) {
			*s = k.keepString(*s)
		}
	}
	move(&n.EntityType)
	move(&n.Summary)
	for i := range n.Aliases {
		move(&n.Aliases[i])
	}
	for i := range n.Tags {
		move(&n.Tags[i].Name)
	}
	for i := range n.Relations {
		move(&n.Relations[i].Type)
		move(&n.Relations[i].To)
	}
	for i := range n.Links {
		l := &n.Links[i]
		move(&l.names)
	}
	for i := range n.Headings {
		move(&n.Headings[i].Text)
	}
	for i := range n.Warnings {
		move(&n.Warnings[i].Message)
	}
}
