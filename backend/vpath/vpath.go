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
// Windows): a part longer than 255 bytes, a part that starts or ends with a space or
// ends with a dot (Windows drops them, so two names become one), or a name Windows
// reserves for devices. Parse accepts such paths, since they exist on Linux; writers
// that create names (the tools, the window's new note) refuse them.
func (p Path) Portable() error {
	for _, part := range strings.Split(string(p), "/") {
		n := len(part)
		part = strings.TrimSuffix(part, ".md")
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

// reservedOnWindows reports whether name, without any extension, is a device name
// such as CON, NUL, COM1 or LPT9, in any case.
func reservedOnWindows(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	stem = strings.ToUpper(strings.TrimRight(stem, " "))
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	return len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) &&
		(stem[3] >= '0' && stem[3] <= '9')
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
