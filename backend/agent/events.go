package agent

import "github.com/memotree/memotree/backend/tool"

// The phases of a tool call a face is told about.
const (
	// PhaseStart: the call is about to run.
	PhaseStart = "start"
	// PhaseApproval: the call waits for the person's approval.
	PhaseApproval = "approval"
	// PhaseEnd: the call finished (or was refused); Result is set.
	PhaseEnd = "end"
)

// CallEvent tells a face about one tool call of a turn.
type CallEvent struct {
	Phase string
	// ID is the model's id for the call, unique within a turn.
	ID   string
	Name string
	// Args is the JSON the model wrote.
	Args string
	// Result is set in PhaseEnd.
	Result *tool.Result
}

// emit passes e to OnCall (and a finished call to OnTool), one event at a time.
func (a *Agent) emit(e CallEvent) {
	if a.OnCall == nil && (a.OnTool == nil || e.Phase != PhaseEnd) {
		return
	}
	a.toolMu.Lock()
	defer a.toolMu.Unlock()
	if a.OnCall != nil {
		a.OnCall(e)
	}
	if a.OnTool != nil && e.Phase == PhaseEnd {
		a.OnTool(e.Name, e.Args, *e.Result)
	}
}
