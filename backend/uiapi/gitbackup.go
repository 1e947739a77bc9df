package uiapi

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/autosync"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/settings"
)

// backupSection is where MemoTree keeps a library's backup settings:
// .memotree/sync.json (never .obsidian). The defaults back nothing up.
var backupSection = settings.Section[autosync.Settings]{
	File:    "sync.json",
	Default: func() autosync.Settings { return autosync.Settings{}.Normal() },
	Normal:  autosync.Settings.Normal,
	Damaged: "nothing is backed up until the settings are saved again",
}

// GitBackup is what the window shows of a library's backup to its remote: the
// settings and how the backup stands.
type GitBackup struct {
	Library string `json:"library"`
	// Remote is the remote backed up to (the first, origin when there is one); "" when
	// the repository has none, and then nothing is backed up.
	Remote   string            `json:"remote"`
	Settings autosync.Settings `json:"settings"`
	// State is how the backup stands: ahead and behind, the last sync, the error of
	// the last failure and when it is retried.
	State autosync.State `json:"state"`
	// Serving is true when this process backs the library up (the desktop app and
	// `memotree serve` do); false elsewhere, where the settings are only kept.
	Serving bool `json:"serving"`
	// Warnings say what could not be read (a damaged settings file), never fatal.
	Warnings []string `json:"warnings"`
}

// BackupOptions configure ServeBackups.
type BackupOptions struct {
	// Clock tells the time; nil is the real clock (tests move their own).
	Clock autosync.Clock
	// IdleAfter is how long after an edit the person counts as idle; 0 is a minute.
	IdleAfter time.Duration
}

// backups are the running backups, one per library.
type backups struct {
	mu      sync.Mutex
	serving bool
	o       BackupOptions
	by      map[*library.Library]*backup
}

// backup is one library's Syncer and the goroutine that drives it.
type backup struct {
	x      *autosync.Syncer
	events chan autosync.Event
	cancel func()
	done   chan struct{}
}

// ServeBackups backs up each library with a remote as its settings say (package
// autosync): it pulls each as it opens, pushes after commits, syncs on a timer while
// the person is idle. Libraries opened later are served as they come, and a library's
// backup stops before its vault closes. The desktop app and `memotree serve` call
// it; stop ends every backup.
func ServeBackups(a *API, o BackupOptions) (stop func(), err error) {
	a.backups.mu.Lock()
	if a.backups.serving {
		a.backups.mu.Unlock()
		return nil, errors.New("serve backups: already served")
	}
	a.backups.serving, a.backups.o, a.backups.by = true, o, map[*library.Library]*backup{}
	a.backups.mu.Unlock()
	for _, l := range a.ws.Libraries() {
		a.backupOf(l, true)
	}
	ch, cancel := a.ws.Bus().Subscribe(256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range ch {
			a.backupEvent(e)
		}
	}()
	return func() {
		cancel()
		<-done
		a.stopBackups()
	}, nil
}

// backupEvent tells a library's backup what an event means for it.
func (a *API) backupEvent(e event.Event) {
	var name string
	ev := autosync.Touched
	switch d := e.Data.(type) {
	case event.LibrariesChange:
		name, ev = d.Opened, autosync.Opened
	case event.VaultChange:
		name = d.Library
	case event.GitChange:
		name, ev = d.Library, autosync.HeadMoved
	}
	l, err := a.ws.Library(name)
	if name == "" || err != nil {
		return
	}
	if b := a.backupOf(l, ev == autosync.Opened); b != nil && ev != autosync.Opened {
		select {
		case b.events <- ev:
		default: // a full queue holds events enough: the Syncer reads the repository anyway
		}
	}
}

// backupOf returns l's backup, starting it when l is a repository with a remote and
// none runs yet (then telling it the vault opened when opened is set); nil when l is
// not backed up.
func (a *API) backupOf(l *library.Library, opened bool) *backup {
	a.backups.mu.Lock()
	defer a.backups.mu.Unlock()
	if !a.backups.serving {
		return nil
	}
	if b := a.backups.by[l]; b != nil {
		return b
	}
	t, err := a.tracker(l)
	if err != nil {
		return nil
	}
	if rs, err := t.Repo().Remotes(); err != nil || len(rs) == 0 {
		return nil
	}
	s, _ := backupSection.Load(l.State())
	target := autosync.GitTarget{Tracker: t, Journal: l.Vault(), Options: func() (gitrepo.SyncOptions, error) { return a.backupOptions(t.Repo()) }}
	bus, lib := a.ws.Bus(), l.Name()
	x := autosync.New(target, s, autosync.Options{Clock: a.backups.o.Clock, IdleAfter: a.backups.o.IdleAfter, OnChange: func(autosync.State) {
		bus.Publish(event.Event{Topic: event.GitChanged, Data: event.GitChange{Library: lib}})
	}})
	ctx, cancel := context.WithCancel(context.Background())
	b := &backup{x: x, events: make(chan autosync.Event, 16), cancel: cancel, done: make(chan struct{})}
	if opened {
		b.events <- autosync.Opened
	}
	go func() {
		defer close(b.done)
		x.Run(ctx, b.events)
	}()
	a.backups.by[l] = b
	l.OnClose(func() { a.stopBackup(l) }) // before the vault closes: no pull writes into a closed vault
	return b
}

// backupOptions are the options of a backup's push or pull: the first remote and the
// saved credentials, read anew each time.
func (a *API) backupOptions(r *gitrepo.Repo) (gitrepo.SyncOptions, error) {
	creds, err := a.gitCredentials()
	if err != nil {
		return gitrepo.SyncOptions{}, err
	}
	o := gitrepo.SyncOptions{Credentials: creds}
	if rs, err := r.Remotes(); err == nil && len(rs) > 0 {
		o.Remote = rs[0].Name
	}
	return o, nil
}

// stopBackup stops l's backup and waits for its operation to end.
func (a *API) stopBackup(l *library.Library) {
	a.backups.mu.Lock()
	b := a.backups.by[l]
	delete(a.backups.by, l)
	a.backups.mu.Unlock()
	if b != nil {
		b.cancel()
		<-b.done
	}
}

// stopBackups stops every backup.
func (a *API) stopBackups() {
	a.backups.mu.Lock()
	all := a.backups.by
	a.backups.by, a.backups.serving = nil, false
	a.backups.mu.Unlock()
	for _, b := range all {
		b.cancel()
		<-b.done
	}
}

// GitBackup returns a library's backup settings and how the backup stands.
func (a *API) GitBackup(libraryName string) (GitBackup, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return GitBackup{}, err
	}
	out := GitBackup{Library: l.Name(), Warnings: []string{}}
	var loaded settings.Loaded
	out.Settings, loaded = backupSection.Load(l.State())
	out.Warnings = append(out.Warnings, loaded.Warnings...)
	r, err := a.repo(l)
	if errors.Is(err, gitrepo.ErrNotRepository) {
		return out, nil // no repository, no remote: nothing to back up
	}
	if err != nil {
		return out, err
	}
	if rs, err := r.Remotes(); err == nil && len(rs) > 0 {
		out.Remote = rs[0].Name
	}
	if b := a.backupOf(l, false); b != nil {
		out.State, out.Serving = b.x.State(), true
		return out, nil
	}
	out.State.Settings = out.Settings
	if out.Remote != "" {
		out.State.Divergence, _ = r.AheadBehind(out.Remote)
	}
	return out, nil
}

// SaveGitBackup keeps a library's backup settings in .memotree/sync.json (never in
// .obsidian) and applies them at once.
func (a *API) SaveGitBackup(libraryName string, s autosync.Settings) (GitBackup, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return GitBackup{}, err
	}
	if err := a.saveBackup(l, s); err != nil {
		return GitBackup{}, err
	}
	return a.GitBackup(l.Name())
}

// saveBackup saves l's backup settings and hands them to its running backup.
func (a *API) saveBackup(l *library.Library, s autosync.Settings) error {
	s, err := backupSection.Save(l.State(), s)
	if err != nil {
		return fmt.Errorf("save backup settings of %s: %w", l.Name(), err)
	}
	if bk := a.backupOf(l, false); bk != nil {
		bk.x.SetSettings(s)
		select {
		case bk.events <- autosync.Resettle:
		default:
		}
	}
	return nil
}
