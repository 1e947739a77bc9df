package gitrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/internal/syncfile"
)

// SetIdentity sets user.name and user.email in the repository's own configuration
// (.git/config), as `git config user.name` and `git config user.email` would: the
// [user] section's lines are replaced, or a section is added at the end, and every
// other byte of the file is kept, and so are its permissions (it may hold a remote's
// credentials). The file is read and replaced under .git/config.lock, as git does it,
// so a git command writing it at the same moment makes one of the two fail rather
// than lose the other's change.
func (r *Repo) SetIdentity(name, email string) (err error) {
	defer func() {
		if err == nil {
			r.changed()
		}
	}()
	name, email = strings.TrimSpace(name), strings.TrimSpace(email)
	if err := checkSignature(Signature{Name: name, Email: email}); err != nil {
		return fmt.Errorf("set the commit identity: %w", err)
	}
	if !strings.Contains(email, "@") {
		return fmt.Errorf("set the commit identity: %q is not an email address", email)
	}
	file := filepath.Join(r.gitDir(), "config")
	lock := file + ".lock"
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("set the commit identity: %s exists: a git command is changing the configuration; try again", lock)
	}
	if err != nil {
		return fmt.Errorf("set the commit identity: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(lock)
		}
	}()
	// Read under the lock: a git command that changed the file before is kept.
	perm := fs.FileMode(0o644)
	b, err := regular.ReadPath(file)
	switch {
	case err == nil:
		if fi, serr := os.Stat(file); serr == nil {
			perm = fi.Mode().Perm()
		}
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("set the commit identity: read %s: %w", file, err)
	}
	next := setUserKeys(string(b), map[string]string{"name": name, "email": email})
	if afterConfigRead != nil {
		afterConfigRead()
	}
	if err := syncfile.Finish(f, []byte(next), perm, true); err != nil {
		return fmt.Errorf("set the commit identity: write %s: %w", lock, err)
	}
	if err := os.Rename(lock, file); err != nil {
		return fmt.Errorf("set the commit identity: %w", err)
	}
	return nil
}

// afterConfigRead, when set by tests, runs once SetIdentity has read the configuration.
var afterConfigRead func()

// setUserKeys sets keys of the [user] section of a git configuration file's text:
// each key's last line in the section is replaced (earlier ones are left, as git
// leaves them), and keys the section lacks are added after its last line; with no
// [user] section, one is appended.
func setUserKeys(text string, keys map[string]string) string {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	section, end := -1, -1 // the last [user] header, and the line after its body
	last := map[string]int{}
	in := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			in = isUserHeader(t)
			if in {
				section, end, last = i, i+1, map[string]int{}
			}
			continue
		}
		if !in {
			continue
		}
		if t != "" && t[0] != '#' && t[0] != ';' {
			end = i + 1
			k, _, _ := strings.Cut(t, "=")
			if k = strings.ToLower(strings.TrimSpace(k)); keys[k] != "" {
				last[k] = i
			}
		}
	}
	nl := "\n"
	if strings.Contains(text, "\r\n") {
		nl = "\r\n"
	}
	line := func(k string) string { return "\t" + k + " = " + quoteConfig(keys[k]) + nl }
	if section < 0 {
		out := text
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += nl
		}
		return out + "[user]" + nl + line("name") + line("email")
	}
	var added []string
	for _, k := range []string{"name", "email"} {
		if i, ok := last[k]; ok {
			lines[i] = line(k)
		} else {
			added = append(added, line(k))
		}
	}
	if end > 0 && !strings.HasSuffix(lines[end-1], "\n") {
		lines[end-1] += nl
	}
	out := append(append(append([]string{}, lines[:end]...), added...), lines[end:]...)
	return strings.Join(out, "")
}

// isUserHeader reports whether a trimmed line opens the [user] section.
func isUserHeader(t string) bool {
	h, _, ok := strings.Cut(strings.TrimPrefix(t, "["), "]")
	return ok && strings.EqualFold(strings.TrimSpace(h), "user")
}

// quoteConfig writes a value as git's configuration reads it back: quoted when it
// has leading or trailing spaces or a comment character, with \ and " escaped.
func quoteConfig(v string) string {
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v)
	if esc != v || strings.ContainsAny(v, "#;") || strings.TrimSpace(v) != v {
		return `"` + esc + `"`
	}
	return v
}
