package tool

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/internal/notice"
)

// DefaultMaxArgsBytes is the largest argument payload a registry accepts by default.
const DefaultMaxArgsBytes = 4 << 20

// Errors returned by Register.
var (
	// ErrDuplicate means the name is already taken by another tool.
	ErrDuplicate = errors.New("name already registered")
	// ErrInvalidTool means the tool's name, input type or schema is unusable.
	ErrInvalidTool = errors.New("invalid tool")
)

// Registry holds every tool and serves calls to them. The zero value is not usable;
// call NewRegistry.
type Registry struct {
	mu      sync.RWMutex
	tools   map[string]*Tool
	guard   Guard
	maxArgs int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{
		tools:   map[string]*Tool{},
		maxArgs: DefaultMaxArgsBytes,
	}
}

// Register adds tools. A name already taken, an invalid name or a tool whose
// declaration failed (a nil handler, an input that is not a struct) is refused; the
// other tools are still added. Schemas are derived on first use, so a schema problem
// shows in the tool's Err, not here.
func (r *Registry) Register(tools ...*Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	for _, t := range tools {
		if err := r.add(t); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// add registers one tool; the caller holds the lock.
func (r *Registry) add(t *Tool) error {
	switch {
	case t == nil:
		return fmt.Errorf("register nil tool: %w", ErrInvalidTool)
	case t.err != nil:
		return fmt.Errorf("register %s: %w: %w", t.name, ErrInvalidTool, t.err)
	case !validName(t.name):
		return fmt.Errorf("register %q: %w: a name is lower-case letters, digits and _", t.name, ErrInvalidTool)
	case r.tools[t.name] != nil:
		return fmt.Errorf("register %s: %w", t.name, ErrDuplicate)
	}
	r.tools[t.name] = t
	return nil
}

// SetGuard installs the permission check run before every handler (nil removes it).
func (r *Registry) SetGuard(g Guard) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.guard = g
}

// SetMaxArgsBytes sets the largest argument payload accepted; larger ones are answered
// with too_large. n <= 0 restores DefaultMaxArgsBytes.
func (r *Registry) SetMaxArgsBytes(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n <= 0 {
		n = DefaultMaxArgsBytes
	}
	r.maxArgs = n
}

// Get returns the tool registered under name. Go code that calls a tool it knows goes
// through the tool's Ref instead of naming it; Get is for names a caller was given (a
// model's call, an MCP request, a script's builtin).
func (r *Registry) Get(name string) (*Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	return t, ok
}

// List returns the registered tools sorted by name.
func (r *Registry) List() []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Tool, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b *Tool) int { return cmp.Compare(a.name, b.name) })
	return out
}

// Names returns the registered tool names, sorted.
func (r *Registry) Names() []string {
	tools := r.List()
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.name
	}
	return names
}

// Call runs the tool called name with JSON arguments on behalf of call
// (nil means an anonymous caller). Whatever happens, the answer is a Result with its
// Elapsed set: an unknown tool, invalid arguments, a refusal by the guard and a
// failure the handler reports are results with status error. The error is non-nil
// only when the infrastructure broke (the handler returned an error or panicked, or
// the context ended); the result then says error_code internal or canceled (or
// disk_full when the disk refused a write). Warnings that the layers below leave in
// the call's context (internal/notice) are added to the result.
func (r *Registry) Call(ctx context.Context, call *Call, name string, args json.RawMessage) (Result, error) {
	start := time.Now()
	r.mu.RLock()
	t, ok := r.tools[name]
	guard, maxArgs := r.guard, r.maxArgs
	r.mu.RUnlock()
	c := Call{}
	if call != nil {
		c = *call
	}
	var res Result
	var err error
	if ok {
		// What went wrong on the way without failing the call (a journey record that
		// failed, a crashed batch that could not be finished before this write) is a
		// warning.
		nctx, notices := notice.With(ctx)
		res, err = r.run(nctx, &c, t, args, guard, maxArgs)
		for _, w := range notices.Take() {
			res = res.WithWarning("%s", w)
		}
	} else {
		res = r.unknown(name)
	}
	res.Elapsed = time.Since(start)
	return res, err
}

// run validates, guards and executes one call of a known tool.
func (r *Registry) run(ctx context.Context, c *Call, t *Tool, args json.RawMessage, guard Guard, maxArgs int) (Result, error) {
	if len(args) > maxArgs {
		return Fail(CodeTooLarge, "arguments for %s are %d bytes; the limit is %d: send less at a time",
			t.name, len(args), maxArgs), nil
	}
	if err := ctx.Err(); err != nil {
		return Fail(CodeCanceled, "%s was not run: %v", t.name, err), fmt.Errorf("tool %s: %w", t.name, err)
	}
	in, refusal := r.admit(c, t, args, guard)
	if refusal != nil {
		return *refusal, nil
	}
	return t.execute(ctx, c, in)
}

// admit validates the arguments and asks the guard: the decoded input, or the result
// that answers the call instead. It resolves c.Library from the arguments.
func (r *Registry) admit(c *Call, t *Tool, args json.RawMessage, guard Guard) (any, *Result) {
	in, m, bad := t.prepare(args)
	if bad != nil {
		return nil, bad
	}
	if lib := t.libraryOf(m, in); lib != "" {
		c.Library = lib
	}
	if guard != nil {
		if refusal := guard(c, Request{tool: t, in: in}); refusal != nil {
			res := *refusal
			res.Status = StatusError
			res.ErrorCode = cmp.Or(res.ErrorCode, CodePermissionDenied)
			return nil, &res
		}
	}
	return in, nil
}

// Check validates a call and asks the guard about it without running it: it returns
// the result the call would be refused with, or nil when it would run. It sets
// call.Library (when call is not nil) to the library the call acts on, as Call
// resolves it (library_name, or what the tool's LibraryFrom rule finds in the input),
// so that a face asking the person names that library and asks in it. A
// face that can ask the person calls Check first and asks when the answer says
// CodeApprovalRequired, then makes the call with Call.Approved.
func (r *Registry) Check(call *Call, name string, args json.RawMessage) *Result {
	r.mu.RLock()
	t, ok := r.tools[name]
	guard, maxArgs := r.guard, r.maxArgs
	r.mu.RUnlock()
	if !ok {
		res := r.unknown(name)
		return &res
	}
	if len(args) > maxArgs {
		res := Fail(CodeTooLarge, "arguments for %s are %d bytes; the limit is %d: send less at a time", t.name, len(args), maxArgs)
		return &res
	}
	c := Call{}
	if call != nil {
		c = *call
	}
	_, refusal := r.admit(&c, t, args, guard)
	if call != nil {
		call.Library = c.Library
	}
	return refusal
}

// unknown answers a call of a tool that does not exist, naming the nearest tools.
func (r *Registry) unknown(name string) Result {
	shown, _ := Clip(name, 64)
	near := Nearest(name, r.Names(), 3)
	if len(near) == 0 {
		return Fail(CodeUnknownTool, "there is no tool %q; no tools are registered", shown)
	}
	return Fail(CodeUnknownTool, "there is no tool %q; the nearest are: %s", shown, strings.Join(near, ", "))
}
