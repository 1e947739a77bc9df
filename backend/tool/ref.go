package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// Errors returned by Ref.Call.
var (
	// ErrNotRegistered means the registry has no tool of the Ref's name.
	ErrNotRegistered = errors.New("tool not registered")
	// ErrTypeMismatch means the registered tool's input or output type is not the
	// Ref's.
	ErrTypeMismatch = errors.New("tool registered with other types")
)

// Ref names a tool together with its input and output types. Every tool is declared
// through its Ref (Ref.New), so the compiler checks the handler and the policy's rules
// against the Ref's types, and Go code calls a tool through the same Ref, with typed
// values instead of a name, hand-built JSON and a result read back by string keys. A
// catalogue exports the Refs that Go callers use:
//
//	var ReadManual = tool.NewRef[ReadManualIn, *ManualOut]("read_manual")
//	...
//	ReadManual.New(tool.ReadOnly, desc, e.readManual) // the handler's types are checked
//	...
//	res, manual, err := catalog.ReadManual.Call(ctx, reg, call, catalog.ReadManualIn{})
type Ref[In, Out any] struct {
	name string
}

// NewRef returns the Ref of the tool called name with input In and output Out.
func NewRef[In, Out any](name string) Ref[In, Out] { return Ref[In, Out]{name: name} }

// Name returns the tool's name.
func (r Ref[In, Out]) Name() string { return r.name }

// New declares the tool r names, whose arguments decode into In, a struct, and whose
// successful results carry an Out as their data; the compiler checks that the handler
// and the options take In and that the handler returns Out. The input schema is
// derived from In: json names, `jsonschema:"..."` tags as descriptions, fields without
// omitempty required, slices, maps and pointers typed plainly. The output schema
// (OutputSchema) is derived from Out the same way, nullable types kept. desc is the
// Markdown description (see Description); opts are the rules of the tool's policy that
// read a call's input (DryRun, Calls, LibraryFrom). A nil handler or an In that is not
// a struct is refused by Register; a field the schema cannot express, or a Tune that
// fails, is reported by Err, since the schema is derived on first use (the
// catalogue's tests call Err on every tool).
func (r Ref[In, Out]) New(class Class, desc string, h Handler[In, Out], opts ...Option[In]) *Tool {
	t := newTool(r.name, class, desc, h)
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&t.policy)
		}
	}
	return t
}

// Call runs the tool on reg with in, as Registry.Call does with in's JSON: the
// arguments are validated, the guard asks, the call is timed. It returns
// the result and, for a success or partial result, the tool's output (the result's
// Data, not copied through JSON); for an error result, out is the zero Out and the
// result's Data holds the details. The error is non-nil when the infrastructure broke,
// or when reg has no such tool or has it with other types.
func (r Ref[In, Out]) Call(ctx context.Context, reg *Registry, call *Call, in In) (Result, Out, error) {
	var zero Out
	t, ok := reg.Get(r.name)
	if !ok {
		return Fail(CodeUnknownTool, "there is no tool %q", r.name), zero, fmt.Errorf("call %s: %w", r.name, ErrNotRegistered)
	}
	if t.inType != reflect.TypeFor[In]() || t.outType != reflect.TypeFor[Out]() {
		return Fail(CodeInternal, "%s is registered with other types", r.name), zero,
			fmt.Errorf("call %s: %w: (%v) %v, want (%v) %v", r.name, ErrTypeMismatch, t.inType, t.outType, reflect.TypeFor[In](), reflect.TypeFor[Out]())
	}
	args, err := json.Marshal(in)
	if err != nil {
		return Fail(CodeInternal, "%s: the arguments cannot be encoded: %v", r.name, err), zero, fmt.Errorf("call %s: encode arguments: %w", r.name, err)
	}
	res, err := reg.Call(ctx, call, r.name, args)
	if res.Status == StatusError {
		return res, zero, err
	}
	out, _ := res.Data.(Out)
	return res, out, err
}
