package gitrepo

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/portable"
)

// Who signs a commit, found as git finds it (git's ident.c): for the author,
// GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL, then author.name and author.email, then
// user.name and user.email, then (the email only) EMAIL; for the committer the same
// with GIT_COMMITTER_* and committer.*. The configuration is read as git reads it, the
// last value winning: the system file (/etc/gitconfig, Git for Windows' own on Windows,
// or GIT_CONFIG_SYSTEM; none with GIT_CONFIG_NOSYSTEM), the global files ($XDG_CONFIG_HOME/git/config, or
// ~/.config/git/config, then ~/.gitconfig; only GIT_CONFIG_GLOBAL when that is set),
// then the repository's .git/config, each with the files its include.path and
// includeIf "gitdir:" / "onbranch:" sections name. Where git would guess a name from
// the account and the host, MemoTree refuses instead (ErrNoIdentity), since a guessed
// address is one nobody can answer.

// ErrNoIdentity means git's configuration names nobody to sign a commit with.
var ErrNoIdentity = errors.New("no name and email for the commit")

// Identity is who signs commits: the author and the committer (the same person unless
// git's environment or configuration says otherwise).
type Identity struct {
	Author    Signature `json:"author"`
	Committer Signature `json:"committer"`
}

// configKeys are the configuration keys MemoTree reads: those an identity is read
// from, and those that say how the working tree is read (see workRules).
var configKeys = map[string]bool{
	"user.name": true, "user.email": true, "author.name": true, "author.email": true,
	"committer.name": true, "committer.email": true, "core.filemode": true, "core.symlinks": true,
	"core.autocrlf": true, "core.attributesfile": true,
}

// Identity returns who git would sign a commit with in this repository, or an error
// wrapping ErrNoIdentity that says how to set it.
func (r *Repo) Identity() (Identity, error) {
	cfg, err := r.config()
	if err != nil {
		return Identity{}, err
	}
	pick := func(role, field string) string {
		if v := os.Getenv("GIT_" + strings.ToUpper(role) + "_" + strings.ToUpper(field)); v != "" {
			return v
		}
		if v := cfg[role+"."+field]; v != "" {
			return v
		}
		if v := cfg["user."+field]; v != "" {
			return v
		}
		if field == "email" {
			return os.Getenv("EMAIL")
		}
		return ""
	}
	id := Identity{
		Author:    Signature{Name: pick("author", "name"), Email: pick("author", "email")},
		Committer: Signature{Name: pick("committer", "name"), Email: pick("committer", "email")},
	}
	for _, s := range []struct {
		role string
		sig  Signature
	}{{"author", id.Author}, {"committer", id.Committer}} {
		if err := checkSignature(s.sig); err != nil {
			return Identity{}, fmt.Errorf("%w of the %s: %w; set them with `git config user.name \"Your Name\"` and "+
				"`git config user.email you@example.com` in %s (add --global for every repository), "+
				"or in the review panel", ErrNoIdentity, s.role, err, r.dir)
		}
	}
	return id, nil
}

// checkSignature refuses what git refuses: an empty name or email, or one holding
// the characters that delimit them in a commit.
func checkSignature(s Signature) error {
	switch {
	case strings.TrimSpace(s.Name) == "" && strings.TrimSpace(s.Email) == "":
		return errors.New("neither a name nor an email is set")
	case strings.TrimSpace(s.Name) == "":
		return errors.New("no name is set")
	case strings.TrimSpace(s.Email) == "":
		return errors.New("no email is set")
	case strings.ContainsAny(s.Name+s.Email, "<>\n\x00"):
		return errors.New("the name or email holds <, > or a line break")
	}
	return nil
}

// signatures returns the author and committer of a commit made now: author when
// given (dated author.When when that is set), else the repository's identity.
func (r *Repo) signatures(author *Signature) (a, c *object.Signature, err error) {
	now := time.Now()
	id, err := r.Identity()
	if author != nil && author.Name != "" {
		a = &object.Signature{Name: author.Name, Email: author.Email, When: now}
		if !author.When.IsZero() {
			a.When = author.When
		}
		if err != nil { // the caller signs as author; the committer is still git's
			return nil, nil, err
		}
		return a, &object.Signature{Name: id.Committer.Name, Email: id.Committer.Email, When: now}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return &object.Signature{Name: id.Author.Name, Email: id.Author.Email, When: now},
		&object.Signature{Name: id.Committer.Name, Email: id.Committer.Email, When: now}, nil
}

// config reads configKeys from git's configuration, last value winning: the system,
// global and repository files (and what they include), then the variables the
// environment gives (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n). A file
// git cannot read makes git refuse every command; here it is an error naming the file
// and the line, saying what to do.
func (r *Repo) config() (map[string]string, error) {
	cr := &configReader{gitDir: r.gitDir(), branch: r.branchName(), out: map[string]string{}, budget: maxConfigTotal}
	for _, f := range append(systemAndGlobalConfig(), filepath.Join(r.gitDir(), "config")) {
		if err := cr.read(f, 0); err != nil {
			return nil, err
		}
	}
	if err := cr.readEnv(); err != nil {
		return nil, err
	}
	return cr.out, nil
}

// gitDir returns the repository's git folder (.git, or where a .git file points).
func (r *Repo) gitDir() string {
	d := filepath.Join(r.dir, ".git")
	b, err := regular.ReadPath(d)
	if err != nil {
		return d // a folder, or nothing
	}
	if rest, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
		p := strings.TrimSpace(rest)
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.dir, p)
		}
		return p
	}
	return d
}

// branchName returns the short name of the checked-out branch, "" when detached.
func (r *Repo) branchName() string {
	b, err := regular.ReadPath(filepath.Join(r.gitDir(), "HEAD"))
	if err != nil {
		return ""
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: refs/heads/")
	if !ok {
		return ""
	}
	return ref
}

// systemAndGlobalConfig lists the configuration files git reads before the
// repository's, lowest precedence first.
func systemAndGlobalConfig() []string {
	files := systemConfig(runtime.GOOS, os.Getenv, exec.LookPath)
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		return append(files, expandHome(g))
	}
	home, _ := os.UserHomeDir()
	if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"))
	} else if home != "" {
		files = append(files, filepath.Join(home, ".config", "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	return files
}

// systemConfig lists the system-wide configuration files git reads on the system
// goos, lowest precedence first: GIT_CONFIG_SYSTEM when set, none with
// GIT_CONFIG_NOSYSTEM, otherwise portable.GitSystemConfigs: /etc/gitconfig, or on
// Windows Git for Windows' own (%PROGRAMDATA%\Git\config, then etc\gitconfig where
// the git found on the PATH is installed), which is where its installer sets
// core.autocrlf=true.
func systemConfig(goos string, getenv func(string) string, lookPath func(string) (string, error)) []string {
	switch {
	case getenv("GIT_CONFIG_NOSYSTEM") != "":
		return nil
	case getenv("GIT_CONFIG_SYSTEM") != "":
		return []string{getenv("GIT_CONFIG_SYSTEM")}
	}
	var gitExe string
	if goos == "windows" {
		gitExe, _ = lookPath("git") // "" when there is none: the installer's default place
	}
	return portable.GitSystemConfigs(goos, getenv, gitExe)
}

// expandHome replaces a leading "~/" by the home folder.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// configReader collects configKeys from configuration files and their includes.
type configReader struct {
	gitDir string
	branch string
	out    map[string]string
	// budget is what is left of maxConfigTotal (see readConfigFile).
	budget int64
}

// maxIncludeDepth bounds include chains, as git does (it allows 10).
const maxIncludeDepth = 10

// ErrBadConfig means a git configuration file, or the configuration the environment
// gives, cannot be read as git reads it (git refuses to run with it too), or is larger
// than MemoTree reads (see maxConfigFile). Its message names the file and the line,
// never the file's text.
var ErrBadConfig = errors.New("git's configuration cannot be read")

// read reads one file and the files it includes; a missing or unreadable file (or one
// that is not a regular file) is skipped, as git skips a missing one. A line git cannot
// read is an error naming the file and the line.
func (cr *configReader) read(file string, depth int) error {
	if depth > maxIncludeDepth {
		return fmt.Errorf("%w: %s is included more than %d deep (an include loop?); remove the include.path or includeIf that leads to it",
			ErrBadConfig, file, maxIncludeDepth)
	}
	b, err := readConfigFile(file, &cr.budget)
	if err != nil {
		return err
	}
	if b == nil {
		return nil
	}
	var inner error
	err = parseConfig(b, func(section, sub, key, value string, hasValue bool) {
		if inner != nil {
			return
		}
		switch {
		case sub == "" && configKeys[section+"."+key]:
			cr.set(section+"."+key, value, hasValue)
		case key == "path" && hasValue && (section == "include" && sub == "" ||
			section == "includeif" && cr.matches(sub, filepath.Dir(file))):
			inner = cr.read(includePath(value, file), depth+1)
		}
	})
	if inner != nil {
		return inner
	}
	if err != nil {
		return fmt.Errorf("%w: %s, %w; git refuses to run with it too: fix that line (`git config --file %s --list` shows the error) or remove it",
			ErrBadConfig, file, err, file)
	}
	return nil
}

// set records a key of configKeys. A core boolean written bare is true; an identity
// key without a value is none (git refuses it).
func (cr *configReader) set(key, value string, hasValue bool) {
	if !hasValue && strings.HasPrefix(key, "core.") {
		value = "true"
	}
	cr.out[key] = value
}

// readEnv reads the variables the environment gives as git reads them after every
// file: GIT_CONFIG_COUNT pairs GIT_CONFIG_KEY_0 with GIT_CONFIG_VALUE_0 and so on.
// A count that is no number or a pair with a half missing is an error, as git
// refuses them.
func (cr *configReader) readEnv() error {
	count, ok := os.LookupEnv("GIT_CONFIG_COUNT")
	if !ok || count == "" {
		return nil
	}
	n, err := strconv.ParseUint(count, 10, 31)
	if err != nil {
		return fmt.Errorf("%w: GIT_CONFIG_COUNT is %q, not a count; git refuses it too: set it to the number of GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n pairs, or unset it",
			ErrBadConfig, count)
	}
	for i := range int(n) {
		key := os.Getenv(fmt.Sprintf("GIT_CONFIG_KEY_%d", i))
		if key == "" {
			return fmt.Errorf("%w: GIT_CONFIG_COUNT is %d but GIT_CONFIG_KEY_%d is not set; git refuses it too: set it, or lower the count",
				ErrBadConfig, n, i)
		}
		value, ok := os.LookupEnv(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i))
		if !ok {
			return fmt.Errorf("%w: GIT_CONFIG_KEY_%d is %q but GIT_CONFIG_VALUE_%d is not set; git refuses it too: set it, or lower GIT_CONFIG_COUNT",
				ErrBadConfig, i, key, i)
		}
		section, sub, name, ok := splitConfigKey(key)
		if !ok {
			return fmt.Errorf("%w: GIT_CONFIG_KEY_%d is %q, not a key git knows the form of (section.name or section.subsection.name); git refuses it too",
				ErrBadConfig, i, key)
		}
		if sub == "" && configKeys[section+"."+name] {
			cr.set(section+"."+name, value, true)
		}
	}
	return nil
}

// splitConfigKey splits "section.name" or "section.sub.section.name" as git's
// git_config_parse_key does: the section and the name lowercased, the subsection (all
// between the first and the last dot) kept as written.
func splitConfigKey(key string) (section, sub, name string, ok bool) {
	first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if first <= 0 || last == len(key)-1 {
		return "", "", "", false
	}
	section, name = strings.ToLower(key[:first]), strings.ToLower(key[last+1:])
	if first < last {
		sub = key[first+1 : last]
	}
	for i := 0; i < len(section); i++ {
		if !isKeyChar(section[i]) {
			return "", "", "", false
		}
	}
	if !(name[0] >= 'a' && name[0] <= 'z') {
		return "", "", "", false
	}
	for i := 0; i < len(name); i++ {
		if !isKeyChar(name[i]) {
			return "", "", "", false
		}
	}
	return section, sub, name, true
}

// includePath resolves an include's path: "~/" is the home folder, and a relative path
// is relative to the including file's folder.
func includePath(p, from string) string {
	p = expandHome(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(from), p)
	}
	return p
}

// matches reports whether an includeIf condition holds for the repository:
// "gitdir:", "gitdir/i:" (case-insensitive) and "onbranch:".
func (cr *configReader) matches(cond, fileDir string) bool {
	kind, pattern, ok := strings.Cut(cond, ":")
	if !ok {
		return false
	}
	switch kind {
	case "gitdir", "gitdir/i":
		pattern = expandHome(pattern)
		if strings.HasPrefix(pattern, "./") {
			pattern = filepath.Join(fileDir, pattern[2:])
		} else if !filepath.IsAbs(pattern) {
			pattern = "**/" + pattern
		}
		if strings.HasSuffix(pattern, "/") {
			pattern += "**"
		}
		// git matches the folder's real path, then the path as given made absolute.
		var dirs []string
		if real, err := filepath.EvalSymlinks(cr.gitDir); err == nil {
			if abs, err := filepath.Abs(real); err == nil {
				dirs = append(dirs, filepath.ToSlash(abs))
			}
		}
		if abs, err := filepath.Abs(cr.gitDir); err == nil {
			dirs = append(dirs, filepath.ToSlash(abs))
		}
		for _, dir := range dirs {
			if globMatch(filepath.ToSlash(pattern), dir, kind == "gitdir/i") ||
				globMatch(filepath.ToSlash(pattern), dir+"/", kind == "gitdir/i") {
				return true
			}
		}
		return false
	case "onbranch":
		if strings.HasSuffix(pattern, "/") {
			pattern += "**"
		}
		return cr.branch != "" && globMatch(pattern, cr.branch, false)
	}
	return false
}

// globMatch matches name against a git wildcard pattern in which "**" crosses
// folders and "*", "?" and a bracket expression ("[a-z]", "[!x]") do not, and "\"
// takes the next character as it is.
func globMatch(pattern, name string, fold bool) bool {
	re := globRegexp(pattern, fold)
	return re != nil && re.MatchString(name)
}

// globRegexp compiles a git wildcard pattern (see globMatch); nil when it cannot.
func globRegexp(pattern string, fold bool) *regexp.Regexp {
	var b strings.Builder
	if fold {
		b.WriteString("(?i)")
	}
	b.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case strings.HasPrefix(pattern[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(pattern[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '\\' && i+1 < len(pattern):
			i++
			b.WriteString(regexp.QuoteMeta(pattern[i : i+1]))
		case c == '[':
			class, n, ok := bracketClass(pattern[i:])
			if !ok {
				b.WriteString(`\[`)
				continue
			}
			b.WriteString(class)
			i += n - 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// bracketClass turns the bracket expression that p starts with ("[abc]", "[a-z]",
// "[!x]" or "[^x]", "[[:alpha:]]") into a regular expression's class that never
// matches "/", and says how many bytes of p it took; ok is false when p holds no
// closing "]" (the "[" is then a plain character, as in git).
func bracketClass(p string) (class string, n int, ok bool) {
	i := 1
	neg := i < len(p) && (p[i] == '!' || p[i] == '^')
	if neg {
		i++
	}
	start := i
	var b strings.Builder
	for ; i < len(p); i++ {
		switch c := p[i]; {
		case c == ']' && i > start:
			if neg {
				return "[^/" + b.String() + "]", i + 1, true
			}
			return "(?:[" + b.String() + "])", i + 1, b.Len() > 0
		case c == '[' && strings.HasPrefix(p[i:], "[:"):
			end := strings.Index(p[i:], ":]")
			if end < 0 {
				return "", 0, false
			}
			b.WriteString(p[i : i+end+2])
			i += end + 1
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		case c == '-' && b.Len() > 0 && i+1 < len(p) && p[i+1] != ']':
			b.WriteByte('-')
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return "", 0, false
}
