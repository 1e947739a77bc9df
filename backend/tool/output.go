package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// deriveOutput infers the schema of the data a successful call of a tool with output
// Out carries: Out's own schema, or its element's when Out is a pointer. Unlike input
// schemas, nullable types are kept: a nil list is encoded as null.
func deriveOutput[Out any]() (*jsonschema.Schema, error) {
	return outputSchemaOf(reflect.TypeFor[Out]())
}

// outputSchemaOf derives the schema of data of type t (see deriveOutput); an Either
// is either of its forms.
func outputSchemaOf(t reflect.Type) (*jsonschema.Schema, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Interface {
		return &jsonschema.Schema{}, nil // any data
	}
	if f, ok := reflect.Zero(t).Interface().(twoForms); ok {
		l, r := f.forms()
		ls, err := outputSchemaOf(l)
		if err != nil {
			return nil, err
		}
		rs, err := outputSchemaOf(r)
		if err != nil {
			return nil, err
		}
		return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{ls, rs}}, nil
	}
	opts := &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		// Raw JSON is any value, not the array of bytes its Go type suggests.
		reflect.TypeFor[json.RawMessage](): {},
	}}
	s, err := jsonschema.ForType(t, opts)
	if err != nil {
		return nil, fmt.Errorf("derive output schema: %w", err)
	}
	return s, nil
}

// envelopeSchema is the schema of a Result as JSON (MarshalJSON) whose data, unless
// the status is error, follows data.
func envelopeSchema(data *jsonschema.Schema) *jsonschema.Schema {
	str := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: desc} }
	statusError := any(string(StatusError))
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"status": {Type: "string", Enum: []any{string(StatusSuccess), string(StatusError), string(StatusPartial)},
				Description: "how the call went; partial when some items of a batch failed (see warnings)"},
			"message":    str("what happened, or for an error what to do instead"),
			"data":       {Description: "the answer; for an error, details such as the nearest names"},
			"warnings":   {Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: "what the caller should know that did not stop the call"},
			"error_code": str("what went wrong, in a word to branch on: not_found, ambiguous, conflict, ..."),
			"elapsed_ms": {Type: "number", Description: "the call's wall time in milliseconds"},
		},
		PropertyOrder:        []string{"status", "message", "data", "warnings", "error_code", "elapsed_ms"},
		Required:             []string{"status", "message", "elapsed_ms"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		If: &jsonschema.Schema{
			Properties: map[string]*jsonschema.Schema{"status": {Const: &statusError}},
			Required:   []string{"status"},
		},
		Else: &jsonschema.Schema{Properties: map[string]*jsonschema.Schema{"data": data}},
	}
}

// Either is the output of a tool that answers in one of two forms (seed 003's
// page_index form beside the entity_name form of get_children, say): it holds one of
// them, encodes as that one, and its output schema says either. A handler returns
// &tool.Either[L, R]{Left: ...} or {Right: ...}; a Go caller reads the one set.
type Either[L, R any] struct {
	Left  *L
	Right *R
}

// MarshalJSON encodes the form e holds (Right when both are set).
func (e Either[L, R]) MarshalJSON() ([]byte, error) {
	if e.Right != nil {
		return MarshalData(e.Right)
	}
	return MarshalData(e.Left)
}

// forms returns the Go types of the two forms, for the output schema.
func (Either[L, R]) forms() (reflect.Type, reflect.Type) {
	return reflect.TypeFor[L](), reflect.TypeFor[R]()
}

// twoForms is implemented by Either.
type twoForms interface {
	forms() (reflect.Type, reflect.Type)
}

// MarshalData encodes v as a result's data is encoded: without HTML escaping, so that
// a type that encodes itself (MarshalJSON) writes "<" and "&" as the envelope does.
func MarshalData(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
