package gitrepo

import (
	"bytes"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/memotree/memotree/backend/vpath"
)

// Line endings as git stores them (convert.c, convert_to_git): git never changes a
// file's line endings when it stores it unless told to, by core.autocrlf (true or
// input) or by the text, eol or crlf attributes; then a text file's CRLF line breaks
// are stored as LF. The working tree keeps its CRLF, so status must convert a file
// before comparing it with the index, or every CRLF note shows as modified where git
// shows none. The conversions git makes when it checks a file out (core.eol,
// eol=crlf) are its own: MemoTree checks nothing out. Filters (filter=lfs), ident,
// working-tree-encoding and core.safecrlf are not applied.

// eolAction is what git does to a file's line endings when it stores it.
type eolAction uint8

const (
	eolKeep eolAction = iota // stored as it is (binary, -text, or nothing set)
	eolText                  // a text file: each CRLF stored as LF
	eolAuto                  // LF where git judges the file text and the index's copy has no CRLF
)

// autoCRLF is core.autocrlf: "true", "input" or "false".
func autoCRLF(v string, set bool) string {
	if !set {
		return "false"
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "input":
		return "input"
	case "true", "yes", "on", "1":
		return "true"
	}
	return "false"
}

// eolActionOf decides, as convert_attrs does, what git does to the line endings of
// the file at p when it stores it.
func (w *workRules) eolActionOf(p string) eolAction {
	at := w.attrs.attrs(p)
	action, decided := crlfAttr(at["text"])
	if !decided {
		action, decided = crlfAttr(at["crlf"])
	}
	if decided && action == eolKeep {
		return eolKeep
	}
	if e := at["eol"]; e.value == "lf" || e.value == "crlf" {
		if decided && action == eolAuto {
			return eolAuto
		}
		return eolText
	}
	if decided {
		return action
	}
	if w.autocrlf == "false" {
		return eolKeep
	}
	return eolAuto
}

// crlfAttr reads the text (or crlf) attribute: set or "input" is text, unset is
// binary, "auto" guesses; decided is false when it says nothing.
func crlfAttr(v attrValue) (action eolAction, decided bool) {
	switch {
	case v.set, v.value == "input":
		return eolText, true
	case v.unset:
		return eolKeep, true
	case v.value == "auto":
		return eolAuto, true
	}
	return eolKeep, false
}

// toGit returns data as git stores the file at p: its CRLF line breaks made LF where
// git converts them. indexCopy returns the content of p's index entry (nil when there
// is none), which git reads for the auto rule: a file committed with CRLF is left
// alone.
func (w *workRules) toGit(p string, data []byte, indexCopy func() []byte) []byte {
	if bytes.IndexByte(data, '\r') < 0 {
		return data // nothing git would convert: the common case, decided without attributes
	}
	switch w.eolActionOf(p) {
	case eolText:
		return crlfToLF(data)
	case eolAuto:
		st := lineStats(data)
		if st.crlf == 0 || st.binary() {
			return data
		}
		if old := indexCopy(); old != nil && bytes.IndexByte(old, '\r') >= 0 {
			if os := lineStats(old); os.crlf > 0 && !os.binary() {
				return data
			}
		}
		return crlfToLF(data)
	}
	return data
}

// storedForm returns a function giving a working-tree file's content as git would
// store it (toGit), the index read once, when first needed.
func (r *Repo) storedForm() (func(p vpath.Path, data []byte) []byte, error) {
	rules, err := r.workRules()
	if err != nil {
		return nil, err
	}
	var once sync.Once
	var staged map[string]plumbing.Hash
	indexCopy := func(p string) []byte {
		once.Do(func() {
			staged = map[string]plumbing.Hash{}
			if idx, err := r.repo.Storer.Index(); err == nil {
				for _, e := range idx.Entries {
					if e.Stage == 0 {
						staged[e.Name] = e.Hash
					}
				}
			}
		})
		if h, ok := staged[p]; ok {
			return r.blobOrNil(h)
		}
		return nil
	}
	return func(p vpath.Path, data []byte) []byte {
		return rules.toGit(string(p), data, func() []byte { return indexCopy(string(p)) })
	}, nil
}

// crlfToLF drops each CR that comes before an LF.
func crlfToLF(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i, c := range data {
		if c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		out = append(out, c)
	}
	return out
}

// textStats counts what git's gather_stats counts to tell text from binary.
type textStats struct {
	crlf, loneCR, nul, printable, nonPrintable int
}

// binary is git's convert_is_binary: a lone CR, a NUL, or more than one byte in 128
// that does not print.
func (s textStats) binary() bool {
	return s.loneCR > 0 || s.nul > 0 || s.printable>>7 < s.nonPrintable
}

// lineStats is git's gather_stats.
func lineStats(b []byte) textStats {
	var s textStats
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				s.crlf++
				i++
			} else {
				s.loneCR++
			}
		case c == '\n':
		case c == 127:
			s.nonPrintable++
		case c < 32:
			switch c {
			case '\b', '\t', 0x1b, 0x0c:
				s.printable++
			case 0:
				s.nul++
				s.nonPrintable++
			default:
				s.nonPrintable++
			}
		default:
			s.printable++
		}
	}
	if len(b) > 0 && b[len(b)-1] == 0x1a {
		s.nonPrintable-- // a final ^Z (DOS's end of file) does not count
	}
	return s
}
