package note_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/note"
)

func TestLayoutFrontMatter(t *testing.T) {
	for _, tc := range []struct {
		name  string
		src   string
		parts []string // head, lead, each property, close, body; nil when not ok
	}{
		{"properties", "---\na: 1\nlist:\n  - x\n# note\nb: two\n---\nbody\n", []string{"---\n", "", "a: 1\n", "list:\n  - x\n# note\n", "b: two\n", "---\n", "body\n"}},
		{"a comment first, CRLF, a mark", "\ufeff---\r\n# c\r\na: 1\r\n...\r\nbody", []string{"\ufeff---\r\n", "# c\r\n", "a: 1\r\n", "...\r\n", "body"}},
		{"empty", "---\n---\n", []string{"---\n", "", "---\n", ""}},
		{"no front matter", "# Title\n", nil},
		{"not closed", "---\na: 1\n", nil},
		{"broken YAML", "---\na: [1\n---\n", nil},
		{"a flow mapping", "---\n{a: 1, b: 2}\n---\n", nil},
		{"TOML", "+++\na = 1\n+++\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lay, ok := note.LayoutFrontMatter([]byte(tc.src))
			if !ok {
				if tc.parts != nil {
					t.Fatal("not ok")
				}
				return
			}
			if tc.parts == nil {
				t.Fatalf("ok: %+v", lay)
			}
			s := tc.src
			lead := lay.Close
			if len(lay.Props) > 0 {
				lead = lay.Props[0].Start
			}
			got := []string{s[:lay.Head], s[lay.Head:lead]}
			for _, p := range lay.Props {
				got = append(got, s[p.Start:p.End])
			}
			got = append(got, s[lay.Close:lay.Body], s[lay.Body:])
			if d := cmp.Diff(tc.parts, got); d != "" {
				t.Errorf("parts (-want +got):\n%s", d)
			}
		})
	}
}
