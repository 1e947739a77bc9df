package uiapi

import "encoding/json"

// EncodedGraph exposes the cached encoding of a GraphData to the tests.
func EncodedGraph(d GraphData) []byte { return d.encoded }

// GraphCached reports whether the graph payload of a library is built and cached.
func GraphCached(a *API, library string) bool {
	a.graphs.mu.Lock()
	defer a.graphs.mu.Unlock()
	_, ok := a.graphs.entries[library]
	return ok
}

// SetWarmIndexes replaces what WarmGraph runs to start the search indexes, with fn
// called first; the returned function restores it.
func SetWarmIndexes(fn func(a *API)) (restore func()) {
	old := warmIndexes
	warmIndexes = func(a *API) { fn(a); old(a) }
	return func() { warmIndexes = old }
}

// GraphJSONByReflection encodes a GraphData's fields with encoding/json, as the graph
// payload was encoded before its hand-written encoder (the reference of its test).
func GraphJSONByReflection(d GraphData) ([]byte, error) {
	type plain GraphData // without MarshalJSON
	return json.Marshal(plain(d))
}

// EncodeGraph runs the payload's encoder on d.
func EncodeGraph(d GraphData) ([]byte, error) { return d.encode() }
