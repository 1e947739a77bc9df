package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

// rejectCases are arguments the test tools must refuse with invalid_arguments.
var rejectCases = []struct {
	name string
	tool string
	args string
	want []string // substrings of the message
}{
	{"string for array", "echo", `{"entity_names":"Ada"}`,
		[]string{`entity_names: expected array of strings, got string "Ada"`, `write ["Ada"]`}},
	{"missing required", "echo", `{}`, []string{"entity_names: missing required field (array of strings)"}},
	{"null object", "echo", `null`, []string{"entity_names: missing required field"}},
	{"required field null", "echo", `{"entity_names":null}`, []string{"entity_names: expected array of strings, got null"}},
	{"unknown field near", "echo", `{"entity_name":["a"]}`, []string{`entity_name: unknown field; did you mean "entity_names"?`}},
	{"unknown field far", "status", `{"zzz":1}`, []string{"zzz: unknown field; this tool takes no arguments"}},
	{"unknown nested field", "echo", `{"entity_names":[],"relations":[{"from":"a","to":"b","type":"k","weight":2}]}`,
		[]string{"relations[0].weight: unknown field; known fields: from, to, type"}},
	{"nested missing", "echo", `{"entity_names":[],"relations":[{"from":"a"}]}`,
		[]string{"relations[0].to: missing required field (string)", "relations[0].type: missing required field"}},
	{"wrong item type", "echo", `{"entity_names":["a",2,true]}`,
		[]string{"entity_names[1]: expected string, got integer 2", "entity_names[2]: expected string, got boolean true"}},
	{"float for integer", "echo", `{"entity_names":[],"count":1.5}`, []string{"count: expected integer, got number 1.5"}},
	{"string for integer", "echo", `{"entity_names":[],"count":"3"}`, []string{`count: expected integer, got string "3"`}},
	{"integer overflow", "echo", `{"entity_names":[],"count":1e300}`, []string{"count: expected int, got number 1e300"}},
	{"enum", "echo", `{"entity_names":[],"mode":"overwrite"}`,
		[]string{`mode: "overwrite" is not one of "merge", "replace", "append", "prepend"`}},
	{"map value type", "echo", `{"entity_names":[],"props":{"a":1}}`, []string{"props.a: expected string, got integer 1"}},
	{"array for object", "echo", `["a","b"]`, []string{"arguments must be a JSON object, got array"}},
	{"string for object", "echo", `"hello"`, []string{"arguments must be a JSON object, got string"}},
	{"object for nested array", "echo", `{"entity_names":{"0":"a"}}`, []string{"entity_names: expected array of strings, got object"}},
	{"invalid JSON", "echo", `{"entity_names":[`, []string{"arguments are not valid JSON"}},
	{"trailing junk", "echo", `{"entity_names":[]} {}`, []string{"more than one JSON value"}},
	{"limit above max", "list", `{"entity_glob":"*","limit":501}`, []string{"limit: 501 is greater than the maximum 500"}},
	{"negative offset", "list", `{"entity_glob":"*","offset":-1}`, []string{"offset: -1 is less than the minimum 0"}},
	{"deep nesting", "echo", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), []string{"not valid JSON", "depth"}},
	{"deep junk in a map", "echo", `{"entity_names":[],"props":{"a":` + strings.Repeat(`{"b":`, 5000) + "1" + strings.Repeat("}", 5001) + "}",
		[]string{"props.a: expected string, got object"}},
	{"many problems capped", "echo", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8}`, []string{"entity_names: missing required field"}},
}

func TestValidationRejects(t *testing.T) {
	r := testRegistry(t)
	for _, tt := range rejectCases {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Call(t.Context(), nil, tt.tool, json.RawMessage(tt.args))
			if err != nil {
				t.Fatalf("Call returned error %v", err)
			}
			if res.Status != StatusError || res.ErrorCode != CodeInvalidArguments {
				t.Fatalf("got %s/%s, want error/invalid_arguments: %s", res.Status, res.ErrorCode, res.Message)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Message, w) {
					t.Errorf("message lacks %q:\n%s", w, res.Message)
				}
			}
			if !strings.Contains(res.Message, "usage: "+tt.tool+"(") {
				t.Errorf("message lacks the usage line:\n%s", res.Message)
			}
			if n := strings.Count(res.Message, "unknown field"); n > maxProblems {
				t.Errorf("message lists %d problems", n)
			}
		})
	}
}

func TestValidationAccepts(t *testing.T) {
	r := testRegistry(t)
	ratio := 0.5
	tests := []struct {
		name string
		args string
		want echoIn
	}{
		{"minimal", `{"entity_names":["Ada"]}`, echoIn{EntityNames: []string{"Ada"}}},
		{"empty list", `{"entity_names":[]}`, echoIn{EntityNames: []string{}}},
		{"optional nulls count as absent", `{"entity_names":["a"],"mode":null,"ratio":null,"props":null,"relations":null}`,
			echoIn{EntityNames: []string{"a"}}},
		{"NUL bytes and long names reach the handler", `{"entity_names":["a\u0000b","` + strings.Repeat("x", 5000) + `"]}`,
			echoIn{EntityNames: []string{"a\x00b", strings.Repeat("x", 5000)}}},
		{"integral float for integer", `{"entity_names":[],"count":3.0}`, echoIn{EntityNames: []string{}, Count: 3}},
		{"everything", `{"entity_names":["a"],"mode":"merge","count":2,"ratio":0.5,"props":{"k":"v"},` +
			`"relations":[{"from":"a","to":"b","type":"knows"}],"confirmed":true,"library_name":"work"}`,
			echoIn{EntityNames: []string{"a"}, Mode: "merge", Count: 2, Ratio: &ratio, Props: map[string]string{"k": "v"},
				Relations: []relation{{"a", "b", "knows"}}, Confirmed: true, LibraryName: "work"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Call(t.Context(), nil, "echo", json.RawMessage(tt.args))
			if err != nil || res.Status != StatusSuccess {
				t.Fatalf("Call = %s %s, %v", res.Status, res.Message, err)
			}
			if diff := cmp.Diff(tt.want, res.Data); diff != "" {
				t.Errorf("handler input (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNoArguments(t *testing.T) {
	r := testRegistry(t)
	for _, args := range []string{``, `null`, `{}`, "  \n"} {
		res, err := r.Call(t.Context(), nil, "status", json.RawMessage(args))
		if err != nil || res.Status != StatusSuccess {
			t.Errorf("status with %q = %s %s, %v", args, res.Status, res.Message, err)
		}
	}
}

func TestTooLarge(t *testing.T) {
	r := testRegistry(t)
	big := `{"entity_names":["` + strings.Repeat("a", 1<<20) + `"]}`
	res, err := r.Call(t.Context(), nil, "echo", json.RawMessage(big))
	if err != nil || res.Status != StatusSuccess {
		t.Fatalf("1 MiB under the default limit: %s %s, %v", res.Status, res.ErrorCode, err)
	}
	r.SetMaxArgsBytes(1 << 19)
	res, err = r.Call(t.Context(), nil, "echo", json.RawMessage(big))
	if err != nil || res.ErrorCode != CodeTooLarge {
		t.Fatalf("1 MiB over a 512 KiB limit: %s %s, %v", res.Status, res.ErrorCode, err)
	}
}

func TestMegabyteOfJunk(t *testing.T) {
	r := testRegistry(t)
	junk := make([]string, 0, 100000)
	for i := range 100000 {
		junk = append(junk, `{"k":[1,2,{"x":null}]}`[:i%20+1])
	}
	payloads := map[string]string{
		"array of objects":    "[" + strings.Repeat(`{"k":[1,2,{"x":null}]},`, 45000) + "1]",
		"truncated fragments": strings.Join(junk, ","),
		"huge unknown field":  `{"entity_names":[],"` + strings.Repeat("k", 1<<20) + `":1}`,
	}
	for name, p := range payloads {
		t.Run(name, func(t *testing.T) {
			res, err := r.Call(context.Background(), nil, "echo", json.RawMessage(p))
			if err != nil || res.ErrorCode != CodeInvalidArguments {
				t.Fatalf("got %s %s, %v", res.Status, res.ErrorCode, err)
			}
			if len(res.Message) > 2000 {
				t.Errorf("message is %d bytes long", len(res.Message))
			}
		})
	}
}

func TestBackstopValidator(t *testing.T) {
	type in struct {
		Name string   `json:"name"`
		Tags []string `json:"tags,omitempty"`
	}
	tl := newTool("tagged", ReadOnly, "d", nop[in]).Tune(func(s *jsonschema.Schema) error {
		s.Properties["name"].Pattern = `^[a-z]+$`
		s.Properties["tags"].UniqueItems = true
		return nil
	})
	if !tl.ready().backstop {
		t.Fatal("a schema with a pattern does not use the full validator")
	}
	if newTool("echo", ReadOnly, "d", nop[echoIn]).ready().backstop {
		t.Error("a derived schema uses the full validator")
	}
	r := NewRegistry()
	if err := r.Register(tl); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ args, want string }{
		{`{"name":"Ada"}`, `name: pattern: "Ada" does not match regular expression "^[a-z]+$"`},
		{`{"name":"ada","tags":["x","x"]}`, `tags: uniqueItems: array items 1 and 0 are equal`},
		{`{"name":"ada","tags":["x","y"]}`, ""},
	}
	for _, tt := range tests {
		res, _ := r.Call(t.Context(), nil, "tagged", json.RawMessage(tt.args))
		if tt.want == "" {
			if res.Status != StatusSuccess {
				t.Errorf("%s: %s", tt.args, res.Message)
			}
			continue
		}
		if res.ErrorCode != CodeInvalidArguments || !strings.Contains(res.Message, tt.want) {
			t.Errorf("%s: got %s %q, want %q", tt.args, res.ErrorCode, res.Message, tt.want)
		}
	}
}
