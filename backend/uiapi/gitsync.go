package uiapi

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/userfile"
)

// TokenEnv names the environment variable whose value, when set, signs in to HTTPS
// remotes (an access token) in place of the token saved in the settings; without
// either, git's credential helper is asked, and SSH remotes use the SSH agent.
const TokenEnv = "MEMOTREE_GIT_TOKEN"

// gitSettings is the file of the git settings, beside the endpoint's settings file.
type gitSettings struct {
	Token string `toml:"token"`
}

// GitSettingsView is what the window shows of the git settings. The token never
// leaves the backend: only whether one is set and its last four characters.
type GitSettingsView struct {
	TokenSet  bool   `json:"token_set"`
	TokenHint string `json:"token_hint"`
	// FromEnv is true when MEMOTREE_GIT_TOKEN is set: it wins over the saved token.
	FromEnv bool `json:"from_env"`
	// Path is the settings file.
	Path string `json:"path"`
}

// GitSettingsInput is what the settings form sends: a new token, or ClearToken to
// forget the saved one. An empty Token without ClearToken keeps the saved token.
type GitSettingsInput struct {
	Token      string `json:"token"`
	ClearToken bool   `json:"clear_token"`
}

// gitSettingsPath is the git settings file: git.toml beside settings.toml.
func (a *API) gitSettingsPath() string {
	p := a.chat.path()
	if p == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(p), "git.toml")
}

// GitSettings returns the git settings in effect.
func (a *API) GitSettings() (GitSettingsView, error) {
	var s gitSettings
	if err := userfile.Load(a.gitSettingsPath(), &s); err != nil {
		return GitSettingsView{}, err
	}
	env := a.chat.env(TokenEnv)
	tok := s.Token
	if env != "" {
		tok = env
	}
	return GitSettingsView{TokenSet: tok != "", TokenHint: llm.MaskKey(tok), FromEnv: env != "", Path: a.gitSettingsPath()}, nil
}

// SaveGitSettings saves the access token that signs in to HTTPS remotes (file mode
// 0600) and returns the settings as the window shows them.
func (a *API) SaveGitSettings(in GitSettingsInput) (GitSettingsView, error) {
	path := a.gitSettingsPath()
	if path == "" {
		return GitSettingsView{}, errors.New("save settings: no config directory for this user (set $XDG_CONFIG_HOME or $HOME)")
	}
	var s gitSettings
	if err := userfile.Load(path, &s); err != nil {
		return GitSettingsView{}, err
	}
	switch tok := strings.TrimSpace(in.Token); {
	case in.ClearToken:
		s.Token = ""
	case strings.ContainsAny(tok, " \t\r\n"):
		return GitSettingsView{}, errors.New("save settings: an access token has no spaces or line breaks; paste it again")
	case tok != "":
		s.Token = tok
	}
	if err := userfile.Save(path, "# MemoTree's git settings. Written by the app; private to you (mode 0600).\n", s); err != nil {
		return GitSettingsView{}, err
	}
	return a.GitSettings()
}

// gitToken is the token that signs in to HTTPS remotes: the environment's, else the
// saved one, else none.
func (a *API) gitToken() (string, error) {
	if tok := a.chat.env(TokenEnv); tok != "" {
		return tok, nil
	}
	var s gitSettings
	if err := userfile.Load(a.gitSettingsPath(), &s); err != nil {
		return "", err
	}
	return s.Token, nil
}

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
	res, err := r.Pull(ctx, o.SyncOptions) // the repository writes through the library, which indexes the files
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
	tok, err := a.gitToken()
	if err != nil {
		return nil, nil, syncOptions{}, err
	}
	p := &progress{bus: a.ws.Bus(), library: l.Name()}
	o := syncOptions{SyncOptions: gitrepo.SyncOptions{Token: tok, Progress: p}, report: p}
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
