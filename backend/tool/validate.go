package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// maxProblems is how many problems one invalid_arguments message lists.
const maxProblems = 6

// parseArgs reads the raw arguments as a JSON object; empty or null arguments are an
// empty object. The problem is a message for the model.
func parseArgs(raw json.RawMessage) (map[string]any, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, ""
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, "arguments are not valid JSON: " + strings.TrimPrefix(err.Error(), "json: ")
	}
	if dec.More() {
		return nil, "arguments hold more than one JSON value; send one object"
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, "arguments must be a JSON object, got " + kindOf(v)
	}
	return m, ""
}

// checker walks a JSON value against a schema and collects readable problems.
type checker struct {
	problems []string
}

// loc is where a value sits in the arguments: a property of, or an item in, its
// parent (nil at the top). It is rendered only when a problem is found there.
type loc struct {
	parent *loc
	key    string // the property name; "" for an array item
	index  int
}

// field returns the location of property key under l.
func (l *loc) field(key string) *loc { return &loc{parent: l, key: key} }

// item returns the location of array item i under l.
func (l *loc) item(i int) *loc { return &loc{parent: l, index: i} }

// String renders a location as relations[0].type.
func (l *loc) String() string {
	if l == nil {
		return ""
	}
	p := l.parent.String()
	if l.key == "" {
		return p + "[" + strconv.Itoa(l.index) + "]"
	}
	if p == "" {
		return l.key
	}
	return p + "." + l.key
}

// add records a problem at l.
func (c *checker) add(l *loc, format string, args ...any) {
	if len(c.problems) < maxProblems {
		c.problems = append(c.problems, label(l.String())+fmt.Sprintf(format, args...))
	}
}

// full reports whether enough problems were found.
func (c *checker) full() bool { return len(c.problems) >= maxProblems }

// label prefixes a problem with its path, if it has one.
func label(path string) string {
	if path == "" {
		return ""
	}
	return path + ": "
}

// check validates v against s; an optional property that is null is removed, as if
// it were absent.
func (c *checker) check(v any, s *jsonschema.Schema, path *loc) {
	if s == nil || c.full() {
		return
	}
	if isFalse(s) {
		c.add(path, "not allowed here")
		return
	}
	if !typeAllowed(v, s) {
		c.add(path, "expected %s, got %s%s", describe(s), kindOf(v), hint(v, s))
		return
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return jsonEqual(e, v) }) {
		c.add(path, "%s is not %s", preview(v), describe(s))
		return
	}
	switch x := v.(type) {
	case string:
		n := utf8.RuneCountInString(x)
		if s.MinLength != nil && n < *s.MinLength {
			c.add(path, "too short (%d characters, at least %d)", n, *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			c.add(path, "too long (%d characters, at most %d)", n, *s.MaxLength)
		}
	case float64:
		if s.Minimum != nil && x < *s.Minimum {
			c.add(path, "%v is less than the minimum %v", x, *s.Minimum)
		}
		if s.Maximum != nil && x > *s.Maximum {
			c.add(path, "%v is greater than the maximum %v", x, *s.Maximum)
		}
	case []any:
		c.checkArray(x, s, path)
	case map[string]any:
		c.checkObject(x, s, path)
	}
}

// checkArray validates the length and the items of an array.
func (c *checker) checkArray(a []any, s *jsonschema.Schema, path *loc) {
	if s.MinItems != nil && len(a) < *s.MinItems {
		c.add(path, "needs at least %d items, got %d", *s.MinItems, len(a))
	}
	if s.MaxItems != nil && len(a) > *s.MaxItems {
		c.add(path, "takes at most %d items, got %d", *s.MaxItems, len(a))
	}
	for i, item := range a {
		if c.full() {
			return
		}
		c.check(item, s.Items, path.item(i))
	}
}

// checkObject validates required, known and unknown properties of an object.
func (c *checker) checkObject(m map[string]any, s *jsonschema.Schema, path *loc) {
	for _, r := range s.Required {
		if _, ok := m[r]; !ok {
			c.add(path.field(r), "missing required field (%s)", describe(s.Properties[r]))
		}
	}
	var unknown []string
	for k, v := range m {
		switch {
		case s.Properties[k] != nil:
			if v == nil && !slices.Contains(s.Required, k) {
				delete(m, k)
			}
		case isFalse(s.AdditionalProperties):
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		if c.full() {
			break
		}
		shown, _ := Clip(k, 64)
		c.add(path.field(shown), "unknown field%s", didYouMean(k, propertyNames(s)))
	}
	for _, k := range propertyNames(s) {
		if v, ok := m[k]; ok {
			c.check(v, s.Properties[k], path.field(k))
		}
	}
	if s.AdditionalProperties != nil && !isFalse(s.AdditionalProperties) {
		keys := make([]string, 0, len(m))
		for k := range m {
			if s.Properties[k] == nil {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			c.check(m[k], s.AdditionalProperties, path.field(k))
		}
	}
}

// didYouMean suggests the nearest known name, if one is close.
func didYouMean(name string, known []string) string {
	if near := Nearest(name, known, 1); len(near) > 0 && nearEnough(name, near[0]) {
		return fmt.Sprintf("; did you mean %q?", near[0])
	}
	if len(known) == 0 {
		return "; this tool takes no arguments"
	}
	return "; known fields: " + strings.Join(known, ", ")
}

// nearEnough reports whether a mistyped name is near enough to a known one to suggest it.
func nearEnough(name, known string) bool {
	a, b := strings.ToLower(name), strings.ToLower(known)
	if len(a) >= 3 && (strings.Contains(a, b) || strings.Contains(b, a)) {
		return true
	}
	return distance(a, b) <= max(1, len(a)/3)
}

// typeAllowed reports whether v has a JSON type s allows.
func typeAllowed(v any, s *jsonschema.Schema) bool {
	if s.Type == "" && len(s.Types) == 0 {
		return true
	}
	got := kindOf(v)
	ok := func(want string) bool {
		return want == got || want == "number" && got == "integer"
	}
	return ok(s.Type) || slices.ContainsFunc(s.Types, ok)
}

// kindOf names the JSON type of a decoded value.
func kindOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// hint adds a short preview of a scalar that has the wrong type, and how to fix the
// commonest mistake: one value where a list is expected.
func hint(v any, s *jsonschema.Schema) string {
	switch v.(type) {
	case string, float64, bool:
	default:
		return ""
	}
	p := " " + preview(v)
	if typeOf(s) == "array" {
		b, _ := json.Marshal([]any{v})
		if len(b) <= 60 {
			p += fmt.Sprintf("; to pass one value, write %s", b)
		}
	}
	return p
}

// preview renders a value as short JSON.
func preview(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return kindOf(v)
	}
	if len(b) > 40 {
		cut := 37
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		return string(b[:cut]) + "..."
	}
	return string(b)
}

// jsonEqual compares an enum value with a decoded argument.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	}
	ab, err1 := json.Marshal(a)
	bb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ab, bb)
}

// backstop runs the full JSON Schema validator for the keywords the checker does not
// cover (patterns, combinators), turning its error into one readable problem.
func backstop(rs *jsonschema.Resolved, m map[string]any) string {
	err := rs.Validate(m)
	if err == nil {
		return ""
	}
	msg := err.Error()
	path := ""
	for {
		rest, ok := strings.CutPrefix(msg, "validating ")
		if !ok {
			break
		}
		p, detail, ok := strings.Cut(rest, ": ")
		if !ok {
			break
		}
		path, msg = p, detail
	}
	path = strings.TrimPrefix(strings.ReplaceAll(strings.ReplaceAll(path, "/properties/", "."), "/items", "[]"), ".")
	if path == "root" {
		path = ""
	}
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	return label(path) + msg
}

// decodeStrict decodes raw arguments into dst, rejecting unknown fields.
func decodeStrict(raw json.RawMessage, dst any) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if err == nil {
		return ""
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s: expected %v, got %s", te.Field, te.Type, te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}
