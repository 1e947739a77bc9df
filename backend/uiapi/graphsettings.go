package uiapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/memotree/memotree/backend/settings"
	"github.com/memotree/memotree/backend/vault"
)

// GraphView is how a library's graph is shown: Obsidian's graph settings (colour
// groups, filters, display, forces) and MemoTree's own (hidden groups). A field added
// here gets its default in DefaultGraphView, and the window's GraphViewSettings
// (frontend/src/api/types.ts) the same field; a filter is also one line of the
// window's GRAPH_FILTERS (frontend/src/lib/graphViewSettings.ts).
type GraphView struct {
	// ColorGroups colour the notes a query matches, the first matching group winning.
	ColorGroups []ColorGroup `json:"color_groups"`
	// Search keeps only the notes a query matches ("" for all).
	Search          string `json:"search"`
	ShowOrphans     bool   `json:"show_orphans"`
	ShowUnresolved  bool   `json:"show_unresolved"`
	ShowAttachments bool   `json:"show_attachments"`
	ShowTags        bool   `json:"show_tags"`
	ShowArrows      bool   `json:"show_arrows"`
	// TextFade moves the zoom at which labels appear, from -3 (sooner) to 3 (later).
	TextFade float64 `json:"text_fade"`
	// NodeSize and LinkThickness multiply the nodes' sizes and the edges' widths.
	NodeSize      float64 `json:"node_size"`
	LinkThickness float64 `json:"link_thickness"`
	Forces        Forces  `json:"forces"`
	// HiddenGroups lists the colour groups (by query) whose notes the legend hides.
	HiddenGroups []string `json:"hidden_groups"`
}

// ColorGroup is one colour group: a query and a colour ("#rrggbb").
type ColorGroup struct {
	Query string `json:"query"`
	Color string `json:"color"`
}

// Forces are the layout's forces, as Obsidian's sliders name them.
type Forces struct {
	Center       float64 `json:"center"`
	Repel        float64 `json:"repel"`
	LinkStrength float64 `json:"link_strength"`
	LinkDistance float64 `json:"link_distance"`
}

// DefaultGraphView is a graph shown as Obsidian shows one by default: the one source
// of the graph's defaults, forces included, which the window is served.
func DefaultGraphView() GraphView {
	return GraphView{
		ColorGroups: []ColorGroup{}, ShowOrphans: true, ShowUnresolved: true, ShowAttachments: false,
		NodeSize: 1, LinkThickness: 1, HiddenGroups: []string{},
		Forces: Forces{Center: 0.518713, Repel: 10, LinkStrength: 1, LinkDistance: 250},
	}
}

// MaxColorGroups bounds the colour groups a graph uses: each group's query is matched
// against every note, and Obsidian's own settings panel shows a few dozen at most.
const MaxColorGroups = 100

// graphSection is where MemoTree keeps a library's graph settings: .memotree/graph.json
// (never .obsidian, which is Obsidian's).
var graphSection = settings.Section[GraphView]{
	File:    "graph.json",
	Default: DefaultGraphView,
	Normal:  normalView,
	Damaged: "the graph shows Obsidian's or the default settings until they are saved again",
}

// graphView reads how a library's graph is to be shown: MemoTree's saved settings,
// else Obsidian's .obsidian/graph.json (only ever read), else the defaults. obsidian
// is what Obsidian's file says, nil when the vault has none; saved is true when the
// view is MemoTree's own.
func graphView(v vault.State) (view GraphView, obsidian *GraphView, saved bool, warnings []string) {
	view = DefaultGraphView()
	if b, err := v.ReadObsidianConfig("graph.json"); err == nil {
		obs, warns := ParseObsidianGraph(b)
		obsidian, view = &obs, obs
		for _, w := range warns {
			warnings = append(warnings, ".obsidian/graph.json: "+w)
		}
	} else if !errors.Is(err, vault.ErrNotFound) {
		warnings = append(warnings, err.Error())
	}
	own, loaded := graphSection.Load(v)
	warnings = append(warnings, loaded.Warnings...)
	if loaded.Saved {
		view = own
	}
	return view, obsidian, loaded.Saved, warnings
}

// normalView bounds every number of v and replaces nil lists, so that the window
// never gets a NaN or a null.
func normalView(v GraphView) GraphView {
	d := DefaultGraphView()
	num := func(x, lo, hi, def float64) float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return def
		}
		return math.Min(hi, math.Max(lo, x))
	}
	v.TextFade = num(v.TextFade, -3, 3, 0)
	if v.NodeSize == 0 {
		v.NodeSize = d.NodeSize
	}
	if v.LinkThickness == 0 {
		v.LinkThickness = d.LinkThickness
	}
	v.NodeSize = num(v.NodeSize, 0.1, 5, d.NodeSize)
	v.LinkThickness = num(v.LinkThickness, 0.1, 5, d.LinkThickness)
	if v.Forces == (Forces{}) {
		v.Forces = d.Forces
	}
	v.Forces.Center = num(v.Forces.Center, 0, 1, d.Forces.Center)
	v.Forces.Repel = num(v.Forces.Repel, 0, 20, d.Forces.Repel)
	v.Forces.LinkStrength = num(v.Forces.LinkStrength, 0, 1, d.Forces.LinkStrength)
	v.Forces.LinkDistance = num(v.Forces.LinkDistance, 30, 500, d.Forces.LinkDistance)
	groups := make([]ColorGroup, 0, len(v.ColorGroups))
	for _, g := range v.ColorGroups {
		if c, ok := hexColor(g.Color); ok {
			groups = append(groups, ColorGroup{Query: g.Query, Color: c})
		}
	}
	v.ColorGroups = groups[:min(len(groups), MaxColorGroups)]
	if v.HiddenGroups == nil {
		v.HiddenGroups = []string{}
	}
	return v
}

// hexColor accepts "#rgb" or "#rrggbb" and returns "#rrggbb" in lower case.
func hexColor(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) == 4 && s[0] == '#' {
		s = "#" + strings.Repeat(s[1:2], 2) + strings.Repeat(s[2:3], 2) + strings.Repeat(s[3:4], 2)
	}
	if len(s) != 7 || s[0] != '#' {
		return "", false
	}
	for _, c := range s[1:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return "", false
		}
	}
	return s, true
}

// ParseObsidianGraph reads Obsidian's .obsidian/graph.json field by field: a field
// that is missing, of another type or out of range keeps its default and, unless
// missing, is named in the warnings; fields it does not know are ignored. It never
// fails: a file that is not a JSON object gives the defaults and one warning.
func ParseObsidianGraph(b []byte) (GraphView, []string) {
	v := DefaultGraphView()
	var warns []string
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), &raw); err != nil || raw == nil {
		return v, []string{"not a JSON object: Obsidian's graph settings are ignored"}
	}
	field := func(name string, into any) {
		r, ok := raw[name]
		if !ok || string(r) == "null" {
			return
		}
		if err := json.Unmarshal(r, into); err != nil {
			warns = append(warns, fmt.Sprintf("%s is not what Obsidian writes there (%s): ignored", name, shortJSON(r)))
		}
	}
	boolField := func(name string, into *bool) { field(name, into) }
	numField := func(name string, into *float64, lo, hi float64) {
		x := *into
		field(name, &x)
		if math.IsNaN(x) || x < lo || x > hi {
			warns = append(warns, fmt.Sprintf("%s is %v, outside %v–%v: ignored", name, x, lo, hi))
			return
		}
		*into = x
	}
	field("search", &v.Search)
	boolField("showOrphans", &v.ShowOrphans)
	boolField("showAttachments", &v.ShowAttachments)
	boolField("showTags", &v.ShowTags)
	boolField("showArrow", &v.ShowArrows)
	// Obsidian writes hideUnresolved ("Existing files only"); read showUnresolved too.
	if _, ok := raw["hideUnresolved"]; ok {
		hide := !v.ShowUnresolved
		boolField("hideUnresolved", &hide)
		v.ShowUnresolved = !hide
	} else {
		boolField("showUnresolved", &v.ShowUnresolved)
	}
	numField("textFadeMultiplier", &v.TextFade, -3, 3)
	numField("nodeSizeMultiplier", &v.NodeSize, 0.1, 5)
	numField("lineSizeMultiplier", &v.LinkThickness, 0.1, 5)
	numField("centerStrength", &v.Forces.Center, 0, 1)
	numField("repelStrength", &v.Forces.Repel, 0, 20)
	numField("linkStrength", &v.Forces.LinkStrength, 0, 1)
	numField("linkDistance", &v.Forces.LinkDistance, 30, 500)
	var groups []json.RawMessage
	field("colorGroups", &groups)
	if len(groups) > MaxColorGroups {
		warns = append(warns, fmt.Sprintf("colorGroups holds %d groups: the first %d are used", len(groups), MaxColorGroups))
		groups = groups[:MaxColorGroups]
	}
	for i, g := range groups {
		cg, err := obsidianGroup(g)
		if err != nil {
			warns = append(warns, fmt.Sprintf("colorGroups[%d] %v: ignored", i, err))
			continue
		}
		v.ColorGroups = append(v.ColorGroups, cg)
	}
	sort.Strings(warns)
	return v, warns
}

// obsidianGroup reads one colour group: {"query": "...", "color": {"a": 1, "rgb":
// 14048348}}; a "#rrggbb" colour string (another shape) is read too.
func obsidianGroup(b json.RawMessage) (ColorGroup, error) {
	var g struct {
		Query *string         `json:"query"`
		Color json.RawMessage `json:"color"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		return ColorGroup{}, fmt.Errorf("is not an object with a query and a colour (%s)", shortJSON(b))
	}
	if g.Query == nil {
		return ColorGroup{}, errors.New("has no query")
	}
	var c struct {
		RGB *float64 `json:"rgb"`
	}
	var s string
	switch {
	case json.Unmarshal(g.Color, &c) == nil && c.RGB != nil && *c.RGB >= 0 && *c.RGB <= 0xffffff && *c.RGB == math.Trunc(*c.RGB):
		return ColorGroup{Query: *g.Query, Color: fmt.Sprintf("#%06x", int(*c.RGB))}, nil
	case json.Unmarshal(g.Color, &s) == nil:
		if hex, ok := hexColor(s); ok {
			return ColorGroup{Query: *g.Query, Color: hex}, nil
		}
	}
	return ColorGroup{}, fmt.Errorf("has a colour that is not {\"a\", \"rgb\"} with rgb from 0 to 16777215 (%s)", shortJSON(g.Color))
}

// shortJSON shows at most 60 bytes of a JSON value, for a warning.
func shortJSON(b []byte) string {
	s := string(b)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
