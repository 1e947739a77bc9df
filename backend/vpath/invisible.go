package vpath

import "fmt"

// The characters a new name may not hold although every file system holds them,
// because a person cannot see them or sees something else: the C1 control characters
// (U+0080–U+009F, such as U+0085 NEXT LINE), the characters that change the direction
// of the text around them (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069:
// "txt.exe" shown as "exe.txt"), the ones of no width (U+200B–U+200D, U+2060, U+FEFF:
// two names that look the same and are not), the line and paragraph separators
// (U+2028, U+2029) and the deprecated format characters U+206A–U+206F, which HFS+
// leaves out when it compares names, as it does U+200C–U+200F, U+202A–U+202E and
// U+FEFF. An existing file may hold them: it is read, listed and linked; only a name
// about to be created is refused (ParseNew, through hiddenIn).

// c1Names are the names of the C1 control characters U+0080–U+009F (Unicode's
// aliases; the characters themselves have none).
var c1Names = [32]string{
	"PADDING CHARACTER", "HIGH OCTET PRESET", "BREAK PERMITTED HERE", "NO BREAK HERE",
	"INDEX", "NEXT LINE", "START OF SELECTED AREA", "END OF SELECTED AREA",
	"CHARACTER TABULATION SET", "CHARACTER TABULATION WITH JUSTIFICATION", "LINE TABULATION SET", "PARTIAL LINE FORWARD",
	"PARTIAL LINE BACKWARD", "REVERSE LINE FEED", "SINGLE SHIFT TWO", "SINGLE SHIFT THREE",
	"DEVICE CONTROL STRING", "PRIVATE USE ONE", "PRIVATE USE TWO", "SET TRANSMIT STATE",
	"CANCEL CHARACTER", "MESSAGE WAITING", "START OF GUARDED AREA", "END OF GUARDED AREA",
	"START OF STRING", "SINGLE GRAPHIC CHARACTER INTRODUCER", "SINGLE CHARACTER INTRODUCER", "CONTROL SEQUENCE INTRODUCER",
	"STRING TERMINATOR", "OPERATING SYSTEM COMMAND", "PRIVACY MESSAGE", "APPLICATION PROGRAM COMMAND",
}

// hiddenKind says why a character is refused in a new name.
type hiddenKind int

const (
	notHidden  hiddenKind = iota
	control               // a C1 control character or a line separator
	direction             // changes the direction of the text around it
	zeroWidth             // takes no room: two names look the same
	deprecated            // a deprecated format character HFS+ ignores
)

// formatNames are the names of the other characters refused, with why.
var formatNames = map[rune]struct {
	name string
	kind hiddenKind
}{
	0x061c: {"ARABIC LETTER MARK", direction},
	0x200b: {"ZERO WIDTH SPACE", zeroWidth},
	0x200c: {"ZERO WIDTH NON-JOINER", zeroWidth},
	0x200d: {"ZERO WIDTH JOINER", zeroWidth},
	0x200e: {"LEFT-TO-RIGHT MARK", direction},
	0x200f: {"RIGHT-TO-LEFT MARK", direction},
	0x2028: {"LINE SEPARATOR", control},
	0x2029: {"PARAGRAPH SEPARATOR", control},
	0x202a: {"LEFT-TO-RIGHT EMBEDDING", direction},
	0x202b: {"RIGHT-TO-LEFT EMBEDDING", direction},
	0x202c: {"POP DIRECTIONAL FORMATTING", direction},
	0x202d: {"LEFT-TO-RIGHT OVERRIDE", direction},
	0x202e: {"RIGHT-TO-LEFT OVERRIDE", direction},
	0x2060: {"WORD JOINER", zeroWidth},
	0x2066: {"LEFT-TO-RIGHT ISOLATE", direction},
	0x2067: {"RIGHT-TO-LEFT ISOLATE", direction},
	0x2068: {"FIRST STRONG ISOLATE", direction},
	0x2069: {"POP DIRECTIONAL ISOLATE", direction},
	0x206a: {"INHIBIT SYMMETRIC SWAPPING", deprecated},
	0x206b: {"ACTIVATE SYMMETRIC SWAPPING", deprecated},
	0x206c: {"INHIBIT ARABIC FORM SHAPING", deprecated},
	0x206d: {"ACTIVATE ARABIC FORM SHAPING", deprecated},
	0x206e: {"NATIONAL DIGIT SHAPES", deprecated},
	0x206f: {"NOMINAL DIGIT SHAPES", deprecated},
	0xfeff: {"ZERO WIDTH NO-BREAK SPACE", zeroWidth},
}

// hidden returns the name of r and why a new name may not hold it, or notHidden.
func hidden(r rune) (string, hiddenKind) {
	if r >= 0x80 && r <= 0x9f {
		return c1Names[r-0x80], control
	}
	if r < 0x61c { // the common case: ASCII and most letters, one comparison
		return "", notHidden
	}
	f, ok := formatNames[r]
	if !ok {
		return "", notHidden
	}
	return f.name, f.kind
}

// hiddenIn names the first character of s that a new name may not hold because a
// person cannot see it or sees something else (see the list above), as
// "U+202E RIGHT-TO-LEFT OVERRIDE" in an error saying why, or is nil.
func hiddenIn(s string) error {
	for _, r := range s {
		name, kind := hidden(r)
		if kind == notHidden {
			continue
		}
		why := "a control character, which a name cannot hold"
		switch kind {
		case direction:
			why = "an invisible character that changes the direction of the text around it, so that the name would read as something it is not"
		case zeroWidth:
			why = "an invisible character of no width, so that the name would look the same as another that is not it"
		case deprecated:
			why = "an invisible formatting character that macOS leaves out when it compares names"
		}
		return fmt.Errorf("%q holds %s, %s; leave it out", clip(s), fmt.Sprintf("%U %s", r, name), why)
	}
	return nil
}
