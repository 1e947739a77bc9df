package note

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// span is a link as the tests compare it: its literal source text instead of offsets.
type span struct {
	Lit     string
	Kind    LinkKind
	Target  string
	Subpath string
	Display string
	Line    int
	Escaped bool
	InFM    bool
}

// spans parses src and returns its links as spans, failing on any span that does not
// fit src.
func spans(t *testing.T, src string) []span {
	t.Helper()
	var out []span
	for _, l := range Parse([]byte(src)).Links {
		s := span{Kind: l.Kind, Target: l.Target(), Subpath: l.Subpath(), Display: l.Display(), Line: int(l.Line), Escaped: l.EscapedPipe, InFM: l.InFrontMatter}
		if l.Start >= 0 {
			if l.Start > l.End || int(l.End) > len(src) {
				t.Fatalf("link %+v: span out of range for %d bytes", l, len(src))
			}
			s.Lit = src[l.Start:l.End]
		}
		out = append(out, s)
	}
	return out
}

func TestWikiLinks(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []span
	}{
		{"plain", "see [[A]] here", []span{{Lit: "[[A]]", Target: "A", Line: 1}}},
		{"display", "[[A|text]]", []span{{Lit: "[[A|text]]", Target: "A", Display: "text", Line: 1}}},
		{"heading", "x [[A#Heading]]", []span{{Lit: "[[A#Heading]]", Target: "A", Subpath: "Heading", Line: 1}}},
		{"heading display", "[[A#Heading|text]]", []span{{Lit: "[[A#Heading|text]]", Target: "A", Subpath: "Heading", Display: "text", Line: 1}}},
		{"block", "[[A#^block-id]]", []span{{Lit: "[[A#^block-id]]", Target: "A", Subpath: "^block-id", Line: 1}}},
		{"same note", "[[#Heading]]", []span{{Lit: "[[#Heading]]", Subpath: "Heading", Line: 1}}},
		{"embed", "![[embed]]", []span{{Lit: "![[embed]]", Kind: Embed, Target: "embed", Line: 1}}},
		{"embed image", "a ![[image.png|100]]", []span{{Lit: "![[image.png|100]]", Kind: Embed, Target: "image.png", Display: "100", Line: 1}}},
		{"extension kept", "[[image.png]] [[Note.md]]", []span{
			{Lit: "[[image.png]]", Target: "image.png", Line: 1},
			{Lit: "[[Note.md]]", Target: "Note.md", Line: 1},
		}},
		{"folder", "[[folder/Sub Note]]", []span{{Lit: "[[folder/Sub Note]]", Target: "folder/Sub Note", Line: 1}}},
		{"table escaped pipe", "| [[A\\|text]] | b |", []span{{Lit: "[[A\\|text]]", Target: "A", Display: "text", Line: 1, Escaped: true}}},
		{"table escaped heading", "| [[A#H\\|t]] |", []span{{Lit: "[[A#H\\|t]]", Target: "A", Subpath: "H", Display: "t", Line: 1, Escaped: true}}},
		{"second line", "one\ntwo [[B]]\n", []span{{Lit: "[[B]]", Target: "B", Line: 2}}},
		{"cjk", "链接 [[中文笔记|显示]] 后", []span{{Lit: "[[中文笔记|显示]]", Target: "中文笔记", Display: "显示", Line: 1}}},
		{"nested opener", "[[a [[b]]", []span{{Lit: "[[b]]", Target: "b", Line: 1}}},
		{"unclosed", "[[a\nb]]", nil},
		{"empty", "[[]] [[ ]]", nil},
		{"escaped", "\\[[A]]", nil},
		{"escaped bang", "\\![[A]]", []span{{Lit: "[[A]]", Target: "A", Line: 1}}},
		{"two", "[[A]][[B]]", []span{{Lit: "[[A]]", Target: "A", Line: 1}, {Lit: "[[B]]", Target: "B", Line: 1}}},
		{"crlf", "a\r\n[[A]]\r\n", []span{{Lit: "[[A]]", Target: "A", Line: 2}}},
		{"bom", "\ufeff[[A]]", []span{{Lit: "[[A]]", Target: "A", Line: 1}}},
		{"list", "- [[A]]\n  - [[B]]", []span{{Lit: "[[A]]", Target: "A", Line: 1}, {Lit: "[[B]]", Target: "B", Line: 2}}},
		{"quote", "> [[A]]\n> > ![[B]]", []span{{Lit: "[[A]]", Target: "A", Line: 1}, {Lit: "![[B]]", Kind: Embed, Target: "B", Line: 2}}},
		{"heading text", "## About [[A]]", []span{{Lit: "[[A]]", Target: "A", Line: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, spans(t, tt.src)); diff != "" {
				t.Errorf("links of %q (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestMarkdownLinks(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []span
	}{
		{"encoded", "[text](path/to%20file.md)", []span{{Lit: "[text](path/to%20file.md)", Kind: MarkdownLink, Target: "path/to file.md", Display: "text", Line: 1}}},
		{"angle", "[t](<path with spaces.md>)", []span{{Lit: "[t](<path with spaces.md>)", Kind: MarkdownLink, Target: "path with spaces.md", Display: "t", Line: 1}}},
		{"image", "![alt](img.png)", []span{{Lit: "![alt](img.png)", Kind: MarkdownEmbed, Target: "img.png", Display: "alt", Line: 1}}},
		{"empty alt", "![](x.png)", []span{{Lit: "![](x.png)", Kind: MarkdownEmbed, Target: "x.png", Line: 1}}},
		{"subpath", "[t](Note.md#Some%20Heading)", []span{{Lit: "[t](Note.md#Some%20Heading)", Kind: MarkdownLink, Target: "Note.md", Subpath: "Some Heading", Display: "t", Line: 1}}},
		{"title", `[t](a.md "Title")`, []span{{Lit: `[t](a.md "Title")`, Kind: MarkdownLink, Target: "a.md", Display: "t", Line: 1}}},
		{"parens", "[t](a_(b).md)", []span{{Lit: "[t](a_(b).md)", Kind: MarkdownLink, Target: "a_(b).md", Display: "t", Line: 1}}},
		{"nested text", "[a [b] c](x.md)", []span{{Lit: "[a [b] c](x.md)", Kind: MarkdownLink, Target: "x.md", Display: "a [b] c", Line: 1}}},
		{"schemes skipped", "[a](https://x.org) [b](http://x) [c](mailto:a@b) [d](obsidian://open) [e](file:///x) [f](#anchor)", nil},
		{"drive letter kept", "[a](C:/x.md)", []span{{Lit: "[a](C:/x.md)", Kind: MarkdownLink, Target: "C:/x.md", Display: "a", Line: 1}}},
		{"no dest", "[a] (b.md) [c]", nil},
		{"image in link", "[![b](badge.png)](page.md)", []span{
			{Lit: "![b](badge.png)", Kind: MarkdownEmbed, Target: "badge.png", Display: "b", Line: 1},
			{Lit: "[![b](badge.png)](page.md)", Kind: MarkdownLink, Target: "page.md", Display: "![b](badge.png)", Line: 1},
		}},
		{"tag in text is no tag", "[#t](x.md)", []span{{Lit: "[#t](x.md)", Kind: MarkdownLink, Target: "x.md", Display: "#t", Line: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, spans(t, tt.src)); diff != "" {
				t.Errorf("links of %q (-want +got):\n%s", tt.src, diff)
			}
		})
	}
	if n := Parse([]byte("[#t](x.md)")); len(n.Tags) != 0 {
		t.Errorf("tags inside a link text: %v", n.Tags)
	}
}

func TestExclusions(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{"backtick fence", "```\n[[A]] #tag\n# H\n```"},
		{"tilde fence", "~~~~ md\n[[A]]\n~~~\n[[B]]\n~~~~"},
		{"long fence", "`````\n```\n[[A]]\n```\n`````"},
		{"indented fence", "   ```\n[[A]]\n   ```"},
		{"unclosed fence", "```\n[[A]]\n#tag"},
		{"fence in quote", "> ```\n> [[A]]\n> ```"},
		{"fence in list", "- item\n    ```\n    [[A]]\n    ```"},
		{"inline code", "a `[[A]] #tag` b"},
		{"double backticks", "a ``x ` [[A]]`` b"},
		{"code across lines", "a `x\n[[A]]` b"},
		{"math block", "$$\n[[A]] #tag\n$$"},
		{"inline math", "a $x [[A]]$ b"},
		{"html comment", "<!-- [[A]]\n#tag\n# H -->"},
		{"inline html comment", "a <!-- [[A]] --> b"},
		{"percent comment", "%%\n[[A]]\n# H\n%%"},
		{"inline percent comment", "a %% [[A]] #t %% b"},
		{"unclosed percent", "a %% [[A]]\n\n[[B]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Parse([]byte(tt.src))
			if len(n.Links)+len(n.Tags)+len(n.Headings) != 0 {
				t.Errorf("Parse(%q) found links %v, tags %v, headings %v; want none", tt.src, n.Links, n.Tags, n.Headings)
			}
		})
	}
	kept := []struct{ name, src, target string }{
		{"after fence", "```\nx\n```\n[[A]]", "A"},
		{"fence closed by longer", "```\nx\n`````\n[[A]]", "A"},
		{"four spaces not a fence", "    ```\n[[A]]", "A"},
		{"after comment", "<!-- x --> [[A]]", "A"},
		{"after code", "`x` [[A]] `y`", "A"},
		{"after math", "$$x$$ [[A]]", "A"},
		{"dollar amounts", "costs $5 and $10 [[A]]", "A"},
		{"unmatched backtick", "a ` b [[A]]", "A"},
		{"after multiline comment", "%% a\nb %% [[A]]", "A"},
	}
	for _, tt := range kept {
		t.Run(tt.name, func(t *testing.T) {
			got := spans(t, tt.src)
			if len(got) != 1 || got[0].Target != tt.target {
				t.Errorf("Parse(%q) links = %+v, want one to %q", tt.src, got, tt.target)
			}
		})
	}
}

func TestTags(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Tag
	}{
		{"simple", "#tag", []Tag{{Name: "tag", Line: 1}}},
		{"nested", "a #nested/tag b", []Tag{{Name: "nested/tag", Line: 1}}},
		{"cjk", "中文 #中文标签，后面", []Tag{{Name: "中文标签", Line: 1}}},
		{"ideographic space", "文字\u3000#标签", []Tag{{Name: "标签", Line: 1}}},
		{"digits only", "#123 #1984", nil},
		{"digit and letter", "#y1984 #1a", []Tag{{Name: "y1984", Line: 1}, {Name: "1a", Line: 1}}},
		{"not after word", "C#sharp a#b", nil},
		{"heading is not a tag", "# Heading\n## Two", nil},
		{"in heading", "## Heading #t", []Tag{{Name: "t", Line: 1}}},
		{"punctuation ends", "#tag, #other.", []Tag{{Name: "tag", Line: 1}, {Name: "other", Line: 1}}},
		{"dash underscore", "#a-b_c", []Tag{{Name: "a-b_c", Line: 1}}},
		{"url anchor", "see https://x.org/#anchor", nil},
		{"list", "- #todo\n\t#tab", []Tag{{Name: "todo", Line: 1}, {Name: "tab", Line: 2}}},
		{"escaped", "\\#no", nil},
		{"lone hash", "# \n#", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Parse([]byte(tt.src)).Tags); diff != "" {
				t.Errorf("tags of %q (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestHeadings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Heading
	}{
		{"atx levels", "# One\n###### Six\n####### Seven", []Heading{{Level: 1, Text: "One", Line: 1}, {Level: 6, Text: "Six", Line: 2}}},
		{"closing hashes", "## Two ##\n# Three #   ", []Heading{{Level: 2, Text: "Two", Line: 1}, {Level: 1, Text: "Three", Line: 2}}},
		{"hash in text", "# C# language", []Heading{{Level: 1, Text: "C# language", Line: 1}}},
		{"needs space", "#NotHeading", nil},
		{"indented", "   # Three spaces\n    # Four spaces", []Heading{{Level: 1, Text: "Three spaces", Line: 1}}},
		{"setext", "Title\n=====\n\nSub\n---", []Heading{{Level: 1, Text: "Title", Line: 1}, {Level: 2, Text: "Sub", Line: 4}}},
		{"setext multi-line", "a\nb\n===", []Heading{{Level: 1, Text: "a b", Line: 1}}},
		{"thematic break", "\n---\n\ntext", nil},
		{"crlf", "# A\r\nB\r\n-\r\n", []Heading{{Level: 1, Text: "A", Line: 1}}},
		{"after front matter", "---\na: 1\n---\n# T", []Heading{{Level: 1, Text: "T", Line: 4}}},
		{"empty", "#", []Heading{{Level: 1, Text: "", Line: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Parse([]byte(tt.src)).Headings); diff != "" {
				t.Errorf("headings of %q (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestBOMAndCRLF(t *testing.T) {
	src := "\ufeff---\r\ntitle: x\r\nup: \"[[Parent]]\"\r\n---\r\n# H\r\n[[A|b]] #t\r\n"
	n := Parse([]byte(src))
	if !n.HasBOM || !n.CRLF {
		t.Errorf("HasBOM, CRLF = %v, %v; want true, true", n.HasBOM, n.CRLF)
	}
	want := []span{
		{Lit: "[[Parent]]", Target: "Parent", Line: 3, InFM: true},
		{Lit: "[[A|b]]", Target: "A", Display: "b", Line: 6},
	}
	if diff := cmp.Diff(want, spans(t, src)); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Heading{{Level: 1, Text: "H", Line: 5}}, n.Headings); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
	if n.FrontMatterStart != 3 || src[n.FrontMatterEnd-5:n.FrontMatterEnd] != "---\r\n" || n.BodyStart != n.FrontMatterEnd {
		t.Errorf("front matter [%d,%d) body %d", n.FrontMatterStart, n.FrontMatterEnd, n.BodyStart)
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
		word string
	}{
		{"no closing fence", "---\na: 1\n\n# body [[A]]", 1, "closing"},
		{"broken yaml", "---\na: 1\nb: [unclosed\nc: 2\n---\nbody", 3, "expected"},
		{"scanner error", "---\na: 1\nb: c: d\n---\n", 3, "mapping values"},
		{"bad key", "---\na: 1\n\n? [\n---\n", 5, "node content"},
		{"bad mapping", "---\na: 1\n  b: 2\n---\n", 3, "mapping"},
		{"not a mapping", "---\n- a\n- b\n---\n", 2, "mapping"},
		{"duplicate key", "---\na: 1\na: 2\n---\n", 3, "already defined"},
		{"invalid utf-8", "ok\nstill ok\nbad \xff here\n", 3, "UTF-8"},
		{"invalid utf-8 after bom", "\ufeffa\n\xc3", 2, "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Parse([]byte(tt.src))
			if len(n.Warnings) != 1 || n.Warnings[0].Line != tt.line || !strings.Contains(n.Warnings[0].Message, tt.word) {
				t.Fatalf("warnings = %+v, want one on line %d mentioning %q", n.Warnings, tt.line, tt.word)
			}
			if strings.HasPrefix(tt.src, "---") && n.Properties != nil {
				t.Errorf("Properties = %v, want nil", n.Properties)
			}
		})
	}
	if n := Parse([]byte("---\na: 1\n\n# body [[A]]")); len(n.Links) != 1 || len(n.Headings) != 1 {
		t.Errorf("body after an unclosed fence: links %v headings %v", n.Links, n.Headings)
	}
}
