package note

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const commentedNote = "---\n" +
	"# leading comment\n" +
	"title: 'Quoted'   # trailing comment\n" +
	"tags:\n" +
	"  - a\n" +
	"  - b\n" +
	"\n" +
	"# about status\n" +
	"status: draft\n" +
	"nested:\n" +
	"  deep: {x: 1}\n" +
	"---\n" +
	"Body [[A]] stays.\n"

func TestSetPropertiesRoundTrip(t *testing.T) {
	for _, src := range []string{commentedNote, personNote, "no front matter\n", "\ufeff---\r\na: 1\r\n---\r\nbody\r\n", ""} {
		got, err := SetProperties([]byte(src), nil, nil)
		if err != nil {
			t.Fatalf("SetProperties(%q) with no changes: %v", src, err)
		}
		if diff := cmp.Diff(src, string(got)); diff != "" {
			t.Errorf("a rewrite with no changes altered the note (-want +got):\n%s", diff)
		}
	}
}

func TestSetPropertiesChangesOnlyTheKey(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		set    []Property
		remove []string
		want   string
	}{
		{
			name: "replace scalar",
			src:  commentedNote,
			set:  []Property{{Key: "status", Value: "done"}},
			want: strings.Replace(commentedNote, "status: draft\n", "status: done\n", 1),
		},
		{
			name: "replace block with comment",
			src:  commentedNote,
			set:  []Property{{Key: "tags", Value: []string{"x"}}},
			want: strings.Replace(commentedNote, "tags:\n  - a\n  - b\n", "tags:\n  - x\n", 1),
		},
		{
			name: "replace nested",
			src:  commentedNote,
			set:  []Property{{Key: "nested", Value: 3}},
			want: strings.Replace(commentedNote, "nested:\n  deep: {x: 1}\n", "nested: 3\n", 1),
		},
		{
			name: "add",
			src:  commentedNote,
			set:  []Property{{Key: "new key", Value: "v"}},
			want: strings.Replace(commentedNote, "---\nBody", "new key: v\n---\nBody", 1),
		},
		{
			name:   "remove",
			src:    commentedNote,
			remove: []string{"title", "missing"},
			want:   strings.Replace(commentedNote, "title: 'Quoted'   # trailing comment\n", "", 1),
		},
		{
			name: "create",
			src:  "Body\n",
			set:  []Property{{Key: "summary", Value: "s"}, {Key: "aliases", Value: []string{"A"}}},
			want: "---\nsummary: s\naliases:\n  - A\n---\nBody\n",
		},
		{
			name: "create after bom with crlf",
			src:  "\ufeffBody\r\nmore\r\n",
			set:  []Property{{Key: "a", Value: []string{"x", "z"}}},
			want: "\ufeff---\r\na:\r\n  - x\r\n  - z\r\n---\r\nBody\r\nmore\r\n",
		},
		{
			name: "crlf and bom kept",
			src:  "\ufeff---\r\na: 1 # keep\r\nb: 2\r\n---\r\nbody\r\n",
			set:  []Property{{Key: "b", Value: "[[Link]]"}},
			want: "\ufeff---\r\na: 1 # keep\r\nb: '[[Link]]'\r\n---\r\nbody\r\n",
		},
		{
			name: "empty front matter",
			src:  "---\n---\nbody",
			set:  []Property{{Key: "a", Value: true}},
			want: "---\na: true\n---\nbody",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetProperties([]byte(tt.src), tt.set, tt.remove)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("SetProperties (-want +got):\n%s", diff)
			}
			keys := tt.remove
			for _, p := range tt.set {
				keys = append(keys, p.Key)
			}
			assertOutsideUnchanged(t, tt.src, string(got), keys)
		})
	}
}

// assertOutsideUnchanged checks that after differs from before only inside the block
// of one of the given keys or, when none of them exists yet, only by an insertion where
// SetProperties appends: every byte outside that region is identical.
func assertOutsideUnchanged(t *testing.T, before, after string, keys []string) {
	t.Helper()
	start := 0
	if strings.HasPrefix(before, "\ufeff") {
		start = 3
	}
	fm := findFrontMatter([]byte(before), start)
	lo, hi := start, start // a new front matter goes right after the BOM
	if fm.ok {
		root, err := decodeFrontMatter([]byte(before), fm)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi = fm.yamlEnd, fm.yamlEnd
		for _, k := range keys {
			if ks, ke, ok := keySpan([]byte(before), fm, root, k); ok {
				lo, hi = ks, ke
				break
			}
		}
	}
	if !strings.HasPrefix(after, before[:lo]) || !strings.HasSuffix(after, before[hi:]) {
		t.Errorf("bytes outside [%d,%d) changed:\nbefore %q\nafter  %q", lo, hi, before, after)
	}
}

func TestSetPropertiesRefusesBroken(t *testing.T) {
	for _, src := range []string{
		"---\na: 1\nbody without closing fence\n",
		"---\na: [1\n---\n",
		"---\n- list\n---\n",
		"---\n{a: 1}\n---\n",
		"---\na: 1\nb: 2\na: 3\n---\n",
	} {
		_, err := SetProperties([]byte(src), []Property{{Key: "a", Value: 2}}, nil)
		if !errors.Is(err, ErrBrokenFrontMatter) {
			t.Errorf("SetProperties(%q) error = %v, want ErrBrokenFrontMatter", src, err)
		}
	}
	if _, err := SetProperties([]byte("ok\n\xff"), []Property{{Key: "a"}}, nil); !errors.Is(err, ErrNotUTF8) {
		t.Errorf("SetProperties on invalid UTF-8: error = %v, want ErrNotUTF8", err)
	}
	if _, err := SetProperties([]byte("x"), []Property{{Key: "a"}}, []string{"a"}); err == nil {
		t.Errorf("setting and removing one key: no error")
	}
}

func TestReplaceSpans(t *testing.T) {
	src := []byte("0123456789")
	got, err := ReplaceSpans(src, []Edit{{Start: 8, End: 9, New: "X"}, {Start: 0, End: 2, New: ""}, {Start: 5, End: 5, New: "+"}, {Start: 5, End: 5, New: "-"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "234+-567X9"; string(got) != want {
		t.Errorf("ReplaceSpans = %q, want %q", got, want)
	}
	if !bytes.Equal(src, []byte("0123456789")) {
		t.Errorf("ReplaceSpans modified its input")
	}
	for _, bad := range [][]Edit{{{Start: 1, End: 3}, {Start: 2, End: 4}}, {{Start: -1, End: 0}}, {{Start: 3, End: 2}}, {{Start: 0, End: 11}}} {
		if _, err := ReplaceSpans(src, bad); err == nil {
			t.Errorf("ReplaceSpans(%v): no error", bad)
		}
	}
}

func TestFormatWikiLink(t *testing.T) {
	tests := []struct {
		target, sub, display string
		embed, esc           bool
		want                 string
	}{
		{"A", "", "", false, false, "[[A]]"},
		{"A", "H", "t", false, false, "[[A#H|t]]"},
		{"A", "", "t", false, true, "[[A\\|t]]"},
		{"img.png", "", "", true, false, "![[img.png]]"},
		{"", "H", "", false, false, "[[#H]]"},
	}
	for _, tt := range tests {
		got := FormatWikiLink(tt.target, tt.sub, tt.display, tt.embed, tt.esc)
		if got != tt.want {
			t.Errorf("FormatWikiLink(%q, %q, %q, %v, %v) = %q, want %q", tt.target, tt.sub, tt.display, tt.embed, tt.esc, got, tt.want)
		}
		l := Parse([]byte(got)).Links
		if len(l) != 1 || l[0].Target() != tt.target || l[0].Subpath() != tt.sub || l[0].Display() != tt.display || l[0].EscapedPipe != tt.esc {
			t.Errorf("Parse(%q) = %+v, does not read back", got, l)
		}
	}
}
