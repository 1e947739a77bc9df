package uiapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/userfile"
)

// TokenEnv and TokenHostEnv name the environment variables that, set together, sign
// in to one HTTPS host (an access token, and the host it is for: "github.com",
// "https://git.example:8443") in place of a token saved for that host. A token in the
// environment without its host is sent nowhere. Without a token for a remote's host,
// git's credential helper is asked (HTTPS only), and SSH remotes use the SSH agent.
const (
	TokenEnv     = "MEMOTREE_GIT_TOKEN"
	TokenHostEnv = "MEMOTREE_GIT_HOST"
)

// gitSettings is the file of the git settings, beside the endpoint's settings file:
// one access token per protocol and host, as git's credential store keeps them.
type gitSettings struct {
	// Token is a token an earlier version saved for no host in particular; it is
	// sent nowhere, and the next save drops it.
	Token       string               `toml:"token,omitempty"`
	Credentials []gitrepo.Credential `toml:"credentials"`
}

// GitSettingsView is what the window shows of the git settings. No token leaves the
// backend: only the hosts they are for and their last four characters.
type GitSettingsView struct {
	Credentials []GitCredentialView `json:"credentials"`
	// Remotes are the mounted libraries' remotes, each with how it signs in.
	Remotes []GitRemoteView `json:"remotes"`
	// EnvUnbound is true when MEMOTREE_GIT_TOKEN is set without MEMOTREE_GIT_HOST: it
	// is sent to no remote.
	EnvUnbound bool `json:"env_unbound"`
	// LegacyToken is true when the file holds a token saved for no host, which is sent
	// nowhere any more (the next save drops it).
	LegacyToken bool `json:"legacy_token"`
	// Path is the settings file.
	Path string `json:"path"`
}

// GitCredentialView is one saved (or environment) token: where it goes, and its last
// four characters.
type GitCredentialView struct {
	// URL is "protocol://host", the only place the token is sent.
	URL       string `json:"url"`
	TokenHint string `json:"token_hint"`
	// AllowHTTP is true when it may go over plain HTTP (a loopback host only).
	AllowHTTP bool `json:"allow_http"`
	// FromEnv is true for MEMOTREE_GIT_TOKEN with MEMOTREE_GIT_HOST, which wins over a
	// saved token for the same host and cannot be removed here.
	FromEnv bool `json:"from_env"`
}

// GitRemoteView is a library's remote and how a push or pull to it signs in.
type GitRemoteView struct {
	Library string `json:"library"`
	Name    string `json:"name"`
	URL     string `json:"url"`
	// SignIn is token, helper, ssh, none or local (gitrepo.SignInFor).
	SignIn string `json:"sign_in"`
	// Credential is the "protocol://host" of the token used, with SignIn token.
	Credential string `json:"credential,omitempty"`
}

// GitSettingsInput is what the settings form sends: a token and where it is for (a
// remote's URL, or its protocol and host), or Remove to forget the token saved for a
// "protocol://host".
type GitSettingsInput struct {
	URL   string `json:"url"`
	Token string `json:"token"`
	// AllowHTTP lets the token go over plain HTTP, which is accepted for a loopback
	// host only (a server on this machine).
	AllowHTTP bool   `json:"allow_http"`
	Remove    string `json:"remove"`
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
	creds, envSet := a.gitCredentialsFrom(s)
	v := GitSettingsView{Credentials: []GitCredentialView{}, Remotes: []GitRemoteView{}, LegacyToken: s.Token != "",
		EnvUnbound: a.chat.env(TokenEnv) != "" && !envSet, Path: a.gitSettingsPath()}
	for i, c := range creds {
		v.Credentials = append(v.Credentials, GitCredentialView{URL: c.URL(), TokenHint: llm.MaskKey(c.Token), AllowHTTP: c.AllowHTTP, FromEnv: envSet && i == 0})
	}
	for _, l := range a.ws.Libraries() {
		r, err := a.repo(l)
		if err != nil {
			continue // not a repository: no remotes
		}
		rs, err := r.Remotes()
		if err != nil {
			continue
		}
		for _, rm := range rs {
			kind, cred := gitrepo.SignInFor(rm.URL, creds)
			v.Remotes = append(v.Remotes, GitRemoteView{Library: l.Name(), Name: rm.Name, URL: redactURL(rm.URL), SignIn: kind, Credential: cred})
		}
	}
	return v, nil
}

// SaveGitSettings saves the access token for one protocol and host (file mode 0600),
// or forgets one, and returns the settings as the window shows them.
func (a *API) SaveGitSettings(in GitSettingsInput) (GitSettingsView, error) {
	path := a.gitSettingsPath()
	if path == "" {
		return GitSettingsView{}, errors.New("save settings: no config directory for this user (set $XDG_CONFIG_HOME or $HOME)")
	}
	var s gitSettings
	if err := userfile.Load(path, &s); err != nil {
		return GitSettingsView{}, err
	}
	s.Token = "" // sent nowhere: dropped at the first save
	if in.Remove != "" {
		kept := s.Credentials[:0]
		for _, c := range s.Credentials {
			if !strings.EqualFold(c.URL(), strings.TrimSpace(in.Remove)) {
				kept = append(kept, c)
			}
		}
		s.Credentials = kept
	}
	switch tok := strings.TrimSpace(in.Token); {
	case strings.ContainsAny(tok, " \t\r\n"):
		return GitSettingsView{}, errors.New("save settings: an access token has no spaces or line breaks; paste it again")
	case tok != "":
		proto, host, err := gitrepo.ParseCredentialHost(in.URL, in.AllowHTTP)
		if err != nil {
			return GitSettingsView{}, fmt.Errorf("save settings: %w", err)
		}
		c := gitrepo.Credential{Protocol: proto, Host: host, Token: tok, AllowHTTP: proto == "http"}
		s.Credentials = slices.DeleteFunc(s.Credentials, func(o gitrepo.Credential) bool { return strings.EqualFold(o.URL(), c.URL()) })
		s.Credentials = append(s.Credentials, c)
	}
	if err := userfile.Save(path, "# MemoTree's git settings: one access token per host. Written by the app; private to you (mode 0600).\n", s); err != nil {
		return GitSettingsView{}, err
	}
	return a.GitSettings()
}

// gitCredentials are the tokens that sign in to HTTP(S) remotes, each for its host:
// the environment's (with its host) first, then the saved ones.
func (a *API) gitCredentials() ([]gitrepo.Credential, error) {
	var s gitSettings
	if err := userfile.Load(a.gitSettingsPath(), &s); err != nil {
		return nil, err
	}
	creds, _ := a.gitCredentialsFrom(s)
	return creds, nil
}

// gitCredentialsFrom puts the environment's token (MEMOTREE_GIT_TOKEN for
// MEMOTREE_GIT_HOST) before the saved ones; envSet says whether there is one.
func (a *API) gitCredentialsFrom(s gitSettings) (creds []gitrepo.Credential, envSet bool) {
	if tok := strings.TrimSpace(a.chat.env(TokenEnv)); tok != "" {
		if proto, host, err := gitrepo.ParseCredentialHost(a.chat.env(TokenHostEnv), true); err == nil {
			creds = append(creds, gitrepo.Credential{Protocol: proto, Host: host, Token: tok, AllowHTTP: proto == "http"})
			envSet = true
		}
	}
	return append(creds, s.Credentials...), envSet
}

// redactURL drops the secret written into a remote's URL before the window sees it: a
// password, or over HTTP(S) a user name given alone, which hosting services take for
// an access token ("https://TOKEN@github.com/…"). An SSH user name ("git@") stays.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	_, hasPassword := u.User.Password()
	switch scheme := strings.ToLower(u.Scheme); {
	case hasPassword:
		u.User = url.UserPassword(u.User.Username(), "REDACTED")
	case scheme == "http" || scheme == "https":
		u.User = url.User("REDACTED")
	default:
		return raw
	}
	return u.String()
}

// GitPush sends the checked-out branch to the first remote (origin when there is one).
func (a *API) GitPush(libraryName string) (gitrepo.PushResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	r, o, err := a.syncSetup(libraryName)
	if err != nil {
		return gitrepo.PushResult{}, err
	}
	defer o.report.flush()
	res, err := r.Push(ctx, o.SyncOptions)
	return res, err
}

// GitPull brings in the first remote's commits, merging them with the local commits
// and edits without losing either side; conflicting files keep both versions.
func (a *API) GitPull(libraryName string) (gitrepo.PullResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	r, o, err := a.syncSetup(libraryName)
	if err != nil {
		return gitrepo.PullResult{}, err
	}
	defer o.report.flush()
	res, err := r.Pull(ctx, o.SyncOptions) // the repository writes through the library, which indexes the files
	return res, err
}

// syncOptions are the options of a push or pull, with the progress they report to.
type syncOptions struct {
	gitrepo.SyncOptions
	report *progress
}

// syncSetup opens a library's repository and the options of a push or pull.
func (a *API) syncSetup(libraryName string) (*gitrepo.Repo, syncOptions, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return nil, syncOptions{}, err
	}
	r, err := a.repo(l)
	if err != nil {
		return nil, syncOptions{}, err
	}
	creds, err := a.gitCredentials()
	if err != nil {
		return nil, syncOptions{}, err
	}
	p := &progress{bus: a.ws.Bus(), library: l.Name()}
	o := syncOptions{SyncOptions: gitrepo.SyncOptions{Credentials: creds, Progress: p}, report: p}
	if rs, err := r.Remotes(); err == nil && len(rs) > 0 {
		o.Remote = rs[0].Name
	}
	return r, o, nil
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
