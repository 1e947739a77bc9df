package uiapi

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/library"
)

// TokenEnv names the environment variable whose value, when set, signs in to HTTPS
// remotes (an access token); without it git's credential helper is asked, and SSH
// remotes use the SSH agent.
const TokenEnv = "MEMOTREE_GIT_TOKEN"

// GitPush sends the checked-out branch to the first remote (origin when there is one).
func (a *API) GitPush(libraryName string) (gitrepo.PushResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, r, o, err := a.syncSetup(libraryName)
	if err != nil {
		return gitrepo.PushResult{}, err
	}
	defer o.report.flush()
	res, err := r.Push(ctx, o.SyncOptions)
	a.gitChanged(l)
	return res, err
}

// GitPull brings in the first remote's commits, merging them with the local commits
// and edits without losing either side; conflicting files keep both versions.
func (a *API) GitPull(libraryName string) (gitrepo.PullResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, r, o, err := a.syncSetup(libraryName)
	if err != nil {
		return gitrepo.PullResult{}, err
	}
	defer o.report.flush()
	res, err := r.Pull(ctx, o.SyncOptions)
	if len(res.Updated) > 0 {
		l.Refresh(ctx, res.Updated...)
	}
	a.gitChanged(l)
	return res, err
}

// syncOptions are the options of a push or pull, with the progress they report to.
type syncOptions struct {
	gitrepo.SyncOptions
	report *progress
}

// syncSetup opens a library's repository and the options of a push or pull.
func (a *API) syncSetup(libraryName string) (*library.Library, *gitrepo.Repo, syncOptions, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return nil, nil, syncOptions{}, err
	}
	r, err := a.repo(l)
	if err != nil {
		return nil, nil, syncOptions{}, err
	}
	p := &progress{bus: a.ws.Bus(), library: l.Name()}
	o := syncOptions{SyncOptions: gitrepo.SyncOptions{Token: os.Getenv(TokenEnv), Progress: p}, report: p}
	if rs, err := r.Remotes(); err == nil && len(rs) > 0 {
		o.Remote = rs[0].Name
	}
	return l, r, o, nil
}

// progress publishes a remote's progress messages, a line (or carriage-return
// update) at a time, as GitProgress events.
type progress struct {
	bus     *event.Bus
	library string
	mu      sync.Mutex
	buf     bytes.Buffer
}

func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Write(b)
	for {
		i := bytes.IndexAny(p.buf.Bytes(), "\r\n")
		if i < 0 {
			return len(b), nil
		}
		line := strings.TrimSpace(string(p.buf.Next(i + 1)))
		if line != "" {
			p.bus.Publish(event.Event{Topic: event.GitProgress, Data: event.GitProgressLine{Library: p.library, Text: line}})
		}
	}
}

// flush publishes what is left without a line end.
func (p *progress) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if line := strings.TrimSpace(p.buf.String()); line != "" {
		p.bus.Publish(event.Event{Topic: event.GitProgress, Data: event.GitProgressLine{Library: p.library, Text: line}})
	}
	p.buf.Reset()
}
