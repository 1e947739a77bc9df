package tool

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkCallReadTool measures in-process dispatch of a trivial read tool: lookup,
// validation, decoding, the guard and the handler.
func BenchmarkCallReadTool(b *testing.B) {
	r := testRegistry(b)
	r.SetGuard(func(*Call, Request) *Result { return nil })
	args := json.RawMessage(`{"entity_names":["people/Ada Lovelace","Charles Babbage"],"mode":"merge","library_name":"work"}`)
	call := &Call{Actor: ActorAgent, Turn: "t1"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := r.Call(ctx, call, "echo", args)
		if err != nil || res.Status != StatusSuccess {
			b.Fatalf("%+v %v", res, err)
		}
	}
}

// BenchmarkCallNoArgs measures dispatch of a tool without arguments.
func BenchmarkCallNoArgs(b *testing.B) {
	r := testRegistry(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res, _ := r.Call(ctx, nil, "status", nil); res.Status != StatusSuccess {
			b.Fatal(res.Message)
		}
	}
}

// BenchmarkYAML measures rendering a typical list result for a model.
func BenchmarkYAML(b *testing.B) {
	names := make([]string, 50)
	for i := range names {
		names[i] = "people/Person number " + string(rune('A'+i%26))
	}
	res := OK("showing 1-50 of 120 entities").WithData(map[string]any{"entities": names, "page": PageInfo{Total: 120, Limit: 50, NextOffset: 50}})
	b.ReportAllocs()
	for b.Loop() {
		_ = res.YAML()
	}
}
