package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Class says what a tool may do to the vault; callers decide from it what runs in
// parallel, what needs approval, and the MCP annotations.
type Class int

// The tool classes.
const (
	// ReadOnly tools change nothing.
	ReadOnly Class = iota
	// Write tools create or change content, and can be undone from git.
	Write
	// Destructive tools delete or discard content.
	Destructive
)

// String returns read_only, write or destructive.
func (c Class) String() string {
	switch c {
	case ReadOnly:
		return "read_only"
	case Write:
		return "write"
	case Destructive:
		return "destructive"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// MarshalText encodes the class as its name.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// Handler runs a tool on decoded, validated input and returns the result envelope and
// the tool's output. A success (or partial) result carries out as its Data: the
// handler leaves the result's Data empty (OK, Partial), and a nil out means no data. A
// failure the caller can act on is a result made with Fail, whose Data is whatever
// WithData gave it (the nearest names, the current hash, or the output so far); out is
// then ignored. A returned error means the infrastructure broke.
//
// Out is usually a pointer to a struct whose json tags name the keys, so that a failure
// returns nil: return tool.Fail(...), nil, nil.
type Handler[In, Out any] func(ctx context.Context, call *Call, in In) (Result, Out, error)

// Tool is one registered capability: a name, a class, a Markdown description, the
// input and output schemas derived from its Go input and output types, and the
// handler. Declare it with its Ref's New, adjust it with Enum, Tune and WithTitle, then
// Register it; a Tool must not be changed after it is registered.
type Tool struct {
	name  string
	class Class
	desc  string
	title string
	// derive infers the input schema from the Go input type, and tunes adjust it
	// (Enum, Tune); both run on first use, with the derived forms below.
	derive   func() (*jsonschema.Schema, error)
	tunes    []func(*jsonschema.Schema) error
	schema   *jsonschema.Schema
	resolved *jsonschema.Resolved
	raw      json.RawMessage
	usage    string
	backstop bool
	err      error
	// deriveOut infers the schema of the data of a successful result from Out, on
	// first use of OutputSchema; outRaw is the result envelope's schema around it.
	deriveOut func() (*jsonschema.Schema, error)
	outTunes  []func(*jsonschema.Schema) error
	outOnce   sync.Once
	outRaw    json.RawMessage
	outErr    error
	// inType and outType are In and Out, for Ref.Call to check a tool's types.
	inType, outType reflect.Type
	// finished guards the schema and its derived forms (resolved, raw, usage,
	// backstop), computed on first use: a one-shot `memotree call` needs them for one
	// tool only, and deriving the catalogue's schemas by reflection was a sixth of
	// its start-up.
	finished sync.Once
	// policy: who may run a call, and what a script may call (policy.go).
	policy policy
	newIn  func() any
	// run calls the handler; data is its output, or nil for a nil pointer, map or
	// slice.
	run func(ctx context.Context, call *Call, in any) (res Result, data any, err error)
}

// validName reports whether name is what MCP clients and model providers accept as a
// function name: a lower-case ASCII letter, then up to 63 lower-case letters, digits
// or '_' (checked by hand: a regular expression compiled at start-up costs every
// process).
func validName(name string) bool {
	if len(name) < 1 || len(name) > 64 || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// newTool declares a tool, for Ref.New, which is the only way to declare one: see
// there.
func newTool[In, Out any](name string, class Class, desc string, h Handler[In, Out]) *Tool {
	t := &Tool{
		name:      name,
		class:     class,
		desc:      strings.TrimSpace(desc),
		newIn:     func() any { return new(In) },
		derive:    deriveSchema[In],
		deriveOut: deriveOutput[Out],
		inType:    reflect.TypeFor[In](),
		outType:   reflect.TypeFor[Out](),
		run: func(ctx context.Context, call *Call, in any) (Result, any, error) {
			res, out, err := h(ctx, call, *in.(*In))
			return res, dataOf(out), err
		},
	}
	if h == nil {
		t.err = errors.New("nil handler")
	} else if k := reflect.TypeFor[In]().Kind(); k != reflect.Struct {
		t.err = fmt.Errorf("input type %v is a %v, want a struct", reflect.TypeFor[In](), k)
	}
	return t
}

// dataOf returns out as a result's data: nil for a nil pointer, map, slice or
// interface, so that a handler's "no output" leaves the data out.
func dataOf[Out any](out Out) any {
	v := reflect.ValueOf(&out).Elem()
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		if v.IsNil() {
			return nil
		}
	}
	return out
}

// ready derives the schema and computes its derived forms once, after the last Tune.
func (t *Tool) ready() *Tool {
	t.finished.Do(t.finish)
	return t
}

// finish derives, tunes, resolves and renders the schema.
func (t *Tool) finish() {
	if t.err != nil {
		return
	}
	s, err := t.derive()
	if err != nil {
		t.err = err
		return
	}
	for _, f := range t.tunes {
		if err := f(s); err != nil {
			t.err = fmt.Errorf("tune schema: %w", err)
			return
		}
	}
	t.schema = s
	rs, err := s.Resolve(nil)
	if err != nil {
		t.err = fmt.Errorf("resolve schema: %w", err)
		return
	}
	raw, err := json.Marshal(s)
	if err != nil {
		t.err = fmt.Errorf("marshal schema: %w", err)
		return
	}
	t.resolved, t.raw, t.usage = rs, raw, usage(t.name, s)
	t.backstop = !simple(s)
}

// Enum restricts a property, named by a dotted path through objects and arrays
// ("mode", "relations.type"), to the given values. It returns t for chaining.
func (t *Tool) Enum(path string, values ...string) *Tool {
	return t.Tune(func(s *jsonschema.Schema) error {
		p, err := subschema(s, path)
		if err != nil {
			return err
		}
		p.Enum = make([]any, len(values))
		for i, v := range values {
			p.Enum[i] = v
		}
		return nil
	})
}

// Describe sets the description of a property, named by a dotted path as for Enum (an
// argument that the embedded LibraryArg declares, whose meaning differs for this tool,
// say). It returns t for chaining.
func (t *Tool) Describe(path, desc string) *Tool {
	return t.Tune(func(s *jsonschema.Schema) error {
		p, err := subschema(s, path)
		if err != nil {
			return err
		}
		p.Description = desc
		return nil
	})
}

// Tune lets a tool adjust its derived schema (bounds, patterns, defaults); f runs when
// the schema is derived, on first use, and an error it returns is the tool's Err. It
// returns t for chaining; call it before the tool is registered.
func (t *Tool) Tune(f func(s *jsonschema.Schema) error) *Tool {
	t.tunes = append(t.tunes, f)
	return t
}

// TuneOutput lets a tool adjust the schema derived from its output type, for an output
// that encodes itself in a shape its Go fields do not tell; f runs when the output
// schema is derived, and an error it returns is the tool's OutputErr. It returns t for
// chaining; call it before the tool is registered.
func (t *Tool) TuneOutput(f func(data *jsonschema.Schema) error) *Tool {
	t.outTunes = append(t.outTunes, f)
	return t
}

// WithTitle sets a human-readable title (shown by MCP clients). It returns t.
func (t *Tool) WithTitle(title string) *Tool {
	t.title = title
	return t
}

// libraryOf returns the library a call acts on, as the registry decides it before the
// guard runs: library_name, else what the tool's LibraryFrom rule finds in the
// decoded input in, else "" (the caller's).
func (t *Tool) libraryOf(args map[string]any, in any) string {
	if lib, ok := args[LibraryParam].(string); ok && lib != "" {
		return lib
	}
	if t.policy.libraryFrom != nil {
		return t.policy.libraryFrom(in)
	}
	return ""
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.name }

// Class returns the tool's class.
func (t *Tool) Class() Class { return t.class }

// Description returns the tool's Markdown description.
func (t *Tool) Description() string { return t.desc }

// Title returns the tool's title, or "" if it has none.
func (t *Tool) Title() string { return t.title }

// Params returns the names of the tool's parameters in the order they are declared
// (the order of Usage), for callers that pass arguments by position (Starlark). The
// caller must not modify the list.
func (t *Tool) Params() []string {
	if s := t.ready().schema; s != nil {
		return propertyNames(s)
	}
	return nil
}

// InputSchema returns the input JSON schema as JSON. The caller must not modify it.
func (t *Tool) InputSchema() json.RawMessage { return t.ready().raw }

// OutputSchema returns the JSON schema of the tool's results as JSON: the envelope
// (status, message, data, warnings, error_code, elapsed_ms) whose data, unless the
// status is error, is the tool's Out. An error result's data is free-form details (the
// nearest names, the output so far). The MCP server serves it as the tool's
// outputSchema. The caller must not modify it; nil when it cannot be derived (OutputErr
// says why).
func (t *Tool) OutputSchema() json.RawMessage {
	t.outOnce.Do(t.finishOutput)
	return t.outRaw
}

// OutputErr returns the problem found while deriving the output schema, if any.
func (t *Tool) OutputErr() error {
	t.outOnce.Do(t.finishOutput)
	return t.outErr
}

// finishOutput derives the output schema and renders it.
func (t *Tool) finishOutput() {
	if t.deriveOut == nil {
		t.outErr = errors.New("no output type")
		return
	}
	data, err := t.deriveOut()
	if err != nil {
		t.outErr = err
		return
	}
	for _, f := range t.outTunes {
		if err := f(data); err != nil {
			t.outErr = fmt.Errorf("tune output schema: %w", err)
			return
		}
	}
	raw, err := json.Marshal(envelopeSchema(data))
	if err != nil {
		t.outErr = fmt.Errorf("marshal output schema: %w", err)
		return
	}
	t.outRaw = raw
}

// Schema returns the input schema. The caller must not modify it.
func (t *Tool) Schema() *jsonschema.Schema { return t.ready().schema }

// Usage returns a one-line signature such as
// read_entities(entity_names: array of strings, library_name?: string).
func (t *Tool) Usage() string { return t.ready().usage }

// Err returns the problem found while declaring the tool, if any.
func (t *Tool) Err() error { return t.ready().err }

// Annotations are the hints MCP clients show about a tool.
type Annotations struct {
	Title           string
	ReadOnlyHint    bool
	DestructiveHint bool
	OpenWorldHint   bool
}

// Annotations returns the tool's MCP hints: read-only for ReadOnly, destructive for
// Destructive, never idempotent or open-world. MCP reads an absent destructiveHint or
// openWorldHint as true, so the MCP server should send every hint explicitly.
func (t *Tool) Annotations() Annotations {
	return Annotations{
		Title:           t.title,
		ReadOnlyHint:    t.class == ReadOnly,
		DestructiveHint: t.class == Destructive,
	}
}

// Description reads a tool's Markdown description, the file name+".md" in fsys
// (typically an embed.FS holding the family's descriptions).
func Description(fsys fs.FS, name string) (string, error) {
	b, err := fs.ReadFile(fsys, name+".md")
	if err != nil {
		return "", fmt.Errorf("read description of %s: %w", name, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// MustDescription is Description for embedded files, which are known at build time:
// it panics if the file is missing.
func MustDescription(fsys fs.FS, name string) string {
	d, err := Description(fsys, name)
	if err != nil {
		panic(err)
	}
	return d
}
