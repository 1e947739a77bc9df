package vaults

import (
	"os"
	"path/filepath"
	"slices"
)

// vaultMarkers are the entries that make a folder a vault of its own: Obsidian's
// settings, MemoTree's own folder, a git repository (a .git folder, or the .git file
// of a worktree or submodule).
var vaultMarkers = []string{".obsidian", ".memotree", ".git"}

// maxHoldsScan bounds how many folders Holds lists: about a tenth of a second on a
// warm disk. A vault deeper in a larger tree than that is not found.
const maxHoldsScan = 4096

// Holds tells whether the folder dir, when it is no vault of its own, holds one: it
// returns the first folder below dir, breadth first, that has a .obsidian, .memotree
// or .git, and what that is ("an Obsidian vault", "a MemoTree vault", "a git
// repository"); "" when there is none. Opened whole, such a folder (a home folder, a
// folder of projects) would index the vaults below it as its own notes, list their
// .git/config and .obsidian files, and write them beside another library opened on
// them.
//
// A folder that has one of those itself is a vault: the repositories and vaults below
// it are parts of it (a submodule, a nested repository of notes), as they were
// always, and Holds answers "" without looking. Symbolic links are not followed (the
// vault's own walk follows only those that stay inside it), the folders of .git,
// .obsidian, .memotree and .trash are not entered, unreadable folders are skipped,
// and no more than maxHoldsScan folders are listed.
func Holds(dir string) (held, what string) {
	if marker(dir) != "" {
		return "", ""
	}
	queue := []string{dir}
	for listed := 0; len(queue) > 0 && listed < maxHoldsScan; listed++ {
		d := queue[0]
		queue = queue[1:]
		f, err := os.Open(d)
		if err != nil {
			continue
		}
		ents, _ := f.ReadDir(-1)
		f.Close()
		var subs []string
		for _, e := range ents {
			name := e.Name()
			if d != dir && slices.Contains(vaultMarkers, name) && (e.IsDir() || name == ".git" && e.Type().IsRegular()) {
				return d, markerKind(name)
			}
			if e.IsDir() && !slices.Contains(vaultMarkers, name) && name != ".trash" {
				subs = append(subs, filepath.Join(d, name))
			}
		}
		slices.Sort(subs)
		queue = append(queue, subs...)
	}
	return "", ""
}

// marker returns the vault marker dir has ("" when none): a .obsidian or .memotree
// folder, or a .git folder or file.
func marker(dir string) string {
	for _, m := range vaultMarkers {
		st, err := os.Lstat(filepath.Join(dir, m))
		if err == nil && (st.IsDir() || m == ".git" && st.Mode().IsRegular()) {
			return m
		}
	}
	return ""
}

// markerKind says what a folder with the marker m is.
func markerKind(m string) string {
	switch m {
	case ".obsidian":
		return "an Obsidian vault"
	case ".memotree":
		return "a MemoTree vault"
	}
	return "a git repository"
}
