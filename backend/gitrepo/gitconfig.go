package gitrepo

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/memotree/memotree/backend/internal/regular"
)

// Bounds on what one reading of git's configuration reads. Configuration files are a
// few kilobytes, but an include may name any file, and a vault's .git/config (which
// came with the vault, from anywhere) may include a huge one, or many.
const (
	// maxConfigFile is the largest configuration file read.
	maxConfigFile = 512 << 10
	// maxConfigTotal bounds all the files one reading reads, includes and files named
	// several times included, each counted as at least minConfigCharge, so that a
	// reading opens at most maxConfigTotal/minConfigCharge files.
	maxConfigTotal = 1 << 20
	// minConfigCharge is the least a file counts for against maxConfigTotal.
	minConfigCharge = 4 << 10
)

// readConfigFile returns the content of a configuration file, nil (and no error) when
// it is missing, unreadable or not a regular file (git skips a missing file; a named
// pipe must not hold the reading), and an error wrapping ErrBadConfig, naming the file,
// when it is larger than maxConfigFile or when budget (what is left of
// maxConfigTotal, reduced by what the file counts for) runs out.
func readConfigFile(file string, budget *int64) ([]byte, error) {
	f, st, err := regular.OpenPath(file)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	tooBig := func(size int64) error {
		return fmt.Errorf("%w: %s holds %.1f MiB, more than the %d KiB MemoTree reads of a git configuration file; "+
			"if an include.path or includeIf names it, remove that include", ErrBadConfig, file, float64(size)/(1<<20), maxConfigFile>>10)
	}
	if st.Size() > maxConfigFile {
		return nil, tooBig(st.Size())
	}
	if *budget -= max(st.Size(), minConfigCharge); *budget < 0 {
		return nil, fmt.Errorf("%w: reading %s, the git configuration files and the files they include come to more than %d MiB "+
			"(each counted as at least %d KiB); remove the include.path or includeIf lines that name so many files", ErrBadConfig, file,
			maxConfigTotal>>20, minConfigCharge>>10)
	}
	buf := bytes.NewBuffer(make([]byte, 0, st.Size()+1))
	if _, err := buf.ReadFrom(io.LimitReader(f, maxConfigFile+1)); err != nil {
		return nil, nil // unreadable, as a file git cannot open
	}
	if buf.Len() > maxConfigFile { // it grew since the stat
		return nil, tooBig(int64(buf.Len()))
	}
	return buf.Bytes(), nil
}

// checkConfigSize refuses a repository's own configuration file (.git/config) larger
// than maxConfigFile before go-git, which reads it whole and without a bound, opens
// the repository or reads its remotes.
func checkConfigSize(gitDir string) error {
	file := filepath.Join(gitDir, "config")
	if st, err := os.Stat(file); err == nil && st.Size() > maxConfigFile {
		return fmt.Errorf("%w: %s holds %.1f MiB, more than the %d KiB MemoTree reads of a git configuration file",
			ErrBadConfig, file, float64(st.Size())/(1<<20), maxConfigFile>>10)
	}
	return nil
}

// parseConfig reads a git configuration file as git reads it (git-config(1),
// "CONFIGURATION FILE"): a UTF-8 byte order mark is skipped, CRLF is a line break,
// "#" and ";" start comments, section names and keys are case-insensitive,
// [section "subsection"] keeps its subsection as written (with \" and \\ escapes) and
// the older [section.subsection] lowercases it, a variable may follow a section header
// on its line, and a value has its surrounding blanks trimmed, "double quotes" kept
// apart, the escapes \" \\ \n \t \b, and a backslash at the end of a line joining the
// next. fn hears each variable in order (hasValue is false for a key without "=",
// git's boolean true). At the first line git would refuse, parseConfig stops and
// returns an error naming the line; the variables before it were given. An error never
// quotes the file's text: a configuration may include any file (a key or a token), and
// the error may reach the model.
func parseConfig(src []byte, fn func(section, sub, key, value string, hasValue bool)) error {
	p := configParser{src: src, line: 1}
	if strings.HasPrefix(string(src), "\xef\xbb\xbf") {
		p.pos = 3
	}
	return p.parse(fn)
}

// configParser walks the bytes of one configuration file.
type configParser struct {
	src  []byte
	pos  int
	line int
	eof  bool
}

// next returns the next byte, a CRLF as '\n', and '\n' at the end (eof then set).
func (p *configParser) next() byte {
	if p.pos >= len(p.src) {
		p.eof = true
		return '\n'
	}
	c := p.src[p.pos]
	p.pos++
	if c == '\r' && p.pos < len(p.src) && p.src[p.pos] == '\n' {
		p.pos++
		c = '\n'
	}
	if c == '\n' {
		p.line++
	}
	return c
}

func isConfigSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func (p *configParser) parse(fn func(section, sub, key, value string, hasValue bool)) error {
	section, sub, inSection, comment := "", "", false, false
	for {
		c := p.next()
		switch {
		case c == '\n':
			if p.eof {
				return nil
			}
			comment = false
			continue
		case comment || isConfigSpace(c):
			continue
		case c == '#' || c == ';':
			comment = true
			continue
		case c == '[':
			s, sb, err := p.header()
			if err != nil {
				return err
			}
			section, sub, inSection = s, sb, true
			continue
		case !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'):
			return p.errorAt("a variable name must start with a letter")
		}
		key, value, hasValue, err := p.variable(c)
		if err != nil {
			return err
		}
		if inSection {
			fn(section, sub, key, value, hasValue)
		}
	}
}

// header reads a section header after its "[", up to and with its "]".
func (p *configParser) header() (section, sub string, err error) {
	var name []byte
	for {
		c := p.next()
		switch {
		case p.eof:
			return "", "", p.errorAt("a section header is not closed")
		case c == ']':
			if len(name) == 0 {
				return "", "", p.errorAt("a section header has no name")
			}
			// The older [section.subsection]: the subsection lowercased, as git reads it.
			s, sb, _ := strings.Cut(string(name), ".")
			return s, sb, nil
		case isConfigSpace(c):
			if len(name) == 0 || c == '\n' {
				return "", "", p.errorAt("a section header is not closed")
			}
			sub, err := p.subsection()
			return string(name), sub, err
		case !isKeyChar(c) && c != '.':
			return "", "", p.errorAt("a section name holds a character other than a letter, a digit, \"-\" or \".\"")
		}
		name = append(name, lower(c))
	}
}

// subsection reads ` "subsection"]` after a section name and a blank.
func (p *configParser) subsection() (string, error) {
	c := p.next()
	for isConfigSpace(c) && c != '\n' {
		c = p.next()
	}
	if c != '"' {
		return "", p.errorAt(`a subsection must be written in "double quotes"`)
	}
	var sub []byte
	for {
		c := p.next()
		switch c {
		case '\n':
			return "", p.errorAt("a subsection is not closed")
		case '"':
			if p.next() != ']' {
				return "", p.errorAt(`a section header must end with "]" after its subsection`)
			}
			return string(sub), nil
		case '\\':
			if c = p.next(); c == '\n' {
				return "", p.errorAt("a subsection is not closed")
			}
		}
		sub = append(sub, c)
	}
}

// variable reads "key = value" from the key's first letter c to the end of its line.
func (p *configParser) variable(c byte) (key, value string, hasValue bool, err error) {
	name := []byte{lower(c)}
	for {
		c = p.next()
		if p.eof || !isKeyChar(c) {
			break
		}
		name = append(name, lower(c))
	}
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	if c == '\n' {
		return string(name), "", false, nil
	}
	if c != '=' {
		return "", "", false, p.errorAt("a variable name is not followed by \"=\" or the end of its line")
	}
	value, err = p.value()
	return string(name), value, true, err
}

// value reads a value after its "=", to the end of its line (or of the lines a
// trailing backslash joins).
func (p *configParser) value() (string, error) {
	var out []byte
	quote, comment, trim := false, false, -1 // trim: where trailing blanks began
	for {
		c := p.next()
		if c == '\n' {
			if quote {
				return "", p.errorAt("a quoted value is not closed on its line")
			}
			if trim >= 0 {
				out = out[:trim]
			}
			return string(out), nil
		}
		if comment {
			continue
		}
		if isConfigSpace(c) && !quote {
			if trim < 0 {
				trim = len(out)
			}
			if len(out) > 0 {
				out = append(out, c)
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		trim = -1
		switch c {
		case '\\':
			switch e := p.next(); e {
			case '\n':
				continue // the value goes on on the next line
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
				c = e
			default:
				return "", p.errorAt("a value holds a backslash before a character other than n, t, b, \\ or \"")
			}
		case '"':
			quote = !quote
			continue
		}
		out = append(out, c)
	}
}

// errorAt names the line of an error. It takes a fixed message, never the file's text
// (see parseConfig).
func (p *configParser) errorAt(msg string) error {
	line := p.line
	if p.pos > 0 && p.pos <= len(p.src) && p.src[p.pos-1] == '\n' {
		line-- // the error is on the line the break ended
	}
	return fmt.Errorf("line %d: %s", line, msg)
}
