package gitrepo

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// HeadWatcher calls a function when the repository's HEAD, a branch or tag, or its
// index changes: a commit, checkout, reset, fetch or add made by anyone (git itself,
// another app, this package). The vault's own watcher leaves .git out, so this is how
// a window learns that the last commit moved.
//
// Concurrency: one goroutine reads fsnotify and calls the function, debounced, never
// two calls at once. Close may be called from any goroutine, more than once, and
// returns once that goroutine has stopped.
type HeadWatcher struct {
	w    *fsnotify.Watcher
	done chan struct{}
	once sync.Once
}

// WatchHead starts watching the .git folder of the repository at dir (HEAD, index,
// packed-refs) and its refs/heads and refs/tags folders; onChange runs once a burst of
// changes has been quiet for debounce.
func WatchHead(dir string, debounce time.Duration, onChange func()) (*HeadWatcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch git HEAD of %s: %w", dir, err)
	}
	gitDir := filepath.Join(dir, ".git")
	if err := w.Add(gitDir); err != nil {
		w.Close()
		return nil, fmt.Errorf("watch git HEAD of %s: %w", dir, err)
	}
	for _, sub := range []string{"refs/heads", "refs/tags"} {
		_ = w.Add(filepath.Join(gitDir, filepath.FromSlash(sub))) // may not exist yet
	}
	h := &HeadWatcher{w: w, done: make(chan struct{})}
	go h.run(debounce, onChange)
	return h, nil
}

// run debounces fsnotify events into calls of onChange.
func (h *HeadWatcher) run(debounce time.Duration, onChange func()) {
	defer close(h.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case e, ok := <-h.w.Events:
			if !ok {
				timer.Stop()
				return
			}
			if relevant(e) {
				timer.Reset(debounce)
			}
		case _, ok := <-h.w.Errors:
			if !ok {
				timer.Stop()
				return
			}
			timer.Reset(debounce) // events may have been lost: refresh anyway
		case <-timer.C:
			onChange()
		}
	}
}

// relevant reports whether an event may have moved HEAD or changed the index: not
// the lock files git writes first, nor objects or logs.
func relevant(e fsnotify.Event) bool {
	if e.Op == fsnotify.Chmod {
		return false
	}
	base := filepath.Base(e.Name)
	return !strings.HasSuffix(base, ".lock") && base != "objects" && base != "logs"
}

// Close stops watching.
func (h *HeadWatcher) Close() error {
	var err error
	h.once.Do(func() {
		err = h.w.Close()
		<-h.done
	})
	return err
}
