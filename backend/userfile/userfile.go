// Package userfile keeps the person's own files of MemoTree's settings, which may hold
// secrets (an endpoint's API key, a git access token): it finds them in MemoTree's
// folder of the user's config folder (Dir), writes them atomically, readable by the
// user alone, and reads them as TOML. A file may be shared by several owners, each
// writing only its own keys (Update).
//
// Concurrency: the functions hold no state; two writers of one file both succeed and
// the last rename wins, whole.
package userfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/internal/syncfile"
)

// Dir returns MemoTree's folder in the user's config folder (~/.config/memotree on
// Linux), where every file of the person's settings is kept.
func Dir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("settings: no config folder for this user (set $XDG_CONFIG_HOME or $HOME): %w", err)
	}
	return filepath.Join(dir, "memotree"), nil
}

// Path returns the file name in Dir.
func Path(name string) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

// Load decodes the TOML file at path into v; a missing file leaves v as it is. A file
// that does not parse is an error telling the person to fix or delete it.
func Load(path string, v any) error {
	b, err := regular.ReadPath(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read settings %s: %w", path, err)
	}
	if _, err := toml.Decode(string(b), v); err != nil {
		return fmt.Errorf("read settings %s: %w; fix the file or delete it and save the settings again", path, err)
	}
	return nil
}

// Save encodes v as TOML under a comment header and writes it to path atomically
// (a temporary file in the same folder, synced, renamed over it), with mode 0600 in a
// folder of mode 0700, so a secret in it stays the user's alone.
func Save(path, header string, v any) error {
	var buf bytes.Buffer
	buf.WriteString(header)
	if err := toml.NewEncoder(&buf).Encode(v); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	if err := writePrivate(path, buf.Bytes()); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return nil
}

// Update writes v's keys into the TOML file at path and keeps every other key the
// file holds, as Save writes them (atomically, 0600): a file shared by several owners
// (the endpoint's keys and the look's table in settings.toml) is changed by each
// without losing the others'. v is a struct (or a pointer to one); its keys are its
// fields' TOML names, those of embedded structs included, so a key v leaves out
// (omitempty) is removed from the file. A file that does not parse is an error, as
// for Load, and is not overwritten.
func Update(path, header string, v any) error {
	kept := map[string]any{}
	if err := Load(path, &kept); err != nil {
		return err
	}
	var own bytes.Buffer
	if err := toml.NewEncoder(&own).Encode(v); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	mine := map[string]any{}
	if _, err := toml.Decode(own.String(), &mine); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	for _, k := range keysOf(reflect.TypeOf(v)) {
		delete(kept, k)
		if x, ok := mine[k]; ok {
			kept[k] = x
		}
	}
	return Save(path, header, kept)
}

// keysOf lists the TOML keys of a struct type's fields, as BurntSushi/toml names
// them: the tag's name, else the field's; an untagged embedded struct's keys are its
// own.
func keysOf(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		switch {
		case name == "-" || !f.IsExported() && !f.Anonymous:
			continue
		case f.Anonymous && name == "" && (f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct):
			out = append(out, keysOf(f.Type)...)
		case name != "":
			out = append(out, name)
		default:
			out = append(out, f.Name)
		}
	}
	return out
}

// writePrivate writes data to path atomically with mode 0600.
func writePrivate(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".settings-*.toml")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := syncfile.Finish(f, data, 0o600, true); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
