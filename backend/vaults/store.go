// Package vaults keeps track of the person's vaults from one run of the app to the
// next: the vaults open when it last ran and those opened recently (remembered in
// vaults.toml in the user's MemoTree config folder, with the window's size and
// place), the vaults Obsidian knows on this machine (read from Obsidian's own
// obsidian.json, never written), and the checks a folder passes before it is opened
// as a vault.
//
// Concurrency: a Store is safe for concurrent use; every change is saved at once.
package vaults

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/userfile"
)

// MaxRecent is how many recently opened vaults are remembered.
const MaxRecent = 12

// State is what is remembered between runs.
type State struct {
	// Open lists the folders of the vaults open when the app last ran, in order.
	Open []string `toml:"open"`
	// Active is the folder of the vault the window showed last; it opens first.
	Active string `toml:"active"`
	// Recent lists the folders opened recently, the latest first.
	Recent []Recent `toml:"recent"`
	// Window is the window's size and place when it last closed.
	Window Window `toml:"window"`
}

// Recent is one recently opened vault.
type Recent struct {
	Path   string    `toml:"path"`
	Opened time.Time `toml:"opened"`
}

// Window is the desktop window's size and place. Zero sizes mean "never saved".
type Window struct {
	Width     int  `toml:"width"`
	Height    int  `toml:"height"`
	X         int  `toml:"x"`
	Y         int  `toml:"y"`
	Maximised bool `toml:"maximised"`
}

// Store is the remembered state in its file.
type Store struct {
	path string
	mu   sync.Mutex
	st   State
}

// DefaultPath returns the file of the remembered state in the user's config folder
// (~/.config/memotree/vaults.toml on Linux), beside the settings.
func DefaultPath() (string, error) {
	p, err := userfile.Path("vaults.toml")
	if err != nil {
		return "", fmt.Errorf("remembered vaults: %w", err)
	}
	return p, nil
}

// Load reads the state at path; a missing file is an empty state. A file that does not
// parse is reported and the store starts empty (it is rewritten at the next change):
// a damaged list of vaults must not keep the app from opening.
func Load(path string) (*Store, error) {
	s := &Store{path: path}
	if err := userfile.Load(path, &s.st); err != nil {
		s.st = State{}
		return s, err
	}
	return s, nil
}

// Path returns the file the store is kept in.
func (s *Store) Path() string { return s.path }

// State returns a copy of the remembered state.
func (s *Store) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.Open = slices.Clone(st.Open)
	st.Recent = slices.Clone(st.Recent)
	return st
}

// Opened remembers that the vault at path was opened now: it joins the open vaults
// (at the end), becomes the active one and the latest recent one.
func (s *Store) Opened(path string, now time.Time) error {
	return s.change(func(st *State) {
		if !slices.Contains(st.Open, path) {
			st.Open = append(st.Open, path)
		}
		st.Active = path
		st.Recent = slices.DeleteFunc(st.Recent, func(r Recent) bool { return r.Path == path })
		st.Recent = slices.Insert(st.Recent, 0, Recent{Path: path, Opened: now.UTC().Truncate(time.Second)})
		if len(st.Recent) > MaxRecent {
			st.Recent = st.Recent[:MaxRecent]
		}
	})
}

// Closed remembers that the vault at path was closed; it stays among the recent ones.
func (s *Store) Closed(path string) error {
	return s.change(func(st *State) {
		st.Open = slices.DeleteFunc(st.Open, func(p string) bool { return p == path })
		if st.Active == path {
			st.Active = ""
			if len(st.Open) > 0 {
				st.Active = st.Open[0]
			}
		}
	})
}

// Forget removes path from the recent vaults (and the open ones).
func (s *Store) Forget(path string) error {
	if err := s.Closed(path); err != nil {
		return err
	}
	return s.change(func(st *State) {
		st.Recent = slices.DeleteFunc(st.Recent, func(r Recent) bool { return r.Path == path })
	})
}

// SetActive remembers the vault the window shows.
func (s *Store) SetActive(path string) error {
	return s.change(func(st *State) { st.Active = path })
}

// SetWindow remembers the window's size and place.
func (s *Store) SetWindow(w Window) error {
	return s.change(func(st *State) { st.Window = w })
}

// change applies fn and saves the state if fn changed it.
func (s *Store) change(fn func(*State)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	before := s.st
	before.Open, before.Recent = slices.Clone(s.st.Open), slices.Clone(s.st.Recent)
	fn(&s.st)
	if slices.Equal(before.Open, s.st.Open) && slices.Equal(before.Recent, s.st.Recent) && before.Active == s.st.Active && before.Window == s.st.Window {
		return nil
	}
	if err := userfile.Save(s.path, "# The vaults MemoTree had open, the recent ones and the window's place. Written by the app.\n", s.st); err != nil {
		return fmt.Errorf("remember vaults: %w", err)
	}
	return nil
}
