package uiapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/uiapi"
)

// obsidianGraphJSON is graph.json as Obsidian 1.x writes it.
const obsidianGraphJSON = `{
  "collapse-filter": true,
  "search": "-path:Archive",
  "showTags": true,
  "showAttachments": false,
  "hideUnresolved": true,
  "showOrphans": false,
  "collapse-color-groups": false,
  "colorGroups": [
    {"query": "tag:#book", "color": {"a": 1, "rgb": 14048348}},
    {"query": "path:People", "color": {"a": 1, "rgb": 5431473}}
  ],
  "collapse-display": true,
  "showArrow": true,
  "textFadeMultiplier": -1.2,
  "nodeSizeMultiplier": 1.5,
  "lineSizeMultiplier": 1,
  "collapse-forces": true,
  "centerStrength": 0.3,
  "repelStrength": 12,
  "linkStrength": 0.8,
  "linkDistance": 180,
  "scale": 0.7,
  "close": true
}`

func TestParseObsidianGraph(t *testing.T) {
	v, warns := uiapi.ParseObsidianGraph([]byte(obsidianGraphJSON))
	want := uiapi.GraphView{
		ColorGroups: []uiapi.ColorGroup{{Query: "tag:#book", Color: "#d65c5c"}, {Query: "path:People", Color: "#52e0b1"}},
		Search:      "-path:Archive",
		ShowOrphans: false, ShowUnresolved: false, ShowAttachments: false, ShowTags: true, ShowArrows: true,
		TextFade: -1.2, NodeSize: 1.5, LinkThickness: 1,
		Forces:       uiapi.Forces{Center: 0.3, Repel: 12, LinkStrength: 0.8, LinkDistance: 180},
		HiddenGroups: []string{},
	}
	if d := cmp.Diff(want, v); d != "" || len(warns) != 0 {
		t.Errorf("graph.json (-want +got):\n%s\nwarnings: %q", d, warns)
	}
}

// Malformed, older and newer shapes: each field read on its own, what cannot be
// read named and left at its default, never fatal.
func TestParseObsidianGraphTolerant(t *testing.T) {
	def := uiapi.DefaultGraphView()
	for _, tc := range []struct {
		name, in string
		check    func(v uiapi.GraphView) bool
		warns    []string
	}{
		{"not JSON", "{colorGroups: [", func(v uiapi.GraphView) bool { return cmp.Equal(v, def) }, []string{"not a JSON object"}},
		{"an array", "[1, 2]", func(v uiapi.GraphView) bool { return cmp.Equal(v, def) }, []string{"not a JSON object"}},
		{"empty object", "{}", func(v uiapi.GraphView) bool { return cmp.Equal(v, def) }, nil},
		{"wrong types", `{"showTags": "yes", "repelStrength": "strong", "colorGroups": {"query": "x"}, "search": 3}`,
			func(v uiapi.GraphView) bool { return cmp.Equal(v, def) }, []string{"colorGroups", "repelStrength", "search", "showTags"}},
		{"out of range", `{"linkDistance": 9000, "centerStrength": -1, "nodeSizeMultiplier": 2}`,
			func(v uiapi.GraphView) bool { return v.Forces == def.Forces && v.NodeSize == 2 }, []string{"centerStrength", "linkDistance"}},
		{"bad groups among good", `{"colorGroups": [{"query": "tag:#a", "color": {"a": 1, "rgb": 255}}, {"color": {"rgb": 1}}, {"query": "x", "color": {"rgb": -4}}, "path:y", {"query": "file:z", "color": "#ABC"}]}`,
			func(v uiapi.GraphView) bool {
				return cmp.Equal(v.ColorGroups, []uiapi.ColorGroup{{Query: "tag:#a", Color: "#0000ff"}, {Query: "file:z", Color: "#aabbcc"}})
			}, []string{"colorGroups[1]", "colorGroups[2]", "colorGroups[3]"}},
		{"an older showUnresolved, newer unknown fields", `{"showUnresolved": false, "collapse-everything": 1, "newThing": {"x": [1]}}`,
			func(v uiapi.GraphView) bool { return !v.ShowUnresolved }, nil},
		{"a byte order mark", "\xef\xbb\xbf{\"showOrphans\": false}", func(v uiapi.GraphView) bool { return !v.ShowOrphans }, nil},
		// Each group's query is matched against every note: a file of thousands would
		// hold the window for minutes.
		{"thousands of groups", `{"colorGroups": [` + strings.Repeat(`{"query": "tag:#x", "color": {"a": 1, "rgb": 255}},`, 5000) + `{"query": "last", "color": "#fff"}]}`,
			func(v uiapi.GraphView) bool {
				return len(v.ColorGroups) == uiapi.MaxColorGroups && v.ColorGroups[0] == uiapi.ColorGroup{Query: "tag:#x", Color: "#0000ff"}
			}, []string{"the first 100"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, warns := uiapi.ParseObsidianGraph([]byte(tc.in))
			if !tc.check(v) {
				t.Errorf("view %+v", v)
			}
			if len(warns) != len(tc.warns) {
				t.Fatalf("warnings %q, want %d naming %q", warns, len(tc.warns), tc.warns)
			}
			for i, w := range tc.warns {
				if !strings.Contains(warns[i], w) {
					t.Errorf("warning %q does not name %q", warns[i], w)
				}
			}
		})
	}
}

func FuzzParseObsidianGraph(f *testing.F) {
	f.Add([]byte(obsidianGraphJSON))
	f.Add([]byte(`{"colorGroups": [{"query": 1, "color": {"rgb": 1e400}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, _ := uiapi.ParseObsidianGraph(b)
		if v.ColorGroups == nil || v.HiddenGroups == nil {
			t.Fatal("nil lists")
		}
		for _, g := range v.ColorGroups {
			if len(g.Color) != 7 || g.Color[0] != '#' {
				t.Fatalf("colour %q", g.Color)
			}
		}
	})
}

// A library's settings: Obsidian's graph.json read (and left as it was), MemoTree's
// own saved in .memotree and preferred once saved; a damaged file of ours is a warning.
func TestGraphSettingsReadAndSaved(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"Ada.md": "Hello.\n"})
	if err := os.MkdirAll(filepath.Join(dir, ".obsidian"), 0o755); err != nil {
		t.Fatal(err)
	}
	obsidian := filepath.Join(dir, ".obsidian", "graph.json")
	if err := os.WriteFile(obsidian, []byte(obsidianGraphJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	a, _ := openAPI(t, dir)
	read := func() uiapi.VaultSettingsView {
		t.Helper()
		s, err := a.VaultSettings("v")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	save := func(v uiapi.GraphView) {
		t.Helper()
		if _, err := a.SaveVaultSettings("v", uiapi.VaultSettingsPatch{Graph: &v}); err != nil {
			t.Fatal(err)
		}
	}
	s := read()
	if s.GraphSaved || s.Obsidian == nil || len(s.Settings.Graph.ColorGroups) != 2 || s.Settings.Graph.ColorGroups[0].Query != "tag:#book" || len(s.Warnings) != 0 {
		t.Fatalf("Obsidian's settings shown: %+v", s)
	}
	mine := s.Settings.Graph
	mine.ColorGroups = append(mine.ColorGroups, uiapi.ColorGroup{Query: "tag:#history", Color: "#123456"}, uiapi.ColorGroup{Query: "bad", Color: "red"})
	mine.HiddenGroups = []string{"path:People"}
	many := mine
	for range 2 * uiapi.MaxColorGroups {
		many.ColorGroups = append(many.ColorGroups, uiapi.ColorGroup{Query: "x", Color: "#000000"})
	}
	save(many)
	if s := read(); len(s.Settings.Graph.ColorGroups) != uiapi.MaxColorGroups {
		t.Errorf("%d groups saved and read back, want the first %d", len(s.Settings.Graph.ColorGroups), uiapi.MaxColorGroups)
	}
	save(mine)
	s = read()
	if g := s.Settings.Graph; !s.GraphSaved || len(g.ColorGroups) != 3 || g.ColorGroups[2].Color != "#123456" || g.HiddenGroups[0] != "path:People" {
		t.Errorf("our settings, a colour that is not #rrggbb dropped: %+v", g)
	}
	if b, _ := os.ReadFile(obsidian); string(b) != obsidianGraphJSON {
		t.Error(".obsidian/graph.json was changed")
	}
	if err := os.WriteFile(filepath.Join(dir, ".memotree", "graph.json"), []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	s = read()
	if s.GraphSaved || len(s.Settings.Graph.ColorGroups) != 2 || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "damaged") {
		t.Errorf("a damaged file of ours: Obsidian's settings and a warning: %+v", s)
	}
}
