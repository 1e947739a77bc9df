package vaults

import (
	"cmp"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
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

// Obsidian returns the vaults the given obsidian.json files list, the most recently
// opened first, each folder once. A file that is missing, empty or does not parse
// lists none: Obsidian may never have run here. The files are only read.
func Obsidian(files []string) []Found {
	seen := map[string]bool{}
	var out []Found
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
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
	return out
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
