package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strconv"

	"github.com/memotree/memotree/backend/uiapi"
)

var (
	ctxType   = reflect.TypeFor[context.Context]()
	errorType = reflect.TypeFor[error]()
)

// method is one exported method of the receiver, callable over HTTP.
type method struct {
	fn     reflect.Value
	in     []reflect.Type // argument types
	result bool           // returns a value before its error
}

// methods derives the callable methods of recv: every exported method whose results
// are (T, error) or (error) and whose arguments are all JSON values. Any other method
// is not served: one taking a context.Context, in particular, since neither this
// server nor the window's bindings would pass one.
func methods(recv any) map[string]method {
	out := map[string]method{}
	v := reflect.ValueOf(recv)
	t := v.Type()
	for i := range t.NumMethod() {
		m := t.Method(i)
		ft := m.Type // includes the receiver as the first argument
		nout := ft.NumOut()
		if nout == 0 || nout > 2 || ft.Out(nout-1) != errorType {
			continue
		}
		md := method{fn: v.Method(i), result: nout == 2}
		for j := 1; j < ft.NumIn(); j++ {
			md.in = append(md.in, ft.In(j))
		}
		if slices.Contains(md.in, ctxType) {
			continue
		}
		out[m.Name] = md
	}
	return out
}

// Names lists the methods recv serves, sorted.
func Names(recv any) []string {
	var out []string
	for n := range methods(recv) {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// call decodes the JSON array body into the method's arguments and calls it.
func (m method) call(body []byte) (any, error) {
	var raw []json.RawMessage
	if len(body) > 0 {
		if err := json.Unmarshal(body, &raw); err != nil {
			return nil, &badRequest{fmt.Errorf("arguments must be a JSON array: %w", err)}
		}
	}
	if len(raw) != len(m.in) {
		return nil, &badRequest{fmt.Errorf("want %d arguments, got %d", len(m.in), len(raw))}
	}
	args := make([]reflect.Value, 0, len(m.in))
	for i, t := range m.in {
		p := reflect.New(t)
		if err := json.Unmarshal(raw[i], p.Interface()); err != nil {
			return nil, &badRequest{fmt.Errorf("argument %d: %w", i+1, err)}
		}
		args = append(args, p.Elem())
	}
	res := m.fn.Call(args)
	errv := res[len(res)-1]
	if !errv.IsNil() {
		return nil, errv.Interface().(error)
	}
	if m.result {
		return res[0].Interface(), nil
	}
	return nil, nil
}

type badRequest struct{ err error }

func (b *badRequest) Error() string { return b.err.Error() }
func (b *badRequest) Unwrap() error { return b.err }

// serveCall answers POST /api/call/{method}.
func serveCall(ms map[string]method) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			writeError(w, http.StatusMethodNotAllowed, errors.New("use POST"))
			return
		}
		m, ok := ms[r.PathValue("method")]
		if !ok {
			writeError(w, http.StatusNotFound, fmt.Errorf("no method %q", r.PathValue("method")))
			return
		}
		body, err := readLimited(r, uiapi.MaxRequestBytes)
		if err != nil {
			writeError(w, http.StatusRequestEntityTooLarge, err)
			return
		}
		res, err := m.call(body)
		if err != nil {
			status := http.StatusInternalServerError
			var br *badRequest
			if errors.As(err, &br) {
				status = http.StatusBadRequest
			}
			writeError(w, status, err)
			return
		}
		writeJSON(w, http.StatusOK, res)
	}
}

// Encoded is a result that carries its own JSON, made once for many callers (the
// graph payload, 26 MB at 100k notes): it is written as it is, where json.Encoder
// would check and copy every byte of it again before sending the first one.
type Encoded interface {
	// EncodedJSON returns the value's JSON, or nil when it has none made.
	EncodedJSON() []byte
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if e, ok := v.(Encoded); ok {
		if b := e.EncodedJSON(); b != nil {
			w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
			w.WriteHeader(status)
			if _, err := w.Write(b); err == nil {
				_, _ = w.Write([]byte{'\n'})
			}
			return
		}
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, map[string]string{"error": err.Error()})
}
