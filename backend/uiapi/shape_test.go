package uiapi

import (
	"context"
	"reflect"
	"testing"
)

// Every method of API must be callable from both faces: Wails binds methods whose
// arguments all come from JavaScript (it passes no context) and that return (T, error)
// or error; httpapi serves the same methods.
func TestMethodsFitTheBindings(t *testing.T) {
	ctxType, errType := reflect.TypeFor[context.Context](), reflect.TypeFor[error]()
	typ := reflect.TypeFor[*API]()
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		for j := 1; j < m.Type.NumIn(); j++ {
			if m.Type.In(j) == ctxType {
				t.Errorf("%s takes a context.Context, which the desktop bindings cannot pass", m.Name)
			}
		}
		if n := m.Type.NumOut(); n == 0 || n > 2 || m.Type.Out(n-1) != errType {
			t.Errorf("%s returns %v, want (T, error) or error", m.Name, m.Type)
		}
	}
}
