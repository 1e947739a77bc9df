package agent

import (
	"context"

	"github.com/memotree/memotree/backend/catalog"
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
	res, v, err := catalog.ViewCanvas.Call(ctx, a.Registry, &tool.Call{Actor: tool.ActorAgent, Session: a.Session}, catalog.ViewCanvasIn{})
	switch {
	case err != nil:
		return canvasIntro + "(no canvas: " + err.Error() + ")\n</canvas>"
	case v == nil:
		return canvasIntro + "(no canvas: " + res.Message + ")\n</canvas>"
	}
	return canvasIntro + v.Canvas + "</canvas>"
}
