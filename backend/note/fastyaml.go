package note

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The fast path reads the block-style YAML front matter is written in — mappings
// nested by indentation, one-line plain and quoted scalars, literal and folded block
// scalars, one-line flow lists of scalars, block lists of scalars or of mappings —
// and builds the same yaml.Node tree YAML v3 would. Anything else (anchors, tags,
// flow mappings, scalars continued over several lines, …) makes it give up, and YAML
// v3 reads the block instead. FuzzFastYAML checks the two agree; the bench's vault
// shapes (bench/vaultgen) check that ordinary front matter stays on this path.

// fastParser holds the state of one fast front matter parse. Its nodes come from
// slabs that are reused from parse to parse (see release): no node outlives the parse,
// since the Note keeps only values copied out of them.
type fastParser struct {
	src   []byte
	block string // src[from:to] of the block being read, which every key and value shares
	from  int
	to    int
	lines [][2]int // start and end (without line break) of each YAML line
	i     int      // index of the next line to read
	slabs [][]yaml.Node
	cur   int // index of the slab being filled
	// The children of the mappings and sequences being read are gathered on stack,
	// each list above its parent's, and moved to lists (see carve) once complete.
	stack []*yaml.Node
	lists []*yaml.Node
	depth int // nesting of the collection being read
	// With alias set (see fastFrontMatterPooled), block scalars are joined in
	// scalars, which is reused from parse to parse: whoever keeps one of their values
	// copies it before release (parseFrontMatter). It never grows, so a value stays
	// where it was written; one that does not fit gets a string of its own.
	alias   bool
	scalars []byte
}

// scalarsCap is the size of a parser's buffer of block scalars: a few descriptions.
const scalarsCap = 2 << 10

// scribbleReleased makes release overwrite the buffer of block scalars, so that a
// test sees any value kept without a copy (set by the package's tests).
var scribbleReleased bool

// slabSize is the number of nodes per slab: most front matter fits in one.
const slabSize = 64

// maxFastDepth bounds how deeply the fast path nests collections.
const maxFastDepth = 16

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
	if scribbleReleased {
		for i := range p.scalars {
			p.scalars[i] = '~'
		}
	}
	p.scalars, p.alias = p.scalars[:0], false
	p.src, p.block, p.lines, p.i, p.cur, p.depth = nil, "", p.lines[:0], 0, 0, 0
	p.stack, p.lists = p.stack[:0], p.lists[:0]
	fastParsers.Put(p)
}

// fastFrontMatter parses the YAML in src[from:to], whose first line is file line 2. It
// returns nil when the block is outside the fast path's subset. The tree is valid until
// release is called on the returned parser (nil when the tree is nil).
func fastFrontMatter(src []byte, from, to int) *yaml.Node {
	root, p := fastFrontMatterPooled(src, from, to, false)
	if p != nil {
		// Callers that keep the tree must not release it: detach it from the pool.
		p.slabs = nil
	}
	return root
}

// fastFrontMatterPooled is fastFrontMatter with a pooled parser the caller releases.
// With alias set, the tree's strings share src's bytes rather than a copy of the
// block: they are valid only while src is, and whoever keeps one must copy it.
func fastFrontMatterPooled(src []byte, from, to int, alias bool) (*yaml.Node, *fastParser) {
	if !fastBytesOK(src[from:to]) {
		return nil, nil
	}
	p := fastParsers.Get().(*fastParser)
	// One copy of the block, of which every key and value is a substring: one
	// allocation rather than one a string.
	p.src, p.from, p.to, p.alias = src, from, to, alias
	if alias {
		p.block = aliasOf(src, from, to)
	} else {
		p.block = string(src[from:to])
	}
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
	root, ok := p.mapping(0)
	if !ok || p.skipEmpty() {
		return nil
	}
	return root
}

// mapping reads the "key: value" lines at exactly indent spaces, up to the first line
// indented less.
func (p *fastParser) mapping(indent int) (*yaml.Node, bool) {
	if p.depth++; p.depth > maxFastDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	m := p.alloc()
	m.Kind, m.Tag = yaml.MappingNode, "!!map"
	base := len(p.stack)
	for p.skipEmpty() {
		ind := p.indent()
		if ind < indent {
			break
		}
		if ind > indent {
			return nil, false // deeper or stray indentation
		}
		key, val, ok := p.pair(indent)
		if !ok || hasKey(p.stack[base:], key.Value) || key.Value == "<<" {
			return nil, false
		}
		if m.Line == 0 {
			m.Line, m.Column = key.Line, key.Column
		}
		p.stack = append(p.stack, key, val)
	}
	m.Content = p.carve(base)
	return m, m.Line != 0
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

// indent returns the number of spaces that start the current line.
func (p *fastParser) indent() int {
	l := p.line()
	return len(l) - len(bytes.TrimLeft(l, " "))
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
// value that is a scalar, a flow list, a block scalar, or (for an empty value) what
// the lines below hold: a block list, a nested mapping, or nothing.
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
		val, ok = p.blockValue(key, col)
		return key, val, ok
	}
	switch line[vcol] {
	case '[':
		val, ok = p.flowList(vcol)
	case '|', '>':
		val, ok = p.blockScalar(vcol, col)
		return key, val, ok
	default:
		val, ok = p.scalar(vcol, len(line))
	}
	p.i++
	return key, val, ok
}

// blockValue reads what the lines below key hold: a block list (at the key's
// indentation or deeper), a nested mapping (deeper), or nothing (a null value).
func (p *fastParser) blockValue(key *yaml.Node, keyCol int) (*yaml.Node, bool) {
	start := p.i
	indent := -1
	if p.skipEmpty() {
		indent = p.indent()
	}
	switch {
	case indent >= keyCol && isItem(p.line(), indent):
		return p.blockList(indent)
	case indent > keyCol:
		return p.mapping(indent)
	}
	p.i = start
	col := key.Column + utf8.RuneCountInString(key.Value) + 1
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: key.Line, Column: col}, true
}

// scalar reads a one-line scalar in line[col:end], followed at most by a comment.
func (p *fastParser) scalar(col, end int) (*yaml.Node, bool) {
	line := p.line()[:end]
	if col >= len(line) {
		return nil, false
	}
	s := line[col:]
	switch s[0] {
	case '"', '\'':
		n, size, ok := p.quoted(col, end)
		if !ok || !restIsComment(s[size:]) {
			return nil, false
		}
		return n, true
	}
	n := p.node(yaml.ScalarNode, col)
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

// quoted reads the one-line quoted scalar at line[col:end] and returns it with its
// size in bytes, quotes included. A single quote is escaped by doubling it; double quotes
// take the escapes \" \\ \n \t and \r, and nothing else.
func (p *fastParser) quoted(col, end int) (*yaml.Node, int, bool) {
	s := p.line()[col:end]
	q := s[0]
	escaped := false
	i := 1
	for ; i < len(s); i++ {
		c := s[i]
		if q == '"' && c == '\\' {
			if i+1 >= len(s) || strings.IndexByte(`"\ntr`, s[i+1]) < 0 {
				return nil, 0, false
			}
			escaped = true
			i++
			continue
		}
		if c == q {
			if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				escaped = true
				i++
				continue
			}
			break
		}
	}
	if i >= len(s) {
		return nil, 0, false // not closed on this line
	}
	n := p.node(yaml.ScalarNode, col)
	n.Tag, n.Style = "!!str", yaml.DoubleQuotedStyle
	if q == '\'' {
		n.Style = yaml.SingleQuotedStyle
	}
	if escaped {
		n.Value = unescape(s[1:i], q)
	} else {
		n.Value = p.text(col+1, i-1)
	}
	return n, i + 1, true
}

// unescape decodes the inside of a quoted scalar that quoted accepted.
func unescape(b []byte, q byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case q == '\'' && c == '\'':
			i++ // '' is one quote
		case q == '"' && c == '\\':
			i++
			switch b[i] {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'r':
				c = '\r'
			default:
				c = b[i]
			}
		}
		sb.WriteByte(c)
	}
	return sb.String()
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
	stop := &plainStop
	if isKey {
		stop = &plainKeyStop
	}
	for i, c := range s {
		switch stop[c] {
		case stopAlways:
			return false
		case stopBeforeSpace: // ": " starts a mapping value
			if i+1 < len(s) && s[i+1] == ' ' {
				return false
			}
		case stopBeforeHash: // " #" starts a comment
			if i+1 < len(s) && s[i+1] == '#' {
				return false
			}
		}
	}
	return true
}

// What a byte of a plain scalar means to plainOK: nothing, the end of the fast path,
// or the end when the next byte is a space (after ':') or a '#' (after ' ').
const (
	stopNever = iota
	stopAlways
	stopBeforeSpace
	stopBeforeHash
)

// plainStop is what each byte means to plainOK in a value, plainKeyStop in a key,
// where the flow and quote characters and '#' also end the fast path.
var plainStop, plainKeyStop = func() (v, k [256]byte) {
	for c := range 256 {
		if c < ' ' || c == 0x7f {
			v[c] = stopAlways
		}
	}
	v[':'], v[' '] = stopBeforeSpace, stopBeforeHash
	k = v
	for _, c := range []byte("#[]{},\"'") {
		k[c] = stopAlways
	}
	return v, k
}()

// plainTag resolves a plain scalar's tag the way YAML v3 does, for the strings it can
// tell at a glance; "" leaves the rest to resolvePlain.
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

// flowList reads a one-line "[a, 'b', "c"]" list of scalars starting at byte column
// col.
func (p *fastParser) flowList(col int) (*yaml.Node, bool) {
	line := p.line()
	seq := p.node(yaml.SequenceNode, col)
	seq.Tag, seq.Style = "!!seq", yaml.FlowStyle
	base := len(p.stack)
	at := col + 1
	for {
		for at < len(line) && line[at] == ' ' {
			at++
		}
		if at >= len(line) {
			return nil, false // continued on the next line
		}
		if line[at] == ']' {
			if len(p.stack) > base {
				return nil, false // a trailing comma
			}
			break
		}
		var n *yaml.Node
		switch line[at] {
		case '"', '\'':
			var size int
			var ok bool
			if n, size, ok = p.quoted(at, len(line)); !ok {
				return nil, false
			}
			at += size
		default:
			end := at
			for end < len(line) && line[end] != ',' && line[end] != ']' {
				end++
			}
			item := bytes.TrimRight(line[at:end], " ")
			if len(item) == 0 || bytes.ContainsAny(item, "[{}:?&*!|>%@`#") {
				return nil, false
			}
			var ok bool
			if n, ok = p.scalar(at, at+len(item)); !ok {
				return nil, false
			}
			at += len(item)
		}
		p.stack = append(p.stack, n)
		for at < len(line) && line[at] == ' ' {
			at++
		}
		if at < len(line) && line[at] == ',' {
			at++
			continue
		}
		if at >= len(line) || line[at] != ']' {
			return nil, false
		}
		break
	}
	if !restIsComment(line[at+1:]) {
		return nil, false
	}
	seq.Content = p.carve(base)
	return seq, true
}

// blockScalar reads a literal ("|", "|-") or folded (">", ">-") block scalar whose
// indicator is at byte column col of the current line, with its content on the lines
// below, all indented alike and deeper than keyCol, without blank lines.
func (p *fastParser) blockScalar(col, keyCol int) (*yaml.Node, bool) {
	line := p.line()
	head := line[col:]
	strip := len(head) == 2 && head[1] == '-'
	if len(head) != 1 && !strip {
		return nil, false // chomping "+", indentation digits, a comment: left to YAML v3
	}
	n := p.node(yaml.ScalarNode, col)
	n.Tag, n.Style = "!!str", yaml.LiteralStyle
	sep := "\n"
	if head[0] == '>' {
		n.Style, sep = yaml.FoldedStyle, " "
	}
	p.i++
	if p.i >= len(p.lines) {
		return nil, false
	}
	ind := p.indent()
	if ind <= keyCol {
		return nil, false
	}
	first := p.i
lines:
	for ; p.i < len(p.lines); p.i++ {
		switch in := p.indent(); {
		case in == len(p.line()):
			return nil, false // blank lines: left to YAML v3
		case in > ind:
			return nil, false // more indented lines keep their breaks when folded
		case in < ind:
			break lines
		}
	}
	last := p.lines[p.i-1]
	clip := !strip && last[1] < p.to // the last line's break is kept
	size := (p.i - first - 1) * len(sep)
	for k := first; k < p.i; k++ {
		size += p.lines[k][1] - (p.lines[k][0] + ind)
	}
	if clip {
		size++
	}
	if p.alias && len(p.scalars)+size <= scalarsCap {
		if p.scalars == nil {
			p.scalars = make([]byte, 0, scalarsCap)
		}
		start := len(p.scalars)
		p.scalars = p.appendScalar(p.scalars, first, ind, sep, clip)
		n.Value = aliasOf(p.scalars, start, len(p.scalars))
		return n, true
	}
	b := p.appendScalar(make([]byte, 0, size), first, ind, sep, clip)
	n.Value = aliasOf(b, 0, len(b)) // b is not changed after
	return n, true
}

// appendScalar appends to b the value of the block scalar whose lines run from
// first to p.i, indented by ind: its lines joined by sep, with a final line break
// when clip is set.
func (p *fastParser) appendScalar(b []byte, first, ind int, sep string, clip bool) []byte {
	for k := first; k < p.i; k++ {
		if k > first {
			b = append(b, sep...)
		}
		l := p.lines[k]
		b = append(b, p.block[l[0]+ind-p.from:l[1]-p.from]...)
	}
	if clip {
		b = append(b, '\n')
	}
	return b
}

// blockList reads a block list whose items start at indent spaces: scalars, or
// mappings.
func (p *fastParser) blockList(indent int) (*yaml.Node, bool) {
	if p.depth++; p.depth > maxFastDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
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
	return seq, true
}

// isItem reports whether line holds "- " at exactly indent spaces.
func isItem(line []byte, indent int) bool {
	return len(line) > indent+1 && line[indent] == '-' && line[indent+1] == ' ' &&
		len(bytes.TrimLeft(line[:indent], " ")) == 0
}

// listItem reads one "- value" or "- key: value" item whose content starts at col;
// the pairs of a mapping item continue on the lines below at the same column.
func (p *fastParser) listItem(col int) (*yaml.Node, bool) {
	line := p.line()
	rest := line[col:]
	if len(rest) == 0 || rest[0] == ' ' {
		return nil, false
	}
	colon := bytes.Index(rest, []byte(": "))
	if colon < 0 && bytes.HasSuffix(rest, []byte(":")) {
		colon = len(rest) - 1
	}
	if colon < 0 || rest[0] == '"' || rest[0] == '\'' || rest[0] == '[' {
		if rest[0] == '[' || rest[0] == '|' || rest[0] == '>' {
			return nil, false
		}
		n, ok := p.scalar(col, len(line))
		p.i++
		return n, ok
	}
	if p.depth++; p.depth > maxFastDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	m := p.node(yaml.MappingNode, col)
	m.Tag = "!!map"
	base := len(p.stack)
	for first := true; ; first = false {
		if !first {
			if !p.skipEmpty() || p.indent() != col || isItem(p.line(), col) {
				break
			}
		}
		k, v, ok := p.pair(col)
		if !ok || hasKey(p.stack[base:], k.Value) || k.Value == "<<" {
			return nil, false
		}
		p.stack = append(p.stack, k, v)
	}
	m.Content = p.carve(base)
	return m, true
}
