package note

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Errors SetProperties returns for notes it refuses to rewrite, rather than guess.
var (
	// ErrBrokenFrontMatter: the front matter cannot be read (no closing fence, invalid
	// YAML, not a mapping) or the change would not read back.
	ErrBrokenFrontMatter = errors.New("front matter is broken")
	// ErrNotUTF8: the note is not valid UTF-8; such files are reported, never rewritten.
	ErrNotUTF8 = errors.New("note is not valid UTF-8")
)

// Property is one top-level front matter key and the value to store under it.
type Property struct {
	Key   string
	Value any
}

// Edit replaces the bytes src[Start:End] with New.
type Edit struct {
	Start, End int
	New        string
}

// ReplaceSpans applies non-overlapping edits to src and returns the new bytes; src is
// not modified. Edits may come in any order; two insertions at the same offset are
// applied in the order given. It fails when an edit is out of range or overlaps
// another.
func ReplaceSpans(src []byte, edits []Edit) ([]byte, error) {
	sorted := make([]Edit, len(edits))
	copy(sorted, edits)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	size, prev := len(src), 0
	for i, e := range sorted {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("replace span [%d,%d): out of range 0..%d", e.Start, e.End, len(src))
		}
		if i > 0 && e.Start < prev {
			return nil, fmt.Errorf("replace span [%d,%d): overlaps the edit ending at %d", e.Start, e.End, prev)
		}
		prev = e.End
		size += len(e.New) - (e.End - e.Start)
	}
	out := make([]byte, 0, size)
	pos := 0
	for _, e := range sorted {
		out = append(out, src[pos:e.Start]...)
		out = append(out, e.New...)
		pos = e.End
	}
	return append(out, src[pos:]...), nil
}

// FormatWikiLink writes a wikilink: "[[target#subpath|display]]", with "!" in front for
// an embed and "\|" as the separator when escapedPipe is set (inside a table).
func FormatWikiLink(target, subpath, display string, embed, escapedPipe bool) string {
	var b strings.Builder
	if embed {
		b.WriteByte('!')
	}
	b.WriteString("[[")
	b.WriteString(target)
	if subpath != "" {
		b.WriteByte('#')
		b.WriteString(subpath)
	}
	if display != "" {
		if escapedPipe {
			b.WriteByte('\\')
		}
		b.WriteByte('|')
		b.WriteString(display)
	}
	b.WriteString("]]")
	return b.String()
}

// SetProperties sets and removes top-level front matter keys and changes nothing else:
// other keys, their order, comments, quoting, blank lines, line endings, the BOM and
// the body keep their bytes. A key that exists is replaced where it stands (its whole
// block, nested lines included); a new key is appended at the end of the front
// matter; a note without front matter gets one. Values are written by YAML v3 in block
// style with the note's line ending. It refuses a note whose front matter is broken
// (ErrBrokenFrontMatter) or that is not UTF-8 (ErrNotUTF8), and a key that is both
// set and removed.
func SetProperties(src []byte, set []Property, remove []string) ([]byte, error) {
	start := 0
	if bytes.HasPrefix(src, bom) {
		start = len(bom)
	}
	nl := "\n"
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		nl = "\r\n"
	}
	if err := checkKeys(set, remove); err != nil {
		return nil, err
	}
	if !utf8.Valid(src) {
		return nil, fmt.Errorf("set properties: line %d: %w", firstInvalidLine(src), ErrNotUTF8)
	}
	if f := otherFormatOf(src, start); f != "" && otherFrontMatter(src, start, f).fm.ok {
		return nil, fmt.Errorf("set properties: %s front matter: %w", f, ErrOtherFrontMatter)
	}
	fm := findFrontMatter(src, start)
	if fm.noClose {
		return nil, fmt.Errorf("set properties: line 1: no closing fence: %w", ErrBrokenFrontMatter)
	}
	if !fm.ok {
		return newFrontMatter(src, start, set, nl)
	}
	root, err := readFrontMatter(src, fm)
	if err != nil {
		return nil, fmt.Errorf("set properties: %v: %w", err, ErrBrokenFrontMatter)
	}
	if root != nil && root.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("set properties: front matter is one flow mapping: %w", ErrBrokenFrontMatter)
	}
	edits, err := propertyEdits(src, fm, root, set, remove, nl)
	if err != nil {
		return nil, err
	}
	out, err := ReplaceSpans(src, edits)
	if err != nil {
		return nil, fmt.Errorf("set properties: %w", err)
	}
	if err := verifyRewrite(out, set, remove); err != nil {
		return nil, err
	}
	return out, nil
}

// readFrontMatter parses and decodes the front matter, so that everything Parse would
// warn about (duplicate keys included) is an error.
func readFrontMatter(src []byte, fm fmBounds) (*yaml.Node, error) {
	root, err := decodeFrontMatter(src, fm)
	if err != nil || root == nil {
		return root, err
	}
	if _, err := decodeProps(root); err != nil {
		return nil, fmt.Errorf("line %d: %s", yamlErrLine(err), yamlProblem(err))
	}
	return root, nil
}

// checkKeys rejects a key that is both set and removed.
func checkKeys(set []Property, remove []string) error {
	for _, p := range set {
		for _, r := range remove {
			if p.Key == r {
				return fmt.Errorf("set property %q: also asked to remove it", p.Key)
			}
		}
	}
	return nil
}

// newFrontMatter puts a front matter block holding set at the start of src.
func newFrontMatter(src []byte, start int, set []Property, nl string) ([]byte, error) {
	if len(set) == 0 {
		return bytes.Clone(src), nil
	}
	block, err := marshalProps(set, nl)
	if err != nil {
		return nil, err
	}
	head := "---" + nl + block + "---" + nl
	out, err := ReplaceSpans(src, []Edit{{Start: start, End: start, New: head}})
	if err != nil {
		return nil, fmt.Errorf("set properties: %w", err)
	}
	if err := verifyRewrite(out, set, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// propertyEdits computes the edits that set and remove keys in an existing block.
func propertyEdits(src []byte, fm fmBounds, root *yaml.Node, set []Property, remove []string, nl string) ([]Edit, error) {
	var edits []Edit
	var added []Property
	for _, p := range set {
		s, e, found := keySpan(src, fm, root, p.Key)
		if !found {
			added = append(added, p)
			continue
		}
		text, err := marshalProps([]Property{p}, nl)
		if err != nil {
			return nil, err
		}
		edits = append(edits, Edit{Start: s, End: e, New: text})
	}
	for _, k := range remove {
		if s, e, found := keySpan(src, fm, root, k); found {
			edits = append(edits, Edit{Start: s, End: e})
		}
	}
	if len(added) > 0 {
		text, err := marshalProps(added, nl)
		if err != nil {
			return nil, err
		}
		edits = append(edits, Edit{Start: fm.yamlEnd, End: fm.yamlEnd, New: text})
	}
	return edits, nil
}

// keySpan finds the lines of top-level key k: from its line to the line before the
// next top-level key, leaving out trailing blank lines and comments at column 1 (they
// belong to what follows).
func keySpan(src []byte, fm fmBounds, root *yaml.Node, k string) (start, end int, found bool) {
	if root == nil {
		return 0, 0, false
	}
	starts := lineStarts(src, fm.yamlStart, fm.yamlEnd)
	for i := 0; i+1 < len(root.Content); i += 2 {
		key := root.Content[i]
		if key.Kind != yaml.ScalarNode || key.Value != k || key.Line-1 >= len(starts) {
			continue
		}
		first := key.Line - 1
		last := len(starts) - 1 // index of the closing fence's line start
		if i+2 < len(root.Content) && root.Content[i+2].Line-1 < last {
			last = root.Content[i+2].Line - 1
		}
		for last-1 > first {
			ls := starts[last-1]
			le, _ := lineBounds(src, ls)
			if !isBlank(src[ls:le]) && src[ls] != '#' {
				break
			}
			last--
		}
		end := fm.yamlEnd
		if last < len(starts) {
			end = starts[last]
		}
		return starts[first], min(end, fm.yamlEnd), true
	}
	return 0, 0, false
}

// marshalProps writes props as block-style YAML lines ending in nl.
func marshalProps(props []Property, nl string) (string, error) {
	var b bytes.Buffer
	for _, p := range props {
		var m yaml.Node
		m.Kind = yaml.MappingNode
		var k, v yaml.Node
		k.SetString(p.Key)
		if err := v.Encode(p.Value); err != nil {
			return "", fmt.Errorf("set property %q: %w", p.Key, err)
		}
		if s, ok := p.Value.(string); ok && v.Kind == yaml.ScalarNode && needsQuotes(s) {
			v.Style = yaml.DoubleQuotedStyle // YAML v3 mangles some such strings in block style
		}
		m.Content = []*yaml.Node{&k, &v}
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(&m); err != nil {
			return "", fmt.Errorf("set property %q: %w", p.Key, err)
		}
		if err := enc.Close(); err != nil {
			return "", fmt.Errorf("set property %q: %w", p.Key, err)
		}
	}
	s := b.String()
	if nl != "\n" {
		s = strings.ReplaceAll(s, "\n", nl)
	}
	return s, nil
}

// needsQuotes reports whether s holds control characters or leading or trailing
// white space, which only a double-quoted scalar keeps exactly.
func needsQuotes(s string) bool {
	if s != strings.TrimSpace(s) {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// verifyRewrite parses the result again and fails rather than return front matter
// that does not read back.
func verifyRewrite(out []byte, set []Property, remove []string) error {
	start := 0
	if bytes.HasPrefix(out, bom) {
		start = len(bom)
	}
	fm := findFrontMatter(out, start)
	if !fm.ok {
		return fmt.Errorf("set properties: the result has no front matter: %w", ErrBrokenFrontMatter)
	}
	root, err := readFrontMatter(out, fm)
	if err != nil {
		return fmt.Errorf("set properties: the result does not read back: %v: %w", err, ErrBrokenFrontMatter)
	}
	for _, p := range set {
		if root == nil {
			return fmt.Errorf("set property %q: the key does not read back", p.Key)
		}
		v := mapValue(root, p.Key)
		if v == nil {
			return fmt.Errorf("set property %q: the key does not read back", p.Key)
		}
		if s, ok := p.Value.(string); ok {
			var back string
			if err := v.Decode(&back); err != nil || back != s {
				return fmt.Errorf("set property %q: the value does not read back", p.Key)
			}
		}
	}
	for _, k := range remove {
		if root != nil && mapValue(root, k) != nil {
			return fmt.Errorf("remove property %q: the key is still present", k)
		}
	}
	return nil
}
