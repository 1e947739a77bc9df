package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/transport"
)

// credentialFill asks git's credential helpers (`git credential fill`, run as
// gitCommand runs git) for the credentials of an HTTP(S) remote, without prompting;
// ok is false when there are none or git is not installed. Only the helpers
// credentialHelpers lets through are asked.
func (r *Repo) credentialFill(ctx context.Context, ep *transport.Endpoint) (user, pass string, ok bool) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", "", false
	}
	host := endpointHost(ep)
	in := fmt.Sprintf("protocol=%s\nhost=%s\npath=%s\n", ep.Protocol, host, strings.TrimPrefix(ep.Path, "/"))
	if ep.User != "" {
		in += "username=" + ep.User + "\n"
	}
	// An empty credential.helper forgets the helpers read so far (all of them: the
	// command line comes last); then the ones let through, in their order.
	args := []string{"-c", "credential.helper="}
	for _, h := range r.credentialHelpers(ctx) {
		args = append(args, "-c", h.key+"="+h.value)
	}
	cmd := r.gitCommand(ctx, append(args, "credential", "fill")...)
	cmd.Stdin = strings.NewReader(in + "\n")
	out := &cappedBuffer{max: 64 << 10}
	cmd.Stdout = out
	if err := cmd.Run(); err != nil || out.over {
		return "", "", false
	}
	for _, line := range strings.Split(out.String(), "\n") {
		k, v, _ := strings.Cut(line, "=")
		switch k {
		case "username":
			user = v
		case "password":
			pass = v
		}
	}
	return user, pass, pass != ""
}

// helperEntry is one credential.helper or credential.<url>.helper of git's
// configuration.
type helperEntry struct {
	key, value string
}

// credentialHelpers lists the credential helpers git would ask for the repository, in
// git's order (`git config --show-scope --get-regexp`, includes followed), keeping
// every one of the person's own configuration (the system and global files) and,
// of the repository's own configuration (.git/config and what it includes, which may
// have come with the vault from anywhere), only the empty value (which forgets the
// helpers before it) and the helpers vaultHelper accepts. A helper whose key holds
// "=" (a URL with a query) cannot be given back to git and is left out.
func (r *Repo) credentialHelpers(ctx context.Context) []helperEntry {
	cmd := r.gitCommand(ctx, "config", "-z", "--show-scope", "--get-regexp", `^credential\.(.+\.)?helper$`)
	out := &cappedBuffer{max: maxConfigTotal}
	cmd.Stdout = out
	if err := cmd.Run(); err != nil || out.over { // none (git exits with 1), or a git without --show-scope
		return nil
	}
	// -z: "scope\0key\nvalue\0" for each entry; "scope\0key\0" for a key without a value.
	fields := strings.Split(strings.TrimSuffix(out.String(), "\x00"), "\x00")
	var helpers []helperEntry
	for i := 0; i+1 < len(fields); i += 2 {
		scope := fields[i]
		key, value, hasValue := strings.Cut(fields[i+1], "\n")
		if !hasValue || strings.Contains(key, "=") {
			continue // git refuses a helper without a value
		}
		if scope == "system" || scope == "global" || value == "" || r.vaultHelper(ctx, value) {
			helpers = append(helpers, helperEntry{key: key, value: value})
		}
	}
	return helpers
}

// helperForm is a helper git runs as `git credential-NAME ARGS` with plain arguments:
// no shell command ("!…"), no program's path, nothing the shell (through which git
// runs it) would read as more than words.
var helperForm = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*( +[A-Za-z0-9._,:=/~@%+-]+)*$`)
})

// vaultHelper reports whether a credential helper of the repository's own
// configuration is one MemoTree asks: a helper of helperForm that git has built in
// ("store", "cache") or that is installed as git-credential-NAME in git's own folder
// or a folder of the PATH ("osxkeychain", "manager", "libsecret"…). Otherwise git would
// look NAME up among the configuration's aliases, which the repository's
// configuration may define to run anything.
func (r *Repo) vaultHelper(ctx context.Context, value string) bool {
	if !helperForm().MatchString(value) {
		return false
	}
	name, _, _ := strings.Cut(value, " ")
	if name == "store" || name == "cache" {
		return true
	}
	if _, err := exec.LookPath("git-credential-" + name); err == nil {
		return true
	}
	out, err := r.gitCommand(ctx, "--exec-path").Output()
	if err != nil {
		return false
	}
	_, err = exec.LookPath(filepath.Join(strings.TrimSpace(string(out)), "git-credential-"+name))
	return err == nil
}

// cappedBuffer keeps what is written to it up to max bytes, and says whether more
// came.
type cappedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

// Write keeps what fits and drops the rest, as if written.
func (b *cappedBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := b.max - b.Len(); n > room {
		b.over = true
		p = p[:max(room, 0)]
	}
	b.Buffer.Write(p)
	return n, nil
}
