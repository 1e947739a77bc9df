package script

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"go.starlark.net/starlark"

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

// toolBuiltin makes t callable with keyword arguments. The arguments are converted to
// JSON and go through Registry.Call like any other call (validation, guard, observer);
// the data of a successful result comes back as Starlark values, a failed one raises
// a ToolError.
func (x *run) toolBuiltin(t *tool.Tool) *starlark.Builtin {
	name := t.Name()
	return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 {
			return nil, fmt.Errorf("%s takes keyword arguments only, as in %s", name, t.Usage())
		}
		m := make(map[string]any, len(kwargs))
		for _, kv := range kwargs {
			k := string(kv[0].(starlark.String))
			v, err := toJSONValue(kv[1], 0)
			if err != nil {
				return nil, fmt.Errorf("%s: argument %s: %w", name, k, err)
			}
			m[k] = v
		}
		raw, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("%s: arguments: %w", name, err)
		}
		x.mu.Lock()
		x.calls++
		x.mu.Unlock()
		res, callErr := x.r.reg.Call(x.ctx, &x.call, name, raw)
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
		return x.data(name, res.Data)
	})
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

// BuiltinNames returns the tool builtins a script of reg can call, sorted.
func BuiltinNames(reg *tool.Registry) []string {
	var out []string
	for _, t := range reg.List() {
		if t.InScripts() {
			out = append(out, t.Name())
		}
	}
	sort.Strings(out)
	return out
}
