// Package workspace is the composition root: it mounts the libraries a process works
// on, wires each to the shared event bus, and closes everything in one call. Faces (the
// desktop app, `memotree serve`, the CLI, MCP) build one Workspace with OpenFace, from
// the person's settings, and talk to it.
//
// Concurrency: a Workspace is safe for concurrent use once Open has returned.
package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// ErrNoLibrary is returned when a library name is not mounted.
var ErrNoLibrary = errors.New("no such library")

// Spec names a folder to mount as a library.
type Spec struct {
	Name string `json:"name"`
	Path string `json:"path"`
	// Permission of the agent and MCP clients; empty means tool.PermPropose.
	Permission tool.Permission `json:"permission,omitempty"`
}

// ParseSpec parses the NAME=PATH form of the --library flag. A bare PATH is named after
// its folder. Permissions are set apart (the --permission NAME=LEVEL flag).
func ParseSpec(s string) (Spec, error) {
	name, path, ok := strings.Cut(s, "=")
	if !ok {
		path = s
		name = filepath.Base(filepath.Clean(s))
	}
	if path == "" {
		return Spec{}, fmt.Errorf("library %q: empty path (use NAME=PATH)", s)
	}
	if !vpath.ValidName(name) {
		return Spec{}, fmt.Errorf("library %q: name %q must be 1-64 letters, digits, '_', '-' or '.'", s, name)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Spec{}, fmt.Errorf("library %q: %w", s, err)
	}
	return Spec{Name: name, Path: abs}, nil
}

// Options configure Open.
type Options struct {
	// Watch keeps every library current as files change (the app, serve, MCP).
	Watch bool
	// Debounce overrides the watcher's debounce interval.
	Debounce time.Duration
	// Lazy defers each library's full scan until something needs its graph (one-shot
	// commands). Ignored when Watch is set.
	Lazy bool
	// Summarizer, when a model is configured, writes missing note summaries for the
	// tools (if a library's canvas settings turn it on); nil otherwise.
	Summarizer catalog.Summarizer
	// Embedder, when set, computes the vectors of semantic and hybrid search (the
	// LLM gateway's Embeddings); without it those search types answer that no
	// embeddings model is configured.
	Embedder catalog.Embedder
	// BeforeRead, when set, is called during each library's full scan, once the vault
	// is listed and before any note is read, with the number of notes to read (the
	// index command prepares its heap for them).
	BeforeRead func(notes int)
	// Background, with Watch, scans each library in the background (see
	// library.Options.Background): Open returns before the vaults are read, and their
	// progress goes out on the bus. The app and serve open this way.
	Background bool
	// AllowNone lets Open return a workspace with no library, into which the person
	// mounts vaults later (the window's welcome). Tools then answer that no library
	// is open.
	AllowNone bool
	// OutsideCaches keeps the caches of a vault that has no .memotree folder yet in
	// the user's cache folder (CacheDirFor), so that opening a folder writes nothing
	// in it until the person writes. The app and serve set it.
	OutsideCaches bool
	// Once reads each library once, never to be kept current (memotree index; see
	// library.Options.Once). Ignored when Watch is set.
	Once bool
	// Permissions are the permissions the person gave by library name (the
	// --permission flag of every face), for a library mounted under that name without
	// a Spec.Permission of its own, now or later (a vault the window opens).
	Permissions map[string]tool.Permission
}

// Workspace is the set of mounted libraries and the bus they publish on. Libraries
// may be mounted and unmounted while it runs (Mount, Unmount).
type Workspace struct {
	bus  *event.Bus
	opts Options

	libMu    sync.RWMutex
	libs     []*library.Library
	perms    map[string]tool.Permission
	given    map[string]bool               // the libraries whose permission the person gave
	libStops map[*library.Library][]func() // run when the library is unmounted

	registry   registry
	watch      bool        // Options.Watch
	git        gitWatchers // HEAD watchers (gitwatch.go)
	canvases   *canvas.Set
	summarizer catalog.Summarizer
	stopMu     sync.Mutex
	stopped    bool     // Close has run the stops
	stops      []func() // run by Close: canvases stop following, search indexes close
	embedder   catalog.Embedder

	closeOnce sync.Once
	closeErr  error
}

// ErrNameTaken is returned by Mount when a library is already mounted under the name.
var ErrNameTaken = errors.New("library name taken")

// Open mounts every spec, in order; the first is the default library.
func Open(ctx context.Context, specs []Spec, o Options) (*Workspace, error) {
	if len(specs) == 0 && !o.AllowNone {
		return nil, errors.New("open workspace: no library given (use --library NAME=PATH)")
	}
	w := &Workspace{bus: event.NewBus(), opts: o, perms: map[string]tool.Permission{}, given: map[string]bool{}, libStops: map[*library.Library][]func(){}, watch: o.Watch, canvases: canvas.NewSet(), summarizer: o.Summarizer, embedder: o.Embedder}
	for _, s := range specs {
		if _, err := w.mount(ctx, s); err != nil {
			w.Close()
			if errors.Is(err, ErrNameTaken) {
				return nil, fmt.Errorf("open workspace: library name %q given twice", s.Name)
			}
			return nil, err
		}
	}
	if o.Watch {
		w.watchRoots()
	}
	return w, nil
}

// Mount opens the folder s names as one more library, after those mounted, and tells
// the faces (event.LibrariesChanged). The name must be free; the folder must exist
// and must neither be, lie inside nor hold the folder of a library mounted already
// (vaults.ErrInsideVault).
func (w *Workspace) Mount(ctx context.Context, s Spec) (*library.Library, error) {
	l, err := w.mount(ctx, s)
	if err != nil {
		return nil, err
	}
	w.publishLibraries(event.LibrariesChange{Opened: l.Name(), Path: l.Vault().Dir()})
	return l, nil
}

// mount opens and adds one library.
func (w *Workspace) mount(ctx context.Context, s Spec) (*library.Library, error) {
	if _, err := w.Library(s.Name); err == nil {
		return nil, fmt.Errorf("open library %s: %w: close it first, or choose another name", s.Name, ErrNameTaken)
	}
	if fi, err := os.Stat(s.Path); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("open library %s: %s is not a folder", s.Name, s.Path)
	}
	if err := w.overlaps(s); err != nil {
		return nil, err
	}
	o := w.opts
	lo := library.Options{Watch: o.Watch, Bus: w.bus, Debounce: o.Debounce, Lazy: o.Lazy, BeforeRead: o.BeforeRead, Background: o.Background, Once: o.Once && !o.Watch}
	if o.OutsideCaches {
		if dir, err := CacheDirFor(s.Path); err == nil {
			lo.CacheDir = dir
		}
	}
	l, err := library.Open(ctx, s.Name, s.Path, lo)
	if err != nil {
		return nil, err
	}
	perm, given := s.Permission, s.Permission != ""
	if !given {
		perm, given = o.Permissions[s.Name]
	}
	if !given {
		perm = tool.PermPropose
	}
	w.libMu.Lock()
	if w.taken(s.Name) { // mounted meanwhile by another caller
		w.libMu.Unlock()
		l.Close()
		return nil, fmt.Errorf("open library %s: %w", s.Name, ErrNameTaken)
	}
	w.libs = append(w.libs, l)
	w.perms[s.Name], w.given[s.Name] = perm, given
	w.libMu.Unlock()
	w.WatchGit(l.Name())
	if o.Watch {
		// Views follow notes moved or renamed outside the tools.
		stop := w.canvases.For(l).Follow(w.bus)
		w.libMu.Lock()
		w.libStops[l] = append(w.libStops[l], stop)
		w.libMu.Unlock()
	}
	return l, nil
}

// taken reports whether a library is mounted under name; libMu is held.
func (w *Workspace) taken(name string) bool {
	for _, l := range w.libs {
		if l.Name() == name {
			return true
		}
	}
	return false
}

// Unmount closes the library named name and removes it from the workspace: its
// watchers stop, its search index is saved and released, and the faces are told
// (event.LibrariesChanged). The next library becomes the default when it was the
// default. Calls already running on it may fail; new ones find no such library.
func (w *Workspace) Unmount(name string) error {
	return w.unmount(name, false)
}

func (w *Workspace) unmount(name string, gone bool) error {
	w.libMu.Lock()
	i := slices.IndexFunc(w.libs, func(l *library.Library) bool { return l.Name() == name })
	if i < 0 || name == "" {
		w.libMu.Unlock()
		return fmt.Errorf("close library %q: %w", name, ErrNoLibrary)
	}
	l := w.libs[i]
	w.libs = slices.Delete(slices.Clone(w.libs), i, i+1)
	delete(w.perms, name)
	delete(w.given, name)
	stops := w.libStops[l]
	delete(w.libStops, l)
	w.libMu.Unlock()
	w.closeGitOf(name)
	for _, stop := range stops {
		stop()
	}
	w.canvases.Forget(l)
	err := l.Close()
	w.publishLibraries(event.LibrariesChange{Closed: name, Path: l.Vault().Dir(), Gone: gone})
	if err != nil {
		return fmt.Errorf("close library %s: %w", name, err)
	}
	return nil
}

// publishLibraries tells the faces what the libraries are now.
func (w *Workspace) publishLibraries(c event.LibrariesChange) {
	c.Libraries = []string{}
	for _, l := range w.Libraries() {
		c.Libraries = append(c.Libraries, l.Name())
	}
	w.bus.Publish(event.Event{Topic: event.LibrariesChanged, Data: c})
}

// Permission returns the permission of the agent and MCP clients in the library named
// name ("" for the default); PermRead for a library that is not mounted.
func (w *Workspace) Permission(name string) tool.Permission {
	l, err := w.Library(name)
	if err != nil {
		return tool.PermRead
	}
	w.libMu.RLock()
	defer w.libMu.RUnlock()
	if p, ok := w.perms[l.Name()]; ok {
		return p
	}
	return tool.PermRead
}

// permissionGiven reports whether the person gave the permission of the library named
// name ("" for the default), rather than leaving it at its default.
func (w *Workspace) permissionGiven(name string) bool {
	l, err := w.Library(name)
	if err != nil {
		return false
	}
	w.libMu.RLock()
	defer w.libMu.RUnlock()
	return w.given[l.Name()]
}

// Canvases returns the agent's views of the libraries, shared by the tools and the
// window.
func (w *Workspace) Canvases() *canvas.Set { return w.canvases }

// Bus returns the event bus every library publishes on.
func (w *Workspace) Bus() *event.Bus { return w.bus }

// Libraries returns the mounted libraries, the default first. The slice is the
// caller's: a later Mount or Unmount does not change it.
func (w *Workspace) Libraries() []*library.Library {
	w.libMu.RLock()
	defer w.libMu.RUnlock()
	return slices.Clone(w.libs)
}

// Library returns the library mounted under name; "" means the default library.
func (w *Workspace) Library(name string) (*library.Library, error) {
	w.libMu.RLock()
	defer w.libMu.RUnlock()
	if len(w.libs) == 0 {
		return nil, fmt.Errorf("%w %q: no library is open; open a vault first", ErrNoLibrary, name)
	}
	if name == "" {
		return w.libs[0], nil
	}
	for _, l := range w.libs {
		if l.Name() == name {
			return l, nil
		}
	}
	names := make([]string, len(w.libs))
	for i, l := range w.libs {
		names[i] = l.Name()
	}
	return nil, fmt.Errorf("%w %q (mounted: %s)", ErrNoLibrary, name, strings.Join(names, ", "))
}

// Close closes every library. It is safe to call more than once; the workspace must
// not be used afterwards, though a straggling reader of Libraries or Library still sees
// the (closed) libraries rather than racing with Close.
func (w *Workspace) Close() error {
	w.closeOnce.Do(func() {
		w.stopMu.Lock()
		stops := w.stops
		w.stops, w.stopped = nil, true
		w.stopMu.Unlock()
		for _, stop := range stops {
			stop()
		}
		w.closeGit()
		w.libMu.Lock()
		libs := slices.Clone(w.libs)
		var libStops []func()
		for _, l := range libs {
			libStops = append(libStops, w.libStops[l]...)
		}
		w.libStops = map[*library.Library][]func(){}
		w.libMu.Unlock()
		for _, stop := range libStops {
			stop()
		}
		var errs []error
		for _, l := range libs {
			errs = append(errs, l.Close())
		}
		w.closeErr = errors.Join(errs...)
	})
	return w.closeErr
}

// Memory returns the agent's memory notebook, memory.md of the default library; a
// missing notebook is empty.
func (w *Workspace) Memory(context.Context) (string, error) {
	l, err := w.Library("")
	if err != nil {
		return "", nil // no library open: no notebook yet
	}
	b, _, err := l.Vault().Read("memory.md")
	if errors.Is(err, vault.ErrNotFound) {
		return "", nil
	}
	return string(b), err
}

// atClose registers fn to run when the workspace closes (Close runs them in order).
// One registered after Close runs at once.
func (w *Workspace) atClose(fn func()) {
	w.stopMu.Lock()
	if !w.stopped {
		w.stops = append(w.stops, fn)
		fn = nil
	}
	w.stopMu.Unlock()
	if fn != nil {
		fn()
	}
}
