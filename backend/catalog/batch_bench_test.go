package catalog_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/memotree/memotree/backend/tool"
)

// benchBatch is the shape of the batches mcpbench sends: 100 items a call.
const benchBatch = 100

// benchEntities returns the add_entities arguments for entities first..first+n-1, as
// mcpbench names and fills them.
func benchEntities(first, n int) json.RawMessage {
	type ent struct {
		EntityName string `json:"entity_name"`
		EntityType string `json:"entity_type"`
		Content    string `json:"content"`
	}
	ents := make([]ent, n)
	for i := range ents {
		k := first + i
		ents[i] = ent{fmt.Sprintf("bench/Entity %05d", k), "person", fmt.Sprintf("Entity %d is a person who knows entity %d.", k, k+1)}
	}
	b, _ := json.Marshal(map[string]any{"entities": ents})
	return b
}

// benchRelations returns the create_relations arguments linking entity k to k+1 for
// k in first..first+n-1, with type typ.
func benchRelations(first, n int, typ string) json.RawMessage {
	rels := make([]map[string]string, n)
	for i := range rels {
		k := first + i
		rels[i] = map[string]string{"from": fmt.Sprintf("bench/Entity %05d", k), "to": fmt.Sprintf("bench/Entity %05d", k+1), "type": typ}
	}
	b, _ := json.Marshal(map[string]any{"relations": rels})
	return b
}

// benchCall runs one tool call as an MCP client would and fails on any error.
func benchCall(b *testing.B, reg *tool.Registry, name string, args json.RawMessage) {
	b.Helper()
	res, err := reg.Call(b.Context(), &tool.Call{Actor: tool.ActorAgent}, name, args)
	if err != nil || res.IsError() || len(res.Warnings) > 0 && name == "add_entities" {
		b.Fatalf("%s: %v %s %v", name, err, res.Message, res.Warnings)
	}
}

// BenchmarkAddEntities100 creates 100 entities a call in a vault of 2,000 notes.
func BenchmarkAddEntities100(b *testing.B) {
	h, _ := entBenchVault(b, 2000)
	i := 0
	for b.Loop() {
		benchCall(b, h.reg, "add_entities", benchEntities(i*benchBatch, benchBatch))
		i++
	}
}

// BenchmarkCreateRelations100 adds 100 relations a call, each to a different note,
// in a vault of 2,000 notes plus the entities the relations start from.
func BenchmarkCreateRelations100(b *testing.B) {
	h, _ := entBenchVault(b, 2000)
	const ents = 5000
	for i := 0; i < ents; i += benchBatch {
		benchCall(b, h.reg, "add_entities", benchEntities(i, benchBatch))
	}
	i := 0
	for b.Loop() {
		first, round := (i*benchBatch)%ents, i*benchBatch/ents // a new type each round
		benchCall(b, h.reg, "create_relations", benchRelations(first, benchBatch, fmt.Sprintf("knows %d", round)))
		i++
	}
}
