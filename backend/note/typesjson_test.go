package note

import (
	"encoding/json"
	"reflect"
	"testing"
	"unsafe"
)

// TestLinkHeadingJSON checks that Link and Heading write every field, in the order
// their JSON has always had, and read back what they wrote.
func TestLinkHeadingJSON(t *testing.T) {
	l := Link{Kind: MarkdownEmbed, Start: 1 << 30, End: 1<<31 - 1, Line: 7, InFrontMatter: true, EscapedPipe: true}
	l.SetNames("t", "s", "d")
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	const wantLink = `{"kind":3,"target":"t","subpath":"s","display":"d","start":1073741824,"end":2147483647,"line":7,"in_front_matter":true,"escaped_pipe":true}`
	if string(b) != wantLink {
		t.Errorf("link JSON\n got %s\nwant %s", b, wantLink)
	}
	var back Link
	if err := json.Unmarshal(b, &back); err != nil || back != l {
		t.Errorf("link read back as %+v (%v), want %+v", back, err, l)
	}
	// Every field of Link is in linkJSON (names, targetEnd and subpathEnd as Target,
	// Subpath and Display), so none is lost on the way.
	if a, b := reflect.TypeFor[Link]().NumField(), reflect.TypeFor[linkJSON]().NumField(); a != b {
		t.Errorf("Link has %d fields, its JSON form %d", a, b)
	}

	h := Heading{Level: 6, Text: "x", Line: 9}
	b, err = json.Marshal([]Heading{h})
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"level":6,"text":"x","line":9}]`; string(b) != want {
		t.Errorf("heading JSON\n got %s\nwant %s", b, want)
	}
	var hs []Heading
	if err := json.Unmarshal(b, &hs); err != nil || len(hs) != 1 || hs[0] != h {
		t.Errorf("heading read back as %+v (%v), want %+v", hs, err, h)
	}
	if a, b := reflect.TypeFor[Heading]().NumField(), reflect.TypeFor[headingJSON]().NumField(); a != b {
		t.Errorf("Heading has %d fields, its JSON form %d", a, b)
	}
}

// TestIndexedSizes holds the sizes a full index multiplies by a million links and
// most of a million headings.
func TestIndexedSizes(t *testing.T) {
	if s := unsafe.Sizeof(Link{}); s > 40 {
		t.Errorf("Link is %d bytes, want at most 40", s)
	}
	if s := unsafe.Sizeof(Heading{}); s > 24 {
		t.Errorf("Heading is %d bytes, want at most 24", s)
	}
}

// TestLinkNames checks that a link's target, subpath and display text, held as one
// string, come back apart as they were set, empty ones included.
func TestLinkNames(t *testing.T) {
	for _, c := range [][3]string{{"", "", ""}, {"a", "", ""}, {"", "h", ""}, {"", "", "d"}, {"Note", "^b", "shown"}, {"中文", "节", "显示"}} {
		var l Link
		l.SetNames(c[0], c[1], c[2])
		if got := [3]string{l.Target(), l.Subpath(), l.Display()}; got != c {
			t.Errorf("SetNames%q gives %q", c, got)
		}
	}
	n := ParseLean([]byte("[[T#S|D]] [x y](p%20q.md#f) ![[E]]"))
	var got [][3]string
	for _, l := range n.Links {
		got = append(got, [3]string{l.Target(), l.Subpath(), l.Display()})
	}
	want := [][3]string{{"T", "S", "D"}, {"p q.md", "f", "x y"}, {"E", "", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parsed names %q, want %q", got, want)
	}
}
