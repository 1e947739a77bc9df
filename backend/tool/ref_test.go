package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

// listRef and echoRef are the typed handles of two test tools.
var (
	listRef = NewRef[listIn, *listOut]("list")
	echoRef = NewRef[echoIn, echoIn]("echo")
)

func TestRefCallTyped(t *testing.T) {
	r := testRegistry(t)
	res, out, err := listRef.Call(t.Context(), r, &Call{Actor: ActorUser}, listIn{EntityGlob: "*", Paging: Paging{Offset: 110}})
	if err != nil || res.Status != StatusSuccess {
		t.Fatalf("Call = %+v, %v", res, err)
	}
	if len(out.Entities) != 10 || out.Page.Total != 120 || out.Entities[0] != r.mustList(t)[110] {
		t.Errorf("out = %d entities, page %+v", len(out.Entities), out.Page)
	}
	if res.Data != any(out) {
		t.Errorf("the output is not the result's data: %T", res.Data)
	}
	// The arguments are validated as any caller's: an enum the schema refuses.
	res, e, err := echoRef.Call(t.Context(), r, nil, echoIn{EntityNames: []string{"a"}, Mode: "sideways"})
	if err != nil || res.ErrorCode != CodeInvalidArguments || e.EntityNames != nil {
		t.Errorf("invalid typed arguments = %+v, %+v, %v", res, e, err)
	}
}

// mustList returns the names the list tool pages through.
func (r *Registry) mustList(t *testing.T) []string {
	t.Helper()
	res, err := r.Call(t.Context(), nil, "list", json.RawMessage(`{"entity_glob":"*","limit":500}`))
	if err != nil {
		t.Fatal(err)
	}
	return res.Data.(*listOut).Entities
}

func TestRefCallGuardedAndFailing(t *testing.T) {
	r := testRegistry(t)
	r.SetGuard(func(*Call, Request) *Result {
		res := Fail(CodePermissionDenied, "no")
		return &res
	})
	res, out, err := listRef.Call(t.Context(), r, nil, listIn{EntityGlob: "*"})
	if err != nil || res.ErrorCode != CodePermissionDenied || out != nil {
		t.Errorf("guarded typed call = %+v, %v, %v", res, out, err)
	}
	r.SetGuard(nil)
	refuse := NewRef[emptyIn, *emptyIn]("refuse")
	res, o, err := refuse.Call(t.Context(), r, nil, emptyIn{})
	if err != nil || res.ErrorCode != CodeNotFound || o != nil || res.Data == nil {
		t.Errorf("a failure keeps its details in the result, not the output: %+v, %v, %v", res, o, err)
	}
}

func TestRefCallWrongTool(t *testing.T) {
	r := testRegistry(t)
	if _, _, err := NewRef[listIn, *listOut]("missing").Call(t.Context(), r, nil, listIn{}); !errors.Is(err, ErrNotRegistered) {
		t.Errorf("unregistered = %v", err)
	}
	if _, _, err := NewRef[listIn, *echoIn]("list").Call(t.Context(), r, nil, listIn{}); !errors.Is(err, ErrTypeMismatch) {
		t.Errorf("other output type = %v", err)
	}
	if _, _, err := NewRef[echoIn, *listOut]("list").Call(t.Context(), r, nil, echoIn{}); !errors.Is(err, ErrTypeMismatch) {
		t.Errorf("other input type = %v", err)
	}
}

func TestOutputIsTheData(t *testing.T) {
	r := NewRegistry()
	err := r.Register(
		newTool("nothing", ReadOnly, "d", func(ctx context.Context, c *Call, in emptyIn) (Result, *listOut, error) {
			return OK("nothing to say"), nil, nil
		}),
		newTool("both", ReadOnly, "d", func(ctx context.Context, c *Call, in emptyIn) (Result, *listOut, error) {
			return OK("two answers").WithData("stray"), &listOut{}, nil
		}),
		newTool("partly", Write, "d", func(ctx context.Context, c *Call, in emptyIn) (Result, *listOut, error) {
			return Partial("1 of 2", "b failed"), &listOut{Entities: []string{"a"}}, nil
		}),
		newTool("failing", Write, "d", func(ctx context.Context, c *Call, in emptyIn) (Result, *listOut, error) {
			return Fail(CodeConflict, "changed"), &listOut{Entities: []string{"ignored"}}, nil
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := r.Call(t.Context(), nil, "nothing", nil); res.Data != nil || res.Status != StatusSuccess {
		t.Errorf("a nil output = %+v, want no data", res)
	}
	if res, err := r.Call(t.Context(), nil, "both", nil); err == nil || res.ErrorCode != CodeInternal {
		t.Errorf("a success with data and output = %+v, %v; want an internal error", res, err)
	}
	if res, _ := r.Call(t.Context(), nil, "partly", nil); res.Status != StatusPartial || res.Data.(*listOut).Entities[0] != "a" {
		t.Errorf("partial = %+v", res)
	}
	if res, _ := r.Call(t.Context(), nil, "failing", nil); res.Data != nil {
		t.Errorf("a failure's output was sent: %+v", res)
	}
}

func TestOutputSchema(t *testing.T) {
	tl := newTool("list", ReadOnly, "d", func(ctx context.Context, c *Call, in listIn) (Result, *listOut, error) {
		return OK(""), nil, nil
	})
	if err := tl.OutputErr(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, tl.OutputSchema(), "", "  "); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("\n")
	golden(t, "output_schema_list.golden", buf.Bytes())

	var s jsonschema.Schema
	if err := json.Unmarshal(tl.OutputSchema(), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	page, info := Page([]string{"a", "b"}, 0, 1)
	tests := []struct {
		name string
		res  Result
		ok   bool
	}{
		{"success", OK("1 of 2").WithData(&listOut{Entities: page, Page: info}), true},
		{"nil list", OK("none").WithData(&listOut{}), true},
		{"no data", OK("none"), true},
		{"error with details", Fail(CodeNotFound, "no").WithData(map[string]any{"nearest": []string{"a"}}), true},
		{"success of another shape", OK("x").WithData(map[string]any{"nearest": []string{"a"}}), false},
		{"wrong type", OK("x").WithData(map[string]any{"entities": "a", "page": info}), false},
	}
	for _, tt := range tests {
		var v any
		if err := json.Unmarshal(tt.res.JSON(), &v); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(v); (err == nil) != tt.ok {
			t.Errorf("%s: validate = %v, want ok %v\n%s", tt.name, err, tt.ok, tt.res.JSON())
		}
	}
}

func TestOutputSchemaOfAnyOutput(t *testing.T) {
	tl := newTool("e", ReadOnly, "d", nop[emptyIn])
	var s map[string]any
	if err := json.Unmarshal(tl.OutputSchema(), &s); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"properties": map[string]any{"data": true}} // the schema {} is written true
	if d := cmp.Diff(want, s["else"]); d != "" {
		t.Errorf("an output of type any allows any data (-want +got):\n%s", d)
	}
}

func TestLibraryArg(t *testing.T) {
	type in struct {
		EntityName string `json:"entity_name"`
		LibraryArg
	}
	var got string
	tl := newTool("find", ReadOnly, "d", func(ctx context.Context, c *Call, v in) (Result, any, error) {
		got = c.Library
		return OK(""), nil, nil
	})
	if u := tl.Usage(); u != "find(entity_name: string, library_name?: string)" {
		t.Errorf("usage = %q", u)
	}
	if d := tl.Schema().Properties[LibraryParam].Description; d != "the library; the default one when absent" {
		t.Errorf("description = %q", d)
	}
	other := newTool("list", ReadOnly, "d", nop[in]).Describe(LibraryParam, "ignored")
	if d := other.Schema().Properties[LibraryParam].Description; d != "ignored" {
		t.Errorf("Describe: %q", d)
	}
	r := NewRegistry()
	if err := r.Register(tl); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Call(t.Context(), &Call{Library: "default"}, "find", json.RawMessage(`{"entity_name":"x","library_name":"work"}`)); err != nil || got != "work" {
		t.Errorf("Call.Library = %q, %v; want work", got, err)
	}
}

func TestEither(t *testing.T) {
	type one struct {
		A string `json:"a"`
	}
	type two struct {
		B []int `json:"b"`
	}
	tl := newTool("either", ReadOnly, "d", func(ctx context.Context, c *Call, in listIn) (Result, *Either[one, two], error) {
		if in.EntityGlob == "two" {
			return OK(""), &Either[one, two]{Right: &two{B: []int{1}}}, nil
		}
		return OK(""), &Either[one, two]{Left: &one{A: "x < y & z"}}, nil
	})
	var s jsonschema.Schema
	if err := json.Unmarshal(tl.OutputSchema(), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRegistry()
	if err := r.Register(tl); err != nil {
		t.Fatal(err)
	}
	for glob, want := range map[string]string{"one": `"data":{"a":"x < y & z"}`, "two": `"data":{"b":[1]}`} {
		res, err := r.Call(t.Context(), nil, "either", json.RawMessage(`{"entity_glob":"`+glob+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		b := res.JSON()
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("%s: %s, want %s", glob, b, want)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s: does not follow the output schema: %v", glob, err)
		}
	}
	bad := OK("").WithData(map[string]any{"a": 1})
	var v any
	_ = json.Unmarshal(bad.JSON(), &v)
	if rs.Validate(v) == nil {
		t.Error("the schema of either form accepts a third")
	}
}
