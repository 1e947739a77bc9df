package uiapi

// EncodedGraph exposes the cached encoding of a GraphData to the tests.
func EncodedGraph(d GraphData) []byte { return d.encoded }
