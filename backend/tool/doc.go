// Package tool is MemoTree's capability hub: the one registry in which every tool is
// declared once and from which it is served, with the same validation and the same
// results, to the in-app agent, MCP clients, Starlark scripts and `memotree call`.
//
// A tool is a typed input struct, a typed output and a handler, declared through its
// Ref, which names the tool with its input and output types (as the MCP Go SDK's
// AddTool[In, Out]). The input JSON schema is derived from the input struct (json
// names; `jsonschema:"..."` tags describe the fields; fields without omitempty are
// required; slices, maps and pointers are typed plainly "array", "object", ...
// because some model providers reject ["null","array"]). The output schema is derived
// from the output type and served to MCP clients (OutputSchema). The description is
// Markdown, usually embedded next to the tool's Go file:
//
//	//go:embed *.md
//	var docs embed.FS
//
//	type readEntitiesIn struct {
//		EntityNames []string `json:"entity_names" jsonschema:"the entities to read"`
//		tool.LibraryArg // library_name, read by the registry into Call.Library
//	}
//
//	type readEntitiesOut struct {
//		Entities []entityText `json:"entities"`
//	}
//
//	var ReadEntities = tool.NewRef[readEntitiesIn, *readEntitiesOut]("read_entities")
//
//	err := reg.Register(ReadEntities.New(tool.ReadOnly, tool.MustDescription(docs, "read_entities"),
//		func(ctx context.Context, call *tool.Call, in readEntitiesIn) (tool.Result, *readEntitiesOut, error) {
//			...
//			return tool.OK("read 2 entities"), &readEntitiesOut{Entities: texts}, nil
//		}))
//
// A successful result carries the handler's output as its data; a failure carries the
// details WithData gave it. A tool that answers in one of two forms returns an Either
// of them. Go code calls a tool with typed values through its Ref (Ref.Call), never by
// its name with JSON it built by hand (an architecture test keeps tool names out of Go
// code outside the catalogue and this package).
//
// What a tool's declaration says beyond its class is its policy: NotInScripts and
// WithHistory, and the rules that depend on a call (DryRun, Calls, LibraryFrom), which
// read the call's decoded input and are given to Ref.New. The Guard judges each call
// as a Request (Request.Judge, Request.NeedsPerson).
//
// Registry.Call validates the JSON arguments against the schema before the handler
// runs (unknown fields, wrong types and missing required fields are refused with a
// message a model can act on, and a null optional field counts as absent), asks the
// Guard, runs the handler, recovers a panic, and times the call. Everything a model
// can get wrong is a Result with status error and an error code; a Go error from Call
// means the infrastructure broke. Results render as flat YAML for models (Result.YAML)
// and as JSON for MCP and --json (Result.JSON). List tools embed Paging and cut their
// lists with Paginate, so no answer floods a context window.
//
// This package knows nothing about vaults; the tool families live in backend/catalog.
//
// Concurrency: register the tools and the guard while wiring, before serving. After
// that a Registry is safe for concurrent use: any number of goroutines may Call, Get
// and List at once, and handlers run concurrently, so they must be safe for concurrent
// use themselves. A Tool must not be changed once registered.
package tool
