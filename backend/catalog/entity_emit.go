package catalog

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/note"
)

// This file writes a new note's front matter without the YAML encoder, for the common
// case only: every string is one that YAML v3 writes as a plain scalar (plainSafe), the
// entity has no relations, the body cannot be mistaken for front matter and its line
// ending is LF. Anything
// else goes through note.SetProperties. Within that case the output is byte for byte
// what note.SetProperties writes (TestEmitEntityMatchesSetProperties), so that a note
// does not depend on which path created it.

// maxPlain bounds the strings emitEntity writes itself, well below any line width at
// which an encoder might fold a scalar.
const maxPlain = 64

// yamlWords are the plain scalars YAML (1.1 or 1.2) reads as something other than a
// string; the encoder quotes them, so emitEntity leaves them to it.
var yamlWords = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "null": true,
}

// plainSafe reports whether s is written by YAML v3 as a plain scalar, unquoted: it
// starts with an ASCII letter, holds only ASCII letters, digits, spaces and -_./(),
// does not end with a space and is no YAML word. It errs on the side of no.
func plainSafe(s string) bool {
	if s == "" || len(s) > maxPlain || !isASCIILetter(s[0]) || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isASCIILetter(c) && !('0' <= c && c <= '9') && !strings.ContainsRune(" -_./()", rune(c)) {
			return false
		}
	}
	return !yamlWords[strings.ToLower(s)]
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// emitEntity returns the content of a new note as buildEntity makes it (front matter
// with the given values, then body, already prefixed), and false when one of them is
// outside the case it handles.
func emitEntity(typ string, aliases []string, stamp time.Time, tags []string, summary, body string) ([]byte, bool) {
	if i := strings.IndexByte(body, '\n'); i > 0 && body[i-1] == '\r' {
		return nil, false // the note's line ending would be CRLF
	}
	if strings.HasPrefix(body, "---") || strings.HasPrefix(body, "\ufeff") || !utf8.ValidString(body) {
		return nil, false
	}
	for _, v := range [...]string{typ, summary} {
		if v != "" && !plainSafe(v) { // "" is an absent key
			return nil, false
		}
	}
	for _, list := range [][]string{aliases, tags} {
		for _, v := range list {
			if !plainSafe(v) {
				return nil, false
			}
		}
	}
	ts := stamp.Local().Format(note.DateLayout)
	var b strings.Builder
	b.Grow(128 + len(body))
	b.WriteString("---\n")
	if typ != "" {
		b.WriteString("entity type: " + typ + "\n")
	}
	emitList(&b, "aliases", aliases)
	b.WriteString("date created: " + ts + "\ndate modified: " + ts + "\n")
	emitList(&b, "tags", tags)
	if summary != "" {
		b.WriteString("summary: " + summary + "\n")
	}
	b.WriteString("---\n")
	b.WriteString(body)
	return []byte(b.String()), true
}

// emitList writes a block list of plain scalars under key, nothing when it is empty.
func emitList(b *strings.Builder, key string, items []string) {
	if len(items) == 0 {
		return
	}
	b.WriteString(key + ":\n")
	for _, s := range items {
		b.WriteString("  - " + s + "\n")
	}
}
