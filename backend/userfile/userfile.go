// Package userfile keeps the person's own files of MemoTree's settings, which may hold
// secrets (an endpoint's API key, a git access token): it writes them atomically,
// readable by the user alone, and reads them as TOML.
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

	"github.com/BurntSushi/toml"

	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/internal/syncfile"
)

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
