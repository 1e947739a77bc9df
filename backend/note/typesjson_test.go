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
	l := Link{Kind: MarkdownEmbed, Target: "t", Subpath: "s", Display: "d", Start: 1 << 30, End: 1<<31 - 1, Line: 7,
		InFrontMatter: true, EscapedPipe: true}
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
	// Every field of Link is in linkJSON, so none is lost on the way.
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
	if s := unsafe.Sizeof(Link{}); s > 64 {
		t.Errorf("Link is %d bytes, want at most 64", s)
	}
	if s := unsafe.Sizeof(Heading{}); s > 24 {
		t.Errorf("Heading is %d bytes, want at most 24", s)
	}
}
