package uiapi

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/event"
)

// updateShapes rewrites frontend/src/api/shapes.gen.json instead of comparing with it.
var updateShapes = flag.Bool("update-shapes", false, "rewrite frontend/src/api/shapes.gen.json")

// shapesFile is where the JSON shapes of the API are written for the frontend's test
// (src/api/types.test.ts), which compares them with the hand-written TypeScript types.
var shapesFile = filepath.Join("..", "..", "frontend", "src", "api", "shapes.gen.json")

// eventPayloads are the types the events carry, by topic (backend/event).
var eventPayloads = map[event.Topic]any{
	event.VaultChanged:     event.VaultChange{},
	event.GitChanged:       event.GitChange{},
	event.GitProgress:      event.GitProgressLine{},
	event.ChatDelta:        event.ChatDeltaEvent{},
	event.ChatTool:         event.ChatToolEvent{},
	event.ChatApproval:     event.ChatApprovalEvent{},
	event.ChatDone:         event.ChatDoneEvent{},
	event.SearchEmbedding:  event.EmbeddingProgress{},
	event.TaskProgress:     event.TaskProgressEvent{},
	event.ApprovalWaiting:  event.ApprovalEvent{},
	event.ApprovalClosed:   event.ApprovalEvent{},
	event.LibrariesChanged: event.LibrariesChange{},
	event.WindowCommand:    event.WindowCommandEvent{},
}

// shapeField is one JSON field of a struct as the window receives or sends it.
type shapeField struct {
	Name string `json:"name"`
	// Optional is set for omitempty and omitzero fields: the window may not get them.
	Optional bool `json:"optional,omitempty"`
}

// TestTypeScriptShapes writes the JSON field names of every struct the window's API
// takes or returns (the parameters and results of API's methods, and the payloads of
// the events, with every struct they hold) to shapes.gen.json, keyed by Go type
// (package.Type). The frontend's types.test.ts checks src/api/types.ts, gitTypes.ts
// and events.ts against it, so a json tag renamed in Go fails a test instead of
// leaving the window reading a key that is no longer sent.
func TestTypeScriptShapes(t *testing.T) {
	shapes := map[string][]shapeField{}
	typ := reflect.TypeFor[*API]()
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		for j := 1; j < m.Type.NumIn(); j++ {
			collectShapes(m.Type.In(j), shapes)
		}
		for j := range m.Type.NumOut() {
			collectShapes(m.Type.Out(j), shapes)
		}
	}
	if len(eventPayloads) != len(event.Topics) {
		t.Errorf("%d event payloads listed for %d topics: list the new topic's payload in eventPayloads", len(eventPayloads), len(event.Topics))
	}
	for _, p := range eventPayloads {
		collectShapes(reflect.TypeOf(p), shapes)
	}
	got, err := json.MarshalIndent(shapes, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *updateShapes {
		if err := os.WriteFile(shapesFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(shapesFile)
	if err != nil {
		t.Fatalf("read %s (go test ./backend/uiapi -run TestTypeScriptShapes -update-shapes (the flag after the package) writes it): %v", shapesFile, err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s is stale: run go test ./backend/uiapi -run TestTypeScriptShapes -update-shapes (the flag after the package), then update the TypeScript types (-file +Go):\n%s", shapesFile, d)
	}
}

// collectShapes records the JSON fields of t, when it is a struct of this module, and
// of every struct it holds.
func collectShapes(t reflect.Type, out map[string][]shapeField) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		if t.Kind() == reflect.Map {
			collectShapes(t.Key(), out)
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || !strings.HasPrefix(t.PkgPath(), "github.com/memotree/memotree/") {
		return
	}
	name := t.String() // package.Type
	if _, done := out[name]; done {
		return
	}
	out[name] = nil // mark before recursing: types may refer to themselves
	var fields []shapeField
	addFields(t, &fields, out)
	sort.Slice(fields, func(i, j int) bool { return fields[i].Name < fields[j].Name })
	out[name] = fields
}

// addFields appends the JSON fields of struct t, flattening embedded structs as
// encoding/json does.
func addFields(t reflect.Type, fields *[]shapeField, out map[string][]shapeField) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				addFields(et, fields, out)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		optional := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		*fields = append(*fields, shapeField{Name: name, Optional: optional})
		collectShapes(f.Type, out)
	}
}
