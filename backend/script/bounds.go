package script

import (
	"fmt"
	"runtime"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// reprBound returns an upper bound (give or take the escaping of unusual characters)
// of the length of str(v) or repr(v), counting no further than limit.
func reprBound(v starlark.Value, limit int64) int64 {
	var n int64
	var walk func(v starlark.Value, depth int)
	walk = func(v starlark.Value, depth int) {
		if n > limit || depth > maxDepth {
			n = limit + 1
			return
		}
		switch v := v.(type) {
		case starlark.String:
			n += int64(len(v)) + 2
		case starlark.Bytes:
			n += 4*int64(len(v)) + 3
		case starlark.Int:
			n += int64(v.BigInt().BitLen()/3 + 2)
		case starlark.Indexable: // list, tuple, range (a range prints as range(a, b))
			if _, isRange := v.(starlark.Iterable); isRange && v.Type() == "range" {
				n += 64
				return
			}
			n += 2
			for i := range v.Len() {
				walk(v.Index(i), depth+1)
				n += 2
				if n > limit {
					return
				}
			}
		case *starlark.Dict:
			n += 2
			for _, kv := range v.Items() {
				walk(kv[0], depth+1)
				walk(kv[1], depth+1)
				n += 4
				if n > limit {
					return
				}
			}
		case *starlark.Set:
			n += 5
			iter := v.Iterate()
			var x starlark.Value
			for iter.Next(&x) && n <= limit {
				walk(x, depth+1)
				n += 2
			}
			iter.Done()
		default:
			n += 64
		}
	}
	walk(v, 0)
	return n
}

// wrapped returns the universe builtins that can build large values, replaced by
// versions that check or charge what they build: str, repr and print are checked
// before they format, list, tuple, sorted, dict, enumerate, zip and reversed are
// charged after they copy.
func (b *budget) wrapped(x *run) starlark.StringDict {
	out := starlark.StringDict{}
	for _, name := range []string{"str", "repr"} {
		orig := starlark.Universe[name].(*starlark.Builtin)
		out[name] = starlark.NewBuiltin(name, func(th *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 1 {
				if s, ok := args[0].(starlark.String); ok && name == "str" {
					return s, nil
				}
				if n := reprBound(args[0], int64(b.lim.String)); n > int64(b.lim.String) {
					return nil, &LimitError{"string", fmt.Sprintf("%s of a value of more than %d bytes", name, b.lim.String)}
				}
			}
			return starlark.Call(th, orig, args, kw)
		})
	}
	for _, name := range []string{"list", "tuple", "sorted", "dict", "enumerate", "zip", "reversed"} {
		orig := starlark.Universe[name].(*starlark.Builtin)
		out[name] = starlark.NewBuiltin(name, func(th *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			z, err := starlark.Call(th, orig, args, kw)
			if err != nil {
				return nil, err
			}
			if n, ok := size(z); ok {
				return z, b.check(z, int64(n))
			}
			return z, nil
		})
	}
	out["print"] = starlark.NewBuiltin("print", x.printFn)
	out[fnSized] = starlark.NewBuiltin(fnSized, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		z := args[0]
		if n, ok := size(z); ok {
			return z, b.check(z, int64(n))
		}
		return z, nil
	})
	return out
}

// printFn is print, refusing to format what would pass the output limit anyway.
func (x *run) printFn(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var n int64
	limit := int64(x.r.lim.Output)
	for _, a := range args {
		n += reprBound(a, limit)
	}
	if n > limit {
		x.mu.Lock()
		x.truncated = true
		x.mu.Unlock()
		return starlark.None, nil
	}
	return starlark.Call(th, starlark.Universe["print"], args, kw)
}

// preMod bounds s % args: no longer than the format and every argument's repr.
func (b *budget) preMod(x, y starlark.Value) error {
	s, ok := x.(starlark.String)
	if !ok {
		return nil
	}
	return b.check(s, int64(len(s))+reprBound(y, int64(b.lim.String)))
}

// heapWatch is the backstop for what the checks above miss: it stops the script when
// the process's heap grew by more than four times the memory budget since the script
// started. It returns the function that stops watching.
func (x *run) heapWatch() func() {
	// HeapAlloc, the bytes of heap objects, read through runtime.ReadMemStats: a
	// short pause of the world every tick, where runtime/metrics would cost every
	// process that links this package its start-up table.
	read := func() int64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	base := read()
	limit := 4 * x.r.lim.Memory
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if read()-base > limit {
					x.stop(&LimitError{"memory", fmt.Sprintf("the process heap grew by more than %d MiB while the script ran", limit>>20)})
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

// fnSized charges the value of a slice expression.
const fnSized = "_mt_sized"

// sized wraps a slice expression in a call of _mt_sized.
func sized(e *syntax.SliceExpr) syntax.Expr {
	return call(fnSized, e.Lbrack, e)
}
