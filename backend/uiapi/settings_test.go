package uiapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/autosync"
	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/settings"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
)

// The files of a vault's settings as the versions before one settings model wrote
// them: each is read as before.
const (
	oldGraphJSON = `{
 "color_groups": [{"query": "tag:#book", "color": "#d65c5c"}],
 "search": "path:People",
 "show_orphans": false,
 "show_unresolved": true,
 "show_attachments": true,
 "show_tags": false,
 "show_arrows": true,
 "text_fade": 1.5,
 "node_size": 2,
 "link_thickness": 0.5,
 "forces": {"center": 0.3, "repel": 12, "link_strength": 0.8, "link_distance": 200},
 "hidden_groups": ["tag:#book"]
}
`
	oldCanvasJSON = `{
 "auto_summary": true
}
`
	oldSyncJSON = `{"pull_on_open": true, "push_on_commit": false, "interval_minutes": 30, "commit_own": true, "message_template": ""}`
)

// TestVaultSettingsReadAsBefore: a vault's graph.json, canvas.json and sync.json, as
// earlier versions wrote them, are read as they were: what they hold kept, what they
// lack (canvas.json's budget, sync.json's template) the defaults, which are served too.
func TestVaultSettingsReadAsBefore(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"Ada.md": "Hello.\n", ".memotree/graph.json": oldGraphJSON, ".memotree/canvas.json": oldCanvasJSON, ".memotree/sync.json": oldSyncJSON})
	a, ws := openAPI(t, dir)
	got, err := a.VaultSettings("v")
	if err != nil {
		t.Fatal(err)
	}
	want := uiapi.VaultSettings{
		Graph: uiapi.GraphView{
			ColorGroups: []uiapi.ColorGroup{{Query: "tag:#book", Color: "#d65c5c"}}, Search: "path:People", ShowUnresolved: true, ShowAttachments: true,
			ShowArrows: true, TextFade: 1.5, NodeSize: 2, LinkThickness: 0.5,
			Forces: uiapi.Forces{Center: 0.3, Repel: 12, LinkStrength: 0.8, LinkDistance: 200}, HiddenGroups: []string{"tag:#book"},
		},
		Canvas: canvas.Settings{Budget: canvas.DefaultBudget, AutoSummary: true},
		Backup: autosync.Settings{PullOnOpen: true, IntervalMinutes: 30, CommitOwn: true, MessageTemplate: autosync.DefaultTemplate},
	}
	if d := cmp.Diff(want, got.Settings); d != "" {
		t.Errorf("settings (-want +got):\n%s", d)
	}
	if !got.GraphSaved || got.Obsidian != nil || len(got.Warnings) != 0 {
		t.Errorf("graph saved %v, Obsidian's %v, warnings %v", got.GraphSaved, got.Obsidian, got.Warnings)
	}
	defaults := uiapi.VaultSettings{Graph: uiapi.DefaultGraphView(), Canvas: canvas.Settings{Budget: canvas.DefaultBudget}, Backup: autosync.Settings{MessageTemplate: autosync.DefaultTemplate}}
	if d := cmp.Diff(defaults, got.Defaults); d != "" {
		t.Errorf("defaults (-want +got):\n%s", d)
	}
	// The tools' side reads canvas.json as before too.
	l, _ := ws.Library("v")
	if st := canvas.New(l, nil).Settings(); st != want.Canvas {
		t.Errorf("canvas settings as the tools read them: %+v", st)
	}
}

// TestVaultSettingsDefaultsAndSaves: a vault without settings gets the defaults; a
// saved section is written alone, leaving the others' files as they were; a refused
// section writes nothing; a damaged file is its section's defaults and a warning.
func TestVaultSettingsDefaultsAndSaves(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"Ada.md": "Hello.\n"})
	a, _ := openAPI(t, dir)
	got, err := a.VaultSettings("v")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(got.Defaults, got.Settings); d != "" || got.GraphSaved || len(got.Warnings) != 0 {
		t.Errorf("a vault without settings (-defaults +settings):\n%s; saved %v, warnings %v", d, got.GraphSaved, got.Warnings)
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree")); !os.IsNotExist(err) {
		t.Errorf("reading the settings wrote .memotree: %v", err)
	}

	writeFiles(t, dir, map[string]string{".memotree/sync.json": oldSyncJSON})
	g := got.Settings.Graph
	g.ShowTags = true
	saved, err := a.SaveVaultSettings("v", uiapi.VaultSettingsPatch{Graph: &g})
	if err != nil || !saved.Settings.Graph.ShowTags || !saved.GraphSaved {
		t.Fatalf("graph saved: %+v, %v", saved.Settings.Graph, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".memotree", "sync.json")); string(b) != oldSyncJSON {
		t.Errorf("sync.json rewritten by a save of the graph: %s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree", "canvas.json")); !os.IsNotExist(err) {
		t.Errorf("canvas.json written by a save of the graph: %v", err)
	}

	if _, err := a.SaveVaultSettings("v", uiapi.VaultSettingsPatch{Canvas: &canvas.Settings{Budget: 10}}); err == nil || !strings.Contains(err.Error(), "at least") {
		t.Errorf("a budget of 10: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree", "canvas.json")); !os.IsNotExist(err) {
		t.Errorf("a refused budget was written: %v", err)
	}
	if _, err := a.SaveVaultSettings("v", uiapi.VaultSettingsPatch{}); err == nil {
		t.Error("an empty patch was accepted")
	}

	writeFiles(t, dir, map[string]string{".memotree/canvas.json": "{broken"})
	got, err = a.VaultSettings("v")
	if err != nil {
		t.Fatal(err)
	}
	if got.Settings.Canvas != got.Defaults.Canvas || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], ".memotree/canvas.json is damaged") {
		t.Errorf("a damaged canvas.json: %+v, warnings %v", got.Settings.Canvas, got.Warnings)
	}
	if _, err := a.VaultSettings("nope"); err == nil {
		t.Error("an unknown library answered")
	}
}

// TestPersonSettingsBesideTheEndpoint: the look is served and saved in the endpoint's
// file, which keeps its key, its mode and what an earlier version wrote in it.
func TestPersonSettingsBesideTheEndpoint(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"Ada.md": "Hello.\n"})
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "v", Path: dir}}, workspace.Options{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	path := filepath.Join(t.TempDir(), "memotree", "settings.toml")
	endpoint := llm.Settings{BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen3:8b", APIKey: "sk-endpoint-secret-77"}
	if err := llm.SaveSettings(path, endpoint); err != nil {
		t.Fatal(err)
	}
	a := uiapi.NewAPI(ws, uiapi.Options{Settings: llm.Resolver{Path: path, Getenv: func(string) string { return "" }}})
	v, err := a.PersonSettings()
	if err != nil || v.Settings != settings.DefaultPerson() || v.Defaults != settings.DefaultPerson() || v.Path != path {
		t.Fatalf("an existing file: %+v, %v", v, err)
	}
	want := settings.Person{Look: settings.Look{Theme: "dark", Language: "zh"}}
	if v, err = a.SavePersonSettings(want); err != nil || v.Settings != want {
		t.Fatalf("saved: %+v, %v", v, err)
	}
	if _, err := a.SavePersonSettings(settings.Person{Look: settings.Look{Theme: "blue", Language: "en"}}); err == nil {
		t.Error("an unknown theme was saved")
	}
	if got, err := llm.LoadSettings(path); err != nil || got != endpoint {
		t.Errorf("the endpoint after the look was saved: %+v, %v", got, err)
	}
	if c, err := a.ChatSettings(); err != nil || !c.KeySet || c.KeyHint != "…t-77" {
		t.Errorf("the window's view of the key: %+v, %v", c, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if _, err := a.SaveChatSettings(uiapi.ChatSettingsInput{BaseURL: endpoint.BaseURL, Model: "other"}); err != nil {
		t.Fatal(err)
	}
	if v, err := a.PersonSettings(); err != nil || v.Settings != want {
		t.Errorf("the look after the endpoint was saved: %+v, %v", v, err)
	}
}
