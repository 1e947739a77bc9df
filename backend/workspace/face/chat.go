package face

import (
	"context"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/workspace"
)

// Chat is `memotree chat`, open: the agent over the workspace, and the conversations
// it keeps in the default library.
type Chat struct {
	Workspace *workspace.Workspace
	Agent     *agent.Agent
	Sessions  *agent.Sessions
}

// ChatOptions are the model of a terminal chat.
type ChatOptions struct {
	// Settings are the endpoint settings resolved for the terminal (flags over the
	// environment over the saved file, or a local server found): the agent's model,
	// and the workspace's models (embeddings, summaries) too.
	Settings llm.Settings
	// NoStream asks for whole replies.
	NoStream bool
	// Ask puts a call the library's permission holds for the person to them (the
	// terminal); nil refuses such calls.
	Ask approval.Asker
}

// OpenChat opens the libraries of f as a one-shot face and the workspace's agent
// (workspace.Workspace.Agent, as the window's chat panel makes it) on the model o
// names.
func OpenChat(ctx context.Context, f Flags, o ChatOptions) (*Chat, error) {
	cfg := o.Settings.Config()
	cfg.NoStream = o.NoStream
	model, err := llm.New(cfg)
	if err != nil {
		return nil, err
	}
	face := f.face(workspace.OneShot)
	face.Settings = llm.Resolver{Flags: o.Settings}
	ws, err := open(ctx, f, face)
	if err != nil {
		return nil, err
	}
	c := &Chat{Workspace: ws}
	if c.Agent, err = ws.Agent(model, o.Ask); err == nil {
		c.Sessions, err = ws.Sessions()
	}
	if err != nil {
		ws.Close()
		return nil, err
	}
	return c, nil
}

// Close closes the workspace.
func (c *Chat) Close() { c.Workspace.Close() }
