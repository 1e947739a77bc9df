package note

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The lines that open and close front matter.
var (
	fenceDash = []byte("---")
	fenceDots = []byte("...")
)

// fmBounds locates a front matter block.
type fmBounds struct {
	ok        bool // both fences were found
	noClose   bool // the opening fence has no closing fence
	yamlStart int  // first byte after the opening fence's line
	yamlEnd   int  // first byte of the closing fence's line
	end       int  // first byte after the closing fence's line
	closeLine int  // 1-based line of the closing fence
}

// findFrontMatter looks for front matter starting at offset start (after any BOM): a
// line "---" closed by a later line "---" or "...".
func findFrontMatter(src []byte, start int) fmBounds {
	end, next := lineBounds(src, start)
	if !bytes.Equal(src[start:end], fenceDash) {
		return fmBounds{}
	}
	pos, line := next, 2
	for pos < len(src) {
		e, nx := lineBounds(src, pos)
		if l := src[pos:e]; bytes.Equal(l, fenceDash) || bytes.Equal(l, fenceDots) {
			return fmBounds{ok: true, yamlStart: next, yamlEnd: pos, end: nx, closeLine: line}
		}
		pos, line = nx, line+1
	}
	return fmBounds{noClose: true}
}

// decodeFrontMatter parses the YAML between the fences and returns its top-level
// mapping node, or nil when the block is empty. The error names the file line.
func decodeFrontMatter(src []byte, fm fmBounds) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, fmt.Errorf("line 1: YAML decoder failed: %v", r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(src[fm.yamlStart:fm.yamlEnd], &doc); err != nil {
		return nil, fmt.Errorf("line %d: %s", min(yamlErrLine(err), fm.closeLine), yamlProblem(err))
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root = doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: front matter is not a mapping of keys to values", root.Line+1)
	}
	return root, nil
}

// yamlProblem returns a YAML error's message without its "yaml: line N: " prefix.
func yamlProblem(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if strings.HasPrefix(msg, "line ") {
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
	}
	return msg
}

// parserProblems are the YAML v3 parser (not scanner) errors, which report a 0-based
// line where all other errors report a 1-based one.
var parserProblems = []string{
	"<document start>", "expected node content", "expected key", "'-' indicator", "expected ',' or",
}

// yamlErrLine returns the file line of a YAML error (the YAML starts on line 2).
func yamlErrLine(err error) int {
	msg := err.Error()
	shift := 1
	for _, p := range parserProblems {
		if strings.Contains(msg, p) {
			shift = 2
		}
	}
	i := strings.Index(msg, "line ")
	if i < 0 {
		return 1
	}
	j := i + len("line ")
	k := j
	for k < len(msg) && msg[k] >= '0' && msg[k] <= '9' {
		k++
	}
	n, convErr := strconv.Atoi(msg[j:k])
	if convErr != nil {
		return 1
	}
	return n + shift
}

// parseFrontMatter decodes the front matter into n, or records why it cannot. With
// keepProps false, n.Properties stays nil, and on the fast path only the values the
// other fields come from are built. The names of its links are kept in k.
func parseFrontMatter(n *Note, src []byte, fm fmBounds, keepProps bool, k *keeper) {
	var (
		props  map[string]any
		fields fieldValues
	)
	// Without the properties, the values the note keeps are copied out of src by
	// parse (keeper.rehome): the fast path need not copy the whole block.
	root, fp := fastFrontMatterPooled(src, fm.yamlStart, fm.yamlEnd, !keepProps)
	if fp != nil {
		defer func() {
			if !keepProps {
				k.rehome(n, fp.scalars[:cap(fp.scalars)]) // block scalars share fp's buffer
			}
			fp.release() // nothing below keeps a node: values are copied out
		}()
	}
	if root != nil {
		ok := false
		if keepProps {
			if props, ok = fastProps(root); ok {
				fields.from(props)
			}
		} else {
			ok = fastFields(root, &fields)
		}
		if !ok {
			root = nil
		}
	}
	if root == nil {
		var err error
		if root, err = decodeFrontMatter(src, fm); err != nil {
			n.warnf(errLine(err), "front matter ignored: %v", err)
			return
		}
		if root == nil {
			return
		}
		if props, err = decodeProps(root); err != nil {
			n.warnf(yamlErrLine(err), "front matter ignored: %s", strings.TrimPrefix(err.Error(), "yaml: "))
			return
		}
		fields.from(props)
	}
	if keepProps {
		n.Properties = props
	}
	fillFields(n, &fields)
	n.Relations = relations(root)
	frontMatterLinks(n, src, fm, root, k)
}

// fillFields sets the Note's fields read from front matter values: type, summary,
// aliases and tags.
func fillFields(n *Note, fields *fieldValues) {
	n.EntityType = stringProp(fields.get("entity type"))
	if n.EntityType == "" {
		n.EntityType = stringProp(fields.get("type"))
	}
	n.Summary = stringProp(fields.get("summary"))
	addAlias := func(a string) { n.Aliases = append(n.Aliases, a) }
	listItems(fields.get("aliases"), false, addAlias)
	listItems(fields.get("alias"), false, addAlias)
	if k := listLen(fields.get("tags")) + listLen(fields.get("tag")); k > 0 {
		addTag := func(t string) { n.Tags = append(n.Tags, Tag{Name: t}) }
		listItems(fields.get("tags"), true, addTag)
		listItems(fields.get("tag"), true, addTag)
	}
}

// errLine extracts the "line N: " prefix decodeFrontMatter puts on its errors.
func errLine(err error) int {
	var line int
	if _, scanErr := fmt.Sscanf(err.Error(), "line %d:", &line); scanErr != nil {
		return 1
	}
	return line
}

// decodeProps decodes the mapping into JSON-friendly Go values.
func decodeProps(root *yaml.Node) (props map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			props, err = nil, fmt.Errorf("YAML decoder failed: %v", r)
		}
	}()
	if err := root.Decode(&props); err != nil {
		return nil, err
	}
	for k, v := range props {
		props[k] = normalize(v)
	}
	return props, nil
}

// normalize turns the map[any]any YAML produces for non-string keys into
// map[string]any, so that properties always encode as JSON.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = normalize(e)
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = normalize(e)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = normalize(e)
		}
		return v
	}
	return v
}

// stringProp returns v, trimmed, when it is a string, else "".
func stringProp(v any) string {
	if ns, ok := v.(nodeString); ok {
		return strings.TrimSpace(ns.n.Value)
	}
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

// listItems calls fn for each item of a property that is a string or a list of
// scalars. With tags set it also splits strings on commas and spaces and strips a
// leading '#'.
func listItems(v any, tags bool, fn func(string)) {
	add := func(s string) {
		if !tags {
			if s = strings.TrimSpace(s); s != "" {
				fn(s)
			}
			return
		}
		for s != "" {
			i := strings.IndexAny(s, ", \t")
			f := s
			if i >= 0 {
				f, s = s[:i], s[i+1:]
			} else {
				s = ""
			}
			if f = strings.TrimLeft(f, "#"); f != "" {
				fn(f)
			}
		}
	}
	item := func(e any) {
		switch e := e.(type) {
		case nil, map[string]any, []any, nodeList:
		case string:
			add(e)
		case nodeString:
			add(e.n.Value)
		default:
			add(fmt.Sprint(e))
		}
	}
	switch v := v.(type) {
	case string:
		add(v)
	case nodeString:
		add(v.n.Value)
	case []any:
		for _, e := range v {
			item(e)
		}
	case nodeList:
		for _, c := range v.n.Content {
			item(itemOf(c))
		}
	}
}

// listLen returns how many items a property holds at most, as listItems reads it.
func listLen(v any) int {
	switch v := v.(type) {
	case string, nodeString:
		return 1
	case []any:
		return len(v)
	case nodeList:
		return len(v.n.Content)
	}
	return 0
}

// relations reads the "relations" list: maps with "relation type" and "relation to".
func relations(root *yaml.Node) []Relation {
	seq := mapValue(root, "relations")
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return nil
	}
	var out []Relation
	for _, item := range seq.Content {
		if item.Kind != yaml.MappingNode {
			continue
		}
		typ, to := mapValue(item, "relation type"), mapValue(item, "relation to")
		if to == nil || to.Kind != yaml.ScalarNode {
			continue
		}
		r := Relation{To: StripLink(to.Value), Line: to.Line + 1}
		if typ != nil && typ.Kind == yaml.ScalarNode {
			r.Type = strings.TrimSpace(typ.Value)
		}
		if r.To != "" {
			if out == nil {
				out = make([]Relation, 0, len(seq.Content))
			}
			out = append(out, r)
		}
	}
	return out
}

// mapValue returns the value node of key in mapping m, or nil.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// StripLink returns the note name a relation or property value points at: "[[Name]]",
// "[[Name|text]]", "[[Name#h]]" and "![[Name]]" all give "Name"; a plain name is
// returned trimmed.
func StripLink(v string) string {
	v = strings.TrimSpace(v)
	w := strings.TrimPrefix(v, "!")
	if !strings.HasPrefix(w, "[[") || !strings.HasSuffix(w, "]]") || len(w) < 4 {
		return v
	}
	parts, ok := splitWiki(w)
	if !ok {
		return ""
	}
	return parts.target
}
