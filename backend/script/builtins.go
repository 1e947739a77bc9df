package script

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"go.starlark.net/starlark"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
)

// predeclared returns the names a script sees besides Starlark's universe: one
// builtin per tool of the registry, and the size-checking operators.
func (x *run) predeclared() starlark.StringDict {
	pre := x.budget.builtins()
	for k, v := range x.budget.wrapped(x) {
		pre[k] = v
	}
	for _, t := range x.r.reg.List() {
		if !t.InScripts() {
			continue
		}
		pre[t.Name()] = x.toolBuiltin(t)
	}
	for k, v := range x.r.extra {
		pre[k] = v
	}
	return pre
}

// toolBuiltin makes t callable with keyword arguments, and with positional ones in
// the order of its parameters (seed 003's get_page("notes:Ada")). The arguments are
// converted to JSON and go through Registry.Call like any other call (validation,
// guard); a successful result comes back as Starlark values (its
// ForScript: the data, or the value seed 003's signature returns), a failed one raises
// a ToolError.
func (x *run) toolBuiltin(t *tool.Tool) *starlark.Builtin {
	name := t.Name()
	return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		m, err := callArgs(t, args, kwargs)
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("%s: arguments: %w", name, err)
		}
		x.mu.Lock()
		x.calls++
		x.mu.Unlock()
		ctx := library.WithTx(x.ctx, x.tx, t.Class() != tool.ReadOnly)
		res, callErr := x.r.reg.Call(ctx, &x.call, name, raw)
		if res.IsError() || callErr != nil {
			te := &ToolError{Tool: name, Code: res.ErrorCode, Message: res.Message}
			x.mu.Lock()
			x.toolErr = te
			x.mu.Unlock()
			return nil, te
		}
		for _, w := range res.Warnings {
			x.warn(fmt.Sprintf("%s: %s", name, w))
		}
		return x.data(name, res.ForScript())
	})
}

// callArgs gathers a builtin's arguments by name: positional ones take the tool's
// parameters in order, keyword ones their own names, and a parameter given twice, or
// more positional arguments than parameters, is an error that shows the usage.
func callArgs(t *tool.Tool, args starlark.Tuple, kwargs []starlark.Tuple) (map[string]any, error) {
	name := t.Name()
	m := make(map[string]any, len(args)+len(kwargs))
	params := t.Params()
	if len(args) > len(params) {
		return nil, fmt.Errorf("%s takes at most %d positional arguments (%s), got %d; usage: %s", name, len(params), strings.Join(params, ", "), len(args), t.Usage())
	}
	for i, a := range args {
		v, err := toJSONValue(a, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: argument %s: %w", name, params[i], err)
		}
		m[params[i]] = v
	}
	for _, kv := range kwargs {
		k := string(kv[0].(starlark.String))
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("%s: argument %s given twice (by position and by name); usage: %s", name, k, t.Usage())
		}
		v, err := toJSONValue(kv[1], 0)
		if err != nil {
			return nil, fmt.Errorf("%s: argument %s: %w", name, k, err)
		}
		m[k] = v
	}
	return m, nil
}

// data converts a tool's data to Starlark values, within the tool data limit and the
// memory budget.
func (x *run) data(name string, d any) (starlark.Value, error) {
	if d == nil {
		return starlark.None, nil
	}
	c := &converter{max: int64(x.r.lim.ToolData), name: name}
	v, err := c.value(reflect.ValueOf(d), 0)
	if err != nil {
		return nil, err
	}
	return v, x.budget.charge(c.n)
}

// warn keeps a warning of a tool call, at most 50.
func (x *run) warn(w string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case len(x.warnings) < 50:
		x.warnings = append(x.warnings, w)
	case len(x.warnings) == 50:
		x.warnings = append(x.warnings, "more warnings were dropped")
	}
}
