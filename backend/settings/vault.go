package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
)

// Files are a vault's own files, in its .memotree folder (a *vault.Vault): reading a
// missing one fails with an error that is fs.ErrNotExist.
type Files interface {
	ReadInternal(name string) ([]byte, error)
	WriteInternal(name string, data []byte) error
}

// Section is one file of a vault's settings in .memotree: its name, its defaults,
// and the rules a value read or saved is held to. The package that uses the settings
// declares its section beside their type (canvas.SettingsSection), so that a setting
// is added in one place: a field of the type, and its default in Default.
type Section[T any] struct {
	// File is the file's name in .memotree ("graph.json").
	File string
	// Default returns the settings of a vault that has none of its own: the one
	// source of every default, which the window is served.
	Default func() T
	// Normal, when set, bounds a value read or saved (a number out of range, a list
	// left out), so that the window never gets one it cannot show.
	Normal func(T) T
	// Check, when set, refuses a value on save, saying why.
	Check func(T) error
	// Damaged says, after the file's name, what a damaged file means for the person
	// ("nothing is backed up until the settings are saved again").
	Damaged string
}

// Loaded says how a section was read.
type Loaded struct {
	// Saved is true when the vault has the file and it was read.
	Saved bool
	// Warnings name what could not be read, and why; each is ignored, never fatal.
	Warnings []string
}

// Load reads the section from files: a missing file is its defaults; a damaged or
// unreadable one is its defaults and a warning. Fields the file lacks (one an earlier
// version did not write) keep their defaults; fields it has that the type does not
// know (a newer version's) are ignored.
func (s Section[T]) Load(files Files) (T, Loaded) {
	v := s.Default()
	b, err := files.ReadInternal(s.File)
	if errors.Is(err, fs.ErrNotExist) {
		return s.normal(v), Loaded{}
	}
	if err != nil {
		return s.normal(v), Loaded{Warnings: []string{err.Error()}}
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return s.normal(s.Default()), Loaded{Warnings: []string{fmt.Sprintf(".memotree/%s is damaged (%v): %s", s.File, err, s.Damaged)}}
	}
	return s.normal(v), Loaded{Saved: true}
}

// Save checks v, bounds it and writes it to the section's file (atomically, as every
// file in .memotree is written), returning what was written.
func (s Section[T]) Save(files Files, v T) (T, error) {
	if s.Check != nil {
		if err := s.Check(v); err != nil {
			return v, err
		}
	}
	v = s.normal(v)
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return v, fmt.Errorf("save settings .memotree/%s: %w", s.File, err)
	}
	if err := files.WriteInternal(s.File, append(b, '\n')); err != nil {
		return v, fmt.Errorf("save settings .memotree/%s: %w", s.File, err)
	}
	return v, nil
}

func (s Section[T]) normal(v T) T {
	if s.Normal == nil {
		return v
	}
	return s.Normal(v)
}
