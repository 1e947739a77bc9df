package vault

import (
	"context"

	"github.com/memotree/memotree/backend/vpath"
)

// View is a read-only view of a vault: what a library hands to everyone else, so that
// every write goes through the library, which indexes what it writes and tells its
// subscribers (library.Library). A View reads notes, the vault's own files under
// .memotree, its caches and its journey; it has no method that writes, and its vault
// cannot be reached from it outside this package.
type View struct{ v *Vault }

// View returns the read-only view of v.
func (v *Vault) View() View { return View{v} }

// Dir returns the vault's root folder (see Vault.Dir).
func (w View) Dir() string { return w.v.Dir() }

// ReadFile reads a file of the vault (see Vault.ReadFile).
func (w View) ReadFile(p vpath.Path) ([]byte, error) { return w.v.ReadFile(p) }

// Read reads a file of the vault and its hash (see Vault.Read).
func (w View) Read(p vpath.Path) ([]byte, Hash, error) { return w.v.Read(p) }

// Stat describes a file of the vault (see Vault.Stat).
func (w View) Stat(p vpath.Path) (FileInfo, error) { return w.v.Stat(p) }

// Walk lists the vault's files with their hashes (see Vault.Walk).
func (w View) Walk(ctx context.Context) ([]FileInfo, error) { return w.v.Walk(ctx) }

// WalkPaths lists the vault's files without hashing them (see Vault.WalkPaths).
func (w View) WalkPaths(ctx context.Context) ([]FileInfo, error) { return w.v.WalkPaths(ctx) }

// WalkNames lists the paths of the vault's files (see Vault.WalkNames).
func (w View) WalkNames(ctx context.Context) ([]vpath.Path, error) { return w.v.WalkNames(ctx) }

// WalkOrdered visits the vault's files in path order until told to stop (see
// Vault.WalkOrdered).
func (w View) WalkOrdered(ctx context.Context, stat func() bool, visit func(FileInfo) bool) error {
	return w.v.WalkOrdered(ctx, stat, visit)
}

// WalkUnder lists the files under a folder of the vault (see Vault.WalkUnder).
func (w View) WalkUnder(ctx context.Context, dir vpath.Path) ([]FileInfo, error) {
	return w.v.WalkUnder(ctx, dir)
}

// ReadMany reads many files on several goroutines (see Vault.ReadMany).
func (w View) ReadMany(ctx context.Context, paths []vpath.Path, o ReadManyOptions, fn func(i int, data []byte, err error)) error {
	return w.v.ReadMany(ctx, paths, o, fn)
}

// ReadInternal reads a file of the vault's own folder, .memotree (see
// Vault.ReadInternal).
func (w View) ReadInternal(name string) ([]byte, error) { return w.v.ReadInternal(name) }

// ListInternal lists a folder under .memotree (see Vault.ListInternal).
func (w View) ListInternal(dir string) ([]string, error) { return w.v.ListInternal(dir) }

// ReadCache reads a cache file (see Vault.ReadCache).
func (w View) ReadCache(name string) ([]byte, error) { return w.v.ReadCache(name) }

// CachePath returns the OS path of a cache file, for a reader that maps it (see
// Vault.CachePath).
func (w View) CachePath(name string) (string, error) { return w.v.CachePath(name) }

// CachesInside reports whether the caches are kept in the vault (see
// Vault.CachesInside).
func (w View) CachesInside() bool { return w.v.CachesInside() }

// ListCache lists a folder of the caches (see Vault.ListCache).
func (w View) ListCache(dir string) ([]string, error) { return w.v.ListCache(dir) }

// Journey reads the whole journey (see Vault.Journey).
func (w View) Journey() ([]Entry, []string, error) { return w.v.Journey() }

// JourneyTail reads the journey's newest entries (see Vault.JourneyTail).
func (w View) JourneyTail(maxBytes int64) ([]Entry, []string, error) {
	return w.v.JourneyTail(maxBytes)
}

// JourneyLatest returns the newest entry naming each of names (see
// Vault.JourneyLatest).
func (w View) JourneyLatest(maxBytes int64, names []string) ([]Entry, error) {
	return w.v.JourneyLatest(maxBytes, names)
}

// ReadObsidianConfig reads a file of the vault's .obsidian folder (see
// Vault.ReadObsidianConfig).
func (w View) ReadObsidianConfig(name string) ([]byte, error) { return w.v.ReadObsidianConfig(name) }

// State is a view of a vault that also writes the vault's own files — under .memotree
// and among its caches — but never a note: what a search index, a canvas or an
// approval keeps, which no index or git status sees. Notes are written through the
// library alone.
type State struct{ View }

// State returns the view of v that writes its own files.
func (v *Vault) State() State { return State{View{v}} }

// WriteInternal writes a file under .memotree (see Vault.WriteInternal).
func (s State) WriteInternal(name string, data []byte) error { return s.v.WriteInternal(name, data) }

// RemoveInternal removes a file under .memotree (see Vault.RemoveInternal).
func (s State) RemoveInternal(name string) error { return s.v.RemoveInternal(name) }

// HoldInternal holds a file under .memotree while a process lives (see
// Vault.HoldInternal).
func (s State) HoldInternal(name string) (release func(), ok bool, err error) {
	return s.v.HoldInternal(name)
}

// InternalPath returns the OS path of a file under .memotree, for a file the caller
// opens itself (see Vault.InternalPath).
func (s State) InternalPath(name string) (string, error) { return s.v.InternalPath(name) }

// InternalTempLive reports whether a temporary file under .memotree belongs to a live
// writer (see Vault.InternalTempLive).
func (s State) InternalTempLive(p vpath.Path) bool { return s.v.InternalTempLive(p) }

// WriteCache writes a cache file (see Vault.WriteCache).
func (s State) WriteCache(name string, data []byte) error { return s.v.WriteCache(name, data) }

// RemoveCache removes a cache file (see Vault.RemoveCache).
func (s State) RemoveCache(name string) error { return s.v.RemoveCache(name) }

// HoldCache holds a cache file while a process lives (see Vault.HoldCache).
func (s State) HoldCache(name string) (release func(), ok bool, err error) {
	return s.v.HoldCache(name)
}

// Lock takes the vault's cross-process write lock, under which a caller reads what it
// is about to write among the vault's own files (see Vault.Lock).
func (s State) Lock(ctx context.Context) (unlock func(), err error) { return s.v.Lock(ctx) }
