package tool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/tool"
)

// listEntitiesIn is the input of an example list tool: its schema is derived from the
// struct, and tool.Paging adds offset, limit and summary_only.
type listEntitiesIn struct {
	EntityGlob string `json:"entity_glob" jsonschema:"a glob over entity names, such as people/*"`
	tool.LibraryArg
	tool.Paging
}

// listEntitiesOut is its output: the data of a successful result.
type listEntitiesOut struct {
	Entities []string      `json:"entities"`
	Page     tool.PageInfo `json:"page"`
}

// ListEntities names the tool with its types: the tool is declared through it, and Go
// code calls the tool through it (ListEntities.Call).
var ListEntities = tool.NewRef[listEntitiesIn, *listEntitiesOut]("list_entities")

// listEntities would live in backend/catalog/entity.go, with its description in
// list_entities.md (loaded with tool.MustDescription from an embed.FS).
var listEntities = ListEntities.New(tool.ReadOnly,
	"Lists the entities whose names match a glob.",
	func(ctx context.Context, call *tool.Call, in listEntitiesIn) (tool.Result, *listEntitiesOut, error) {
		var names []string
		for _, n := range []string{"people/Ada Lovelace", "people/Charles Babbage", "projects/Engine"} {
			if strings.HasPrefix(n, strings.TrimSuffix(in.EntityGlob, "*")) {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return tool.Fail(tool.CodeNoMatch, "no entity matches %q", in.EntityGlob), nil, nil
		}
		page, info := tool.Paginate(names, in.Paging)
		return tool.OK(info.Hint("entities")), &listEntitiesOut{Entities: page, Page: info}, nil
	})

func Example() {
	reg := tool.NewRegistry()
	if err := reg.Register(listEntities); err != nil {
		panic(err)
	}
	call := &tool.Call{Actor: tool.ActorAgent, Turn: "t1"}
	for _, args := range []string{`{"entity_glob":"people/*","limit":1}`, `{"entity_glob":["people/*"]}`} {
		res, err := reg.Call(context.Background(), call, "list_entities", json.RawMessage(args))
		if err != nil {
			panic(err) // the infrastructure broke
		}
		res.Elapsed = 0 // for a stable example
		fmt.Print(res.YAML())
	}
	// Output:
	// status: success
	// message: showing 1-1 of 2 entities; call again with offset=1 for more
	// data:
	//   entities:
	//     - people/Ada Lovelace
	//   page:
	//     total: 2
	//     offset: 0
	//     limit: 1
	//     next_offset: 1
	// elapsed: 0.00ms
	// status: error
	// message: |-
	//   invalid arguments for list_entities: entity_glob: expected string, got array
	//   usage: list_entities(entity_glob: string, library_name?: string, offset?: integer, limit?: integer, summary_only?: boolean (true or false))
	// error_code: invalid_arguments
	// elapsed: 0.00ms
}
