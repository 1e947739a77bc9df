// Package demo embeds MemoTree's demo vault: a small bilingual research notebook on
// the history of computing and information, which a new user can open and explore.
package demo

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed all:vault
var vault embed.FS

// FS returns the demo vault as a read-only file system rooted at the vault folder.
func FS() fs.FS {
	sub, err := fs.Sub(vault, "vault")
	if err != nil {
		panic(err) // cannot happen: "vault" is a valid, embedded directory
	}
	return sub
}

// CopyTo writes the demo vault into dir, which must not exist or be empty. Folders are
// created 0755 and files 0644; an existing file is never overwritten.
func CopyTo(dir string) error {
	if err := checkEmpty(dir); err != nil {
		return err
	}
	src := FS()
	return fs.WalkDir(src, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(src, name)
		if err != nil {
			return err
		}
		f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

func checkEmpty(dir string) error {
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); err != io.EOF {
		if err == nil {
			return fmt.Errorf("demo: %s is not empty", dir)
		}
		return fmt.Errorf("demo: %w", err)
	}
	return nil
}
