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

// Errors returned by Register and RegisterAlias.
var (
	// ErrDuplicate means the name is already taken by a tool or an alias.
	ErrDuplicate = errors.New("name already registered")
	// ErrInvalidTool means the tool's name, input type or schema is unusable.
	ErrInvalidTool = errors.New("invalid tool")
	// ErrUnknownTarget means an alias points at a tool that is not registered.
	ErrUnknownTarget = errors.New("alias target not registered")
)

// Registry holds every tool and serves calls to them. The zero value is not usable;
// call NewRegistry.
type Registry struct {
	mu       sync.RWMutex
	tools    map[string]*Tool
	aliases  map[string]alias
	guard    Guard
	observer Observer
	maxArgs  int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{
		tools:   map[string]*Tool{},
		aliases: map[string]alias{},
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
	case r.taken(t.name):
		return fmt.Errorf("register %s: %w", t.name, ErrDuplicate)
	}
	r.tools[t.name] = t
	return nil
}

// taken reports whether a tool or alias has this name; the caller holds the lock.
func (r *Registry) taken(name string) bool {
	_, tool := r.tools[name]
	_, alias := r.aliases[name]
	return tool || alias
}

// alias is another name of a tool, with the parameter names it renames.
type alias struct {
	target string
	// params maps a parameter name of the alias to the target's (page_index to
	// entity_name); nil when the names are the same.
	params map[string]string
}

// RegisterAlias makes name another name for the registered tool target, for names
// older clients use (a renamed tool keeps answering to its old name). params are pairs
// of parameter names, the alias's then the target's ("page_index", "entity_name"),
// renamed in a call's arguments when the target's name is absent. Aliases are
// callable and found by Get, but not listed.
func (r *Registry) RegisterAlias(name, target string, params ...string) error {
	if len(params)%2 != 0 {
		return fmt.Errorf("alias %s: %w: parameter names come in pairs", name, ErrInvalidTool)
	}
	a := alias{target: target}
	for i := 0; i < len(params); i += 2 {
		if a.params == nil {
			a.params = map[string]string{}
		}
		a.params[params[i]] = params[i+1]
	}
	return r.registerAlias(name, a)
}

func (r *Registry) registerAlias(alias string, a alias) error {
	target := a.target
	r.mu.Lock()
	defer r.mu.Unlock()
	if !validName(alias) {
		return fmt.Errorf("alias %q: %w: a name is lower-case letters, digits and _", alias, ErrInvalidTool)
	}
	if r.taken(alias) {
		return fmt.Errorf("alias %s: %w", alias, ErrDuplicate)
	}
	if _, ok := r.tools[target]; !ok {
		return fmt.Errorf("alias %s -> %s: %w", alias, target, ErrUnknownTarget)
	}
	r.aliases[alias] = a
	return nil
}

// SetGuard installs the permission check run before every handler (nil removes it).
func (r *Registry) SetGuard(g Guard) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.guard = g
}

// SetObserver installs the function told about every finished call (nil removes it).
func (r *Registry) SetObserver(o Observer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.observer = o
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

// Get returns the tool registered under name or under an alias of it.
func (r *Registry) Get(name string) (*Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.lookup(name)
}

// lookup resolves a name or alias; the caller holds the lock.
func (r *Registry) lookup(name string) (*Tool, bool) {
	if a, ok := r.aliases[name]; ok {
		name = a.target
	}
	t, ok := r.tools[name]
	return t, ok
}

// List returns the registered tools sorted by name, without aliases.
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

// Names returns the registered tool names, sorted, without aliases.
func (r *Registry) Names() []string {
	tools := r.List()
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.name
	}
	return names
}

// Call runs the tool called name (or an alias) with JSON arguments on behalf of call
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
	t, ok := r.lookup(name)
	guard, observer, maxArgs := r.guard, r.observer, r.maxArgs
	renames := r.aliases[name].params
	r.mu.RUnlock()
	if renames != nil && len(args) <= maxArgs {
		args = renameArgs(args, renames)
	}
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
	if observer != nil {
		observer(ctx, &c, name, args, res, err)
	}
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
	if lib := t.LibraryOf(m); lib != "" {
		c.Library = lib
	}
	if guard != nil {
		if refusal := guard(c, t, m); refusal != nil {
			res := *refusal
			res.Status = StatusError
			res.ErrorCode = cmp.Or(res.ErrorCode, CodePermissionDenied)
			return nil, &res
		}
	}
	return in, nil
}

// Check validates a call and asks the guard about it without running it: it returns
// the result the call would be refused with, or nil when it would run. Nothing is
// observed. It sets call.Library (when call is not nil) to the library the call acts
// on, as Call resolves it (library_name, or what a tool's WithLibraryFrom finds in the
// arguments), so that a face asking the person names that library and asks in it. A
// face that can ask the person calls Check first and asks when the answer says
// CodeApprovalRequired, then makes the call with Call.Approved.
func (r *Registry) Check(call *Call, name string, args json.RawMessage) *Result {
	r.mu.RLock()
	t, ok := r.lookup(name)
	guard, maxArgs := r.guard, r.maxArgs
	renames := r.aliases[name].params
	r.mu.RUnlock()
	if !ok {
		res := r.unknown(name)
		return &res
	}
	if len(args) > maxArgs {
		res := Fail(CodeTooLarge, "arguments for %s are %d bytes; the limit is %d: send less at a time", t.name, len(args), maxArgs)
		return &res
	}
	if renames != nil {
		args = renameArgs(args, renames)
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

// renameArgs renames the keys of a JSON object of arguments as renames says, unless
// the new name is given too (then the call is left for validation to refuse the
// unknown old name). Anything but an object is returned as it is.
func renameArgs(args json.RawMessage, renames map[string]string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return args
	}
	changed := false
	for from, to := range renames {
		v, ok := m[from]
		if _, taken := m[to]; !ok || taken {
			continue
		}
		delete(m, from)
		m[to] = v
		changed = true
	}
	if !changed {
		return args
	}
	out, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return out
}
