package note

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Front matter in the forms adrg/frontmatter reads besides YAML between "---" lines is
// read with its byte offsets: the fields, the relations, the links of its values where
// they lie, and the body after it.
func TestOtherFrontMatterFormats(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		format    FrontMatterFormat
	}{
		{"toml", "+++\ntype = \"person\"\naliases = [\"Ada\"]\ntags = [\"history\", \"math/early\"]\nsummary = \"Wrote notes.\"\nrelated = \"[[Charles Babbage]]\"\n[[relations]]\n\"relation type\" = \"collaborator of\"\n\"relation to\" = \"[[Engine]]\"\n+++\n\nBody with [[Loom]].\n", FormatTOML},
		{"json", ";;;\n{\"type\": \"person\", \"aliases\": [\"Ada\"], \"tags\": [\"history\", \"math/early\"], \"summary\": \"Wrote notes.\", \"related\": \"[[Charles Babbage]]\",\n \"relations\": [{\"relation type\": \"collaborator of\", \"relation to\": \"[[Engine]]\"}]}\n;;;\n\nBody with [[Loom]].\n", FormatJSON},
		{"tagged yaml", "---yaml\ntype: person\naliases: [Ada]\ntags: [history, math/early]\nsummary: Wrote notes.\nrelated: \"[[Charles Babbage]]\"\nrelations:\n  - relation type: collaborator of\n    relation to: \"[[Engine]]\"\n---\n\nBody with [[Loom]].\n", FormatYAMLTagged},
		{"toml, crlf and bom", "\ufeff+++\r\ntype = \"person\"\r\naliases = [\"Ada\"]\r\ntags = [\"history\", \"math/early\"]\r\nsummary = \"Wrote notes.\"\r\nrelated = \"[[Charles Babbage]]\"\r\n[[relations]]\r\n\"relation type\" = \"collaborator of\"\r\n\"relation to\" = \"[[Engine]]\"\r\n+++\r\n\r\nBody with [[Loom]].\r\n", FormatTOML},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			n := Parse(src)
			if len(n.Warnings) > 0 {
				t.Fatalf("warnings: %v", n.Warnings)
			}
			if n.FrontMatterFormat != tc.format || n.EntityType != "person" || n.Summary != "Wrote notes." || !cmp.Equal(n.Aliases, []string{"Ada"}) {
				t.Errorf("format %q, type %q, summary %q, aliases %v", n.FrontMatterFormat, n.EntityType, n.Summary, n.Aliases)
			}
			if d := cmp.Diff([]Tag{{Name: "history"}, {Name: "math/early"}}, n.Tags); d != "" {
				t.Errorf("tags (-want +got):\n%s", d)
			}
			if len(n.Relations) != 1 || n.Relations[0].Type != "collaborator of" || n.Relations[0].To != "Engine" {
				t.Errorf("relations %+v", n.Relations)
			}
			body := strings.Index(tc.src, "Body")
			if n.BodyStart > body || !strings.HasPrefix(strings.TrimLeft(tc.src[n.BodyStart:], "\r\n"), "Body") || n.FrontMatterEnd != n.BodyStart {
				t.Errorf("body starts at %d (%q), front matter ends at %d", n.BodyStart, tc.src[n.BodyStart:], n.FrontMatterEnd)
			}
			want := map[string]bool{"Charles Babbage": true, "Engine": true, "Loom": true}
			for _, l := range n.Links {
				if !want[l.Target()] {
					t.Errorf("unexpected link %+v", l)
					continue
				}
				delete(want, l.Target())
				if lit := tc.src[l.Start:l.End]; lit != "[["+l.Target()+"]]" || int(l.Line) != lineOf(src, int(l.Start)) {
					t.Errorf("link %s spans %q at line %d", l.Target(), lit, l.Line)
				}
				if l.InFrontMatter != (l.Target() != "Loom") {
					t.Errorf("link %s in front matter: %v", l.Target(), l.InFrontMatter)
				}
			}
			if len(want) > 0 {
				t.Errorf("links not found: %v", want)
			}
			if n.Properties["type"] != "person" {
				t.Errorf("properties %v", n.Properties)
			}
			checkLean(t, src, n)
			if _, err := SetProperties(src, []Property{{Key: "status", Value: "done"}}, nil); !errors.Is(err, ErrOtherFrontMatter) {
				t.Errorf("SetProperties on %s front matter: %v, want ErrOtherFrontMatter", tc.format, err)
			}
		})
	}
}

// A block that is not closed, or that its format cannot decode, is reported as a
// YAML block is: the first is body text, the second front matter that is ignored.
func TestOtherFrontMatterBroken(t *testing.T) {
	n := Parse([]byte("+++\ntype = \"x\"\n\nno closing line [[A]]\n"))
	if n.FrontMatterFormat != "" || n.EntityType != "" || n.BodyStart != 0 || len(n.Links) != 1 {
		t.Errorf("an unclosed +++ block: %+v", n)
	}
	n = Parse([]byte(";;;\n{\"type\": \n;;;\nBody [[B]]\n"))
	if n.FrontMatterFormat != FormatJSON || len(n.Warnings) != 1 || !strings.Contains(n.Warnings[0].Message, "front matter ignored") || len(n.Links) != 1 || n.Links[0].Target() != "B" {
		t.Errorf("broken JSON front matter: %+v", n)
	}
	n = Parse([]byte("---\ntype: yaml\n---\n+++\n"))
	if n.FrontMatterFormat != FormatYAML || n.EntityType != "yaml" {
		t.Errorf("YAML front matter: %+v", n)
	}
}
