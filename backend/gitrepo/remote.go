package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
)

// Errors of Push and Pull.
var (
	// ErrNoRemote means the repository has no remote of that name.
	ErrNoRemote = errors.New("no such remote")
	// ErrDetached means HEAD is not on a branch, so there is nothing to push or pull.
	ErrDetached = errors.New("HEAD is not on a branch")
	// ErrRejected means the remote has commits the local branch lacks: pull first.
	ErrRejected = errors.New("the remote has commits this branch does not have; pull first")
	// ErrMerging means a merge with conflicts awaits its commit.
	ErrMerging = errors.New("a merge is in progress: resolve the conflicts and commit first")
	// ErrSignIn means the remote refused to let this app in.
	ErrSignIn = errors.New("the remote refused the sign-in: for HTTPS, save an access token for the remote's host in Settings › Git (or set MEMOTREE_GIT_TOKEN with MEMOTREE_GIT_HOST, or store one with git's credential helper); for SSH, add your key to the SSH agent (ssh-add) and start MemoTree where SSH_AUTH_SOCK is set")
	// ErrHostKey means an SSH remote's host is not one this machine trusts yet.
	ErrHostKey = errors.New("the SSH host is not in ~/.ssh/known_hosts (or its key changed): connect once with ssh or git to check and trust it, then try again")
)

// signInErr names ErrSignIn and ErrHostKey for the transport's errors that mean them;
// rawURL is the remote's, to say when it is plain HTTP.
func signInErr(err error, rawURL string) error {
	msg := err.Error()
	switch {
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed),
		strings.Contains(msg, "unable to authenticate"), strings.Contains(msg, "SSH_AUTH_SOCK"):
		if ep, perr := transport.NewEndpoint(rawURL); perr == nil && ep.Protocol == "http" {
			return fmt.Errorf("%w; %s is plain HTTP, over which MemoTree sends a token only to this machine's own server, when its token allows plain HTTP (%w)", ErrSignIn, endpointHost(ep), err)
		}
		return fmt.Errorf("%w (%w)", ErrSignIn, err)
	case strings.Contains(msg, "knownhosts:"), strings.Contains(msg, "known_hosts"):
		return fmt.Errorf("%w (%w)", ErrHostKey, err)
	}
	return err
}

// Remote is a configured remote repository.
type Remote struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// Remotes lists the configured remotes, origin first.
func (r *Repo) Remotes() ([]Remote, error) {
	if err := checkConfigSize(r.gitDir()); err != nil {
		return nil, fmt.Errorf("list remotes: %w", err)
	}
	rs, err := r.repo.Remotes()
	if err != nil {
		return nil, fmt.Errorf("list remotes: %w", err)
	}
	var out []Remote
	for _, rm := range rs {
		c := rm.Config()
		u := ""
		if len(c.URLs) > 0 {
			u = c.URLs[0]
		}
		out = append(out, Remote{Name: c.Name, URL: u})
	}
	for i := range out {
		if out[i].Name == "origin" {
			out[0], out[i] = out[i], out[0]
		}
	}
	return out, nil
}

// SyncOptions say which remote to push to or pull from, and how to sign in.
type SyncOptions struct {
	// Remote names the remote; "" means origin.
	Remote string
	// Credentials are the access tokens the person saved, each for one protocol and
	// host. A remote gets the one saved for its own protocol and host (port included),
	// as the password of basic authentication (how hosting services take access
	// tokens), and no other: a token never follows a remote URL elsewhere. Plain HTTP
	// carries one only to a loopback host whose credential allows it. Without a match
	// an HTTPS remote asks git's credential helper, a plain HTTP remote goes without,
	// and an SSH remote uses the SSH agent.
	Credentials []Credential
	// CABundle adds certificate authorities (PEM) an HTTPS remote's certificate may be
	// signed by (a self-hosted server's own); nil trusts the system's alone.
	CABundle []byte
	// Progress receives the remote's progress messages; may be nil.
	Progress io.Writer
}

// remoteName returns the remote to use.
func (o SyncOptions) remoteName() string {
	if o.Remote == "" {
		return "origin"
	}
	return o.Remote
}

// remote returns the remote's URL for a fetch, or for a push (its pushurl when it has
// one, as git pushes there), and the sign-in to use for that URL.
func (r *Repo) remote(ctx context.Context, o SyncOptions, push bool) (string, transport.AuthMethod, error) {
	useLocalTransport()
	// git's configuration is read first, bounded (see readConfigFile): one MemoTree
	// refuses, git (asked for credentials) and go-git are not given.
	if _, err := r.config(); err != nil {
		return "", nil, err
	}
	rm, err := r.repo.Remote(o.remoteName())
	if errors.Is(err, git.ErrRemoteNotFound) {
		return "", nil, fmt.Errorf("%w: %s (add one with git remote add %s URL)", ErrNoRemote, o.remoteName(), o.remoteName())
	}
	if err != nil {
		return "", nil, err
	}
	urls := rm.Config().URLs
	if len(urls) == 0 {
		return "", nil, fmt.Errorf("%w: %s has no URL", ErrNoRemote, o.remoteName())
	}
	u := urls[0]
	if push { // go-git lists a remote's url values, then its pushurl values
		u = urls[len(urls)-1]
	}
	u = r.localURL(u)
	auth, err := r.authFor(ctx, u, o.Credentials)
	return u, auth, err
}

// localURL returns a remote's URL with a relative folder made absolute against the
// working tree, as git resolves it (go-git would resolve it against the folder
// MemoTree was started in). The push and the fetch are given this URL, the one the
// sign-in was chosen for.
func (r *Repo) localURL(raw string) string {
	ep, err := transport.NewEndpoint(raw)
	if err != nil || ep.Protocol != "file" || strings.HasPrefix(strings.ToLower(raw), "file:") || filepath.IsAbs(raw) {
		return raw
	}
	return filepath.Join(r.dir, raw)
}

// authFor chooses how to sign in to a remote: nothing for a local path or file://;
// for HTTP(S), the token saved for the remote's protocol and host, else (HTTPS only)
// git's credential helper; the SSH agent for SSH.
func (r *Repo) authFor(ctx context.Context, rawURL string, creds []Credential) (transport.AuthMethod, error) {
	ep, err := transport.NewEndpoint(rawURL)
	if err != nil {
		return nil, fmt.Errorf("remote URL %q: %w", rawURL, err)
	}
	switch ep.Protocol {
	case "http", "https":
		if tok := tokenFor(ep, creds); tok != "" {
			user := ep.User
			if user == "" {
				user = "memotree"
			}
			return &githttp.BasicAuth{Username: user, Password: tok}, nil
		}
		if ep.Protocol == "https" {
			if user, pass, ok := r.credentialFill(ctx, ep); ok {
				return &githttp.BasicAuth{Username: user, Password: pass}, nil
			}
		}
		return nil, nil // a public remote needs none
	case "ssh":
		if os.Getenv("SSH_AUTH_SOCK") == "" {
			return keyFileAuth(ep.User)
		}
		user := ep.User
		if user == "" {
			user = "git"
		}
		a, err := gitssh.NewSSHAgentAuth(user)
		if err != nil {
			return nil, fmt.Errorf("ssh agent: %w", err)
		}
		return a, nil
	}
	return nil, nil
}

// keyFileAuth signs in to an SSH remote without an agent, as ssh does: with the first
// of the user's usual key files (~/.ssh/id_ed25519, id_ecdsa, id_rsa) that exists. A
// key protected by a passphrase needs the agent, since MemoTree does not ask for it.
func keyFileAuth(user string) (transport.AuthMethod, error) {
	if user == "" {
		user = "git"
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("%w: no SSH agent (SSH_AUTH_SOCK is not set) and no home folder to find a key in", ErrSignIn)
	}
	for _, name := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
		path := filepath.Join(home, ".ssh", name)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		a, err := gitssh.NewPublicKeysFromFile(user, path, "")
		if err != nil {
			return nil, fmt.Errorf("%w: no SSH agent (SSH_AUTH_SOCK is not set), and %s cannot be used without one (%v)", ErrSignIn, path, err)
		}
		return a, nil
	}
	return nil, fmt.Errorf("%w: no SSH agent (SSH_AUTH_SOCK is not set) and no key in ~/.ssh (id_ed25519, id_ecdsa, id_rsa)", ErrSignIn)
}

// branch returns the checked-out branch's reference name.
func (r *Repo) branch() (plumbing.ReferenceName, error) {
	ref, err := r.repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	if ref.Type() != plumbing.SymbolicReference {
		return "", ErrDetached
	}
	return ref.Target(), nil
}

// PushResult says what a push did.
type PushResult struct {
	Remote   string `json:"remote"`
	Branch   string `json:"branch"`
	UpToDate bool   `json:"up_to_date"`
}

// Push sends the checked-out branch to the remote's branch of the same name, with the
// tags (those made with a commit from the panel included). It fails with ErrRejected
// when the remote has commits the branch lacks (pull first).
func (r *Repo) Push(ctx context.Context, o SyncOptions) (PushResult, error) {
	br, err := r.branch()
	if err != nil {
		return PushResult{}, fmt.Errorf("git push: %w", err)
	}
	if r.merging() {
		return PushResult{}, fmt.Errorf("git push: %w", ErrMerging)
	}
	rawURL, auth, err := r.remote(ctx, o, true)
	if err != nil {
		return PushResult{}, fmt.Errorf("git push: %w", err)
	}
	res := PushResult{Remote: o.remoteName(), Branch: br.Short()}
	specs := []config.RefSpec{config.RefSpec(br.String() + ":" + br.String()), "refs/tags/*:refs/tags/*"}
	err = r.repo.PushContext(ctx, &git.PushOptions{RemoteName: res.Remote, RemoteURL: rawURL, RefSpecs: specs, Auth: auth,
		Progress: o.Progress, CABundle: o.CABundle})
	switch {
	case errors.Is(err, git.NoErrAlreadyUpToDate):
		res.UpToDate = true
	case errors.Is(err, git.ErrNonFastForwardUpdate), errors.Is(err, git.ErrForceNeeded):
		return res, fmt.Errorf("git push: %w", ErrRejected)
	case err != nil && strings.Contains(err.Error(), "non-fast-forward"):
		return res, fmt.Errorf("git push: %w", ErrRejected)
	case err != nil:
		return res, fmt.Errorf("git push to %s: %w", res.Remote, signInErr(err, rawURL))
	}
	return res, nil
}

// fetch brings the remote's branches into refs/remotes/<remote>/ and returns the hash
// of the remote's copy of branch, or ok false when the remote has no such branch.
func (r *Repo) fetch(ctx context.Context, o SyncOptions, br plumbing.ReferenceName) (plumbing.Hash, bool, error) {
	rawURL, auth, err := r.remote(ctx, o, false)
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	name := o.remoteName()
	spec := config.RefSpec("+refs/heads/*:refs/remotes/" + name + "/*")
	err = r.repo.FetchContext(ctx, &git.FetchOptions{RemoteName: name, RemoteURL: rawURL, RefSpecs: []config.RefSpec{spec}, Auth: auth,
		Progress: o.Progress, Tags: git.AllTags, CABundle: o.CABundle})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return plumbing.ZeroHash, false, fmt.Errorf("fetch %s: %w", name, signInErr(err, rawURL))
	}
	ref, err := r.repo.Reference(plumbing.NewRemoteReferenceName(name, br.Short()), true)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, false, nil
	}
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("fetch %s: %w", name, err)
	}
	return ref.Hash(), true, nil
}
