package vpath

import (
	"fmt"
	"strings"
	"testing"
)

func TestValidName(t *testing.T) {
	for s, want := range map[string]bool{
		"default": true, "Ada_Lovelace-2.0": true, "笔记": true, "Ünïcödé": true,
		strings.Repeat("a", 64): true, strings.Repeat("笔", 64): true,
		"": false, strings.Repeat("a", 65): false, "a/b": false, "a b": false, "a\\b": false,
		"a\x00b": false, "\xff": false, "a:b": false, "a=b": false,
	} {
		if got := ValidName(s); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestPortable(t *testing.T) {
	for p, want := range map[Path]string{
		"people/Ada Lovelace.md":               "",
		"notes/a.b.md":                         "",
		"CON.md":                               "reserved on Windows",
		"folder/com7.txt":                      "reserved on Windows",
		"Lpt1/x.md":                            "reserved on Windows",
		" lead.md":                             "space",
		"trail /x.md":                          "space",
		"dot./x.md":                            "dot",
		"Note..md":                             "dot",
		Path(strings.Repeat("é", 127) + ".md"): "bytes long",
		Path(strings.Repeat("é", 126) + ".md"): "",
		// What git refuses in a tree (verify_path, is_ntfs_dotgit, is_hfs_dotgit):
		// .git in any case at any depth, its 8.3 short name, the spellings NTFS and
		// HFS+ take for it, and the same for .gitmodules.
		"dir/.git/x.md":           ".git",
		".GIT/y.md":               ".git",
		"a/.Git/b.md":             ".git",
		"d2/git~1/z.md":           ".git",
		"d2/GIT~1/z.md":           ".git",
		"a/.git./x.md":            ".git",
		".git.md":                 "",
		"x/.gitmodules/y.md":      ".gitmodules",
		"x/.GitModules/y.md":      ".gitmodules",
		"x/gitmod~1/y.md":         ".gitmodules",
		"x/gi7eba~3/y.md":         ".gitmodules",
		"a/.g\u200cit/x.md":       ".git",
		"a/.gi\ufefft/x.md":       ".git",
		"a/\u200e.GIT\u200f/x.md": ".git",
		".github/workflows.md":    "",
		"git~1x/a.md":             "",
		"notes/.gitignore.md":     "",
		// What Windows and Obsidian cannot hold: the character is named.
		"ideas/what?.md": `"?"`,
		"a:b.md":         `":"`,
		"a*b.md":         `"*"`,
		"say \"hi\".md":  `"\""`,
		"a<b.md":         `"<"`,
		"a>b.md":         `">"`,
		"a|b.md":         `"|"`,
		"tab\there.md":   "control character",
		"bell\x07.md":    "control character",
		"del\x7f.md":     "control character",
		"CON.txt.md":     "reserved on Windows",
		"nul.tar.gz.md":  "reserved on Windows",
		"COM¹.md":        "reserved on Windows",
		"LPT0.md":        "reserved on Windows",
		"conin$.md":      "reserved on Windows",
		"con-call.md":    "",
		"COM10.md":       "",
	} {
		err := p.Portable()
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%q.Portable() = %v, want %q", p, err, want)
		}
	}
}

// ParseNew refuses a backslash, which Parse takes for a folder separator: a new name
// with one is a mistake on Linux and macOS and a folder on Windows, so it is named.
func TestParseNew(t *testing.T) {
	for s, want := range map[string]string{
		`notes\a.md`:     "backslash",
		"notes/a.md":     "",
		"../a.md":        "leaves the vault",
		"a/.GIT/b.md":    ".git",
		"ideas/what?.md": `"?"`,
		".memotree/a.md": "keep for themselves",
		".MemoTree/a.md": "keep for themselves",
		".OBSIDIAN/a.md": "keep for themselves",
		".Trash/a.md":    "keep for themselves",
		"a/.Trash/b.md":  "",
	} {
		p, err := ParseNew(s)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("ParseNew(%q) = %q, %v, want %q", s, p, err, want)
		}
	}
}

// The shortcut that spares a status folding every name agrees with folding them all,
// for names made of git's own, their case and HFS+ variants and ordinary names.
func TestGitNameShortcutAgrees(t *testing.T) {
	stems := []string{".git", ".GIT", "git~1", "GIT~1", ".gitmodules", "gitmod~3", "GI7EBA~9", "notes", "Git", "gamma", ".obsidian", "中文", "Ünïcode", "ǧit", "\u212Ait"}
	prefixes := []string{"", "\u200c", "\ufeff", " ", "x", "\u0130"}
	suffixes := []string{"", ".", " ", ". .", "\u200d", ".md"}
	n := 0
	for _, p := range prefixes {
		for _, st := range stems {
			for _, sf := range suffixes {
				name := p + st + sf
				if got, want := gitName(name), gitNameFolded(name); got != want {
					t.Errorf("gitName(%q) = %q, folding every name gives %q", name, got, want)
				}
				if gitNameFolded(name) != "" {
					n++
				}
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d of the names tried are git's: the test tries too little", n)
	}
}

// TestInGitFolder finds a folder git takes for its own .git at any depth, in any of
// its spellings, and nothing else.
func TestInGitFolder(t *testing.T) {
	for p, want := range map[Path]bool{
		".git": true, ".git/config": true, "a/.git/hooks/x": true, "a/b/.GIT": true, "a/.git./x": true,
		"a/git~1/x": true, "a/.g\u200cit/x": true, "a/b/.git": true,
		"": false, "a.md": false, ".gitignore": false, "a/.github/x.md": false, "git/x.md": false,
		"a/.gitmodules": false, "a/b.git/x": false, "a//b": false, "a/": false,
	} {
		if got := p.InGitFolder(); got != want {
			t.Errorf("%q.InGitFolder() = %v, want %v", p, got, want)
		}
	}
}

// A new name may not hold a character a person cannot see or sees as something else
// (C1 controls, zero-width and direction-changing characters): ParseNew refuses it
// with the character named, while Parse, which reads existing files, accepts it.
func TestParseNewRefusesHiddenCharacters(t *testing.T) {
	named := map[string]string{
		"a\u0085b.md":               "U+0085 NEXT LINE",
		"a\u0080b.md":               "U+0080 PADDING CHARACTER",
		"x\u009f.md":                "U+009F APPLICATION PROGRAM COMMAND",
		"invoice\u202Efdp.exe.md":   "U+202E RIGHT-TO-LEFT OVERRIDE",
		"a\u202Ab.md":               "U+202A LEFT-TO-RIGHT EMBEDDING",
		"a\u200Bb.md":               "U+200B ZERO WIDTH SPACE",
		"a\u200Db.md":               "U+200D ZERO WIDTH JOINER",
		"a\u200Fb.md":               "U+200F RIGHT-TO-LEFT MARK",
		"people/\u2066Ada\u2069.md": "U+2066 LEFT-TO-RIGHT ISOLATE",
		"\uFEFFnote.md":             "U+FEFF ZERO WIDTH NO-BREAK SPACE",
		"dir\u2067/x.md":            "U+2067 RIGHT-TO-LEFT ISOLATE",
		"a\u2028b.md":               "U+2028 LINE SEPARATOR",
		"a\u061Cb.md":               "U+061C ARABIC LETTER MARK",
		"a\u2060b.md":               "U+2060 WORD JOINER",
		"a\u206Fb.md":               "U+206F NOMINAL DIGIT SHAPES",
		// A spelling of a reserved folder is refused for what it would be.
		"a/.g\u200cit/b.md":    ".git",
		".memo\u200ctree/a.md": "keep for themselves",
	}
	for s, want := range named {
		if _, err := ParseNew(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseNew(%q) = %v, want an error naming %q", s, err, want)
		} else if strings.ContainsAny(err.Error(), "\u202e\u2066\u200b\u0085") {
			t.Errorf("ParseNew(%q): the message holds the character itself: %q", s, err)
		}
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q) = %v: an existing file with this name could not be read", s, err)
		}
	}
	var refused []rune
	for r := rune(0x80); r <= 0x9f; r++ {
		refused = append(refused, r)
	}
	for _, span := range [][2]rune{{0x200b, 0x200f}, {0x202a, 0x202e}, {0x2066, 0x2069}, {0xfeff, 0xfeff}} {
		for r := span[0]; r <= span[1]; r++ {
			refused = append(refused, r)
		}
	}
	for _, r := range refused {
		s := "a" + string(r) + "b.md"
		if _, err := ParseNew(s); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%U ", r)) {
			t.Errorf("ParseNew(%q) = %v, want an error naming %U", s, err, r)
		}
	}
	for _, s := range []string{"café.md", "日本語/ノート.md", "emoji 🌱.md", "a\u00a0b.md", "a\u2010b.md", "\u00e9t\u00e9.md", "a\u00adb.md", "עברית.md", "العربية.md"} {
		if _, err := ParseNew(s); err != nil {
			t.Errorf("ParseNew(%q) = %v, want it accepted", s, err)
		}
	}
}
