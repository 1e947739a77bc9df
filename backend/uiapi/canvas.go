package uiapi

import (
	"context"
	"fmt"

	"github.com/memotree/memotree/backend/canvas"
)

// CanvasNode is one node of a view as the inspector lists it.
type CanvasNode struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Level  string `json:"level"`
	Depth  int    `json:"depth"`
	Held   bool   `json:"held"`
	Pinned bool   `json:"pinned"`
	Open   bool   `json:"open"`
	Tokens int    `json:"tokens"`
}

// CanvasView is what the agent currently sees of a library: the text it is given, the
// nodes with their level and token cost, the total and the budget.
type CanvasView struct {
	Library      string       `json:"library"`
	View         string       `json:"view"`
	Text         string       `json:"text"`
	Tokens       int          `json:"tokens"`
	Budget       int          `json:"budget"`
	HeaderTokens int          `json:"header_tokens"`
	Nodes        []CanvasNode `json:"nodes"`
	// Collapsed lists the nodes the last change collapsed to stay within the budget.
	Collapsed []string `json:"collapsed"`
	// Views lists the saved views of the library.
	Views []string `json:"views"`
}

// The canvas methods run to completion: a view change is quick and holds the vault
// lock only while the view file is rewritten.

// Canvas returns the view named viewName ("" for the default) of a library.
func (a *API) Canvas(libraryName, viewName string) (CanvasView, error) {
	c, err := a.canvas(libraryName)
	if err != nil {
		return CanvasView{}, err
	}
	r, err := c.Render(context.Background(), viewName)
	if err != nil {
		return CanvasView{}, err
	}
	return canvasView(c, canvas.Change{Rendering: r}), nil
}

// CanvasExpand raises node id (as listed in CanvasView.Nodes) to level (title,
// summary or full) for the agent.
func (a *API) CanvasExpand(libraryName, viewName, id, level string) (CanvasView, error) {
	c, err := a.canvas(libraryName)
	if err != nil {
		return CanvasView{}, err
	}
	lv, err := canvas.ParseLevel(level)
	if err != nil {
		return CanvasView{}, err
	}
	ch, err := c.Expand(context.Background(), viewName, id, lv, canvas.ExpandOptions{})
	if err != nil {
		return CanvasView{}, err
	}
	return canvasView(c, ch), nil
}

// CanvasCollapse lowers node id back to its title.
func (a *API) CanvasCollapse(libraryName, viewName, id string) (CanvasView, error) {
	c, err := a.canvas(libraryName)
	if err != nil {
		return CanvasView{}, err
	}
	ch, err := c.Collapse(context.Background(), viewName, id, false)
	if err != nil {
		return CanvasView{}, err
	}
	return canvasView(c, ch), nil
}

// CanvasPin pins or unpins node id: a pinned node is never collapsed to make room.
func (a *API) CanvasPin(libraryName, viewName, id string, pinned bool) (CanvasView, error) {
	c, err := a.canvas(libraryName)
	if err != nil {
		return CanvasView{}, err
	}
	ch, err := c.Pin(context.Background(), viewName, id, pinned)
	if err != nil {
		return CanvasView{}, err
	}
	return canvasView(c, ch), nil
}

func (a *API) canvas(libraryName string) (*canvas.Canvas, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return nil, fmt.Errorf("canvas: %w", err)
	}
	return a.ws.Canvases().For(l), nil
}

func canvasView(c *canvas.Canvas, ch canvas.Change) CanvasView {
	out := CanvasView{Library: ch.Library, View: ch.View, Text: ch.Text, Tokens: ch.Tokens, Budget: ch.Budget,
		HeaderTokens: ch.HeaderTokens, Collapsed: nonNil(ch.Collapsed), Nodes: make([]CanvasNode, len(ch.Nodes))}
	for i, n := range ch.Nodes {
		out.Nodes[i] = CanvasNode{ID: n.ID, Kind: string(n.Kind), Level: string(n.Level), Depth: n.Depth, Held: n.Held, Pinned: n.Pinned, Open: n.Open, Tokens: n.Tokens}
	}
	views, _ := c.Views()
	out.Views = nonNil(views)
	return out
}
