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
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/tools"
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
	Summarizer tools.Summarizer
	// Embedder, when set, computes the vectors of semantic and hybrid search (the
	// LLM gateway's Embeddings); without it those search types answer that no
	// embeddings model is configured.
	Embedder tools.Embedder
	// BeforeRead, when set, is called during each library's full scan, once the vault
	// is listed and before any note is read, with the number of notes to read (the
	// index command prepares its heap for them).
	BeforeRead func(notes int)
	// Background, with Watch, scans each library in the background (see
	// library.Options.Background): Open returns before the vaults are read, and their
	// progress goes out on the bus. The app and serve open this way.
	Background bool
}

// Workspace is the set of mounted libraries and the bus they publish on.
type Workspace struct {
	bus   *event.Bus
	libs  []*library.Library
	perms map[string]tool.Permission

	registry   registry
	watch      bool        // Options.Watch
	git        gitWatchers // HEAD watchers (gitwatch.go)
	canvases   *canvas.Set
	summarizer tools.Summarizer
	stopMu     sync.Mutex
	stopped    bool     // Close has run the stops
	stops      []func() // run by Close: canvases stop following, search indexes close
	embedder   tools.Embedder

	closeOnce sync.Once
	closeErr  error
}

// Open mounts every spec, in order; the first is the default library.
func Open(ctx context.Context, specs []Spec, o Options) (*Workspace, error) {
	if len(specs) == 0 {
		return nil, errors.New("open workspace: no library given (use --library NAME=PATH)")
	}
	w := &Workspace{bus: event.NewBus(), perms: map[string]tool.Permission{}, watch: o.Watch, canvases: canvas.NewSet(), summarizer: o.Summarizer, embedder: o.Embedder}
	seen := map[string]bool{}
	for _, s := range specs {
		if seen[s.Name] {
			w.Close()
			return nil, fmt.Errorf("open workspace: library name %q given twice", s.Name)
		}
		seen[s.Name] = true
		if fi, err := os.Stat(s.Path); err != nil || !fi.IsDir() {
			w.Close()
			return nil, fmt.Errorf("open library %s: %s is not a folder", s.Name, s.Path)
		}
		l, err := library.Open(ctx, s.Name, s.Path, library.Options{Watch: o.Watch, Bus: w.bus, Debounce: o.Debounce, Lazy: o.Lazy, BeforeRead: o.BeforeRead, Background: o.Background})
		if err != nil {
			w.Close()
			return nil, err
		}
		w.libs = append(w.libs, l)
		w.WatchGit(l.Name())
		if o.Watch {
			// Views follow notes moved or renamed outside the tools.
			w.atClose(w.canvases.For(l).Follow(w.bus))
		}
		w.perms[s.Name] = s.Permission
		if s.Permission == "" {
			w.perms[s.Name] = tool.PermPropose
		}
	}
	return w, nil
}

// Permission returns the permission of the agent and MCP clients in the library named
// name ("" for the default); PermRead for a library that is not mounted.
func (w *Workspace) Permission(name string) tool.Permission {
	l, err := w.Library(name)
	if err != nil {
		return tool.PermRead
	}
	return w.perms[l.Name()]
}

// Canvases returns the agent's views of the libraries, shared by the tools and the
// window.
func (w *Workspace) Canvases() *canvas.Set { return w.canvases }

// Bus returns the event bus every library publishes on.
func (w *Workspace) Bus() *event.Bus { return w.bus }

// Libraries returns the mounted libraries, the default first.
func (w *Workspace) Libraries() []*library.Library { return w.libs }

// Library returns the library mounted under name; "" means the default library.
func (w *Workspace) Library(name string) (*library.Library, error) {
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
		w.closeGit()
		w.stopMu.Lock()
		stops := w.stops
		w.stops, w.stopped = nil, true
		w.stopMu.Unlock()
		for _, stop := range stops {
			stop()
		}
		var errs []error
		for _, l := range w.libs {
			errs = append(errs, l.Close())
		}
		w.closeErr = errors.Join(errs...)
	})
	return w.closeErr
}

// Memory returns the agent's memory notebook, memory.md of the default library; a
// missing notebook is empty.
func (w *Workspace) Memory(context.Context) (string, error) {
	b, _, err := w.libs[0].Vault().Read("memory.md")
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
