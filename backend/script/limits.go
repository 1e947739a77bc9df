package script

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Limits bound what one script may do. The zero value of a field means its default.
type Limits struct {
	// Steps is the most Starlark execution steps (DefaultSteps).
	Steps uint64
	// Wall is the longest a script may run, tool calls included (DefaultWall).
	Wall time.Duration
	// Output is the most bytes of print output kept; the rest is dropped and the
	// result says so (DefaultOutput).
	Output int
	// String is the longest string or bytes value a script may build (DefaultString).
	String int
	// List is the most elements of a list, tuple, dict or range a script may build
	// (DefaultList).
	List int
	// Memory is the total a script may build with the operators and methods that can
	// grow values (+, *, %, join, replace, format) and receive from tools, in bytes
	// (DefaultMemory).
	Memory int64
	// ToolData is the largest data one tool call may return, as JSON (DefaultToolData).
	ToolData int
	// Result is the largest __result__, as JSON (DefaultResult).
	Result int
}

// The default limits.
const (
	DefaultSteps    = 5_000_000
	DefaultWall     = 30 * time.Second
	DefaultOutput   = 64 << 10
	DefaultString   = 8 << 20
	DefaultList     = 1_000_000
	DefaultMemory   = 256 << 20
	DefaultToolData = 8 << 20
	DefaultResult   = 1 << 20
)

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if l.Steps == 0 {
		l.Steps = DefaultSteps
	}
	if l.Wall <= 0 {
		l.Wall = DefaultWall
	}
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	def(&l.Output, DefaultOutput)
	def(&l.String, DefaultString)
	def(&l.List, DefaultList)
	def(&l.ToolData, DefaultToolData)
	def(&l.Result, DefaultResult)
	return l
}

// LimitError says which limit stopped a script.
type LimitError struct {
	// Limit is steps, time, memory, string, list, tool_data or result.
	Limit string
	// Detail says what was reached.
	Detail string
}

// Error names the limit.
func (e *LimitError) Error() string { return fmt.Sprintf("%s limit: %s", e.Limit, e.Detail) }

// budget counts what a script built, against Limits.Memory.
type budget struct {
	lim  Limits
	used int64
}

// charge adds n bytes, failing once the total passes the limit.
func (b *budget) charge(n int64) error {
	b.used += n
	if b.used > b.lim.Memory {
		return &LimitError{"memory", fmt.Sprintf("the script built more than %d MiB of strings, lists and tool data; work on less at a time", b.lim.Memory>>20)}
	}
	return nil
}

// size returns the length of a sized value and whether it is one whose size matters.
func size(v starlark.Value) (int, bool) {
	switch v := v.(type) {
	case starlark.String:
		return len(v), true
	case starlark.Bytes:
		return len(v), true
	case starlark.Indexable: // list, tuple, range
		return v.Len(), true
	case *starlark.Dict:
		return v.Len(), true
	}
	return 0, false
}

// isText reports whether v is a string or bytes (measured in bytes, not elements).
func isText(v starlark.Value) bool {
	switch v.(type) {
	case starlark.String, starlark.Bytes:
		return true
	}
	return false
}

// check refuses a value of n elements (or bytes, for text) of v's kind.
func (b *budget) check(v starlark.Value, n int64) error {
	if isText(v) {
		if n > int64(b.lim.String) {
			return &LimitError{"string", fmt.Sprintf("a string of %d bytes is longer than the %d allowed", n, b.lim.String)}
		}
		return b.charge(n)
	}
	if n > int64(b.lim.List) {
		return &LimitError{"list", fmt.Sprintf("a sequence of %d elements is longer than the %d allowed", n, b.lim.List)}
	}
	return b.charge(n * 16)
}

// builtins returns the checking builtins that rewritten scripts call.
func (b *budget) builtins() starlark.StringDict {
	bin := func(name string, op syntax.Token, pre func(x, y starlark.Value) error) *starlark.Builtin {
		return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 2 {
				return nil, fmt.Errorf("%s: internal operator called with %d operands", name, len(args))
			}
			x, y := args[0], args[1]
			if pre != nil {
				if err := pre(x, y); err != nil {
					return nil, err
				}
			}
			if op == syntax.PLUS_EQ {
				if l, ok := x.(*starlark.List); ok { // x += y extends a list in place
					return l, extend(l, y)
				}
				op = syntax.PLUS
			}
			z, err := starlark.Binary(op, x, y)
			if err != nil {
				return nil, err
			}
			if n, ok := size(z); ok && op == syntax.PERCENT { // also checked before
				return z, b.check(z, int64(n))
			}
			return z, nil
		})
	}
	return starlark.StringDict{
		fnAdd:    bin(fnAdd, syntax.PLUS, b.preAdd),
		fnIAdd:   bin(fnIAdd, syntax.PLUS_EQ, b.preAdd),
		fnMul:    bin(fnMul, syntax.STAR, b.preMul),
		fnIMul:   bin(fnIMul, syntax.STAR, b.preMul),
		fnMod:    bin(fnMod, syntax.PERCENT, b.preMod),
		fnIMod:   bin(fnIMod, syntax.PERCENT, b.preMod),
		fnMethod: starlark.NewBuiltin(fnMethod, b.method),
		"range":  starlark.NewBuiltin("range", b.rangeFn),
	}
}

func extend(l *starlark.List, y starlark.Value) error {
	it, ok := y.(starlark.Iterable)
	if !ok {
		return fmt.Errorf("unknown binary op: list += %s", y.Type())
	}
	iter := it.Iterate()
	defer iter.Done()
	var v starlark.Value
	for iter.Next(&v) {
		if err := l.Append(v); err != nil {
			return err
		}
	}
	return nil
}

// preAdd refuses a concatenation whose result would be too large.
func (b *budget) preAdd(x, y starlark.Value) error {
	nx, okx := size(x)
	ny, oky := size(y)
	if !okx || !oky {
		return nil
	}
	return b.check(x, int64(nx)+int64(ny))
}

// preMul refuses a repetition whose result would be too large.
func (b *budget) preMul(x, y starlark.Value) error {
	seq, n := x, y
	if _, ok := size(seq); !ok {
		seq, n = y, x
	}
	ln, ok := size(seq)
	if !ok {
		return nil
	}
	k, ok := n.(starlark.Int)
	if !ok {
		return nil
	}
	times, ok := k.Int64()
	if !ok {
		return &LimitError{"list", "a repetition count is too large"}
	}
	if times <= 0 || ln == 0 {
		return nil
	}
	if int64(ln) > (1<<62)/times {
		return b.check(seq, 1<<62)
	}
	return b.check(seq, int64(ln)*times)
}

// method calls a string method after bounding the size of its result.
func (b *budget) method(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 2 {
		return nil, errors.New("internal method call without a receiver")
	}
	recv, name := args[0], string(args[1].(starlark.String))
	rest := args[2:]
	fn, err := getAttr(recv, name)
	if err != nil {
		return nil, err
	}
	if s, ok := recv.(starlark.String); ok {
		if bound, known := boundOf(string(s), name, rest); known {
			if err := b.check(s, bound); err != nil {
				return nil, err
			}
		}
	}
	z, err := starlark.Call(th, fn, rest, kwargs)
	if err != nil {
		return nil, err
	}
	if n, ok := size(z); ok {
		if err := b.check(z, int64(n)); err != nil {
			return nil, err
		}
	}
	return z, nil
}

func getAttr(recv starlark.Value, name string) (starlark.Value, error) {
	h, ok := recv.(starlark.HasAttrs)
	if !ok {
		return nil, fmt.Errorf("%s has no .%s field or method", recv.Type(), name)
	}
	fn, err := h.Attr(name)
	if err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, fmt.Errorf("%s has no .%s field or method", recv.Type(), name)
	}
	return fn, nil
}

// boundOf returns an upper bound of the length of s.name(args...), when it can be
// known before the call: join and replace. format is checked after it ran, against a
// bound computed from its arguments' lengths.
func boundOf(s, name string, args starlark.Tuple) (int64, bool) {
	switch name {
	case "join":
		if len(args) != 1 {
			return 0, false
		}
		it, ok := args[0].(starlark.Iterable)
		if !ok {
			return 0, false
		}
		var total, n int64
		iter := it.Iterate()
		defer iter.Done()
		var v starlark.Value
		for iter.Next(&v) {
			if l, ok := size(v); ok && isText(v) {
				total += int64(l)
			}
			n++
			if total > 1<<40 {
				break
			}
		}
		if n > 0 {
			total += int64(len(s)) * (n - 1)
		}
		return total, true
	case "replace":
		if len(args) < 2 {
			return 0, false
		}
		old, ok1 := args[0].(starlark.String)
		nw, ok2 := args[1].(starlark.String)
		if !ok1 || !ok2 {
			return 0, false
		}
		count := int64(strings.Count(s, string(old)))
		if old == "" {
			count = int64(len(s)) + 1
		}
		grow := int64(len(nw)) - int64(len(old))
		return int64(len(s)) + max(0, grow)*count, true
	case "format":
		var total int64
		for _, a := range args {
			if l, ok := size(a); ok && isText(a) {
				total += int64(l)
			} else {
				total += 64
			}
		}
		return int64(len(s)) + total*int64(max(1, strings.Count(s, "{"))), true
	}
	return 0, false
}

// rangeFn is range with its length checked against the list limit (range itself is
// lazy, but list(range(1 << 40)) is not).
func (b *budget) rangeFn(th *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	r, err := starlark.Call(th, starlark.Universe["range"], args, kwargs)
	if err != nil {
		return nil, err
	}
	if n := r.(starlark.Indexable).Len(); n > b.lim.List {
		return nil, &LimitError{"list", fmt.Sprintf("range of %d elements is longer than the %d allowed", n, b.lim.List)}
	}
	return r, nil
}
