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
