package workspace

import (
	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/approval"
)

// Agent returns an agent over the workspace: the one tool registry (the library
// permissions enforced), the memory notebook of the default library, the model, and
// ask to put to the person the calls those permissions hold for them (nil refuses
// such calls), each shown with the library it acts on. Every face that runs the agent
// (the window's chat panel, `memotree chat`) makes it here, then sets what is its own
// (the events it shows, the open note).
func (w *Workspace) Agent(model agent.Model, ask approval.Asker) (*agent.Agent, error) {
	reg, err := w.Registry()
	if err != nil {
		return nil, err
	}
	return &agent.Agent{Registry: reg, Model: model, Memory: w.Memory,
		Approval: approval.Gate{Ask: ask, Library: w.LibraryName}}, nil
}

// Sessions returns the agent's saved conversations, kept in the default library.
func (w *Workspace) Sessions() (*agent.Sessions, error) {
	l, err := w.Library("")
	if err != nil {
		return nil, err
	}
	return agent.NewSessions(l.State()), nil
}

// LibraryName returns the name of the library mounted under name ("" for the default),
// as the person knows it, or name itself when none is.
func (w *Workspace) LibraryName(name string) string { return w.libName(name) }
