package script

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"

	"go.starlark.net/starlark"
)

// maxDepth bounds the nesting of values passed between Starlark and Go (a list that
// contains itself would otherwise never end).
const maxDepth = 64

// toJSONValue converts a Starlark value into a value encoding/json marshals: None,
// bool, int, float, string, list, tuple and dict with string keys. Functions, sets and
// other values are refused with a message naming their type.
func toJSONValue(v starlark.Value, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("value nested too deeply (or containing itself)")
	}
	switch v := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(v), nil
	case starlark.Int:
		if i, ok := v.Int64(); ok {
			return i, nil
		}
		return json.Number(v.String()), nil
	case starlark.Float:
		f := float64(v)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("%v is not a JSON number", v)
		}
		return f, nil
	case starlark.String:
		return string(v), nil
	case starlark.Bytes:
		return string(v), nil
	case *starlark.List:
		return seqToJSON(v, depth)
	case starlark.Tuple:
		return seqToJSON(v, depth)
	case *starlark.Dict:
		m := make(map[string]any, v.Len())
		for _, kv := range v.Items() {
			k, ok := kv[0].(starlark.String)
			if !ok {
				return nil, fmt.Errorf("a dict key is %s %s; only string keys can be passed on", kv[0].Type(), kv[0])
			}
			x, err := toJSONValue(kv[1], depth+1)
			if err != nil {
				return nil, fmt.Errorf("[%q]: %w", string(k), err)
			}
			m[string(k)] = x
		}
		return m, nil
	}
	return nil, fmt.Errorf("a %s cannot be passed on (use None, bool, int, float, string, list or dict)", v.Type())
}

func seqToJSON(s starlark.Indexable, depth int) (any, error) {
	out := make([]any, s.Len())
	for i := range out {
		x, err := toJSONValue(s.Index(i), depth+1)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		out[i] = x
	}
	return out, nil
}

// fromJSON decodes JSON into Starlark values: objects become dicts with their keys
// sorted, arrays lists, numbers int when integral and float otherwise.
func fromJSON(b []byte) (starlark.Value, error) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return fromGo(v, 0)
}

// fromGo converts a decoded JSON value.
func fromGo(v any, depth int) (starlark.Value, error) {
	if depth > maxDepth*2 {
		return nil, errors.New("JSON nested too deeply")
	}
	switch t := v.(type) {
	case nil:
		return starlark.None, nil
	case bool:
		return starlark.Bool(t), nil
	case string:
		return starlark.String(t), nil
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return starlark.MakeInt64(int64(t)), nil
		}
		return starlark.Float(t), nil
	case []any:
		elems := make([]starlark.Value, len(t))
		for i, x := range t {
			e, err := fromGo(x, depth+1)
			if err != nil {
				return nil, err
			}
			elems[i] = e
		}
		return starlark.NewList(elems), nil
	case map[string]any:
		dict := starlark.NewDict(len(t))
		for _, k := range sortedKeys(t) {
			e, err := fromGo(t[k], depth+1)
			if err != nil {
				return nil, err
			}
			if err := dict.SetKey(starlark.String(k), e); err != nil {
				return nil, err
			}
		}
		return dict, nil
	}
	return nil, fmt.Errorf("unexpected JSON value %T", v)
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
