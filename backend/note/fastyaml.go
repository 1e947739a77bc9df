package note

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The fast path reads the plain shape most front matter has — top-level "key: value"
// lines, one-line quoted or plain scalars, one-line flow lists of scalars, and block
// lists of scalars or of one-level maps of scalars (relations) — and builds the same
// yaml.Node tree YAML v3 would. Anything else, however harmless, makes it give up, and
// YAML v3 reads the block instead. FuzzFastYAML checks the two agree.

// fastParser holds the state of one fast front matter parse. Its nodes come from
// slabs that are reused from parse to parse (see release): no node outlives the parse,
// since the Note keeps only values copied out of them.
type fastParser struct {
	src   []byte
	block string // src[from:to] of the block being read, which every key and value shares
	from  int
	lines [][2]int // start and end (without line break) of each YAML line
	i     int      // index of the next line to read
	slabs [][]yaml.Node
	cur   int // index of the slab being filled
	// The children of the mappings and sequences being read are gathered on stack,
	// each list above its parent's, and moved to lists (see carve) once complete.
	stack []*yaml.Node
	lists []*yaml.Node
}

// slabSize is the number of nodes per slab: most front matter fits in one.
const slabSize = 64

var fastParsers = sync.Pool{New: func() any { return new(fastParser) }}

// release clears the parser's nodes (so they hold no strings) and returns it to the
// pool. The tree it built must not be used afterwards.
func (p *fastParser) release() {
	for i := range p.slabs[:min(p.cur+1, len(p.slabs))] {
		clear(p.slabs[i])
		p.slabs[i] = p.slabs[i][:0]
	}
	clear(p.stack)
	clear(p.lists)
	p.src, p.block, p.lines, p.i, p.cur = nil, "", p.lines[:0], 0, 0
	p.stack, p.lists = p.stack[:0], p.lists[:0]
	fastParsers.Put(p)
}

// fastFrontMatter parses the YAML in src[from:to], whose first line is file line 2. It
// returns nil when the block is outside the fast path's subset. The tree is valid until
// release is called on the returned parser (nil when the tree is nil).
func fastFrontMatter(src []byte, from, to int) *yaml.Node {
	root, p := fastFrontMatterPooled(src, from, to)
	if p != nil {
		// Callers that keep the tree must not release it: detach it from the pool.
		p.slabs = nil
	}
	return root
}

// fastFrontMatterPooled is fastFrontMatter with a pooled parser the caller releases.
func fastFrontMatterPooled(src []byte, from, to int) (*yaml.Node, *fastParser) {
	if !fastBytesOK(src[from:to]) {
		return nil, nil
	}
	p := fastParsers.Get().(*fastParser)
	// One copy of the block, of which every key and value is a substring: one
	// allocation rather than one a string.
	p.src, p.block, p.from = src, string(src[from:to]), from
	root := p.parse(from, to)
	if root == nil {
		p.release()
		return nil, nil
	}
	return root, p
}

func (p *fastParser) parse(from, to int) *yaml.Node {
	src := p.src
	for pos := from; pos < to; {
		end, next := lineBounds(src, pos)
		end = min(end, to)
		p.lines = append(p.lines, [2]int{pos, end})
		pos = next
	}
	root := p.alloc()
	root.Kind, root.Tag = yaml.MappingNode, "!!map"
	base := len(p.stack)
	for p.skipEmpty() {
		line := p.line()
		if len(line) == 0 || line[0] == ' ' {
			return nil
		}
		key, val, ok := p.pair(0)
		if !ok || hasKey(p.stack[base:], key.Value) || key.Value == "<<" {
			return nil
		}
		if root.Line == 0 {
			root.Line, root.Column = key.Line, key.Column
		}
		p.stack = append(p.stack, key, val)
	}
	root.Content = p.carve(base)
	if root.Line == 0 {
		return nil
	}
	return root
}

// skipEmpty skips blank and comment lines and reports whether a line is left.
func (p *fastParser) skipEmpty() bool {
	for ; p.i < len(p.lines); p.i++ {
		t := bytes.TrimLeft(p.line(), " ")
		if len(t) > 0 && t[0] != '#' {
			return true
		}
	}
	return false
}

// line returns the current line.
func (p *fastParser) line() []byte {
	l := p.lines[p.i]
	return p.src[l[0]:l[1]]
}

// text returns the n bytes at byte column col of the current line as a string
// sharing the block's copy.
func (p *fastParser) text(col, n int) string {
	at := p.lines[p.i][0] + col - p.from
	return p.block[at : at+n]
}

// carve moves the list gathered on the stack from base up into lists and returns it
// (nil when empty). A list outgrowing lists' room goes to a new block; the lists
// already carved keep the old one, so every list stays valid until release.
func (p *fastParser) carve(base int) []*yaml.Node {
	items := p.stack[base:]
	if len(items) == 0 {
		return nil
	}
	if cap(p.lists)-len(p.lists) < len(items) {
		p.lists = make([]*yaml.Node, 0, max(2*cap(p.lists), len(items), 64))
	}
	at := len(p.lists)
	p.lists = append(p.lists, items...)
	clear(items)
	p.stack = p.stack[:base]
	return p.lists[at:len(p.lists):len(p.lists)]
}

// hasKey reports whether the key/value pairs in list hold key.
func hasKey(list []*yaml.Node, key string) bool {
	for i := 0; i+1 < len(list); i += 2 {
		if list[i].Value == key {
			return true
		}
	}
	return false
}

// alloc returns a zeroed node from the parser's slabs.
func (p *fastParser) alloc() *yaml.Node {
	if len(p.slabs) == 0 {
		p.slabs = append(p.slabs, make([]yaml.Node, 0, slabSize))
	}
	if len(p.slabs[p.cur]) == cap(p.slabs[p.cur]) {
		p.cur++
		if p.cur == len(p.slabs) {
			p.slabs = append(p.slabs, make([]yaml.Node, 0, slabSize))
		}
	}
	s := &p.slabs[p.cur]
	*s = append(*s, yaml.Node{})
	return &(*s)[len(*s)-1]
}

// node makes a node of kind k at byte column col of the current line.
func (p *fastParser) node(k yaml.Kind, col int) *yaml.Node {
	n := p.alloc()
	n.Kind, n.Line, n.Column = k, p.i+1, utf8.RuneCount(p.line()[:col])+1
	return n
}

// maxFastKey is the longest key, in bytes, the fast path reads (YAML's implicit keys
// end at 1024 characters).
const maxFastKey = 1000

// pair reads "key: value" starting at byte column col of the current line, with a
// value that is a scalar, a flow list, or (for an empty value) a block list below.
func (p *fastParser) pair(col int) (key, val *yaml.Node, ok bool) {
	line := p.line()
	rest := line[col:]
	c := bytes.Index(rest, []byte(": "))
	if c < 0 && bytes.HasSuffix(rest, []byte(":")) {
		c = len(rest) - 1
	}
	// YAML v3 refuses an implicit key longer than 1024 characters; leave those to it.
	if c <= 0 || c > maxFastKey || !plainOK(rest[:c], true) {
		return nil, nil, false
	}
	key = p.node(yaml.ScalarNode, col)
	key.Value = p.text(col, c)
	key.Tag = plainTag(key.Value)
	vcol := col + c + 1
	for vcol < len(line) && line[vcol] == ' ' {
		vcol++
	}
	if vcol == len(line) || line[vcol] == '#' {
		p.i++
		val, ok = p.blockList(key, col)
		return key, val, ok
	}
	if line[vcol] == '[' {
		val, ok = p.flowList(vcol)
	} else {
		val, ok = p.scalar(vcol, len(line))
	}
	p.i++
	return key, val, ok
}

// scalar reads a one-line scalar in line[col:end], followed at most by a comment.
func (p *fastParser) scalar(col, end int) (*yaml.Node, bool) {
	line := p.line()[:end]
	if col >= len(line) {
		return nil, false
	}
	n := p.node(yaml.ScalarNode, col)
	s := line[col:]
	switch s[0] {
	case '"', '\'':
		q := bytes.IndexByte(s[1:], s[0])
		if q < 0 || bytes.IndexByte(s[1:q+1], '\\') >= 0 || !restIsComment(s[q+2:]) {
			return nil, false
		}
		n.Value, n.Tag = p.text(col+1, q), "!!str"
		n.Style = yaml.DoubleQuotedStyle
		if s[0] == '\'' {
			n.Style = yaml.SingleQuotedStyle
		}
		return n, true
	}
	if h := bytes.Index(s, []byte(" #")); h >= 0 {
		s = s[:h]
	}
	s = bytes.TrimRight(s, " ")
	if !plainOK(s, false) {
		return nil, false
	}
	n.Value = p.text(col, len(s))
	n.Tag = plainTag(n.Value)
	return n, true
}

// restIsComment reports whether b is blank or blank followed by a comment.
func restIsComment(b []byte) bool {
	t := bytes.TrimLeft(b, " ")
	return len(t) == 0 || (t[0] == '#' && len(t) < len(b))
}

// plainOK reports whether s can be read as a one-line plain scalar exactly as written.
func plainOK(s []byte, isKey bool) bool {
	if len(s) == 0 {
		return false
	}
	dash := !isKey && s[0] == '-' && len(s) > 1 && s[1] != ' ' // "-3" is a plain scalar
	if !dash && strings.IndexByte("-?:,[]{}#&*!|>'\"%@` ", s[0]) >= 0 {
		return false
	}
	if last := s[len(s)-1]; last == ' ' || last == ':' {
		return false
	}
	if bytes.Contains(s, []byte(": ")) || bytes.Contains(s, []byte(" #")) {
		return false
	}
	if isKey && bytes.ContainsAny(s, "#[]{},\"'") {
		return false
	}
	for _, c := range s {
		if c < ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// plainTag resolves a plain scalar's tag the way YAML v3 does, for the strings it can
// tell at a glance; "" leaves the rest to YAML v3.
func plainTag(v string) string {
	switch v[0] {
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '+', '-', '.', '~':
		return ""
	}
	switch v {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return ""
	}
	return "!!str"
}

// flowList reads a one-line "[a, b]" list of scalars starting at byte column col.
func (p *fastParser) flowList(col int) (*yaml.Node, bool) {
	line := p.line()
	end := bytes.IndexByte(line[col:], ']')
	if end < 0 || !restIsComment(line[col+end+1:]) {
		return nil, false
	}
	end += col
	seq := p.node(yaml.SequenceNode, col)
	seq.Tag, seq.Style = "!!seq", yaml.FlowStyle
	inner := line[col+1 : end]
	if len(bytes.TrimSpace(inner)) == 0 {
		return seq, true
	}
	if bytes.ContainsAny(inner, "[{}:?&*!|>%@`") || bytes.Contains(inner, []byte(" #")) || inner[0] == '#' {
		return nil, false
	}
	at := col + 1
	base := len(p.stack)
	for rest, more := inner, true; more; {
		var item []byte
		item, rest, more = bytes.Cut(rest, []byte(","))
		lead := len(item) - len(bytes.TrimLeft(item, " "))
		t := bytes.TrimSpace(item)
		quoted := len(t) > 0 && (t[0] == '"' || t[0] == '\'')
		if len(t) == 0 || quoted && (len(t) < 2 || bytes.IndexByte(t[1:len(t)-1], t[0]) >= 0) {
			return nil, false
		}
		n, ok := p.scalar(at+lead, at+lead+len(t))
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, n)
		at += len(item) + 1
	}
	seq.Content = p.carve(base)
	return seq, true
}

// blockList reads the lines below key: a block list of scalars or one-level maps, or
// nothing (a null value).
func (p *fastParser) blockList(key *yaml.Node, keyCol int) (*yaml.Node, bool) {
	start := p.i
	indent := -1
	if p.skipEmpty() {
		indent = len(p.line()) - len(bytes.TrimLeft(p.line(), " "))
	}
	if indent < keyCol || !isItem(p.line(), indent) {
		p.i = start
		col := key.Column + utf8.RuneCountInString(key.Value) + 1
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: key.Line, Column: col}, true
	}
	seq := p.node(yaml.SequenceNode, indent)
	seq.Tag = "!!seq"
	base := len(p.stack)
	for p.skipEmpty() && isItem(p.line(), indent) {
		item, ok := p.listItem(indent + 2)
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, item)
	}
	seq.Content = p.carve(base)
	if p.i < len(p.lines) && len(p.line()) > 0 && p.line()[0] == ' ' {
		return nil, false // deeper or stray indentation
	}
	return seq, true
}

// isItem reports whether line holds "- " at exactly indent spaces.
func isItem(line []byte, indent int) bool {
	return len(line) > indent+1 && line[indent] == '-' && line[indent+1] == ' ' &&
		len(bytes.TrimLeft(line[:indent], " ")) == 0
}

// listItem reads one "- value" or "- key: value" item whose content starts at col.
func (p *fastParser) listItem(col int) (*yaml.Node, bool) {
	line := p.line()
	rest := line[col:]
	if len(rest) == 0 || rest[0] == ' ' {
		return nil, false
	}
	colon := bytes.Index(rest, []byte(": "))
	if colon < 0 || rest[0] == '"' || rest[0] == '\'' || rest[0] == '[' {
		if rest[0] == '[' {
			return nil, false
		}
		n, ok := p.scalar(col, len(line))
		p.i++
		return n, ok
	}
	m := p.node(yaml.MappingNode, col)
	m.Tag = "!!map"
	base := len(p.stack)
	for {
		k, v, ok := p.pair(col)
		if !ok || v.Kind != yaml.ScalarNode || hasKey(p.stack[base:], k.Value) || k.Value == "<<" {
			return nil, false
		}
		p.stack = append(p.stack, k, v)
		if !p.skipEmpty() {
			break
		}
		l := p.line()
		if len(l) <= col || len(bytes.TrimLeft(l[:col], " ")) != 0 || l[col] == ' ' {
			break
		}
	}
	m.Content = p.carve(base)
	return m, true
}

// fastBytesOK reports whether b is valid UTF-8 holding only characters YAML v3 reads as
// printable, no tab, and no line break other than "\n" and "\r\n".
func fastBytesOK(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for i, c := range b {
		switch {
		case c == '\n' || c >= ' ' && c < 0x7f:
		case c == '\r':
			if i+1 >= len(b) || b[i+1] != '\n' {
				return false
			}
		case c == 0xC2:
			if i+1 < len(b) && b[i+1] < 0xA0 {
				return false // C1 controls and NEL
			}
		case c == 0xE2:
			if i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
				return false // line and paragraph separators
			}
		case c == 0xEF:
			if i+2 < len(b) && (b[i+1] == 0xBB && b[i+2] == 0xBF || b[i+1] == 0xBF && b[i+2] >= 0xBE) {
				return false // BOM, U+FFFE, U+FFFF
			}
		case c < 0x80:
			return false
		}
	}
	return true
}

// fastProps converts a fast-path tree to property values; it reports false when a key
// is not a plain string, so YAML v3 must decode the block.
func fastProps(m *yaml.Node) (map[string]any, bool) {
	props := make(map[string]any, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Tag != "!!str" {
			return nil, false
		}
		v, ok := fastValue(m.Content[i+1])
		if !ok {
			return nil, false
		}
		props[m.Content[i].Value] = v
	}
	return props, true
}

// fieldKeys are the properties Note's own fields are read from.
var fieldKeys = [...]string{"entity type", "type", "summary", "aliases", "alias", "tags", "tag"}

// fieldValues holds the values of fieldKeys, in their order; nil where absent.
type fieldValues [len(fieldKeys)]any

// get returns the value of key, one of fieldKeys.
func (f *fieldValues) get(key string) any { return f[slices.Index(fieldKeys[:], key)] }

// from takes the values of fieldKeys from decoded properties.
func (f *fieldValues) from(props map[string]any) {
	for i, k := range fieldKeys {
		f[i] = props[k]
	}
}

// fastFields is fastProps for ParseLean: it accepts exactly the trees fastProps
// accepts, but converts only the values of fieldKeys, into f, and builds no map.
func fastFields(m *yaml.Node, f *fieldValues) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Tag != "!!str" {
			return false
		}
		j := slices.Index(fieldKeys[:], k.Value)
		if j < 0 {
			if !fastValid(m.Content[i+1]) {
				return false
			}
			continue
		}
		v, ok := fastValue(m.Content[i+1])
		if !ok {
			return false
		}
		f[j] = v
	}
	return true
}

// fastValid reports whether fastValue would convert n, building as little as it can.
func fastValid(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Tag != "!!str" || !fastValid(n.Content[i+1]) {
				return false
			}
		}
		return true
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if !fastValid(c) {
				return false
			}
		}
		return true
	}
	switch n.Tag {
	case "!!str", "!!null":
		return true
	}
	if _, ok := quickResolve(n.Value); ok {
		return true
	}
	var v any
	return n.Decode(&v) == nil
}

// fastValue converts one fast-path node.
func fastValue(n *yaml.Node) (any, bool) {
	switch n.Kind {
	case yaml.MappingNode:
		return fastProps(n)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, ok := fastValue(c)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	}
	switch n.Tag {
	case "!!str":
		return n.Value, true
	case "!!null":
		return nil, true
	}
	if v, ok := quickResolve(n.Value); ok {
		return v, true
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// timestampFormats are the layouts YAML v3 accepts for an untagged timestamp.
var timestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// quickResolve decodes the two plain scalars front matter holds most, decimal integers
// and timestamps, exactly as YAML v3 does; it reports false for everything else.
func quickResolve(v string) (any, bool) {
	digits := 0
	for digits < len(v) && v[digits] >= '0' && v[digits] <= '9' {
		digits++
	}
	if digits == len(v) && digits > 0 && digits <= 18 && (v[0] != '0' || digits == 1) {
		n, err := strconv.Atoi(v)
		return n, err == nil
	}
	if digits == 4 && len(v) > 4 && v[4] == '-' {
		if t, err := time.Parse(time.RFC3339, v); err == nil && strings.IndexByte(v, 't') < 0 {
			return t, true // Go's fast path; the same instant YAML v3's layout gives
		}
		for _, f := range timestampFormats {
			if t, err := time.Parse(f, v); err == nil {
				return t, true
			}
		}
	}
	return nil, false
}
