package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

// TestCallSemanticSearchUsesTheEmbeddingsModel: memotree call reaches the model
// named by MEMOTREE_EMBEDDING_MODEL for semantic search, and a second call reuses the
// vectors cached under .memotree (only the query is embedded again); a model named in
// the settings file (as the window's settings save it) is used the same way.
func TestCallSemanticSearchUsesTheEmbeddingsModel(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("MEMOTREE_EMBEDDING_MODEL", "")
	dir := t.TempDir()
	for name, text := range map[string]string{"Looms.md": "Jacquard looms weave punched card patterns.\n", "Engines.md": "Steam engines and boilers.\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"call", "--library", "v=" + dir, "search_nodes", `{"query":"punched card looms","search_type":"semantic","max_results":1}`}
	if code, out, _ := runCLI(t, args...); code != 1 || !strings.Contains(out, "none is configured") {
		t.Fatalf("without a model: exit %d\n%s", code, out)
	}
	srv := llmtest.New(t)
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("MEMOTREE_EMBEDDING_MODEL", "nomic-embed-text")
	code, out, errOut := runCLI(t, args...)
	if code != 0 || !strings.Contains(out, "entity_name: Looms") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	_, first := srv.Embedded()
	if code, _, _ := runCLI(t, args...); code != 0 {
		t.Fatal("second call failed")
	}
	if _, second := srv.Embedded(); first != 3 || second != 4 {
		t.Errorf("texts embedded: %d after the first call (want 2 notes + 1 query), %d after the second (want one more query)", first, second)
	}

	// The settings file names another model: its vectors are computed and cached apart.
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("MEMOTREE_EMBEDDING_MODEL", "")
	path, err := llm.SettingsPath()
	if err != nil {
		t.Fatal(err)
	}
	if err := llm.SaveSettings(path, llm.Settings{BaseURL: srv.URL(), EmbeddingModel: llmtest.ShuffledPrefix + "saved"}); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, args...); code != 0 || !strings.Contains(out, "entity_name: Looms") {
		t.Fatalf("with the model of the settings file: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, third := srv.Embedded(); third != 7 {
		t.Errorf("texts embedded with the settings' model: %d in all, want 7 (its 2 notes and a query after 4)", third)
	}
}
