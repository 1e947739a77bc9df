package tool

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// entry is a struct with json tags, to check that YAML keeps field order and names.
type entry struct {
	EntityName string   `json:"entity_name"`
	TOC        []string `json:"toc"`
	Summary    string   `json:"summary,omitempty"`
}

// renderCases are the results rendered by the golden tests.
var renderCases = []struct {
	name string
	res  Result
}{
	{"success_message_only", Result{Status: StatusSuccess, Message: "Content updated successfully in meta.md.", Elapsed: 1234 * time.Microsecond}},
	{"multiline", OK("read 1 entity").WithData(map[string]any{
		"content": "---\nentity type: person\n---\n\n# Ada\n\nFirst line.\n  indented line\n",
		"note":    "no trailing newline\nsecond line",
	})},
	{"nested", OK("found 2 relations").WithData(map[string]any{
		"found_relations": []relation{{"entity-a", "entity-b", "knows"}, {"entity-c", "entity-b", "parent of"}},
		"tocs":            []entry{{EntityName: "entity-a", TOC: []string{"frontmatter", "## Section 1"}}, {EntityName: "entity-b", TOC: []string{}}},
		"page":            PageInfo{Total: 120, Offset: 50, Limit: 50, NextOffset: 100},
	})},
	{"empty_lists", OK("nothing found").WithData(map[string]any{"entities": []string{}, "matches": map[string]any{}}).WithWarning("index is rebuilding")},
	{"tricky_scalars", OK("values that need quoting").WithData([]any{"yes", "123", "null", "- dash", "key: value", "#hash", "", " padded ", "tab\there", "line\r\nwith crlf", "ctrl\x01char", 42, 3.5, true, nil, "ümlaut ✓"})},
	{"long_mapping_in_list", OK("").WithData([]map[string]string{{"in_entity": "a rather long entity name that goes on", "relation_to": "another quite long name here", "type": "knows"}})},
	{"error", Fail(CodeAmbiguous, "%q matches 2 entities; pass the full name", "Ada").
		WithData(map[string]any{"candidates": []string{"people/Ada", "projects/Ada"}}).
		WithWarning("first warning").WithWarning("second\nwarning")},
	{"string_data", Result{Status: StatusSuccess, Data: "# Manual\n\nHow to use this library.\n", Elapsed: 15 * time.Millisecond}},
	{"partial", Partial("deleted 1 of 2 entities", `"old-2" not found`).WithData(map[string][]string{"deleted_entities": {"old-1"}})},
	{"unrenderable", OK("bad data").WithData(map[string]any{"f": math.Inf(1)})},
}

func TestYAMLGolden(t *testing.T) {
	for _, tt := range renderCases {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, "yaml_"+tt.name+".golden", []byte(tt.res.YAML()))
		})
	}
}

func TestYAMLParsesBack(t *testing.T) {
	for _, tt := range renderCases {
		t.Run(tt.name, func(t *testing.T) {
			var got map[string]any
			if err := yaml.Unmarshal([]byte(tt.res.YAML()), &got); err != nil {
				t.Fatalf("rendered YAML does not parse: %v\n%s", err, tt.res.YAML())
			}
			if got["status"] == nil || got["elapsed"] == nil {
				t.Errorf("status or elapsed missing: %v", got)
			}
			if tt.name == "unrenderable" {
				return
			}
			if got["message"] != nil && got["message"] != tt.res.Message {
				t.Errorf("message = %q, want %q", got["message"], tt.res.Message)
			}
			if tt.res.Data != nil {
				want := roundTrip(t, tt.res.Data)
				if diff := cmp.Diff(want, normalizeYAML(got["data"])); diff != "" {
					t.Errorf("data (-json +yaml):\n%s", diff)
				}
			}
		})
	}
}

// roundTrip returns v as generic JSON values.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// normalizeYAML turns YAML's ints into float64, as JSON decoding gives.
func normalizeYAML(v any) any {
	switch x := v.(type) {
	case int:
		return float64(x)
	case []any:
		for i := range x {
			x[i] = normalizeYAML(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = normalizeYAML(x[k])
		}
	}
	return v
}

func TestJSON(t *testing.T) {
	res := Fail(CodeNotFound, "no entity <Ada>").WithWarning("w")
	res.Elapsed = 1500 * time.Microsecond
	got := string(res.JSON())
	want := `{"status":"error","message":"no entity <Ada>","warnings":["w"],"error_code":"not_found","elapsed_ms":1.5}`
	if got != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
	var back Result
	if err := json.Unmarshal([]byte(got), &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	bad := string(OK("x").WithData(make(chan int)).JSON())
	if !strings.Contains(bad, `"error_code":"internal"`) {
		t.Errorf("unencodable data: %s", bad)
	}
}

func TestWithWarningDoesNotAlias(t *testing.T) {
	base := OK("x").WithData(nil).WithWarning("a")
	base.Warnings = append(make([]string, 0, 4), base.Warnings...)
	one, two := base.WithWarning("b"), base.WithWarning("c")
	if one.Warnings[1] != "b" || two.Warnings[1] != "c" {
		t.Errorf("warnings share storage: %v %v", one.Warnings, two.Warnings)
	}
}
