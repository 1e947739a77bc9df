package portable

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// MaxPath is Windows' MAX_PATH: a path of this many UTF-16 code units or more (the
// terminating NUL counts in it, so 259 characters are the most) cannot be opened by
// programs without long-path support — Explorer, many editors, and Git for Windows
// unless core.longpaths is true — though Go, and so MemoTree, opens it.
const MaxPath = 260

// WindowsLength returns the length of the vault path rel under the folder root as
// Windows counts it: root, a separator, and rel, in UTF-16 code units (a character
// outside the Basic Multilingual Plane, such as most emoji, counts two).
func WindowsLength(root, rel string) int {
	root = strings.TrimRight(root, `\/`)
	return len(utf16.Encode([]rune(root))) + 1 + len(utf16.Encode([]rune(rel)))
}

// TooLong reports whether rel under root reaches MaxPath on Windows.
func TooLong(root, rel string) bool {
	return WindowsLength(root, rel) >= MaxPath
}

// reservedNames are the device names Windows reserves in every folder, with or
// without an extension ("con.md" names the console too), in any case.
var reservedNames = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true,
	"COM1": true, "COM2": true, "COM3": true, "COM4": true, "COM5": true, "COM6": true, "COM7": true, "COM8": true, "COM9": true,
	"COM¹": true, "COM²": true, "COM³": true,
	"LPT1": true, "LPT2": true, "LPT3": true, "LPT4": true, "LPT5": true, "LPT6": true, "LPT7": true, "LPT8": true, "LPT9": true,
	"LPT¹": true, "LPT²": true, "LPT³": true,
}

// forbidden are the printable characters Windows refuses in a name (Obsidian refuses
// them in a note's name on every system, with the backslash, a separator there).
const forbidden = `<>:"|?*\`

// WindowsProblems returns what stops the vault path rel (slash-separated) from being
// checked out or opened on Windows, one sentence per problem, in the order of the
// path's parts; none when it is fine there. Its length is TooLong's concern, since it
// depends on the folder the vault is in.
func WindowsProblems(rel string) []string {
	var out []string
	for _, part := range strings.Split(rel, "/") {
		if part == "" {
			continue
		}
		stem, _, _ := strings.Cut(part, ".")
		if dev := strings.ToUpper(strings.TrimRight(stem, " ")); reservedNames[dev] {
			out = append(out, fmt.Sprintf("%q is a device name Windows reserves (%s)", part, dev))
		}
		if i := strings.IndexFunc(part, func(r rune) bool { return r < 0x20 || strings.ContainsRune(forbidden, r) }); i >= 0 {
			out = append(out, fmt.Sprintf("%q holds %q, which Windows refuses in a name", part, part[i:i+1]))
		}
		if strings.HasSuffix(part, ".") || strings.HasSuffix(part, " ") {
			out = append(out, fmt.Sprintf("%q ends in a dot or a space, which Windows drops from a name", part))
		}
	}
	return out
}
