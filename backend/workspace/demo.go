package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memotree/memotree/demo"
)

// DataDir returns the folder for the user's MemoTree data: $XDG_DATA_HOME/memotree,
// else ~/.local/share/memotree.
func DataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "memotree"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("data folder: %w", err)
	}
	return filepath.Join(home, ".local", "share", "memotree"), nil
}

// DemoSpec returns the demo library, copying the shipped demo vault into the data
// folder on first use, as a git repository with a little history and a change
// waiting for review (makeDemoHistory). The shipped copy is never modified; the
// user's copy is theirs.
func DemoSpec() (Spec, error) {
	dir, err := DataDir()
	if err != nil {
		return Spec{}, err
	}
	vault := filepath.Join(dir, "demo-vault")
	if _, err := os.Stat(vault); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return Spec{}, fmt.Errorf("demo vault: %w", err)
		}
		tmp, err := os.MkdirTemp(dir, ".demo-vault-*")
		if err != nil {
			return Spec{}, fmt.Errorf("demo vault: %w", err)
		}
		if err := demo.CopyTo(tmp); err != nil {
			os.RemoveAll(tmp)
			return Spec{}, fmt.Errorf("copy demo vault: %w", err)
		}
		if err := makeDemoHistory(context.Background(), tmp); err != nil {
			os.RemoveAll(tmp)
			return Spec{}, fmt.Errorf("copy demo vault: %w", err)
		}
		if err := os.Rename(tmp, vault); err != nil {
			os.RemoveAll(tmp)
			return Spec{}, fmt.Errorf("demo vault: %w", err)
		}
	} else if err != nil {
		return Spec{}, fmt.Errorf("demo vault: %w", err)
	}
	return Spec{Name: "demo", Path: vault}, nil
}
