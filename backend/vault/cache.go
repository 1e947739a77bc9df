package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A vault's caches (the search index, the vectors of semantic search) are files the app
// can always rebuild, and its runtime files (the window's approval queue) live only as
// long as the processes that use them: neither is part of what was written in the
// vault. They live in the vault's .memotree folder, like its state (locks, views,
// sessions), once that folder exists. A folder that was never written through
// MemoTree has none, and opening it must not create one: until the first write they go
// to the folder SetCacheDir names, outside the vault (the user's cache folder, keyed
// by the vault's path, so that every process of the user finds the same one). Without
// SetCacheDir they go to .memotree, as one-shot commands and tests expect.

// SetCacheDir names the folder that holds the vault's caches while the vault has no
// .memotree folder. When the vault already has one, dir is removed: what it held is a
// cache from before the vault's first write, superseded by .memotree's. Call it once,
// before the caches are used.
func (v *Vault) SetCacheDir(dir string) error {
	v.internMu.Lock()
	v.cacheDir = dir
	v.internMu.Unlock()
	if dir == "" || !v.hasInternal() {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("remove the outside cache of %s: %w", v.dir, err)
	}
	return nil
}

// hasInternal reports whether the vault's .memotree folder exists.
func (v *Vault) hasInternal() bool {
	v.internMu.Lock()
	ok := v.internOK
	v.internMu.Unlock()
	if ok {
		return true
	}
	st, err := v.root.Lstat(internalDir)
	return err == nil && st.IsDir()
}

// outsideCache returns the folder of the caches when they live outside the vault, or
// "" when they live in .memotree.
func (v *Vault) outsideCache() string {
	v.internMu.Lock()
	dir := v.cacheDir
	v.internMu.Unlock()
	if dir == "" || v.hasInternal() {
		return ""
	}
	return dir
}

// cacheFile returns the OS path of the cache file name (slash-separated) in dir,
// refusing a name that leaves it.
func cacheFile(dir, name string) (string, error) {
	if _, err := internalPath(name); err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(name)), nil
}

// WriteCache atomically replaces the cache file name (see SetCacheDir for where it
// lives).
func (v *Vault) WriteCache(name string, data []byte) error {
	dir := v.outsideCache()
	if dir == "" {
		return v.WriteInternal(name, data)
	}
	file, err := cacheFile(dir, name)
	if err != nil {
		return fmt.Errorf("write cache %s: %w", name, err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("write cache %s: %w", name, err)
	}
	f, err := os.CreateTemp(filepath.Dir(file), TempPrefix+"*")
	if err != nil {
		return fmt.Errorf("write cache %s: %w", name, err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), file)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write cache %s: %w", name, err)
	}
	return nil
}

// ReadCache returns the content of the cache file name; a missing one is ErrNotFound.
func (v *Vault) ReadCache(name string) ([]byte, error) {
	dir := v.outsideCache()
	if dir == "" {
		return v.ReadInternal(name)
	}
	file, err := cacheFile(dir, name)
	if err != nil {
		return nil, fmt.Errorf("read cache %s: %w", name, err)
	}
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read cache %s: %w", name, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read cache %s: %w", name, err)
	}
	return b, nil
}

// CachePath returns the OS path of the cache file name, creating its parent folder,
// for a reader that maps the file itself.
func (v *Vault) CachePath(name string) (string, error) {
	dir := v.outsideCache()
	if dir == "" {
		return v.InternalPath(name)
	}
	file, err := cacheFile(dir, name)
	if err != nil {
		return "", fmt.Errorf("cache path %s: %w", name, err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", fmt.Errorf("cache path %s: %w", name, err)
	}
	return file, nil
}

// CachesInside reports whether the caches and runtime files live in .memotree (it
// exists, or no outside folder was set) rather than outside the vault.
func (v *Vault) CachesInside() bool { return v.outsideCache() == "" }

// ListCache returns the names of the regular files in the cache folder dir, sorted,
// without temporary files; a missing folder has none.
func (v *Vault) ListCache(dir string) ([]string, error) {
	out := v.outsideCache()
	if out == "" {
		return v.ListInternal(dir)
	}
	d, err := cacheFile(out, dir)
	if err != nil {
		return nil, fmt.Errorf("list cache %s: %w", dir, err)
	}
	ents, err := os.ReadDir(d)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list cache %s: %w", dir, err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), TempPrefix) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// RemoveCache removes the cache file name; a missing one is not an error.
func (v *Vault) RemoveCache(name string) error {
	out := v.outsideCache()
	if out == "" {
		return v.RemoveInternal(name)
	}
	file, err := cacheFile(out, name)
	if err != nil {
		return fmt.Errorf("remove cache %s: %w", name, err)
	}
	if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove cache %s: %w", name, err)
	}
	return nil
}

// HoldCache takes an exclusive lock, without waiting, on the cache file name (created
// if needed), as HoldInternal does inside .memotree: ok is false, with no error, when
// another open file holds it; release lets it go, the file stays.
func (v *Vault) HoldCache(name string) (release func(), ok bool, err error) {
	out := v.outsideCache()
	if out == "" {
		return v.HoldInternal(name)
	}
	file, err := cacheFile(out, name)
	if err != nil {
		return nil, false, fmt.Errorf("lock cache %s: %w", name, err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return nil, false, fmt.Errorf("lock cache %s: %w", name, err)
	}
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("lock cache %s: %w", name, err)
	}
	return holdLock(f, "cache", name)
}
