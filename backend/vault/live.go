package vault

import (
	"os"
	"slices"
	"sync"
)

// live is the process-wide record of the files this process holds as a sign that
// their writer lives: the temporary files of its writes in .memotree, which are made
// without the vault lock (see InternalTempLive). A remover of orphans asks it before it
// probes a file's lock, and leaves a file of its own process alone without opening it:
// where flock is emulated by per-process locks (NFS), the probe would succeed, and
// closing it would drop the writer's lock. It is process-wide because several Vaults
// of one process (the library's, a doctor's, a watcher's) may open the same folder.
var live struct {
	mu    sync.Mutex
	files []os.FileInfo
}

// holdLive records f as held by this process; the returned function forgets it.
// Calling it more than once is harmless.
func holdLive(f *os.File) (release func()) {
	st, err := f.Stat()
	if err != nil {
		return func() {}
	}
	live.mu.Lock()
	live.files = append(live.files, st)
	live.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			live.mu.Lock()
			defer live.mu.Unlock()
			if i := slices.Index(live.files, st); i >= 0 {
				live.files = slices.Delete(live.files, i, i+1)
			}
		})
	}
}

// heldHere reports whether name, inside v, is a file this process holds (see live).
func (v *Vault) heldHere(name string) bool {
	st, err := v.root.Lstat(name)
	if err != nil {
		return false
	}
	live.mu.Lock()
	defer live.mu.Unlock()
	return slices.ContainsFunc(live.files, func(h os.FileInfo) bool { return os.SameFile(h, st) })
}
