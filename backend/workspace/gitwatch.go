package workspace

import (
	"sync"
	"time"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vpath"
)

// gitDebounce is how long a burst of changes under .git may last before one event.
const gitDebounce = 150 * time.Millisecond

// gitWatchers are the HEAD watchers and status trackers of the libraries that are
// repositories.
type gitWatchers struct {
	mu       sync.Mutex
	by       map[string]*gitrepo.HeadWatcher
	trackers map[string]*tracked
}

// tracked is a library's status Tracker and the cancel of its subscription.
type tracked struct {
	t      *gitrepo.Tracker
	cancel func()
}

// GitTracker returns the status tracker of the repository of library name ("" for
// the default). In a watched workspace there is one per library, told of every path
// the library applies, so a status after an edit re-examines only the edited files;
// elsewhere each call returns a fresh Tracker, whose first status is a full one. It
// returns an error wrapping gitrepo.ErrNotRepository when the folder has no
// repository.
func (w *Workspace) GitTracker(name string) (*gitrepo.Tracker, error) {
	l, err := w.Library(name)
	if err != nil {
		return nil, err
	}
	w.git.mu.Lock()
	defer w.git.mu.Unlock()
	if tr := w.git.trackers[l.Name()]; tr != nil {
		if gitrepo.IsRepository(l.Vault().Dir()) {
			return tr.t, nil
		}
		tr.cancel() // the repository was removed: forget it
		delete(w.git.trackers, l.Name())
	}
	r, err := l.Git()
	if err != nil {
		return nil, err
	}
	t := gitrepo.NewTracker(r)
	if !w.watch {
		return t, nil
	}
	cancel := l.Subscribe(func(paths []vpath.Path, rescan bool) {
		if rescan {
			t.Rescan()
			return
		}
		for _, p := range paths {
			t.Touch(string(p))
		}
	})
	if w.git.trackers == nil {
		w.git.trackers = map[string]*tracked{}
	}
	w.git.trackers[l.Name()] = &tracked{t: t, cancel: cancel}
	return t, nil
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
	for _, tr := range w.git.trackers {
		tr.cancel()
	}
	w.git.by, w.git.trackers = nil, nil
}

// closeGitOf stops the HEAD watcher and the status tracker of the library named name.
func (w *Workspace) closeGitOf(name string) {
	w.git.mu.Lock()
	defer w.git.mu.Unlock()
	if h := w.git.by[name]; h != nil {
		h.Close()
		delete(w.git.by, name)
	}
	if tr := w.git.trackers[name]; tr != nil {
		tr.cancel()
		delete(w.git.trackers, name)
	}
}
