package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/vaults"
)

// rootCheckEvery is how often a watched workspace checks that each library's folder
// is still where it was.
var rootCheckEvery = time.Second

// watchRoots unmounts, until the workspace closes, every library whose folder was
// deleted or moved away, telling the faces it is gone (event.LibrariesChange.Gone):
// its watcher would otherwise keep a tree of files that no longer exist.
func (w *Workspace) watchRoots() {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(rootCheckEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				for _, l := range w.Libraries() {
					if rootGone(l.Vault().Dir()) {
						_ = w.unmount(l.Name(), true)
					}
				}
			}
		}
	}()
	w.atClose(func() {
		close(done)
		<-stopped
	})
}

// rootGone reports whether the folder dir no longer exists as a folder.
func rootGone(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	return !fi.IsDir()
}

// CacheDirFor returns where the caches of the vault at dir live while it has no
// .memotree folder (Options.OutsideCaches): a folder of the user's cache folder
// (~/.cache/memotree/vaults on Linux) named after the vault and a hash of its path.
func CacheDirFor(dir string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache folder: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("cache folder of %s: %w", dir, err)
	}
	sum := sha256.Sum256([]byte(abs))
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < ' ' {
			return '_'
		}
		return r
	}, filepath.Base(abs))
	return filepath.Join(base, "memotree", "vaults", name+"-"+hex.EncodeToString(sum[:8])), nil
}

// overlaps refuses the library s when its folder is the folder of a library mounted
// already, lies inside one, or holds one (vaults.Overlap), as the window's open does:
// two libraries over the same notes (`--library a=X --library b=X/sub`) would each
// index and write them, and the outer one would take the inner one's own files for
// notes. The error wraps vaults.ErrInsideVault and names the other library.
func (w *Workspace) overlaps(s Spec) error {
	var open []vaults.Mounted
	for _, l := range w.Libraries() {
		open = append(open, vaults.Mounted{Name: l.Name(), Path: l.Vault().Dir()})
	}
	real, err := filepath.Abs(s.Path)
	if err != nil {
		return fmt.Errorf("open library %s: %w", s.Name, err)
	}
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	switch m, rel := vaults.Overlap(real, open); rel {
	case vaults.Same:
		return fmt.Errorf("open library %s: %w: %s is the folder of the library %s already; give each vault once", s.Name, vaults.ErrInsideVault, s.Path, m.Name)
	case vaults.Inside:
		return fmt.Errorf("open library %s: %w: %s is inside the library %s (%s), whose notes it would index and write a second time; give %s alone, or %s alone", s.Name, vaults.ErrInsideVault, s.Path, m.Name, m.Path, m.Path, s.Path)
	case vaults.Around:
		return fmt.Errorf("open library %s: %w: %s holds the library %s (%s), whose notes it would index and write a second time; give %s alone, or %s alone", s.Name, vaults.ErrInsideVault, s.Path, m.Name, m.Path, s.Path, m.Path)
	}
	return nil
}
