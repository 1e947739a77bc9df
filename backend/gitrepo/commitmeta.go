package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ErrInvalidAuthor means an author named for a commit lacks a name or an email, or
// has an email that is not an address.
var ErrInvalidAuthor = errors.New("invalid author")

// CheckAuthor refuses an author git would refuse or that names no one: an empty name
// or email, one holding <, > or a control character, or an email that is not an
// address such as ada@example.com (one @, a local part and a domain, no spaces), or a
// date before 1970 (git keeps a commit's dates as seconds since then).
func CheckAuthor(a Signature) error {
	if err := checkSignature(a); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidAuthor, err)
	}
	if strings.IndexFunc(a.Name+a.Email, unicode.IsControl) >= 0 {
		return fmt.Errorf("%w: the name or email holds a control character", ErrInvalidAuthor)
	}
	e := strings.TrimSpace(a.Email)
	addr, err := mail.ParseAddress("<" + e + ">")
	local, domain, _ := strings.Cut(e, "@")
	if err != nil || addr.Address != e || strings.ContainsAny(e, " \t\"") || strings.Count(e, "@") != 1 ||
		local == "" || domain == "" || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return fmt.Errorf("%w: %q is not an email address such as ada@example.com", ErrInvalidAuthor, a.Email)
	}
	if !a.When.IsZero() && a.When.Unix() < 0 {
		return fmt.Errorf("%w: the date %s is before 1970, which a git commit cannot carry", ErrInvalidAuthor, a.When.Format(time.RFC3339))
	}
	return nil
}

// tagCommit tags the commit h: with a message, an annotated tag (a tag object carrying
// it, signed by the tagger, as `git tag -a -m` makes it), else a lightweight one.
func (r *Repo) tagCommit(ctx context.Context, name, message string, h plumbing.Hash, tagger *object.Signature) error {
	if message == "" {
		return r.createTag(ctx, name, h)
	}
	t := &object.Tag{Name: name, Tagger: *tagger, Message: tagMessage(message), TargetType: plumbing.CommitObject, Target: h}
	obj := r.repo.Storer.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return fmt.Errorf("encode tag: %w", err)
	}
	th, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		return fmt.Errorf("store tag: %w", err)
	}
	return r.createTag(ctx, name, th)
}

// tagMessage cleans a tag message as git does by default: trailing spaces of each line
// and blank lines at the start and end removed, one line break at the end.
func tagMessage(m string) string {
	lines := strings.Split(strings.ReplaceAll(m, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n") + "\n"
}

// validTag refuses a tag name git refuses: `git tag` takes no name starting with "-"
// (it would read as an option), and refs/tags/<name> must pass git's
// check-ref-format — no empty, "."-led or ".lock"-ended component, no "..", "@{",
// space, control character or any of ~^:?*[\, and no "." at the end.
func validTag(name string) error {
	if name == "" {
		return nil
	}
	bad := strings.HasPrefix(name, "-") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") ||
		strings.Contains(name, "@{") || strings.ContainsAny(name, " ~^:?*[\\\x7f") ||
		strings.IndexFunc(name, func(r rune) bool { return r < 0x20 }) >= 0 || !utf8.ValidString(name)
	for _, c := range strings.Split(name, "/") {
		bad = bad || c == "" || strings.HasPrefix(c, ".") || strings.HasSuffix(c, ".lock")
	}
	if bad {
		return fmt.Errorf("%w: %q", ErrInvalidTag, name)
	}
	return nil
}
