package note

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// fuzzSeeds are inputs every fuzz target starts from.
var fuzzSeeds = []string{
	personNote,
	commentedNote,
	"[[A]] [[A|b]] [[A#H]] [[A#H|t]] [[A#^b]] [[#H]] ![[e.png]] | [[A\\|t]] |",
	"[t](a%20b.md) [t](<a b.md>) ![i](x.png) [x](https://e.org) [y](#z)",
	"#tag #nested/tag #中文 #123\n# Heading #t\nSetext\n===\n",
	"```\n[[no]]\n```\n~~~\n[[no]]\n~~~\n`[[no]]` $[[no]]$ $$\n[[no]]\n$$ <!-- [[no]] --> %% [[no]] %%",
	"\ufeff---\r\na: \"[[B]]\"\r\n---\r\n[[C]]\r\n",
	"---\na: [1\n---\n[[x]]",
	"---\nno close\n[[x]]",
	"\xff\xfe[[\x00]]\n#\xc3",
	"> ```\n> [[a]]\n- x\n    ```\n    [[b]]",
	"[[a]]]] [[[b]] [[c [[d]] `` ` `` $$ $ \\[[e]]",
	"---\ntags: [a, \"#b\"]\ntype: t\nn: 12\nwhen: 2024-01-02\nf: 1.5\nnested: {k: [x, y]}\ntag: c\nalias: [[A]]\n---\nbody",
	"---\ntype: t\nrelated: [\"[[A]]\", \"[[B|c]]\"]\nrelations:\n  - type: part of\n    to: \"[[X]]\"\nd: >-\n  x [[Y]]\n  z\ns:\n  url: u\n---\n[[Z]]",
	"+++\ntype = \"t\"\nrel = \"[[B]]\"\n[[relations]]\n\"relation to\" = \"[[C]]\"\n+++\n[[D]]",
	"---\nsummary: >-\n  folded\n  text\ntype: |\n  literal\nrelations:\n  - relation type: >-\n      part\n    relation to: >-\n      [[X]]\n---\nbody",
	";;;\n{\"type\": \"t\", \"rel\": [\"[[B]]\", 2]}\n;;;\n[[D]]", "---yaml\na: \"[[B]]\"\n---\n[[D]]", "\ufeff---toml\r\nx = 1\r\n---\r\n",
}

// checkLean fails the test unless ParseLean(src) is n, what Parse gave, without its
// Properties, and stays so once the bytes it read are overwritten: the lean note must
// own every string it keeps (the index reads notes into reused buffers).
func checkLean(t *testing.T, src []byte, n *Note) {
	t.Helper()
	want := *n
	want.Properties = nil
	buf := bytes.Clone(src)
	got := ParseLean(buf)
	for i := range buf {
		buf[i] = '~'
	}
	if !reflect.DeepEqual(*got, want) {
		t.Fatalf("ParseLean differs from Parse without Properties (or keeps bytes of its source):\n got %+v\nwant %+v", *got, want)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		n := Parse(src)
		checkLean(t, src, n)
		for _, l := range n.Links {
			if l.Start == -1 && l.End == -1 && l.InFrontMatter {
				continue
			}
			if l.Start < 0 || l.Start > l.End || int(l.End) > len(src) {
				t.Fatalf("link %+v out of bounds for %d bytes", l, len(src))
			}
			lit := src[l.Start:l.End]
			switch l.Kind {
			case WikiLink:
				if !bytes.HasPrefix(lit, []byte("[[")) || !bytes.HasSuffix(lit, []byte("]]")) {
					t.Fatalf("wikilink %+v spans %q", l, lit)
				}
			case Embed:
				if !bytes.HasPrefix(lit, []byte("![[")) || !bytes.HasSuffix(lit, []byte("]]")) {
					t.Fatalf("embed %+v spans %q", l, lit)
				}
			case MarkdownLink:
				if !bytes.HasSuffix(lit, []byte(")")) || (lit[0] != '[' && lit[0] != '!') {
					t.Fatalf("markdown link %+v spans %q", l, lit)
				}
			}
			if l.Line < 1 || int(l.Line) != lineOf(src, int(l.Start)) {
				t.Fatalf("link %+v: line %d, want %d", l, l.Line, lineOf(src, int(l.Start)))
			}
		}
		if n.BodyStart < 0 || n.BodyStart > len(src) || n.FrontMatterEnd > len(src) {
			t.Fatalf("bounds: body %d, front matter end %d, len %d", n.BodyStart, n.FrontMatterEnd, len(src))
		}
	})
}

func FuzzSetProperties(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), "status", "done", "tags")
	}
	f.Add([]byte("---\na: 1\n---\n"), "a", "[[x]]", "b")
	f.Add([]byte("body"), "---", "...", "")
	f.Fuzz(func(t *testing.T, src []byte, key, value, remove string) {
		if key == remove {
			remove = ""
		}
		before := Parse(src)
		out, err := SetProperties(src, []Property{{Key: key, Value: value}}, []string{remove})
		if err != nil {
			return
		}
		after := Parse(out)
		if fmWarnings(after) > fmWarnings(before) || len(after.Warnings) > len(before.Warnings) {
			t.Fatalf("new warnings: before %v, after %v\nsrc %q\nout %q", before.Warnings, after.Warnings, src, out)
		}
		if !bytes.Equal(src[before.BodyStart:], out[after.BodyStart:]) {
			t.Fatalf("body changed:\nsrc %q\nout %q", src, out)
		}
		if got, ok := after.Properties[key]; !ok || !sameString(got, value) {
			t.Fatalf("property %q = %#v, want %q\nout %q", key, got, value, out)
		}
	})
}

// fmWarnings counts the warnings about front matter.
func fmWarnings(n *Note) int {
	c := 0
	for _, w := range n.Warnings {
		if strings.Contains(w.Message, "front matter") {
			c++
		}
	}
	return c
}

// sameString reports whether a decoded property equals the string that was set.
func sameString(got any, want string) bool {
	s, ok := got.(string)
	return ok && s == want
}

func FuzzFastYAML(f *testing.F) {
	for _, s := range fastYAMLSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkFastYAML(t, src)
	})
}
