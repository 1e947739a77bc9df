package catalog

import "github.com/memotree/memotree/backend/tool"

// The Refs of the tools that Go code outside the catalogue calls. Every tool is
// declared through its Ref (the others, unexported, sit beside their family's
// declaration); Go callers pass a typed input and read a typed output (tool.Ref.Call)
// instead of naming the tool and reading its data by string keys, so renaming a field
// or a key is a compile error there, not a silent break. The agent reads the manual
// and its canvas on every model call; the window counts pending changes and searches.
// A tool Go code comes to call gets its Ref exported and moved here.
var (
	ReadManual  = tool.NewRef[ReadManualIn, *ManualOut]("read_manual")
	ViewCanvas  = tool.NewRef[ViewCanvasIn, *ViewCanvasOut]("view_canvas")
	GitStatus   = tool.NewRef[GitStatusIn, *GitStatusOut]("git_status")
	SearchNodes = tool.NewRef[SearchNodesIn, *SearchNodesOut]("search_nodes")
)
