package canvas

import (
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// mostLinkedShown is how many of the most linked notes the view names.
const mostLinkedShown = 10

// summaryLen bounds a summary taken from a note's first paragraph, in bytes.
const summaryLen = 240

// NodeCost is one node as the view shows it, with what it costs.
type NodeCost struct {
	ID    string `json:"id"`
	Kind  Kind   `json:"kind"`
	Level Level  `json:"level"`
	Depth int    `json:"depth"`
	// Held is true when the view holds the node explicitly (expanded, pinned or
	// shown because it was asked for); other nodes are shown as context.
	Held   bool `json:"held"`
	Pinned bool `json:"pinned,omitempty"`
	// Open is true for a folder or page that lists its children.
	Open   bool `json:"open,omitempty"`
	Tokens int  `json:"tokens"`
	// Text is what the view shows of the node.
	Text string `json:"-"`
}

// renderer writes the text of a view.
type renderer struct {
	s     *snapshot
	v     vault.State
	vw    *view
	focus map[string]bool // nodes with held descendants
	nodes []NodeCost
}

// render returns the nodes of the view in order, with their text.
func render(s *snapshot, v vault.State, vw *view) []NodeCost {
	r := &renderer{s: s, v: v, vw: vw, focus: map[string]bool{}}
	for id := range vw.Nodes {
		n, ok := s.resolve(id)
		if !ok {
			continue
		}
		for p, ok := s.parentOf(n); ok; p, ok = s.parentOf(p) {
			if r.focus[p.id] {
				break
			}
			r.focus[p.id] = true
		}
	}
	root, _ := s.resolve(RootID)
	r.node(root, 0, Title, false)
	return r.nodes
}

// header is the first lines of the view's text.
func header(s *snapshot, lib, name string, ml []linked) string {
	folders := len(s.total) - 1
	var b strings.Builder
	fmt.Fprintf(&b, "Canvas %q of library %q: %d notes in %d folders.\n", name, lib, s.total[""], folders)
	b.WriteString("Levels: title < summary < full. '+' marks a closed folder or page (expand_node opens it), '-' an open one; collapse_node hides.\n")
	var parts []string
	for _, l := range ml {
		if s.g.Has(l.path) {
			parts = append(parts, fmt.Sprintf("%s (%d)", l.path.Name(), l.in))
		}
	}
	if len(parts) > 0 {
		b.WriteString("Most linked: " + strings.Join(parts, ", ") + "\n")
	}
	return b.String()
}

// levelOf returns a node's level in the view: its held level, else inherited.
func (r *renderer) levelOf(n node, inherited Level) (Level, bool) {
	if l, ok := r.vw.level(n.id); ok {
		return l, true
	}
	return inherited, false
}

// node renders n and what it shows below it. inherited is the level an open parent
// at full gives its notes; shut says n is below a closed container, which shows
// only the folders always listed, closed, whatever the view holds below it.
func (r *renderer) node(n node, depth int, inherited Level, shut bool) {
	lv, held := r.levelOf(n, inherited)
	st := r.vw.Nodes[n.id]
	if shut {
		lv, held, st = Title, false, nil
	}
	closed := st != nil && st.Closed
	c := NodeCost{ID: n.id, Kind: n.kind, Level: lv, Depth: depth, Held: held, Pinned: st != nil && st.Pinned}
	indent := strings.Repeat("  ", depth)
	switch n.kind {
	case KindFolder, KindPage:
		c.Open = !closed && lv.rank() >= Summary.rank()
		c.Text = indent + r.containerLine(n, c)
		r.nodes = append(r.nodes, c)
		childLevel := Title
		if lv == Full {
			childLevel = Summary
		}
		hide := shut || closed
		for _, ch := range r.s.children(n) {
			outline := ch.kind == KindFolder && r.s.inOutline(ch.folder)
			show := outline || !hide && (c.Open || r.focus[ch.id] || r.vw.Nodes[ch.id] != nil)
			if show {
				r.node(ch, depth+1, childLevel, hide)
			}
		}
	case KindNote:
		c.Text = r.noteText(n.path, lv, c.Pinned, indent)
		r.nodes = append(r.nodes, c)
		if lv != Full {
			for _, id := range r.vw.ids() {
				if h, ok := strings.CutPrefix(id, n.id+"#"); ok && !shut {
					r.node(node{kind: KindHeading, id: id, path: n.path, heading: h}, depth+1, Title, false)
				}
			}
		}
	case KindHeading:
		c.Text = r.headingText(n, lv, indent)
		r.nodes = append(r.nodes, c)
	}
}

// containerLine is the line of a folder or page. A closed one ('+') is at title: its
// level is not written, which keeps the outline of a large vault short.
func (r *renderer) containerLine(n node, c NodeCost) string {
	mark := "+"
	if c.Open {
		mark = "-"
	}
	tag := " [" + string(c.Level)
	if c.Pinned {
		tag += " pinned"
	}
	tag += "]"
	if !c.Open && !c.Pinned {
		tag = ""
	}
	if n.kind == KindPage {
		ns := r.s.notes[n.folder][n.page.lo:n.page.hi]
		return fmt.Sprintf("%s %s%s %d notes: %s … %s\n", mark, n.id, tag, len(ns), strings.TrimSuffix(ns[0].Base(), ".md"), strings.TrimSuffix(ns[len(ns)-1].Base(), ".md"))
	}
	subs, notes := len(r.s.subs[n.folder]), len(r.s.notes[n.folder])
	line := fmt.Sprintf("%s %s%s %s", mark, n.id, tag, counts(subs, notes))
	if below := r.s.total[n.folder]; below != notes {
		line += fmt.Sprintf(" (%d below)", below)
	}
	return line + "\n"
}

func counts(folders, notes int) string {
	var parts []string
	if folders > 0 {
		parts = append(parts, plural(folders, "folder"))
	}
	parts = append(parts, plural(notes, "note"))
	return strings.Join(parts, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// noteText is what the view shows of a note at level lv.
func (r *renderer) noteText(p vpath.Path, lv Level, pinned bool, indent string) string {
	nt, _ := r.s.g.Note(p)
	var b strings.Builder
	pin := ""
	if pinned {
		pin = " pinned"
	}
	fmt.Fprintf(&b, "%s· %s [%s%s]", indent, p.Name(), lv, pin)
	var facts []string
	if nt != nil && nt.EntityType != "" {
		facts = append(facts, nt.EntityType)
	}
	out := 0
	if nt != nil {
		out = len(nt.Links) + len(nt.Relations)
	}
	if out > 0 {
		facts = append(facts, plural(out, "link"))
	}
	if in := r.s.backlinks(p); in > 0 {
		facts = append(facts, plural(in, "backlink"))
	}
	if nt != nil && len(nt.Headings) > 0 {
		facts = append(facts, plural(len(nt.Headings), "section"))
	}
	if len(facts) > 0 {
		b.WriteString(" " + strings.Join(facts, ", "))
	}
	b.WriteString("\n")
	switch lv {
	case Summary:
		if s := r.summary(p, nt); s != "" {
			fmt.Fprintf(&b, "%s  summary: %s\n", indent, s)
		}
		if nt != nil && len(nt.Headings) >= 3 {
			hs := make([]string, 0, len(nt.Headings))
			for _, h := range nt.Headings {
				if h.Level <= 3 && len(hs) < 20 {
					hs = append(hs, h.Text)
				}
			}
			fmt.Fprintf(&b, "%s  sections (expand \"%s#Heading\"): %s\n", indent, p.Name(), strings.Join(hs, " · "))
		}
	case Full:
		data, _, err := r.v.Read(p)
		if err != nil {
			fmt.Fprintf(&b, "%s  (cannot be read: %v)\n", indent, err)
			break
		}
		fmt.Fprintf(&b, "<note name=%q>\n%s\n</note>\n", p.Name(), strings.TrimRight(string(data), "\n"))
	}
	return b.String()
}

// summary returns the note's front matter summary, else its first paragraph, trimmed.
func (r *renderer) summary(p vpath.Path, nt *note.Note) string {
	if nt != nil && strings.TrimSpace(nt.Summary) != "" {
		return clip(oneLine(nt.Summary), summaryLen)
	}
	data, _, err := r.v.Read(p)
	if err != nil {
		return ""
	}
	return FirstParagraph(data)
}

// FirstParagraph returns the first paragraph of a note's body that is not a heading,
// on one line, trimmed to a short length.
func FirstParagraph(data []byte) string {
	nt := note.Parse(data)
	body := string(data[min(nt.BodyStart, len(data)):])
	var para []string
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "" && len(para) > 0:
			return clip(strings.Join(para, " "), summaryLen)
		case t == "", strings.HasPrefix(t, "#"), strings.HasPrefix(t, "```"), strings.HasPrefix(t, "---"):
			continue
		}
		para = append(para, t)
		if len(para) > 20 {
			break
		}
	}
	return clip(strings.Join(para, " "), summaryLen)
}

// headingText is what the view shows of a section of a note.
func (r *renderer) headingText(n node, lv Level, indent string) string {
	line := fmt.Sprintf("%s§ %s [%s]\n", indent, n.id, lv)
	if lv == Title {
		return line
	}
	data, _, err := r.v.Read(n.path)
	if err != nil {
		return line
	}
	sec, ok := Section(data, n.heading)
	if !ok {
		return line + indent + "  (no such heading any more)\n"
	}
	if lv == Summary {
		return line + indent + "  " + clip(oneLine(sec), summaryLen) + "\n"
	}
	return line + fmt.Sprintf("<section name=%q>\n%s\n</section>\n", n.id, strings.TrimRight(sec, "\n"))
}

// Section returns the text under the heading named h (case-insensitive) down to the
// next heading of the same or a higher level.
func Section(data []byte, h string) (string, bool) {
	nt := note.Parse(data)
	lines := strings.SplitAfter(string(data), "\n")
	for i, hd := range nt.Headings {
		if !strings.EqualFold(strings.TrimSpace(hd.Text), strings.TrimSpace(h)) {
			continue
		}
		end := len(lines)
		for _, next := range nt.Headings[i+1:] {
			if next.Level <= hd.Level {
				end = int(next.Line) - 1
				break
			}
		}
		line := int(hd.Line)
		if line > len(lines) {
			return "", false
		}
		return strings.Join(lines[line:max(end, line)], ""), true
	}
	return "", false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to at most n bytes, at a word boundary, adding "…".
func clip(s string, n int) string {
	s = oneLine(s)
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
	}
	return s[:cut] + "…"
}
