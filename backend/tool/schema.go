package tool

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// deriveSchema infers the input schema of In, which must be a struct: fields become
// properties, json names name them, `jsonschema:"..."` tags describe them, and fields
// without omitempty or omitzero are required.
func deriveSchema[In any]() (*jsonschema.Schema, error) {
	if k := reflect.TypeFor[In]().Kind(); k != reflect.Struct {
		return nil, fmt.Errorf("input type %v is a %v, want a struct", reflect.TypeFor[In](), k)
	}
	opts := &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[Paging](): pagingSchema(),
		// Raw JSON is any value, not the array of bytes its Go type suggests.
		reflect.TypeFor[json.RawMessage](): {},
	}}
	s, err := jsonschema.For[In](opts)
	if err != nil {
		return nil, fmt.Errorf("derive schema: %w", err)
	}
	normalize(s)
	orderPaging(s)
	return s, nil
}

// orderPaging lists the embedded Paging properties in their natural order (offset,
// limit, summary_only); the schema library sorts them.
func orderPaging(s *jsonschema.Schema) {
	sorted := []string{"limit", "offset", "summary_only"}
	if i := slices.Index(s.PropertyOrder, sorted[0]); i >= 0 && i+3 <= len(s.PropertyOrder) &&
		slices.Equal(s.PropertyOrder[i:i+3], sorted) {
		copy(s.PropertyOrder[i:], []string{"offset", "limit", "summary_only"})
	}
}

// normalize rewrites a derived schema for model providers: a nullable type such as
// ["null","array"] (from slices, maps and pointers) becomes plain "array", and an
// object with no properties gets an empty "properties" so that strict providers accept
// it. Null is still accepted for optional properties at validation time.
func normalize(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		rest := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		if len(rest) == 1 {
			s.Type, s.Types = rest[0], nil
		}
	}
	if s.Type == "object" && s.Properties == nil && isFalse(s.AdditionalProperties) {
		s.Properties = map[string]*jsonschema.Schema{}
	}
	for _, c := range s.Properties {
		normalize(c)
	}
	for _, c := range s.Defs {
		normalize(c)
	}
	for _, list := range [][]*jsonschema.Schema{s.PrefixItems, s.AnyOf, s.OneOf, s.AllOf} {
		for _, c := range list {
			normalize(c)
		}
	}
	normalize(s.Items)
	normalize(s.AdditionalProperties)
}

// isFalse reports whether s is the schema that matches nothing ({"not": {}}), as used
// for "additionalProperties": false.
func isFalse(s *jsonschema.Schema) bool {
	return s != nil && s.Not != nil && reflect.ValueOf(*s.Not).IsZero()
}

// simple reports whether the checker alone enforces every keyword of s, so that the
// full validator need not run: any keyword it does not know makes s not simple.
func simple(s *jsonschema.Schema) bool {
	if s == nil || isFalse(s) {
		return true
	}
	c := *s
	// Annotations, which do not constrain values.
	c.Title, c.Description, c.Default, c.Examples, c.Comment = "", "", nil, nil, ""
	c.Deprecated, c.ReadOnly, c.WriteOnly = false, false, false
	// The keywords the checker enforces.
	c.Type, c.Types, c.Enum, c.Required, c.PropertyOrder = "", nil, nil, nil, nil
	c.Minimum, c.Maximum, c.MinLength, c.MaxLength, c.MinItems, c.MaxItems = nil, nil, nil, nil, nil, nil
	c.Items, c.Properties, c.AdditionalProperties = nil, nil, nil
	if !reflect.ValueOf(c).IsZero() {
		return false
	}
	for _, p := range s.Properties {
		if !simple(p) {
			return false
		}
	}
	return simple(s.Items) && simple(s.AdditionalProperties)
}

// typeOf returns the one type a schema allows, or "" when it allows several or any.
func typeOf(s *jsonschema.Schema) string {
	if s.Type != "" {
		return s.Type
	}
	if len(s.Types) == 1 {
		return s.Types[0]
	}
	return ""
}

// describe says in words what a schema accepts: "string", "array of strings",
// `one of "merge", "replace"`.
func describe(s *jsonschema.Schema) string {
	if s == nil {
		return "any value"
	}
	if len(s.Enum) > 0 {
		return "one of " + enumList(s.Enum)
	}
	switch t := typeOf(s); t {
	case "":
		if len(s.Types) > 1 {
			return strings.Join(s.Types, " or ")
		}
		return "any value"
	case "array":
		if s.Items == nil {
			return "array"
		}
		return "array of " + plural(describe(s.Items))
	case "boolean":
		return "boolean (true or false)"
	default:
		return t
	}
}

// plural turns a description of one value into a description of several.
func plural(d string) string {
	switch {
	case strings.HasPrefix(d, "one of "):
		return "values " + d
	case strings.HasPrefix(d, "array of "):
		return "arrays of " + strings.TrimPrefix(d, "array of ")
	case strings.HasPrefix(d, "boolean"):
		return "booleans"
	case d == "any value":
		return "any values"
	}
	return d + "s"
}

// enumList renders enum values as a short JSON list: "a", "b".
func enumList(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		b, _ := json.Marshal(v)
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}

// usage renders a compact signature for error messages:
// read_entities(entity_names: array of strings, library_name?: string).
func usage(name string, s *jsonschema.Schema) string {
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	var parts []string
	for _, p := range propertyNames(s) {
		opt := "?"
		if required[p] {
			opt = ""
		}
		parts = append(parts, p+opt+": "+describe(s.Properties[p]))
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// propertyNames lists an object schema's properties in declaration order, then any
// others sorted. The caller must not modify the list.
func propertyNames(s *jsonschema.Schema) []string {
	if len(s.PropertyOrder) == len(s.Properties) {
		return s.PropertyOrder
	}
	names := slices.Clone(s.PropertyOrder)
	var rest []string
	for p := range s.Properties {
		if !slices.Contains(names, p) {
			rest = append(rest, p)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// subschema finds the schema of a dotted property path ("relations.type"), stepping
// through array items on the way.
func subschema(s *jsonschema.Schema, path string) (*jsonschema.Schema, error) {
	for _, part := range strings.Split(path, ".") {
		for s.Items != nil && typeOf(s) == "array" {
			s = s.Items
		}
		next := s.Properties[part]
		if next == nil {
			return nil, fmt.Errorf("no property %q in %q", part, path)
		}
		s = next
	}
	for s.Items != nil && typeOf(s) == "array" {
		s = s.Items
	}
	return s, nil
}

// pagingSchema describes the embedded Paging fields, with their bounds.
func pagingSchema() *jsonschema.Schema {
	zero, maxLimit := 0.0, float64(MaxLimit)
	return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"offset": {Type: "integer", Minimum: &zero,
			Description: "skip this many items (from a previous answer's next_offset); default 0"},
		"limit": {Type: "integer", Minimum: &zero, Maximum: &maxLimit,
			Description: fmt.Sprintf("return at most this many items; default %d, at most %d", DefaultLimit, MaxLimit)},
		"summary_only": {Type: "boolean",
			Description: "return only counts and a summary, no items"},
	}}
}
