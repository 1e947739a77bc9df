package note

import (
	"bytes"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// frontMatterLinks records the wikilinks inside front matter string values. A link's
// span is found by looking for its literal text between the start of its scalar and
// the start of the next node, which is exact for plain, quoted and block scalars
// unless escapes or line folding changed the link's own characters; such a link is
// still reported, with Start = End = -1 and the scalar's line. The links' names are
// kept in k.
func frontMatterLinks(n *Note, src []byte, fm fmBounds, root *yaml.Node, k *keeper) {
	if !bytes.Contains(src[fm.yamlStart:fm.yamlEnd], []byte("[[")) {
		return
	}
	sc := fmScratchPool.Get().(*fmScratch)
	defer sc.release()
	sc.starts = appendLineStarts(sc.starts, src, fm.yamlStart, fm.yamlEnd)
	starts := sc.starts
	collectNodes(root, &sc.nodes, &sc.keys)
	nodes, keys := sc.nodes, sc.keys
	for i, nd := range nodes {
		if nd.Kind != yaml.ScalarNode || !strings.Contains(nd.Value, "[[") || isKeyNode(keys, nd) {
			continue
		}
		off := nodeOffset(src, fm, starts, nd)
		bound := fm.yamlEnd
		if i+1 < len(nodes) {
			bound = max(nodeOffset(src, fm, starts, nodes[i+1]), off)
		}
		cursor := off
		sc.lits = appendWikiLiterals(sc.lits[:0], nd.Value)
		for _, lit := range sc.lits {
			w, ok := splitWiki(lit)
			if !ok {
				continue
			}
			l := w.link(k)
			l.Kind, l.InFrontMatter = WikiLink, true
			if lit[0] == '!' {
				l.Kind = Embed
			}
			l.Start, l.End, l.Line = -1, -1, int32(nd.Line+1)
			if k := bytes.Index(src[cursor:bound], []byte(lit)); k >= 0 {
				start := cursor + k
				l.Start, l.End = int32(start), int32(start+len(lit))
				l.Line = int32(sort.SearchInts(starts, start+1) + 1)
				cursor = start + len(lit)
			}
			n.Links = append(n.Links, l)
		}
	}
}

// fmScratch holds the temporary lists of one frontMatterLinks call, reused from call
// to call.
type fmScratch struct {
	nodes, keys []*yaml.Node
	starts      []int
	lits        []string
}

var fmScratchPool = sync.Pool{New: func() any { return new(fmScratch) }}

func (sc *fmScratch) release() {
	clear(sc.nodes)
	clear(sc.keys)
	clear(sc.lits)
	sc.nodes, sc.keys, sc.starts, sc.lits = sc.nodes[:0], sc.keys[:0], sc.starts[:0], sc.lits[:0]
	fmScratchPool.Put(sc)
}

// lineStarts returns the offsets where the lines of src[from:to] start; entry i is
// file line i+2 (the YAML begins on line 2).
func lineStarts(src []byte, from, to int) []int { return appendLineStarts(nil, src, from, to) }

// appendLineStarts is lineStarts appending to starts[:0].
func appendLineStarts(starts []int, src []byte, from, to int) []int {
	starts = append(starts[:0], from)
	for p := from; p < to; {
		i := bytes.IndexByte(src[p:to], '\n')
		if i < 0 {
			break
		}
		p += i + 1
		starts = append(starts, p)
	}
	return starts
}

// collectNodes lists the nodes under nd in document order, and the mapping keys
// among them.
func collectNodes(nd *yaml.Node, out, keys *[]*yaml.Node) {
	if nd.Line > 0 {
		*out = append(*out, nd)
	}
	for i, c := range nd.Content {
		if nd.Kind == yaml.MappingNode && i%2 == 0 {
			*keys = append(*keys, c)
		}
		collectNodes(c, out, keys)
	}
}

// isKeyNode reports whether nd is one of keys.
func isKeyNode(keys []*yaml.Node, nd *yaml.Node) bool {
	for _, k := range keys {
		if k == nd {
			return true
		}
	}
	return false
}

// nodeOffset converts a node's line and column (counted in characters) to an offset.
func nodeOffset(src []byte, fm fmBounds, starts []int, nd *yaml.Node) int {
	if nd.Line-1 >= len(starts) {
		return fm.yamlEnd
	}
	p := starts[nd.Line-1]
	for col := 1; col < nd.Column && p < fm.yamlEnd && src[p] != '\n'; col++ {
		_, size := utf8.DecodeRune(src[p:fm.yamlEnd])
		p += size
	}
	return p
}

// appendWikiLiterals appends the "[[...]]" and "![[...]]" literals in s to out, in
// order.
func appendWikiLiterals(out []string, s string) []string {
	for {
		i := strings.Index(s, "[[")
		if i < 0 {
			return out
		}
		j := strings.Index(s[i+2:], "]]")
		if j < 0 {
			return out
		}
		inner := s[i+2 : i+2+j]
		if k := strings.LastIndex(inner, "[["); k >= 0 {
			s = s[i+2+k:]
			continue
		}
		start := i
		if i > 0 && s[i-1] == '!' {
			start--
		}
		if j > 0 && !strings.ContainsAny(inner, "\n\r") {
			out = append(out, s[start:i+2+j+2])
		}
		s = s[i+2+j+2:]
	}
}
