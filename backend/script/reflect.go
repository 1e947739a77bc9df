package script

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"go.starlark.net/starlark"
)

// Tool data is converted to Starlark values directly, by reflection, as encoding/json
// would encode it (json tags, omitempty, "-", embedded structs inlined, nil slices and
// maps as None); a value with its own MarshalJSON goes through JSON. This skips the
// marshal-and-decode round trip that dominated a script's cost per tool call.

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// converter turns Go values into Starlark values, counting their size against max.
type converter struct {
	n, max int64
	name   string
}

func (c *converter) grow(n int64) error {
	c.n += n
	if c.n > c.max {
		return &LimitError{"tool_data", fmt.Sprintf("%s returned more than the %d bytes one call may return; ask for less (paging, summary mode)", c.name, c.max)}
	}
	return nil
}

func (c *converter) value(v reflect.Value, depth int) (starlark.Value, error) {
	if depth > maxDepth*2 {
		return nil, fmt.Errorf("%s: data nested too deeply", c.name)
	}
	if !v.IsValid() {
		return starlark.None, c.grow(4)
	}
	t := v.Type()
	if t.Implements(jsonMarshaler) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(jsonMarshaler) && v.CanAddr()) {
		if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && v.IsNil() {
			return starlark.None, c.grow(4)
		}
		b, err := json.Marshal(v.Interface())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		if err := c.grow(int64(len(b))); err != nil {
			return nil, err
		}
		return fromJSON(b)
	}
	if t.Implements(textMarshaler) && t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		return starlark.String(b), c.grow(int64(len(b)))
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return starlark.None, c.grow(4)
		}
		return c.value(v.Elem(), depth+1)
	case reflect.Bool:
		return starlark.Bool(v.Bool()), c.grow(5)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return starlark.MakeInt64(v.Int()), c.grow(8)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return starlark.MakeUint64(v.Uint()), c.grow(8)
	case reflect.Float32, reflect.Float64:
		return starlark.Float(v.Float()), c.grow(8)
	case reflect.String:
		return starlark.String(v.String()), c.grow(int64(v.Len()) + 2)
	case reflect.Slice:
		if v.IsNil() {
			return starlark.None, c.grow(4)
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return c.viaJSON(v) // base64, as encoding/json writes it
		}
		return c.list(v, depth)
	case reflect.Array:
		return c.list(v, depth)
	case reflect.Map:
		if v.IsNil() {
			return starlark.None, c.grow(4)
		}
		if t.Key().Kind() != reflect.String {
			return c.viaJSON(v)
		}
		return c.dict(v, depth)
	case reflect.Struct:
		return c.structValue(v, depth)
	}
	return nil, fmt.Errorf("%s: data of type %s cannot be converted", c.name, t)
}

func (c *converter) viaJSON(v reflect.Value) (starlark.Value, error) {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.name, err)
	}
	if err := c.grow(int64(len(b))); err != nil {
		return nil, err
	}
	return fromJSON(b)
}

func (c *converter) list(v reflect.Value, depth int) (starlark.Value, error) {
	elems := make([]starlark.Value, v.Len())
	for i := range elems {
		e, err := c.value(v.Index(i), depth+1)
		if err != nil {
			return nil, err
		}
		elems[i] = e
	}
	return starlark.NewList(elems), c.grow(2)
}

func (c *converter) dict(v reflect.Value, depth int) (starlark.Value, error) {
	keys := v.MapKeys()
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	d := starlark.NewDict(len(keys))
	for _, k := range keys {
		e, err := c.value(v.MapIndex(k), depth+1)
		if err != nil {
			return nil, err
		}
		if err := c.grow(int64(k.Len()) + 4); err != nil {
			return nil, err
		}
		if err := d.SetKey(starlark.String(k.String()), e); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (c *converter) structValue(v reflect.Value, depth int) (starlark.Value, error) {
	fields := fieldsOf(v.Type())
	d := starlark.NewDict(len(fields))
	for _, f := range fields {
		fv, ok := fieldByIndex(v, f.index)
		if !ok || (f.omitEmpty && isEmpty(fv)) {
			continue
		}
		e, err := c.value(fv, depth+1)
		if err != nil {
			return nil, err
		}
		if err := c.grow(int64(len(f.name)) + 4); err != nil {
			return nil, err
		}
		if err := d.SetKey(starlark.String(f.name), e); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// fieldByIndex follows index through embedded pointers; ok is false at a nil one.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// field is one encoded field of a struct type.
type field struct {
	name      string
	index     []int
	omitEmpty bool
}

var fieldCache sync.Map // reflect.Type -> []field

// fieldsOf lists the fields encoding/json encodes for t, embedded structs without a
// name inlined (the simple case of json's rules: an outer field wins over an inner
// one of the same name).
func fieldsOf(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	var out []field
	seen := map[string]bool{}
	var walk func(t reflect.Type, prefix []int, depth int)
	walk = func(t reflect.Type, prefix []int, depth int) {
		var embedded []reflect.StructField
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if sf.Anonymous && name == "" {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					embedded = append(embedded, sf)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			idx := append(append([]int(nil), prefix...), i)
			out = append(out, field{name: name, index: idx, omitEmpty: strings.Contains(opts, "omitempty")})
		}
		if depth < 8 {
			for _, sf := range embedded {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				walk(ft, append(append([]int(nil), prefix...), sf.Index...), depth+1)
			}
		}
	}
	walk(t, nil, 0)
	fieldCache.Store(t, out)
	return out
}
