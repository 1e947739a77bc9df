package vaults

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/internal/regular"
)

// Found is a vault listed somewhere on this machine (by Obsidian, or among the recent
// ones).
type Found struct {
	// Path is the vault's folder.
	Path string `json:"path"`
	// Name is the folder's name, as Obsidian shows it.
	Name string `json:"name"`
	// Opened is when it was last opened there; zero when unknown.
	Opened time.Time `json:"opened"`
	// Exists says the folder is there now.
	Exists bool `json:"exists"`
}

// ObsidianConfigs returns the obsidian.json files Obsidian may keep on this machine:
// in the user's config folder (~/.config/obsidian on Linux, ~/Library/Application
// Support/obsidian on macOS, %APPDATA%\obsidian on Windows), and on Linux also those
// of the Flatpak and Snap packages.
func ObsidianConfigs() []string {
	home, _ := os.UserHomeDir()
	return obsidianConfigsFor(runtime.GOOS, os.Getenv, home)
}

// obsidianConfigsFor is the rule of ObsidianConfigs for the system goos, with the
// environment getenv and the home folder home (empty when unknown). Obsidian is an
// Electron app: its config folder is Electron's appData folder plus "obsidian".
func obsidianConfigsFor(goos string, getenv func(string) string, home string) []string {
	switch goos {
	case "windows":
		// %APPDATA%, the roaming profile: C:\Users\NAME\AppData\Roaming.
		if appData := getenv("APPDATA"); appData != "" {
			return []string{strings.TrimRight(appData, `\/`) + `\obsidian\obsidian.json`}
		}
		return nil
	case "darwin":
		if home == "" {
			return nil
		}
		return []string{path.Join(home, "Library", "Application Support", "obsidian", "obsidian.json")}
	}
	// Linux and the other Unix systems: $XDG_CONFIG_HOME when it is absolute (as
	// Electron and Go read it), else ~/.config.
	var out []string
	config := getenv("XDG_CONFIG_HOME")
	if !path.IsAbs(config) {
		config = ""
		if home != "" {
			config = path.Join(home, ".config")
		}
	}
	if config != "" {
		out = append(out, path.Join(config, "obsidian", "obsidian.json"))
	}
	if home != "" && goos == "linux" {
		// The Flatpak keeps its config in its own sandbox folder, the Snap in its
		// revision's home ("current" links to the installed revision); neither reads
		// $XDG_CONFIG_HOME from outside.
		out = append(out,
			path.Join(home, ".var", "app", "md.obsidian.Obsidian", "config", "obsidian", "obsidian.json"),
			path.Join(home, "snap", "obsidian", "current", ".config", "obsidian", "obsidian.json"))
	}
	return out
}

// obsidianFile is the part of obsidian.json that lists the vaults.
type obsidianFile struct {
	Vaults map[string]struct {
		Path string `json:"path"`
		TS   int64  `json:"ts"` // milliseconds since 1970
	} `json:"vaults"`
}

// MaxObsidianList bounds the size of an obsidian.json Obsidian reads: it lists a few
// vaults in a few kilobytes.
const MaxObsidianList = 4 << 20

// Obsidian returns the vaults the given obsidian.json files list, the most recently
// opened first, each folder once. A file that is missing, empty or does not parse
// lists none: Obsidian may never have run here. A file that is there but cannot be
// read — a named pipe or a device in its place (opened without blocking and refused,
// never waited on), a folder, one larger than MaxObsidianList, one that is unreadable —
// lists none either, and problems says why, naming it. The files are only read.
func Obsidian(files []string) (found []Found, problems []error) {
	seen := map[string]bool{}
	var out []Found
	for _, f := range files {
		b, err := readObsidianList(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, err)
			continue
		}
		var of obsidianFile
		if json.Unmarshal(b, &of) != nil {
			continue
		}
		for _, v := range of.Vaults {
			if v.Path == "" || !filepath.IsAbs(v.Path) {
				continue
			}
			p := filepath.Clean(v.Path)
			if seen[p] {
				continue
			}
			seen[p] = true
			found := Found{Path: p, Name: filepath.Base(p), Exists: isDir(p)}
			if v.TS > 0 {
				found.Opened = time.UnixMilli(v.TS).UTC()
			}
			out = append(out, found)
		}
	}
	slices.SortFunc(out, func(a, b Found) int {
		return cmp.Or(b.Opened.Compare(a.Opened), cmp.Compare(a.Path, b.Path))
	})
	return out, problems
}

// readObsidianList reads the obsidian.json at path: a regular file of at most
// MaxObsidianList bytes.
func readObsidianList(path string) ([]byte, error) {
	f, _, err := regular.OpenPath(path) // a named pipe is refused at once, not waited on
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, err
	case errors.Is(err, regular.ErrNotRegular):
		return nil, fmt.Errorf("read Obsidian's list of vaults %s: %w: it is %s, which Obsidian never makes, and MemoTree does not wait on it; remove it to see the vaults Obsidian knows", path, regular.ErrNotRegular, kindAt(path))
	case err != nil:
		return nil, fmt.Errorf("read Obsidian's list of vaults %s: %w", path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxObsidianList+1))
	if err != nil {
		return nil, fmt.Errorf("read Obsidian's list of vaults %s: %w", path, err)
	}
	if len(b) > MaxObsidianList {
		return nil, fmt.Errorf("read Obsidian's list of vaults %s: larger than %d MB, which no list of vaults is; it was left unread", path, MaxObsidianList>>20)
	}
	return b, nil
}

// kindAt names what is at path when it is not a regular file (a stat never blocks).
func kindAt(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return "not a regular file"
	}
	switch m := st.Mode(); {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
