package workspace

import (
	"sync"
	"time"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/gitrepo"
)

// gitDebounce is how long a burst of changes under .git may last before one event.
const gitDebounce = 150 * time.Millisecond

// gitWatchers are the HEAD watchers of the libraries that are repositories.
type gitWatchers struct {
	mu sync.Mutex
	by map[string]*gitrepo.HeadWatcher
}

// WatchGit publishes event.GitChanged for library name whenever its repository's HEAD,
// refs or index change, if it is a repository and the workspace watches (Options.Watch).
// It is called for every library on Open, and again after a repository is created; a
// library already watched is left as it is.
func (w *Workspace) WatchGit(name string) {
	l, err := w.Library(name)
	if err != nil || !w.watch || !gitrepo.IsRepository(l.Vault().Dir()) {
		return
	}
	w.git.mu.Lock()
	defer w.git.mu.Unlock()
	if w.git.by == nil {
		w.git.by = map[string]*gitrepo.HeadWatcher{}
	}
	if w.git.by[l.Name()] != nil {
		return
	}
	lib := l.Name()
	h, err := gitrepo.WatchHead(l.Vault().Dir(), gitDebounce, func() {
		w.bus.Publish(event.Event{Topic: event.GitChanged, Data: event.GitChange{Library: lib}})
	})
	if err == nil { // without a watcher the panel still refreshes on vault changes
		w.git.by[lib] = h
	}
}

// closeGit stops every HEAD watcher.
func (w *Workspace) closeGit() {
	w.git.mu.Lock()
	defer w.git.mu.Unlock()
	for _, h := range w.git.by {
		h.Close()
	}
	w.git.by = nil
}
