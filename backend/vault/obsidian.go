package vault

import (
	"fmt"
	"io"
	"strings"
)

// MaxObsidianConfig bounds the size of an Obsidian settings file ReadObsidianConfig
// reads: they are a few kilobytes.
const MaxObsidianConfig = 1 << 20

// ReadObsidianConfig returns the content of the file name (a plain file name, such as
// "graph.json") in the vault's .obsidian folder, which holds Obsidian's settings for
// this vault. MemoTree reads them and never writes there. A missing file is
// ErrNotFound; one larger than MaxObsidianConfig is an error.
func (v *Vault) ReadObsidianConfig(name string) ([]byte, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("read .obsidian/%s: %w", name, ErrOutside)
	}
	f, _, err := openRegular(v.root, ".obsidian/"+name) // a named pipe is refused, never waited on
	if err != nil {
		return nil, fmt.Errorf("read .obsidian/%s: %w", name, mapErr(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxObsidianConfig+1))
	if err != nil {
		return nil, fmt.Errorf("read .obsidian/%s: %w", name, mapErr(err))
	}
	if len(b) > MaxObsidianConfig {
		return nil, fmt.Errorf("read .obsidian/%s: larger than %d bytes", name, MaxObsidianConfig)
	}
	return b, nil
}
