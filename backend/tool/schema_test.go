package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

// nop is a handler for tools whose behaviour does not matter.
func nop[In any](ctx context.Context, c *Call, in In) (Result, any, error) { return OK(""), nil, nil }

func TestSchemaGolden(t *testing.T) {
	tests := []struct {
		name string
		tool *Tool
	}{
		{"echo", newTool("echo", ReadOnly, "d", nop[echoIn]).Enum("mode", "merge", "replace", "append", "prepend")},
		{"list", newTool("list", ReadOnly, "d", nop[listIn])},
		{"empty", newTool("empty", ReadOnly, "d", nop[emptyIn])},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.tool.Err(); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := json.Indent(&buf, tt.tool.InputSchema(), "", "  "); err != nil {
				t.Fatal(err)
			}
			buf.WriteString("\n")
			golden(t, "schema_"+tt.name+".golden", buf.Bytes())
		})
	}
}

// collectTypes walks a schema and records every "type" and "types" it finds.
func collectTypes(s *jsonschema.Schema, path string, out map[string]any) {
	if s == nil {
		return
	}
	if s.Type != "" {
		out[path] = s.Type
	}
	if s.Types != nil {
		out[path] = s.Types
	}
	for k, p := range s.Properties {
		collectTypes(p, path+"."+k, out)
	}
	collectTypes(s.Items, path+"[]", out)
	if !isFalse(s.AdditionalProperties) {
		collectTypes(s.AdditionalProperties, path+"{}", out)
	}
}

func TestSchemaPlainTypes(t *testing.T) {
	got := map[string]any{}
	collectTypes(newTool("echo", ReadOnly, "d", nop[echoIn]).Schema(), "", got)
	want := map[string]any{
		"":                  "object",
		".entity_names":     "array",
		".entity_names[]":   "string",
		".mode":             "string",
		".count":            "integer",
		".ratio":            "number",
		".props":            "object",
		".props{}":          "string",
		".relations":        "array",
		".relations[]":      "object",
		".relations[].from": "string",
		".relations[].to":   "string",
		".relations[].type": "string",
		".confirmed":        "boolean",
		".library_name":     "string",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("types (-want +got):\n%s", diff)
	}
}

func TestSchemaRequiredAndDescriptions(t *testing.T) {
	s := newTool("echo", ReadOnly, "d", nop[echoIn]).Schema()
	if diff := cmp.Diff([]string{"entity_names"}, s.Required); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
	if got, want := s.Properties["entity_names"].Description, "the entities to act on"; got != want {
		t.Errorf("description = %q, want %q", got, want)
	}
	if got := s.Properties["relations"].Items.Required; !cmp.Equal(got, []string{"from", "to", "type"}) {
		t.Errorf("nested required = %v", got)
	}
}

func TestDeclarationErrors(t *testing.T) {
	type withChan struct {
		C chan int `json:"c"`
	}
	// Register refuses what it can see without deriving the schema; the rest shows in
	// Err (derived on first use) and in a call, which the registry refuses.
	refused := []struct {
		name string
		tool *Tool
	}{
		{"not a struct", newTool("s", ReadOnly, "d", nop[string])},
		{"nil handler", newTool[emptyIn, any]("n", ReadOnly, "d", nil)},
		{"bad name", newTool("Bad-Name", ReadOnly, "d", nop[emptyIn])},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			if err := NewRegistry().Register(tt.tool); err == nil {
				t.Error("Register accepted the tool")
			}
		})
	}
	broken := []struct {
		name string
		tool func() *Tool
		want string
	}{
		{"unsupported field", func() *Tool { return newTool("c", ReadOnly, "d", nop[withChan]) }, "derive schema"},
		{"enum on missing property", func() *Tool { return newTool("e", ReadOnly, "d", nop[echoIn]).Enum("nope", "a") }, "tune schema"},
	}
	for _, tt := range broken {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.tool().Err(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Err() = %v, want an error mentioning %q", err, tt.want)
			}
			r := NewRegistry()
			tl := tt.tool()
			if err := r.Register(tl); err != nil {
				t.Fatal(err)
			}
			res, err := r.Call(t.Context(), &Call{Actor: ActorCLI}, tl.Name(), json.RawMessage(`{}`))
			if err != nil || !res.IsError() || !strings.Contains(res.Message, "schema is broken") {
				t.Errorf("a call of the broken tool gave %+v, %v; want a refusal naming the broken schema", res, err)
			}
		})
	}
}

func TestEnumNested(t *testing.T) {
	tl := newTool("e", ReadOnly, "d", nop[echoIn]).Enum("relations.type", "knows", "parent of")
	if err := tl.Err(); err != nil {
		t.Fatal(err)
	}
	got := tl.Schema().Properties["relations"].Items.Properties["type"].Enum
	if diff := cmp.Diff([]any{"knows", "parent of"}, got); diff != "" {
		t.Errorf("enum (-want +got):\n%s", diff)
	}
}

func TestAnnotations(t *testing.T) {
	tests := []struct {
		tool *Tool
		want Annotations
	}{
		{newTool("r", ReadOnly, "d", nop[emptyIn]).WithTitle("Read"), Annotations{Title: "Read", ReadOnlyHint: true}},
		{newTool("w", Write, "d", nop[emptyIn]), Annotations{}},
		{newTool("x", Destructive, "d", nop[emptyIn]), Annotations{DestructiveHint: true}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.tool.Annotations()); diff != "" {
			t.Errorf("%s annotations (-want +got):\n%s", tt.tool.Name(), diff)
		}
	}
}

func TestRawJSONField(t *testing.T) {
	type in struct {
		Value json.RawMessage `json:"value" jsonschema:"any JSON value"`
	}
	var got []string
	r := NewRegistry()
	err := r.Register(newTool("raw", Write, "d", func(ctx context.Context, c *Call, in in) (Result, any, error) {
		got = append(got, string(in.Value))
		return OK(""), nil, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{`1`, `"s"`, `[1,{"a":null}]`, `{"k":true}`} {
		if res, _ := r.Call(t.Context(), nil, "raw", json.RawMessage(`{"value":`+v+`}`)); res.Status != StatusSuccess {
			t.Errorf("value %s: %s", v, res.Message)
		}
	}
	if diff := cmp.Diff([]string{`1`, `"s"`, `[1,{"a":null}]`, `{"k":true}`}, got); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	tl, _ := r.Get("raw")
	if want := `raw(value: any value)`; tl.Usage() != want {
		t.Errorf("usage = %q, want %q", tl.Usage(), want)
	}
}
