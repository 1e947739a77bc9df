package vault

import (
	"strings"
	"time"
)

// formatEntries writes entries as journey.yaml holds them, without the YAML encoder,
// for the common case of journalBatch: no args, no move, no turn, and every string
// one that YAML v3 writes as a plain scalar (plainJourney). It returns false for anything else,
// which the encoder then writes. Within that case the bytes are exactly the
// encoder's (TestFormatEntriesMatchesEncoder), and ParseJourney reads them back.
func formatEntries(entries []Entry) ([]byte, bool) {
	var b strings.Builder
	for _, e := range entries {
		if e.Args != "" || e.From != "" || e.Turn != "" || e.Session != "" || e.Time.IsZero() || !plainJourney(e.Actor) || !plainJourney(e.Op) || !plainJourney(e.Outcome) {
			return nil, false
		}
		b.WriteString("- time: " + e.Time.Format(time.RFC3339Nano) + "\n  actor: " + e.Actor + "\n  op: " + e.Op + "\n")
		if len(e.Entities) > 0 {
			b.WriteString("  entities:\n")
			for _, s := range e.Entities {
				if !plainJourney(s) {
					return nil, false
				}
				b.WriteString("    - " + s + "\n")
			}
		}
		b.WriteString("  outcome: " + e.Outcome + "\n")
	}
	return []byte(b.String()), true
}

// maxPlainJourney bounds the strings formatEntries writes itself, below any width at
// which an encoder might fold a scalar.
const maxPlainJourney = 64

// plainJourney reports whether s is written by YAML v3 as a plain scalar: it starts
// with an ASCII letter, holds only ASCII letters, digits, spaces and -_./(), does not
// end with a space, and is no YAML word. It errs on the side of no.
func plainJourney(s string) bool {
	if s == "" || len(s) > maxPlainJourney || !asciiLetter(s[0]) || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !asciiLetter(c) && !('0' <= c && c <= '9') && !strings.ContainsRune(" -_./()", rune(c)) {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return false
	}
	return true
}

func asciiLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
