package agent

import (
	"context"

	"github.com/memotree/memotree/backend/tool"
)

// canvasIntro tells the model what the canvas block is.
const canvasIntro = "\n\n<canvas>\nYour canvas: what you currently see of the default library, kept between turns. " +
	"Raise a node with expand_node(entity_name, level) and lower it with collapse_node; " +
	"read_entities and the search tools reach anything else.\n"

// canvasBlock returns the rendered default view of the default library, as the
// view_canvas tool gives it, for the system message; or a line saying why it is
// missing (a vault without a canvas never stops a turn).
func (a *Agent) canvasBlock(ctx context.Context) string {
	res, err := a.Registry.Call(ctx, &tool.Call{Actor: tool.ActorAgent, Session: a.Session}, "view_canvas", []byte(`{}`))
	if err != nil || res.IsError() {
		msg := res.Message
		if err != nil {
			msg = err.Error()
		}
		return canvasIntro + "(no canvas: " + msg + ")\n</canvas>"
	}
	if m, ok := res.Data.(map[string]any); ok {
		if s, ok := m["canvas"].(string); ok {
			return canvasIntro + s + "</canvas>"
		}
	}
	return canvasIntro + res.YAML() + "</canvas>"
}
