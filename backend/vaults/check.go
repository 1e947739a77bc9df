package vaults

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/memotree/memotree/backend/vpath"
)

// The reasons a folder cannot be opened as a vault; Check's errors wrap one of them.
var (
	// ErrNoPath is a path that is empty or not absolute.
	ErrNoPath = errors.New("no folder given")
	// ErrMissing is a path where nothing is.
	ErrMissing = errors.New("no such folder")
	// ErrNotFolder is a path to a file.
	ErrNotFolder = errors.New("not a folder")
	// ErrUnreadable is a folder that cannot be listed.
	ErrUnreadable = errors.New("folder cannot be read")
	// ErrInsideVault is a folder inside a vault (open, or with its own .obsidian or
	// .memotree folder), one holding an open vault, or a folder that is no vault of
	// its own holding vaults (see Holds): two libraries over the same notes would each
	// index and write them, and a vault's own files (.git/config) would be taken for
	// notes.
	ErrInsideVault = errors.New("folder overlaps a vault")
)

// Mounted is a vault open now, as Check sees it.
type Mounted struct {
	Name string
	Path string
}

// Checked is a folder that may be opened.
type Checked struct {
	// Path is the folder, absolute, clean and with symbolic links resolved.
	Path string
	// OpenAs names the open vault that is this very folder; "" when it is not open.
	OpenAs string
}

// Check tells whether the folder at path can be opened as a vault beside those open
// now. A path starting with ~/ is taken from the home folder; any other must be
// absolute. The folder must exist, be readable, and neither lie inside another
// vault nor hold an open one, nor, unless it is a vault itself, hold others (see
// Holds). A folder that is open already is no error: OpenAs names it.
func Check(path string, open []Mounted) (Checked, error) {
	path = strings.TrimSpace(path)
	if rest, ok := strings.CutPrefix(path, "~"); ok && (rest == "" || rest[0] == '/' || rest[0] == filepath.Separator) {
		if home, err := os.UserHomeDir(); err == nil {
			path = home + rest
		}
	}
	if path == "" || !filepath.IsAbs(path) {
		return Checked{}, fmt.Errorf("open vault %q: %w: give the full path of a folder (such as %s)", path, ErrNoPath, example())
	}
	path = filepath.Clean(path)
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Checked{}, fmt.Errorf("open vault %s: %w: check the path, or create the folder first", path, ErrMissing)
	case errors.Is(err, fs.ErrPermission):
		return Checked{}, fmt.Errorf("open vault %s: %w: permission denied; give yourself read access to it", path, ErrUnreadable)
	case err != nil:
		return Checked{}, fmt.Errorf("open vault %s: %w: %w", path, ErrUnreadable, err)
	case !st.IsDir():
		return Checked{}, fmt.Errorf("open vault %s: %w but a file: open the folder that holds your notes (%s)", path, ErrNotFolder, filepath.Dir(path))
	}
	f, err := os.Open(path) // an empty folder answers io.EOF
	if err == nil {
		_, err = f.Readdirnames(1)
		f.Close()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return Checked{}, fmt.Errorf("open vault %s: %w: %w; give yourself read access to it", path, ErrUnreadable, err)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return Checked{}, fmt.Errorf("open vault %s: %w: %w", path, ErrUnreadable, err)
	}
	switch m, rel := Overlap(real, open); rel {
	case Same:
		return Checked{Path: real, OpenAs: m.Name}, nil
	case Inside:
		return Checked{}, fmt.Errorf("open vault %s: %w: it is inside the open vault %s (%s); browse to it there", path, ErrInsideVault, m.Name, m.Path)
	case Around:
		return Checked{}, fmt.Errorf("open vault %s: %w: it holds the open vault %s (%s); close %s first to open the whole folder", path, ErrInsideVault, m.Name, m.Path, m.Name)
	}
	for dir := filepath.Dir(real); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		for _, marker := range []string{".obsidian", ".memotree"} {
			if isDir(filepath.Join(dir, marker)) {
				return Checked{}, fmt.Errorf("open vault %s: %w: it is inside the vault %s (which has a %s folder); open %s instead", path, ErrInsideVault, dir, marker, dir)
			}
		}
	}
	if held, what := Holds(real); held != "" {
		return Checked{}, fmt.Errorf("open vault %s: %w: it is no vault of its own (it has no .obsidian, .git or .memotree folder) and holds the vault %s (%s), whose notes and own files would be taken into this one; open %s instead", path, ErrInsideVault, held, what, held)
	}
	return Checked{Path: real}, nil
}

// Relation is how a folder lies to an open vault (see Overlap).
type Relation int

// The relations Overlap tells.
const (
	// Apart is a folder that shares nothing with the vault.
	Apart Relation = iota
	// Same is the vault's own folder.
	Same
	// Inside is a folder inside the vault.
	Inside
	// Around is a folder that holds the vault.
	Around
)

// Overlap returns the first of open that the folder real (absolute, symbolic links
// resolved) is, lies inside, or holds, and which of these it is; Apart when none. The
// folders of open have their symbolic links resolved where they can be.
func Overlap(real string, open []Mounted) (Mounted, Relation) {
	for _, m := range open {
		mp := canonical(m.Path)
		switch {
		case mp == real:
			return m, Same
		case within(real, mp):
			return m, Inside
		case within(mp, real):
			return m, Around
		}
	}
	return Mounted{}, Apart
}

// canonical resolves symbolic links in path where it can.
func canonical(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return filepath.Clean(path)
}

// within reports whether path lies strictly inside dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// example is an absolute path to show in a message.
func example() string {
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "Notes")
	}
	return filepath.FromSlash("/home/you/Notes")
}

// UniqueName returns a library name for the folder at path that none of taken is:
// the folder's name (with characters a library name cannot hold replaced by '-'),
// followed by -2, -3… when two vaults share it.
func UniqueName(path string, taken []string) string {
	base := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' || r == '.' || r == '-' {
			return r
		}
		return '-'
	}, filepath.Base(filepath.Clean(path)))
	base = strings.Trim(base, "-.")
	if r := []rune(base); len(r) > 56 {
		base = string(r[:56])
	}
	if base == "" || !vpath.ValidName(base) {
		base = "vault"
	}
	used := map[string]bool{}
	for _, t := range taken {
		used[strings.ToLower(t)] = true
	}
	name := base
	for i := 2; used[strings.ToLower(name)]; i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	return name
}
