// Package notice carries warnings from deep inside an operation up to the result of
// the call that caused it, through the context: a write that succeeded but whose
// journey record failed, a batch a crash interrupted that could not be finished on
// the way to a write. The tool registry puts a List in every call's context and adds what it
// collected to the result's warnings.
//
// Concurrency: a List is safe for concurrent use.
package notice

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// List collects the warnings of one call.
type List struct {
	mu   sync.Mutex
	msgs []string
}

type key struct{}

// With returns a context that collects warnings in a new List, and the List.
func With(ctx context.Context) (context.Context, *List) {
	l := &List{}
	return context.WithValue(ctx, key{}, l), l
}

// Wants reports whether ctx collects warnings.
func Wants(ctx context.Context) bool {
	_, ok := ctx.Value(key{}).(*List)
	return ok
}

// Add records a warning, formatted as by fmt.Sprintf, in ctx's List; it reports
// false when ctx has none (the caller then keeps the warning for someone else).
// The same warning twice is recorded once.
func Add(ctx context.Context, format string, args ...any) bool {
	l, ok := ctx.Value(key{}).(*List)
	if !ok {
		return false
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	l.mu.Lock()
	if !slices.Contains(l.msgs, msg) {
		l.msgs = append(l.msgs, msg)
	}
	l.mu.Unlock()
	return true
}

// Take returns the warnings collected so far and forgets them.
func (l *List) Take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.msgs
	l.msgs = nil
	return out
}
