package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxCompletions is the most values one completion answers, as the protocol asks.
const maxCompletions = 100

// complete suggests values for the note resource template's arguments: library names,
// and note paths that start with (or contain) what was typed.
func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	var values []string
	typed := strings.ToLower(req.Params.Argument.Value)
	switch req.Params.Argument.Name {
	case "library":
		for _, l := range s.deps.Libraries.Libraries() {
			if strings.HasPrefix(strings.ToLower(l.Name()), typed) {
				values = append(values, l.Name())
			}
		}
	case "path":
		lib := ""
		if c := req.Params.Context; c != nil {
			lib = c.Arguments["library"]
		}
		if g, err := s.graph(ctx, lib); err == nil {
			var prefix, contains []string
			for _, p := range g.Notes() {
				low := strings.ToLower(string(p))
				switch {
				case strings.HasPrefix(low, typed):
					prefix = append(prefix, string(p))
				case strings.Contains(low, typed):
					contains = append(contains, string(p))
				}
			}
			values = append(prefix, contains...)
		}
	}
	total := len(values)
	if total > maxCompletions {
		values = values[:maxCompletions]
	}
	if values == nil {
		values = []string{}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: total, HasMore: total > len(values)}}, nil
}
