package gitrepo

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/internal/regular"
)

// git's attributes (gitattributes(5)), read for the few MemoTree needs: those that say
// how a file's line endings are stored (text, eol and the older crlf). A path's
// attributes come from, highest precedence first: .git/info/attributes, the
// .gitattributes of its folder, of each folder above it up to the vault's root, the
// global file (core.attributesFile, else $XDG_CONFIG_HOME/git/attributes or
// ~/.config/git/attributes), and the system's (/etc/gitattributes, unless
// GIT_ATTR_NOSYSTEM). Within a file a later line wins; a line's pattern is matched as
// git matches it (a name without "/" against the file's name, else against the path
// from the file's folder, "**" crossing folders); macros ("[attr]name ...", and the
// built-in binary = -diff -merge -text) are defined in the root, info, global and
// system files. Files git reads from the index when the working tree lacks them are
// not read.

// attrValue is one attribute's state on a line: set ("text"), unset ("-text"),
// unspecified ("!text") or a value ("eol=lf").
type attrValue struct {
	set, unset, unspecified bool
	value                   string
}

// attrLine is one line of an attributes file: a pattern and its attributes, in the
// order written.
type attrLine struct {
	re    *regexp.Regexp // nil for a macro
	base  bool           // the pattern has no "/": it is matched against the file's name
	names []string
	vals  []attrValue
}

// attrFile is one attributes file: the folder it rules (slash path, "" for the
// vault's root) and its lines.
type attrFile struct {
	dir   string
	lines []attrLine
}

// attrSource reads attributes files once each, for one status or commit.
type attrSource struct {
	root, gitDir, global string

	mu      sync.Mutex
	folders map[string]*attrFile // .gitattributes by folder, nil where there is none
	outer   []*attrFile          // system, global: lowest precedence first
	info    *attrFile
	macros  map[string]attrLine
	loaded  bool
}

func newAttrSource(root, gitDir, global string) *attrSource {
	return &attrSource{root: root, gitDir: gitDir, global: global, folders: map[string]*attrFile{}}
}

// load reads the files above every folder: system, global and info.
func (a *attrSource) load() {
	if a.loaded {
		return
	}
	a.loaded = true
	a.macros = map[string]attrLine{"binary": {names: []string{"diff", "merge", "text"},
		vals: []attrValue{{unset: true}, {unset: true}, {unset: true}}}}
	var outer []string
	if os.Getenv("GIT_ATTR_NOSYSTEM") == "" {
		outer = append(outer, "/etc/gitattributes")
	}
	outer = append(outer, a.globalFile())
	for _, f := range outer {
		if af := a.readFile(f, "", true); af != nil {
			a.outer = append(a.outer, af)
		}
	}
	a.info = a.readFile(filepath.Join(a.gitDir, "info", "attributes"), "", true)
}

// globalFile is core.attributesFile, else git's default place for it.
func (a *attrSource) globalFile() string {
	if a.global != "" {
		return expandHome(a.global)
	}
	if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
		return filepath.Join(xdg, "git", "attributes")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".config", "git", "attributes")
}

// folder returns the .gitattributes of the folder dir (slash path), or nil.
func (a *attrSource) folder(dir string) *attrFile {
	if f, ok := a.folders[dir]; ok {
		return f
	}
	f := a.readFile(filepath.Join(a.root, filepath.FromSlash(dir), ".gitattributes"), dir, dir == "")
	a.folders[dir] = f
	return f
}

// readFile parses one attributes file ruling the folder dir; nil when it cannot be
// read (git skips a missing one, and so does this). Macros are taken where allowed,
// and lines git ignores (a negative pattern, no attributes) are skipped, as git skips
// them.
func (a *attrSource) readFile(file, dir string, macros bool) *attrFile {
	b, err := regular.ReadPath(file)
	if err != nil {
		return nil
	}
	af := &attrFile{dir: dir}
	for _, line := range strings.Split(string(b), "\n") {
		l, macro, ok := parseAttrLine(strings.TrimSuffix(line, "\r"))
		switch {
		case !ok:
		case macro != "":
			if macros {
				a.macros[macro] = l
			}
		default:
			af.lines = append(af.lines, l)
		}
	}
	return af
}

// parseAttrLine reads "pattern attr -attr !attr attr=value"; macro is the name of a
// "[attr]name" line. ok is false for a blank line, a comment, or a line git ignores.
func parseAttrLine(line string) (l attrLine, macro string, ok bool) {
	line = strings.TrimLeft(line, " \t")
	if line == "" || line[0] == '#' {
		return l, "", false
	}
	pattern, rest := cutField(line)
	if strings.HasPrefix(pattern, `"`) {
		if p, r, unq := unquotePattern(line); unq {
			pattern, rest = p, r
		}
	}
	for _, f := range strings.Fields(rest) {
		var v attrValue
		switch {
		case f[0] == '-':
			f, v.unset = f[1:], true
		case f[0] == '!':
			f, v.unspecified = f[1:], true
		default:
			name, value, hasValue := strings.Cut(f, "=")
			f, v.set, v.value = name, !hasValue, value
		}
		if f == "" {
			continue
		}
		l.names, l.vals = append(l.names, f), append(l.vals, v)
	}
	if name, isMacro := strings.CutPrefix(pattern, "[attr]"); isMacro {
		return l, name, name != ""
	}
	if pattern == "" || pattern[0] == '!' || strings.HasSuffix(pattern, "/") {
		return l, "", false // negative patterns are refused; a folder's pattern matches no file
	}
	l.base = !strings.Contains(pattern, "/")
	l.re = globRegexp(strings.TrimPrefix(pattern, "/"), false)
	return l, "", l.re != nil
}

// cutField splits off the first blank-separated field of s.
func cutField(s string) (field, rest string) {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// unquotePattern reads a "C-quoted" pattern at the start of line.
func unquotePattern(line string) (pattern, rest string, ok bool) {
	var b strings.Builder
	for i := 1; i < len(line); i++ {
		switch c := line[i]; c {
		case '"':
			return b.String(), line[i+1:], true
		case '\\':
			if i+1 < len(line) {
				i++
				switch line[i] {
				case 't':
					b.WriteByte('\t')
				case 'n':
					b.WriteByte('\n')
				default:
					b.WriteByte(line[i])
				}
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false
}

// matches reports whether the line's pattern, from a file ruling the folder dir,
// matches the slash path p.
func (l *attrLine) matches(dir, p string) bool {
	rel := p
	if dir != "" {
		var ok bool
		if rel, ok = strings.CutPrefix(p, dir+"/"); !ok {
			return false
		}
	}
	if l.base {
		rel = path.Base(rel)
	}
	return l.re.MatchString(rel)
}

// attrs returns the attributes of the slash path p, as git's check-attr gives them; a
// name missing from the result is unspecified.
func (a *attrSource) attrs(p string) map[string]attrValue {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.load()
	// Highest precedence first: info, the file's folder and those above it, global,
	// system.
	files := []*attrFile{a.info}
	dir := path.Dir(p)
	for {
		if dir == "." {
			dir = ""
		}
		files = append(files, a.folder(dir))
		if dir == "" {
			break
		}
		dir = path.Dir(dir)
	}
	for i := len(a.outer) - 1; i >= 0; i-- {
		files = append(files, a.outer[i])
	}
	out := map[string]attrValue{}
	for _, f := range files {
		if f == nil {
			continue
		}
		for i := len(f.lines) - 1; i >= 0; i-- {
			if l := &f.lines[i]; l.matches(f.dir, p) {
				a.fill(l, out, 0)
			}
		}
	}
	return out
}

// fill gives the attributes of line l not yet decided their values, last written
// first, and expands a macro it sets, as git's fill_one does.
func (a *attrSource) fill(l *attrLine, out map[string]attrValue, depth int) {
	for j := len(l.names) - 1; j >= 0; j-- {
		name, v := l.names[j], l.vals[j]
		if _, done := out[name]; done {
			continue
		}
		out[name] = v
		if m, ok := a.macros[name]; ok && v.set && depth < 8 {
			a.fill(&m, out, depth+1)
		}
	}
}
