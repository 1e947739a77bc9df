// Package vpath defines Path, the one vault-relative path type that crosses package
// boundaries. It does no I/O.
package vpath

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Path is a vault-relative, slash-separated, cleaned path such as "people/Ada.md".
// The zero value is the vault root.
type Path string

// ErrInvalid is returned by Parse for a path that is absolute, escapes the vault,
// is not valid UTF-8, or contains a NUL byte.
var ErrInvalid = errors.New("invalid vault path")

// MaxLen is the longest path, in bytes, that Parse accepts.
const MaxLen = 1024

// Parse validates s as a vault-relative path and returns it cleaned. Backslashes are
// treated as separators so that Windows-style input cannot smuggle in a "..".
func Parse(s string) (Path, error) {
	if s == "" {
		return "", fmt.Errorf("%w: empty path", ErrInvalid)
	}
	if len(s) > MaxLen {
		return "", fmt.Errorf("%w: longer than %d bytes", ErrInvalid, MaxLen)
	}
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return "", fmt.Errorf("%w: %q is not valid UTF-8 or contains NUL", ErrInvalid, s)
	}
	s = strings.ReplaceAll(s, `\`, "/")
	if strings.HasPrefix(s, "/") || (len(s) > 1 && s[1] == ':') {
		return "", fmt.Errorf("%w: %q is absolute", ErrInvalid, s)
	}
	c := path.Clean(s)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%w: %q leaves the vault", ErrInvalid, s)
	}
	if c == "." {
		return "", nil
	}
	return Path(c), nil
}

// String returns the path as a string.
func (p Path) String() string { return string(p) }

// Dir returns the folder holding p ("" for the root).
func (p Path) Dir() Path {
	d := path.Dir(string(p))
	if d == "." || d == "/" {
		return ""
	}
	return Path(d)
}

// Base returns the last element of p.
func (p Path) Base() string { return path.Base(string(p)) }

// Ext returns the extension of p, including the dot, in its original case.
func (p Path) Ext() string { return path.Ext(string(p)) }

// IsNote reports whether p names a Markdown note.
func (p Path) IsNote() bool { return strings.EqualFold(p.Ext(), ".md") }

// Name returns the entity name of a note: the path without ".md" (other files keep
// their extension, as Obsidian names them).
func (p Path) Name() string {
	if p.IsNote() {
		return string(p[:len(p)-3])
	}
	return string(p)
}

// Join appends slash-separated elements to p. The result is not validated: callers
// joining untrusted input must Parse it.
func (p Path) Join(elem ...string) Path {
	all := append([]string{string(p)}, elem...)
	j := path.Join(all...)
	if j == "." {
		return ""
	}
	return Path(strings.TrimPrefix(j, "/"))
}

// Ignored reports whether p lies in a folder that is not part of the vault's content:
// .git, .obsidian, .trash or the app's own .memotree.
func (p Path) Ignored() bool {
	first, _, _ := strings.Cut(string(p), "/")
	switch first {
	case ".git", ".obsidian", ".trash", ".memotree":
		return true
	}
	return false
}

// InGitFolder reports whether some folder of p (or p itself) is one git takes for
// its own .git on some system (see Portable): writing there could change another
// repository's configuration or hooks, so no writer goes there.
func (p Path) InGitFolder() bool {
	// Part by part without splitting: a status asks this of every file.
	for rest := string(p); ; {
		part, tail, more := strings.Cut(rest, "/")
		if gitName(part) == ".git" {
			return true
		}
		if !more {
			return false
		}
		rest = tail
	}
}

// ValidName reports whether s is a name MemoTree gives one of its own things (a
// library, a canvas view): 1-64 letters, digits, '_', '-' or '.'. (Written out rather
// than as a regexp: `[\p{L}\p{N}_.-]{1,64}` compiles to megabytes at every start.)
func ValidName(s string) bool {
	if s == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > 64 {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_' && r != '.' && r != '-' {
			return false
		}
	}
	return true
}

// maxComponent is the longest file or folder name, in bytes, that Linux, macOS and
// Windows file systems all hold (ext4, APFS: 255 bytes; NTFS: 255 UTF-16 units).
const maxComponent = 255

// Portable reports why p could not be a file everywhere a vault goes (Linux, macOS,
// Windows, git): a part longer than 255 bytes; a character Windows cannot hold in a
// name (: ? * " < > |) or a control character; a part that starts or ends with a
// space or ends with a dot (Windows drops them, so two names become one); a name
// Windows reserves for a device (CON, NUL, COM1, with any extension); or a folder git
// takes for its own (.git in any case, its short name git~1, and the spellings NTFS
// and HFS+ take for .git or .gitmodules), which git refuses to commit. Parse accepts
// such paths, since they exist on Linux; writers that create names (the tools, the
// window's new note) refuse them, and existing notes keep being read and linked.
func (p Path) Portable() error {
	for _, part := range strings.Split(string(p), "/") {
		if g := gitName(part); g != "" {
			return fmt.Errorf("%q: git keeps its own data in folders named %s (in any case, with the short name Windows gives it, or with characters macOS ignores), and refuses to commit anything inside one; choose another name", clip(part), g)
		}
		n := len(part)
		part = strings.TrimSuffix(part, ".md")
		if err := unholdableIn(part); err != nil {
			return err
		}
		switch {
		case n > maxComponent:
			return fmt.Errorf("%q is %d bytes long, more than the %d bytes a file system allows for one name; shorten it", clip(part), n, maxComponent)
		case strings.TrimSpace(part) != part:
			return fmt.Errorf("%q: a name or folder may not start or end with a space", part)
		case strings.HasSuffix(part, "."):
			return fmt.Errorf("%q: a name or folder may not end with a dot (Windows drops it)", part)
		case reservedOnWindows(part):
			return fmt.Errorf("%q is reserved on Windows for a device, so a vault holding it cannot be opened there; choose another name", part)
		}
	}
	return nil
}

// ParseNew parses s as the path of something about to be created: Parse, then
// Portable, and a backslash is refused rather than taken for a folder separator (on
// Windows it is one; elsewhere it is part of the name, which Windows cannot hold).
// A character a person cannot see or sees as something else (a C1 control, a
// zero-width or direction-changing character: see invisible.go) is refused too, named
// as "U+202E RIGHT-TO-LEFT OVERRIDE"; Parse accepts it, so existing files keep being
// read.
func ParseNew(s string) (Path, error) {
	if strings.ContainsRune(s, '\\') {
		return "", fmt.Errorf("%w: %q holds a backslash (\\), which Windows takes for a folder separator and no other system does; use / between folders, or leave it out", ErrInvalid, clip(s))
	}
	// Named before Parse, which would call "a:b" absolute (a drive letter).
	if err := unholdableIn(s); err != nil {
		return "", err
	}
	p, err := Parse(s)
	if err != nil {
		return "", err
	}
	if err := p.Portable(); err != nil {
		return "", err
	}
	if f := p.reservedRoot(); f != "" {
		return "", fmt.Errorf("%w: %q is %s, one of the folders MemoTree, Obsidian and the trash keep for themselves at the vault's root (.memotree, .obsidian, .trash, in any case, as macOS and Windows match names); choose another folder", ErrInvalid, clip(s), f)
	}
	// Last, so that a name such as ".g\u200cit" is refused for what it would be.
	if err := hiddenIn(s); err != nil {
		return "", err
	}
	return p, nil
}

// reservedRoot returns the folder Ignored names (.memotree, .obsidian, .trash) that the
// first part of p is taken for on some system — case folded, HFS+ ignorables left
// out, as macOS and Windows match names — or "". .git is Portable's.
func (p Path) reservedRoot() string {
	first, _, _ := strings.Cut(string(p), "/")
	switch s := foldName(first); s {
	case ".memotree", ".obsidian", ".trash":
		return s
	}
	return ""
}

// unholdableIn names the first character of s that no name may hold, or is nil.
func unholdableIn(s string) error {
	i := strings.IndexFunc(s, unholdable)
	if i < 0 {
		return nil
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	if r < 0x20 || r == 0x7f {
		return fmt.Errorf("%q holds the control character %U, which a name cannot hold; leave it out", clip(s), r)
	}
	return fmt.Errorf("%q holds %q: Windows cannot hold : ? * \" < > | \\ in a name, and Obsidian warns against them; leave it out or use another character", clip(s), string(r))
}

// unholdable reports the characters no name may hold on Windows (which Obsidian also
// refuses in names): : ? * " < > | and the control characters.
func unholdable(r rune) bool {
	return r < 0x20 || r == 0x7f || strings.ContainsRune(`:?*"<>|`, r)
}

// gitName returns ".git" or ".gitmodules" when git would take part for that name on
// some system, as its verify_path does: case folded, the code points HFS+ ignores
// removed, the trailing dots and spaces NTFS drops removed, and the 8.3 short names
// (git~1; gitmod~1-4 and gi7eba~1-9 for .gitmodules). Otherwise "".
func gitName(part string) string {
	// Every such name folds to one starting with '.' or 'g'. The code points HFS+
	// ignores and the letters that lower-case to ASCII are all beyond ASCII, so a
	// name whose first byte is another ASCII character is none of them: the common
	// case, answered without folding (a status lists every file through here).
	if part == "" || (part[0] < utf8.RuneSelf && part[0] != '.' && part[0] != 'g' && part[0] != 'G') {
		return ""
	}
	return gitNameFolded(part)
}

// gitNameFolded is gitName without its shortcut: part folded and compared.
func gitNameFolded(part string) string {
	s := strings.TrimRight(foldName(part), ". ")
	switch {
	case s == ".git" || s == "git~1":
		return ".git"
	case s == ".gitmodules":
		return ".gitmodules"
	case len(s) == 8 && strings.HasPrefix(s, "gitmod~") && '1' <= s[7] && s[7] <= '4',
		len(s) == 8 && strings.HasPrefix(s, "gi7eba~") && '1' <= s[7] && s[7] <= '9':
		return ".gitmodules"
	}
	return ""
}

// foldName is a name as case-insensitive file systems compare it, for the names git
// and MemoTree keep: lower case, without the code points HFS+ ignores.
func foldName(part string) string {
	return strings.ToLower(strings.Map(func(r rune) rune {
		if hfsIgnored(r) {
			return -1
		}
		return r
	}, part))
}

// hfsIgnored reports the code points HFS+ leaves out when it compares names, so that
// ".g\u200cit" is ".git" there (git's is_hfs_dotgit).
func hfsIgnored(r rune) bool {
	switch {
	case r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
		return true
	}
	return false
}

// reservedOnWindows reports whether name, without any extension, is a device name
// such as CON, NUL, COM1 or LPT9 (COM¹ too: Windows reads the superscript digits as
// digits), in any case.
func reservedOnWindows(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	stem = strings.ToUpper(strings.TrimRight(stem, " "))
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	rest, ok := strings.CutPrefix(stem, "COM")
	if !ok {
		rest, ok = strings.CutPrefix(stem, "LPT")
	}
	if !ok || utf8.RuneCountInString(rest) != 1 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return '0' <= r && r <= '9' || r == '¹' || r == '²' || r == '³'
}

// clip shortens s to about 80 bytes for a message, on a character boundary.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	i := 80
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
