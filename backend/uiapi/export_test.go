package uiapi

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
