package tool

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// deriveOutput infers the schema of the data a successful call of a tool with output
// Out carries: Out's own schema, or its element's when Out is a pointer. Unlike input
// schemas, nullable types are kept: a nil list is encoded as null.
func deriveOutput[Out any]() (*jsonschema.Schema, error) {
	t := reflect.TypeFor[Out]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Interface {
		return &jsonschema.Schema{}, nil // any data
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
