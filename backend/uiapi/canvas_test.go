package uiapi

import (
	"path/filepath"
	"testing"

	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

func TestCanvasMethods(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "demo", Path: dir}}, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	a := NewAPI(ws, Options{})
	v, err := a.Canvas("", "")
	if err != nil {
		t.Fatal(err)
	}
	sum := v.HeaderTokens
	for _, n := range v.Nodes {
		sum += n.Tokens
	}
	if v.Tokens == 0 || sum != v.Tokens || v.Budget <= 0 || v.View != "default" || v.Library != "demo" {
		t.Fatalf("Canvas: tokens %d (nodes add up to %d), budget %d, view %q", v.Tokens, sum, v.Budget, v.View)
	}
	w, err := a.CanvasExpand("", "", "people/", "summary")
	if err != nil {
		t.Fatal(err)
	}
	if w.Tokens <= v.Tokens || len(w.Nodes) <= len(v.Nodes) {
		t.Errorf("opening people/: %d → %d tokens, %d → %d nodes", v.Tokens, w.Tokens, len(v.Nodes), len(w.Nodes))
	}
	w, err = a.CanvasPin("", "", "people/Ada Lovelace", true)
	if err != nil {
		t.Fatal(err)
	}
	pinned := false
	for _, n := range w.Nodes {
		pinned = pinned || (n.ID == "people/Ada Lovelace" && n.Pinned && n.Held)
	}
	if !pinned || len(w.Views) != 1 || w.Views[0] != "default" {
		t.Errorf("after pinning: pinned %v, views %v", pinned, w.Views)
	}
	if _, err := a.CanvasExpand("", "", "people/", "huge"); err == nil {
		t.Error("a bad level was accepted")
	}
	if _, err := a.SaveVaultSettings("", VaultSettingsPatch{Canvas: &canvas.Settings{Budget: 10}}); err == nil {
		t.Error("a budget of 10 tokens was accepted")
	}
	s, err := a.SaveVaultSettings("", VaultSettingsPatch{Canvas: &canvas.Settings{Budget: 3000, AutoSummary: true}})
	if err != nil || s.Settings.Canvas != (canvas.Settings{Budget: 3000, AutoSummary: true}) {
		t.Errorf("settings: %+v, %v", s.Settings.Canvas, err)
	}
	if w, err = a.Canvas("", ""); err != nil || w.Budget != 3000 {
		t.Errorf("the view's budget after the settings: %d, %v", w.Budget, err)
	}
	w, err = a.CanvasCollapse("", "", "people/")
	if err != nil || len(w.Nodes) >= len(v.Nodes)+2 {
		t.Errorf("collapse: %d nodes, %v", len(w.Nodes), err)
	}
}
