package face

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
	"github.com/memotree/memotree/internal/wait"
)

// TestWindowAutoSummary opens the window as the desktop app does, with the
// endpoint saved in the settings file the window edits (nothing in the environment),
// and auto_summary on: a note the agent creates from the window's chat gets the
// summary the model wrote.
func TestWindowAutoSummary(t *testing.T) {
	const summary = "A mathematician who wrote on the physical sciences."
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "create_entity", `{"entity_name":"people/Mary Somerville","content":"Wrote On the Connexion of the Physical Sciences."}`),
		llmtest.Text(summary),
		llmtest.Text("Added Mary Somerville."))
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, k := range []string{"OPENAI_BASE_URL", "OPENAI_API_KEY", "MEMOTREE_MODEL", "MEMOTREE_EMBEDDING_MODEL"} {
		t.Setenv(k, "")
	}
	path, err := llm.SettingsPath()
	if err != nil {
		t.Fatal(err)
	}
	if err := llm.SaveSettings(path, llm.Settings{BaseURL: srv.URL(), Model: "window-model", APIKey: "k"}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".memotree"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".memotree", "canvas.json"), []byte(`{"auto_summary": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	w, err := OpenWindow(t.Context(), Flags{Libraries: []workspace.Spec{{Name: "demo", Path: dir}}}, WindowOptions{OpenOthers: true, StatePath: filepath.Join(t.TempDir(), "vaults.toml")})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.API.ChatSend(uiapi.ChatSendInput{Prompt: "Add Mary Somerville", Library: "demo"}); err != nil {
		t.Fatal(err)
	}
	note := filepath.Join(dir, "people", "Mary Somerville.md")
	wait.Until(t, "the model's summary in the note", func() error {
		b, _ := os.ReadFile(note)
		if strings.Contains(string(b), "summary: "+summary+"\n") {
			return nil
		}
		return fmt.Errorf("the note reads:\n%s", b)
	})
	for _, r := range srv.Requests() {
		if r.Body["model"] != "window-model" {
			t.Errorf("a request for model %v, want the saved window-model", r.Body["model"])
		}
	}
}
