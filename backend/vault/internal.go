package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/vpath"
)

// ensureInternal creates .memotree, with a .gitignore that keeps it out of git, if it
// does not exist yet. A .memotree that is a symbolic link (a vault copied with one,
// say to .git) is refused: MemoTree writes its own files only into its own folder.
func (v *Vault) ensureInternal() error {
	v.internMu.Lock()
	defer v.internMu.Unlock()
	if v.internOK {
		return nil
	}
	dirs := v.newBatchDirs()
	defer dirs.close()
	if _, err := v.makeDirs(dirs, internalDir); err != nil {
		return err
	}
	ign := internalDir + "/.gitignore"
	if _, err := v.root.Lstat(ign); errors.Is(err, fs.ErrNotExist) {
		err := fsfault.Check("create", ign)
		if err == nil {
			err = v.root.WriteFile(ign, []byte("*\n"), 0o644)
		}
		if err != nil {
			_ = v.root.Remove(ign) // a full disk may have left it empty
			return fmt.Errorf("create %s: %w", ign, mapErr(err))
		}
	}
	v.internOK = true
	return nil
}

// resetInternal forgets that .memotree exists (someone removed it).
func (v *Vault) resetInternal() {
	v.internMu.Lock()
	v.internOK = false
	v.internMu.Unlock()
}

// internalPath validates name, a slash-separated path inside .memotree, and returns
// its vault path.
func internalPath(name string) (vpath.Path, error) {
	p, err := vpath.Parse(name)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrOutside, err)
	}
	if p == "" {
		return "", fmt.Errorf("%w: empty internal name", ErrOutside)
	}
	return vpath.Path(internalDir).Join(string(p)), nil
}

// WriteInternal atomically replaces the file name inside the app's own .memotree folder
// (indexes, views, sessions), creating folders as needed. It does not take the vault
// lock, so it may be called while holding it; callers that need cross-process
// exclusion take Lock themselves.
func (v *Vault) WriteInternal(name string, data []byte) error {
	p, err := internalPath(name)
	if err != nil {
		return fmt.Errorf("write internal %s: %w", name, err)
	}
	if err := v.ensureInternal(); err != nil {
		return fmt.Errorf("write internal %s: %w", name, err)
	}
	perm, exists := fs.FileMode(0o644), false
	if st, err := v.root.Stat(osName(p)); err == nil && st.Mode().IsRegular() {
		perm, exists = st.Mode().Perm(), true
	}
	dirs := v.newBatchDirs()
	defer dirs.close()
	if err := v.atomicWrite(dirs, p, data, perm, exists, false, nil); err != nil && !isMade(err) {
		return fmt.Errorf("write internal %s: %w", name, fsfault.Wrap(v.dir, err))
	}
	return nil
}

// ReadInternal returns the content of the file name inside .memotree.
func (v *Vault) ReadInternal(name string) ([]byte, error) {
	p, err := internalPath(name)
	if err != nil {
		return nil, fmt.Errorf("read internal %s: %w", name, err)
	}
	b, err := readRegular(v.root, osName(p))
	if err != nil {
		return nil, fmt.Errorf("read internal %s: %w", name, mapErr(err))
	}
	return b, nil
}

// RemoveInternal removes the file or empty folder name inside .memotree; a missing
// file is not an error.
func (v *Vault) RemoveInternal(name string) error {
	p, err := internalPath(name)
	if err != nil {
		return fmt.Errorf("remove internal %s: %w", name, err)
	}
	dirs := v.newBatchDirs()
	defer dirs.close()
	err = fsfault.Check("remove", string(p))
	if err == nil {
		err = dirs.remove(p)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove internal %s: %w", name, mapErr(err))
	}
	return nil
}

// InternalPath returns the absolute OS path of name inside .memotree, creating its
// parent folder, for libraries that must open files themselves (a database, say).
// What they do there escapes the Vault's checks; keep it to .memotree.
func (v *Vault) InternalPath(name string) (string, error) {
	p, err := internalPath(name)
	if err != nil {
		return "", fmt.Errorf("internal path %s: %w", name, err)
	}
	if err := v.ensureInternal(); err != nil {
		return "", fmt.Errorf("internal path %s: %w", name, err)
	}
	if err := v.root.MkdirAll(osName(p.Dir()), 0o755); err != nil {
		return "", fmt.Errorf("internal path %s: %w", name, mapErr(err))
	}
	return filepath.Join(v.dir, filepath.FromSlash(string(p))), nil
}

// ListInternal returns the names of the regular files in the folder dir inside
// .memotree, sorted, without the temporary files of writes in progress; a missing
// folder has none.
func (v *Vault) ListInternal(dir string) ([]string, error) {
	p, err := internalPath(dir)
	if err != nil {
		return nil, fmt.Errorf("list internal %s: %w", dir, err)
	}
	f, err := regular.OpenDir(v.root, osName(p))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list internal %s: %w", dir, mapErr(err))
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("list internal %s: %w", dir, mapErr(err))
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), TempPrefix) {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}
