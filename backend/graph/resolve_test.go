package graph

import (
	"testing"

	"github.com/memotree/memotree/backend/vpath"
)

// TestResolve pins every resolution rule (see resolve.go) case by case.
func TestResolve(t *testing.T) {
	tests := []struct {
		name     string
		files    []string
		from     string
		target   string
		markdown bool
		want     string // "" for unresolved
	}{
		// Rule 1: an exact vault path wins, even over the source's own folder.
		{"root path wins from a folder", []string{"Note.md", "a/b/Note.md"}, "a/b/src.md", "Note", false, "Note.md"},
		{"folder path wins over own-folder suffix", []string{"b/Note.md", "a/b/Note.md"}, "a/b/src.md", "b/Note", false, "b/Note.md"},
		// Rule 2: the source note's own folder.
		{"own folder beats shorter path", []string{"zzzz/Note.md", "b/Note.md"}, "zzzz/src.md", "Note", false, "zzzz/Note.md"},
		{"ancestor folder counts for nothing", []string{"zzzz/Note.md", "b/Note.md"}, "zzzz/deep/src.md", "Note", false, "b/Note.md"},
		{"vault path beats relative partial path", []string{"a/sub/Note.md", "sub/Note.md"}, "a/src.md", "sub/Note", false, "sub/Note.md"},
		{"relative partial path beats shorter", []string{"long/sub/Note.md", "q/sub/Note.md"}, "long/src.md", "sub/Note", false, "long/sub/Note.md"},
		// Rule 3: shortest path string, then byte order.
		{"shortest string not fewest folders", []string{"zzzz/Note.md", "a/b/Note.md"}, "src.md", "Note", false, "a/b/Note.md"},
		{"shorter path not tree order", []string{"a/b/Note.md", "b/Note.md"}, "src.md", "Note", false, "b/Note.md"},
		{"same basename in many folders", []string{"x/y/z/Note.md", "people/Note.md", "p/q/Note.md"}, "src.md", "Note", false, "p/q/Note.md"},
		{"equal length tie by byte order", []string{"bb/Tie.md", "aa/Tie.md", "zz/Tie.md"}, "src.md", "Tie", false, "aa/Tie.md"},
		{"partial path suffix", []string{"a/b/Note.md"}, "src.md", "b/Note", false, "a/b/Note.md"},
		{"partial path must match whole folder names", []string{"ab/Note.md"}, "src.md", "b/Note", false, ""},
		{"length counted in UTF-16 units", []string{"ab/Note.md", "中/Note.md"}, "src.md", "Note", false, "中/Note.md"},
		// Relative forms.
		{"./ names the own folder", []string{"Note.md", "f/Note.md"}, "f/src.md", "./Note", false, "f/Note.md"},
		{"./ does not fall back", []string{"other/Note.md"}, "f/src.md", "./Note", false, ""},
		{"../ names the parent", []string{"y.md", "a/y.md"}, "a/x.md", "../y", false, "y.md"},
		{"../../ with folder", []string{"p/t.md"}, "a/b/x.md", "../../p/t", false, "p/t.md"},
		{"../ above the vault", []string{"y.md"}, "x.md", "../y", false, ""},
		{"leading slash is a vault path", []string{"Note.md", "f/Note.md"}, "f/src.md", "/Note", false, "Note.md"},
		{"leading slash does not search", []string{"f/Note.md"}, "src.md", "/Note", false, ""},
		// Case and Unicode.
		{"lower case target", []string{"Log.md"}, "src.md", "log", false, "Log.md"},
		{"upper case target", []string{"Log.md"}, "src.md", "LOG", false, "Log.md"},
		{"case-insensitive folders", []string{"People/Ada.md"}, "src.md", "people/ADA", false, "People/Ada.md"},
		{"exact case preferred among case twins", []string{"Note.md", "note.md"}, "src.md", "note", false, "note.md"},
		{"first by byte order among case twins", []string{"note.md", "Note.md"}, "src.md", "NOTE", false, "Note.md"},
		{"Greek final sigma folds", []string{"ΟΔΟΣ.md"}, "src.md", "οδος", false, "ΟΔΟΣ.md"},
		{"CJK basename", []string{"笔记/中文笔记.md"}, "src.md", "中文笔记", false, "笔记/中文笔记.md"},
		{"CJK partial path", []string{"笔记/中文笔记.md"}, "src.md", "笔记/中文笔记", false, "笔记/中文笔记.md"},
		{"name with spaces", []string{"people/Ada Lovelace.md"}, "src.md", "Ada Lovelace", false, "people/Ada Lovelace.md"},
		{"surrounding spaces ignored", []string{"Ada.md"}, "src.md", " Ada ", false, "Ada.md"},
		// Extensions.
		{".md written explicitly", []string{"dir/Note.md"}, "src.md", "Note.md", false, "dir/Note.md"},
		{".MD in upper case", []string{"Note.md"}, "src.md", "Note.MD", false, "Note.md"},
		{".md target does not add .md", []string{"Note.md.md"}, "src.md", "Note.md", false, ""},
		{"dotted note name", []string{"v1.2.md"}, "src.md", "v1.2", false, "v1.2.md"},
		{"attachment by name", []string{"assets/image.png"}, "src.md", "image.png", false, "assets/image.png"},
		{"attachment needs its extension", []string{"assets/image.png"}, "src.md", "image", false, ""},
		{"attachment by partial path", []string{"docs/a/doc.pdf", "docs/b/doc.pdf"}, "src.md", "b/doc.pdf", false, "docs/b/doc.pdf"},
		{"note preferred over extensionless file", []string{"f/Note", "g/Note.md"}, "src.md", "Note", false, "g/Note.md"},
		{"extensionless file", []string{"f/LICENSE"}, "src.md", "LICENSE", false, "f/LICENSE"},
		// Unresolved and self.
		{"missing note", []string{"Note.md"}, "src.md", "Missing", false, ""},
		{"self link", []string{"src.md"}, "src.md", "", false, "src.md"},
		{"trailing slash names no file", []string{"folder.md"}, "src.md", "folder/", false, ""},
		{"dot-dot names no file", []string{"a.md"}, "b/src.md", "..", false, ""},
		// Markdown links: relative first, then vault path, then vault-wide.
		{"markdown relative first", []string{"Note.md", "f/Note.md"}, "f/src.md", "Note.md", true, "f/Note.md"},
		{"markdown vault path", []string{"Sub/My Note.md"}, "Sub/x.md", "Sub/My Note.md", true, "Sub/My Note.md"},
		{"markdown vault-wide name", []string{"Sub/My Note.md"}, "src.md", "My Note.md", true, "Sub/My Note.md"},
		{"markdown parent", []string{"a/t.md"}, "b/s.md", "../a/t.md", true, "a/t.md"},
		{"markdown without extension", []string{"a/t.md"}, "a/s.md", "t", true, "a/t.md"},
		{"markdown image", []string{"img/p.png"}, "a/s.md", "../img/p.png", true, "img/p.png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(t, append([]string{tt.from}, tt.files...), nil)
			var got vpath.Path
			var ok bool
			if tt.markdown {
				got, ok = g.ResolveMarkdown(vpath.Path(tt.from), tt.target)
			} else {
				got, ok = g.Resolve(vpath.Path(tt.from), tt.target)
			}
			if string(got) != tt.want || ok != (tt.want != "") {
				t.Errorf("resolve %q from %s = %q, %v; want %q", tt.target, tt.from, got, ok, tt.want)
			}
		})
	}
}

func TestFold(t *testing.T) {
	tests := []struct{ a, b string }{
		{"Note", "note"},
		{"\u212Aelvin", "kelvin"}, // Kelvin sign
		{"ΣΟΦΙΑ", "σοφια"},
		{"ſtraße", "straße"},
		{"中文", "中文"},
	}
	for _, tt := range tests {
		if fold(tt.a) != fold(tt.b) {
			t.Errorf("fold(%q) = %q, fold(%q) = %q; want equal", tt.a, fold(tt.a), tt.b, fold(tt.b))
		}
	}
}
