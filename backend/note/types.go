// Package note parses one Markdown note: its YAML front matter, wikilinks, Markdown
// links, tags and headings. It does no I/O and never panics on any input.
package note

// LinkKind tells how a link was written.
type LinkKind uint8

// The kinds of link a note can hold.
const (
	WikiLink      LinkKind = iota // [[Target]] or [[Target|display]]
	Embed                         // ![[Target]]
	MarkdownLink                  // [text](relative/path.md), local targets only
	MarkdownEmbed                 // ![alt](image.png): a Markdown image, an embed
)

// IsMarkdown reports whether the link is written the Markdown way, "[text](path)"
// (an image included), whose path is URL-encoded and resolved as a path.
func (k LinkKind) IsMarkdown() bool { return k == MarkdownLink || k == MarkdownEmbed }

// IsEmbed reports whether the link shows its target in place: "![[x]]" or "![](x)".
func (k LinkKind) IsEmbed() bool { return k == Embed || k == MarkdownEmbed }

// Link is one outgoing link, with the exact bytes it occupies in the source so a rename
// can rewrite them and nothing else.
//
// A full index keeps every link of the vault (a million at 100,000 notes), so a link
// is as small as it can be, 40 bytes: its target, subpath and display text are one
// string, read with Target, Subpath and Display and set with SetNames; offsets and
// lines are int32 (Parse reads at most MaxSource bytes). Its JSON is what it always
// was (typesjson.go).
type Link struct {
	// names holds the target, the subpath and the display text one after the other:
	// the target ends at targetEnd and the subpath at subpathEnd.
	names                 string
	targetEnd, subpathEnd int32
	// Start and End are the byte offsets of the whole link in the source, End exclusive,
	// including "![[" ... "]]" or "[...](...)".
	Start int32
	End   int32
	// Line is the 1-based line number of Start.
	Line int32
	// Kind tells how the link was written.
	Kind LinkKind
	// InFrontMatter marks links found in front matter property values.
	InFrontMatter bool
	// EscapedPipe is true when the display separator was written "\|" (inside a table).
	EscapedPipe bool
}

// Target is the linked name as written, without subpath, with Markdown links
// URL-decoded ("folder/Note", "image.png"). Empty for a link inside the same note
// ("[[#Heading]]").
func (l Link) Target() string { return l.names[:l.targetEnd] }

// Subpath is the heading or block reference without the leading '#' ("Heading",
// "^block-id"), or empty.
func (l Link) Subpath() string { return l.names[l.targetEnd:l.subpathEnd] }

// Display is the text after '|' (or a Markdown link's text), or empty.
func (l Link) Display() string { return l.names[l.subpathEnd:] }

// SetNames sets the target, subpath and display text of l (see Target, Subpath and
// Display), in one new string.
func (l *Link) SetNames(target, subpath, display string) {
	l.setNames(target+subpath+display, len(target), len(subpath))
}

// setNames sets the names of l from names, the target, subpath and display text one
// after the other, and the lengths of the first two.
func (l *Link) setNames(names string, target, subpath int) {
	l.names, l.targetEnd, l.subpathEnd = names, int32(target), int32(target+subpath)
}

// Relation is a typed edge stored in the front matter's "relations" list.
type Relation struct {
	Type string `json:"type"`
	// To is the target name with any "[[...]]" stripped (and any "|display" or
	// "#subpath" removed).
	To string `json:"to"`
	// Line is the 1-based line of the "relation to" value in the source.
	Line int `json:"line"`
}

// Heading is one ATX or setext heading of the body: its Level (1 to 6), its Text and
// its 1-based Line. Small for the same reason as Link (24 bytes); its JSON lists
// level, text and line in that order.
type Heading struct {
	Text  string `json:"text"`
	Line  int32  `json:"line"`
	Level uint8  `json:"level"`
}

// Tag is one tag, without the leading '#', from the body or the "tags" property.
type Tag struct {
	Name string `json:"name"`
	Line int    `json:"line"` // 0 for tags from front matter
}

// Warning reports a problem found while parsing, with its 1-based line (0 if none).
type Warning struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Note is the parsed form of one note. Parse fills every field it can even when the
// input is broken, and records what it could not read in Warnings.
type Note struct {
	// Properties holds the decoded front matter (nil when there is none or it is
	// broken). ParseLean leaves it nil: the notes the index keeps (graph.Graph.Note)
	// have none, so read the file and Parse it for them.
	Properties map[string]any `json:"properties,omitempty"`
	EntityType string         `json:"entity_type,omitempty"` // "entity type", else "type"
	Aliases    []string       `json:"aliases,omitempty"`
	Tags       []Tag          `json:"tags,omitempty"`
	Relations  []Relation     `json:"relations,omitempty"`
	Summary    string         `json:"summary,omitempty"`
	Links      []Link         `json:"links,omitempty"`
	Headings   []Heading      `json:"headings,omitempty"`
	Warnings   []Warning      `json:"warnings,omitempty"`

	// FrontMatterStart/End delimit the front matter block including both "---" fences
	// (End is the offset just after the closing fence's line break); both 0 when absent.
	FrontMatterStart int `json:"-"`
	FrontMatterEnd   int `json:"-"`
	// FrontMatterFormat says how the front matter is written ("" when there is none):
	// YAML between "---" lines, or a form adrg/frontmatter reads (frontformat.go).
	FrontMatterFormat FrontMatterFormat `json:"-"`
	// BodyStart is the offset where the body begins.
	BodyStart int  `json:"-"`
	HasBOM    bool `json:"-"`
	CRLF      bool `json:"-"`
}

// Equal reports whether l and o are the same link: the same names and every other
// field alike. (go-cmp uses it, since Link's names are unexported.)
func (l Link) Equal(o Link) bool { return l == o }
