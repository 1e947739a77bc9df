package script

import (
	"slices"

	"go.starlark.net/syntax"

	"github.com/memotree/memotree/backend/tool"
)

// ToolsNamed returns the tools of reg that code names (calls or refers to), sorted,
// without running it; nil if it does not parse. An approval step can use it to ask
// the person before a script that names a destructive tool runs, as it would before
// that tool: a name is found wherever it appears, so a script cannot hide a call
// behind a variable (it may only be flagged when it does not call it after all).
func ToolsNamed(reg *tool.Registry, code string) []*tool.Tool {
	f, err := parse(code)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []*tool.Tool
	syntax.Walk(f, func(n syntax.Node) bool {
		id, ok := n.(*syntax.Ident)
		if !ok || seen[id.Name] {
			return true
		}
		seen[id.Name] = true
		if t, ok := reg.Get(id.Name); ok && t.InScripts() {
			out = append(out, t)
		}
		return true
	})
	slices.SortFunc(out, func(a, b *tool.Tool) int {
		if a.Name() < b.Name() {
			return -1
		}
		return 1
	})
	return out
}
