package uiapi

import (
	"context"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/llm"
)

// ChatSettingsView is what the window shows of the endpoint settings. The key never
// leaves the backend: only whether one is set and its last four characters.
type ChatSettingsView struct {
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
	// EmbeddingModel is the model of semantic search ("" leaves it off).
	EmbeddingModel string `json:"embedding_model"`
	KeySet         bool   `json:"key_set"`
	KeyHint        string `json:"key_hint"`
	// Path is the settings file.
	Path string `json:"path"`
	// FromEnv lists the settings the environment overrides (OPENAI_BASE_URL, ...).
	FromEnv []string `json:"from_env"`
	// Detected lists the local servers that answered when nothing is configured.
	Detected []llm.Found `json:"detected"`
}

// ChatSettingsInput is what the settings form sends. An empty APIKey keeps the
// saved key unless ClearKey is set.
type ChatSettingsInput struct {
	BaseURL        string `json:"base_url"`
	Model          string `json:"model"`
	EmbeddingModel string `json:"embedding_model"`
	APIKey         string `json:"api_key"`
	ClearKey       bool   `json:"clear_key"`
}

// The chat's methods take no context: the desktop bindings pass none, so each bounds
// its own work.

// ChatSettings returns the endpoint settings in effect; with nothing configured it
// looks for a local Ollama or LM Studio.
func (a *API) ChatSettings() (ChatSettingsView, error) {
	s, err := a.chat.effective()
	if err != nil {
		return ChatSettingsView{}, err
	}
	v := ChatSettingsView{BaseURL: s.BaseURL, Model: s.Model, EmbeddingModel: s.EmbeddingModel, KeySet: s.APIKey != "", KeyHint: llm.MaskKey(s.APIKey),
		Path: a.chat.path(), FromEnv: []string{}, Detected: []llm.Found{}}
	for _, k := range []string{"OPENAI_BASE_URL", "MEMOTREE_MODEL", "OPENAI_API_KEY", "MEMOTREE_EMBEDDING_MODEL"} {
		if a.chat.env(k) != "" {
			v.FromEnv = append(v.FromEnv, k)
		}
	}
	if s.Empty() {
		if found := llm.Detect(context.Background(), llm.KnownLocals, 700*time.Millisecond); found != nil {
			v.Detected = found
		}
	}
	return v, nil
}

// SaveChatSettings saves the endpoint settings (mode 0600) and returns them as the
// window shows them.
func (a *API) SaveChatSettings(in ChatSettingsInput) (ChatSettingsView, error) {
	s, err := a.chat.merged(in, false)
	if err != nil {
		return ChatSettingsView{}, err
	}
	if err := llm.SaveSettings(a.chat.path(), s); err != nil {
		return ChatSettingsView{}, err
	}
	return a.ChatSettings()
}

// TestChatConnection tries the settings of the form (saved or not): it lists the
// endpoint's models and checks the model, and says what to fix when it fails.
func (a *API) TestChatConnection(in ChatSettingsInput) (llm.Check, error) {
	s, err := a.chat.merged(in, true)
	if err != nil {
		return llm.Check{}, err
	}
	if s.Model == "" {
		return llm.Check{Message: "enter a model name (for Ollama, one that `ollama list` shows)"}, nil
	}
	c, err := llm.New(llm.Config{BaseURL: s.BaseURL, Model: s.Model, APIKey: s.APIKey, Tries: 1, Timeout: 20 * time.Second})
	if err != nil {
		return llm.Check{Message: err.Error()}, nil
	}
	// Every key MemoTree knows is redacted, not only the one sent: an endpoint given
	// one key must not show another back.
	saved, _ := llm.LoadSettings(a.chat.path())
	check := c.Test(context.Background()).Redact(saved.APIKey, a.chat.env("OPENAI_API_KEY"))
	if check.Models == nil {
		check.Models = []string{}
	}
	return check, nil
}

// merged is the form over the saved settings. Without a key in the form (and
// without ClearKey), the key is the one saved with the form's endpoint, and withEnv
// (a test, never a save) also takes the environment's key for the environment's
// endpoint; a form naming another endpoint gets no key (llm.KeyFor).
func (c *chat) merged(in ChatSettingsInput, withEnv bool) (llm.Settings, error) {
	saved, err := llm.LoadSettings(c.path())
	if err != nil {
		return llm.Settings{}, err
	}
	s := llm.Settings{BaseURL: strings.TrimSpace(in.BaseURL), Model: strings.TrimSpace(in.Model), APIKey: strings.TrimSpace(in.APIKey),
		EmbeddingModel: strings.TrimSpace(in.EmbeddingModel)}
	if s.APIKey == "" && !in.ClearKey {
		layers := []llm.Settings{saved}
		if withEnv {
			layers = []llm.Settings{llm.FromEnv(c.env), saved}
		}
		s.APIKey = llm.KeyFor(s.BaseURL, layers...)
	}
	return s, nil
}
