package note

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v3"
)

// Front matter comes in the forms github.com/adrg/frontmatter reads: YAML between
// "---" lines (what Obsidian writes and reads), and TOML between "+++" lines, JSON
// between ";;;" lines, and "---yaml", "---toml" or "---json" opening a block that
// "---" closes (Hugo and other static site generators write those). The YAML of
// "---" lines is found by findFrontMatter and read by the fast path (fastyaml.go):
// it is nearly every note, and that path neither copies the note nor allocates per
// line, where adrg/frontmatter buffers the whole file and makes a string of each line
// (BenchmarkFrontMatter measures both). The other forms are found and decoded by
// adrg/frontmatter — TOML by BurntSushi/toml, JSON by encoding/json, YAML by YAML v3
// — and their byte offsets recovered from what it read (otherFrontMatter). They are
// read, never written: SetProperties refuses a note holding one (ErrOtherFrontMatter).

// FrontMatterFormat names how a note's front matter is written.
type FrontMatterFormat string

// The formats of front matter.
const (
	FormatYAML FrontMatterFormat = "yaml" // between "---" lines
	FormatTOML FrontMatterFormat = "toml"
	FormatJSON FrontMatterFormat = "json"
	// FormatYAMLTagged is YAML opened by "---yaml".
	FormatYAMLTagged FrontMatterFormat = "yaml-tagged"
)

// ErrOtherFrontMatter is returned by SetProperties for a note whose front matter is
// TOML, JSON or "---yaml": the note is read, but written only by hand.
var ErrOtherFrontMatter = errors.New("front matter in another format than YAML between --- lines")

// otherOpenings are the first lines that open a front matter adrg/frontmatter reads,
// with their format. The bare "{" of a JSON object is left out: a note may start
// with one.
var otherOpenings = map[string]FrontMatterFormat{
	"+++": FormatTOML, "---toml": FormatTOML, ";;;": FormatJSON, "---json": FormatJSON, "---yaml": FormatYAMLTagged,
}

// otherFormatOf returns the format a note's first line (after any BOM) opens, or "".
func otherFormatOf(src []byte, start int) FrontMatterFormat {
	end, _ := lineBounds(src, start)
	if end-start > len("---toml") {
		return ""
	}
	return otherOpenings[string(src[start:end])]
}

// otherFront is a front matter in another format: its bounds and values.
type otherFront struct {
	format    FrontMatterFormat
	fm        fmBounds
	props     map[string]any
	decodeErr error
}

// otherFrontMatter finds and decodes the front matter of src in format f with
// adrg/frontmatter. adrg reads from a reader that ends at the closing line, once the
// block was decoded, so that the body is never copied; the offsets are what the
// reader handed out less what adrg buffered past the block.
func otherFrontMatter(src []byte, start int, f FrontMatterFormat) otherFront {
	out := otherFront{format: f}
	var opening string
	for k, v := range otherOpenings {
		if v == f && strings.HasPrefix(string(src[start:]), k) {
			if end, _ := lineBounds(src, start); string(src[start:end]) == k {
				opening = k
			}
		}
	}
	closing := opening
	if strings.HasPrefix(opening, "---") {
		closing = "---"
	}
	r := &stopReader{src: src[start:]}
	var block []byte
	decode := func(data []byte, v any) error {
		block = data
		r.stop = true
		var err error
		switch f {
		case FormatTOML:
			err = toml.Unmarshal(data, v)
		case FormatJSON:
			err = json.Unmarshal(data, v)
		default:
			err = yaml.Unmarshal(data, v)
		}
		if err != nil {
			out.decodeErr = err // the block is still front matter: say why it is ignored
		}
		return nil
	}
	var props map[string]any
	rest, err := frontmatter.MustParse(r, &props, frontmatter.NewFormat(opening, closing, decode))
	if err != nil || block == nil {
		return out // no closing line: not front matter
	}
	bodyStart := start + r.n - len(rest)
	// The closing line is the last line before the body; the block ends where it starts.
	lineEnd := bodyStart
	if lineEnd > start && src[lineEnd-1] == '\n' {
		lineEnd--
	}
	closeStart := bytes.LastIndexByte(src[:lineEnd], '\n') + 1
	out.fm = fmBounds{
		ok:        true,
		yamlStart: closeStart - len(block),
		yamlEnd:   closeStart,
		end:       bodyStart,
		closeLine: lineOf(src, closeStart),
	}
	if out.fm.yamlStart < start || !bytes.Equal(src[out.fm.yamlStart:closeStart], block) {
		return otherFront{format: f} // adrg read it differently: not trusted as front matter
	}
	if out.decodeErr == nil {
		out.props = make(map[string]any, len(props))
		for k, v := range props {
			out.props[k] = normalizeOther(v)
		}
	}
	return out
}

// stopReader hands out src until stop is set (the block was decoded), counting bytes.
type stopReader struct {
	src  []byte
	n    int
	stop bool
}

func (r *stopReader) Read(p []byte) (int, error) {
	if r.stop || r.n >= len(r.src) {
		return 0, io.EOF
	}
	k := copy(p, r.src[r.n:])
	r.n += k
	return k, nil
}

// normalizeOther turns decoded TOML and JSON values into the forms YAML gives:
// map[string]any, []any, int for whole numbers.
func normalizeOther(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = normalizeOther(e)
		}
		return v
	case []map[string]any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalizeOther(e)
		}
		return out
	case []any:
		for i, e := range v {
			v[i] = normalizeOther(e)
		}
		return v
	case int64:
		return int(v)
	}
	return normalize(v)
}

// parseOtherFrontMatter fills n from a front matter in another format.
func parseOtherFrontMatter(n *Note, src []byte, of otherFront, keepProps bool, k *keeper) {
	if of.decodeErr != nil || of.props == nil {
		msg := "it could not be decoded"
		if of.decodeErr != nil {
			msg = of.decodeErr.Error()
		}
		n.warnf(1, "front matter ignored: %s front matter: %s", of.format, msg)
		return
	}
	if keepProps {
		n.Properties = of.props
	}
	var fields fieldValues
	fields.from(of.props)
	fillFields(n, &fields)
	n.Relations = relationsOf(of.props["relations"])
	for _, l := range linksInValues(of.props, k) {
		l.Kind, l.InFrontMatter, l.Start, l.End, l.Line = WikiLink, true, -1, -1, 1
		if strings.HasPrefix(l.lit, "!") {
			l.Kind = Embed
		}
		if k := bytes.Index(src[of.fm.yamlStart:of.fm.yamlEnd], []byte(l.lit)); k >= 0 {
			start := of.fm.yamlStart + k
			l.Start, l.End = int32(start), int32(start+len(l.lit))
			l.Line = int32(lineOf(src, start))
		}
		n.Links = append(n.Links, l.Link)
	}
}

// litLink is a link with its literal text.
type litLink struct {
	Link
	lit string
}

// linksInValues returns the wikilinks inside the string values of props, in key order.
func linksInValues(props map[string]any, k *keeper) []litLink {
	var out []litLink
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if !strings.Contains(v, "[[") {
				return
			}
			for _, lit := range appendWikiLiterals(nil, v) {
				if w, ok := splitWiki(lit); ok {
					out = append(out, litLink{Link: w.link(k), lit: lit})
				}
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, k := range sortedKeys(v) {
				walk(v[k])
			}
		}
	}
	walk(props)
	return out
}

// relationsOf reads relations from decoded values: a list of maps with "relation
// type" and "relation to".
func relationsOf(v any) []Relation {
	items, _ := v.([]any)
	var out []Relation
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		to, _ := m["relation to"].(string)
		typ, _ := m["relation type"].(string)
		if r := (Relation{Type: strings.TrimSpace(typ), To: StripLink(to), Line: 1}); r.To != "" {
			out = append(out, r)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys { // insertion sort: front matter has few keys
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
