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

// Ref names a tool together with its input and output types, so that Go code calls it
// with typed values instead of a name, hand-built JSON and a result read back by
// string keys. A catalogue declares its tools with Ref.New and exports the Refs that Go
// callers use:
//
//	var ReadManual = tool.NewRef[ReadManualIn, *ManualOut]("read_manual")
//	...
//	ReadManual.New(tool.ReadOnly, desc, e.readManual) // the handler's types are checked
//	...
//	res, manual, err := tools.ReadManual.Call(ctx, reg, call, tools.ReadManualIn{})
type Ref[In, Out any] struct {
	name string
}

// NewRef returns the Ref of the tool called name with input In and output Out.
func NewRef[In, Out any](name string) Ref[In, Out] { return Ref[In, Out]{name: name} }

// Name returns the tool's name.
func (r Ref[In, Out]) Name() string { return r.name }

// New declares the tool r names, as New does; the compiler checks that the handler
// takes In and returns Out.
func (r Ref[In, Out]) New(class Class, desc string, h Handler[In, Out]) *Tool {
	return New(r.name, class, desc, h)
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
