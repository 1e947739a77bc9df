package uiapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/memotree/memotree/backend/llm/llmtest"
)

// keyListener is a model endpoint that lists models and records the Authorization
// header of every request it is sent.
type keyListener struct {
	*httptest.Server
	mu     sync.Mutex
	auths  []string
	models []string
}

func newKeyListener(t *testing.T, models ...string) *keyListener {
	l := &keyListener{models: models}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.auths = append(l.auths, r.Header.Get("Authorization"))
		l.mu.Unlock()
		data := []map[string]string{}
		for _, m := range l.models {
			data = append(data, map[string]string{"id": m, "object": "model"})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
	}))
	t.Cleanup(l.Close)
	return l
}

func (l *keyListener) URL() string { return l.Server.URL + "/v1" }

// took returns the Authorization headers received since the last call.
func (l *keyListener) took() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.auths
	l.auths = nil
	return a
}

// TestEndpointKeyStaysWithItsEndpoint: a key goes only to the endpoint it was saved
// with, or that the environment pairs it with (OPENAI_BASE_URL with OPENAI_API_KEY).
// Testing a new endpoint without a key sends it none; saving a new endpoint without a
// key forgets the old one; and a key an endpoint shows back (a model named after it)
// is redacted from what the window is shown.
func TestEndpointKeyStaysWithItsEndpoint(t *testing.T) {
	const savedKey, envKey = "sk-saved-key-for-S-4242", "sk-env-key-for-E-9191"
	saved := newKeyListener(t, "gpt-s", "leak-"+savedKey)
	env := newKeyListener(t, "gpt-e")
	fresh := newKeyListener(t, "gpt-f", "echo-"+savedKey+"-"+envKey)
	f := newChatFixture(t, llmtest.New(t))
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("MEMOTREE_MODEL", "")
	if _, err := f.api.SaveChatSettings(ChatSettingsInput{BaseURL: saved.URL(), Model: "gpt-s", APIKey: savedKey}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_BASE_URL", env.URL())
	t.Setenv("OPENAI_API_KEY", envKey)

	test := func(in ChatSettingsInput) string {
		t.Helper()
		c, err := f.api.TestChatConnection(in)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(c)
		if strings.Contains(string(b), savedKey) || strings.Contains(string(b), envKey) {
			t.Errorf("Test connection to %s shows a key: %s", in.BaseURL, b)
		}
		return string(b)
	}
	// A new endpoint, no key in the form: no key goes there.
	test(ChatSettingsInput{BaseURL: fresh.URL(), Model: "gpt-f"})
	if got := fresh.took(); len(got) == 0 || strings.Join(got, "") != "" {
		t.Errorf("a new endpoint tested without a key was sent %q", got)
	}
	// Each key goes to its own endpoint.
	if out := test(ChatSettingsInput{BaseURL: saved.URL(), Model: "gpt-s"}); !strings.Contains(out, "leak-") {
		t.Errorf("the saved endpoint's models: %s", out)
	}
	if got := saved.took(); len(got) == 0 || got[0] != "Bearer "+savedKey {
		t.Errorf("the saved endpoint was sent %q, want its own key", got)
	}
	test(ChatSettingsInput{BaseURL: env.URL() + "/", Model: "gpt-e"})
	if got := env.took(); len(got) == 0 || got[0] != "Bearer "+envKey {
		t.Errorf("the environment's endpoint was sent %q, want the environment's key", got)
	}
	// A key typed in the form goes where the form says; an unknown model lists the
	// endpoint's models, the key redacted.
	if out := test(ChatSettingsInput{BaseURL: fresh.URL(), Model: "nope", APIKey: savedKey}); !strings.Contains(out, "echo-") {
		t.Errorf("the models of a key-echoing endpoint: %s", out)
	}
	if got := fresh.took(); len(got) == 0 || got[0] != "Bearer "+savedKey {
		t.Errorf("the form's key did not reach the form's endpoint: %q", got)
	}

	// A turn: the environment's endpoint without its key does not take the file's.
	t.Setenv("OPENAI_API_KEY", "")
	if s, err := f.api.chat.effective(); err != nil || s.BaseURL != env.URL() || s.APIKey != "" {
		t.Errorf("OPENAI_BASE_URL alone over a saved endpoint and key = %+v, %v; want no key", s, err)
	}
	// The environment's key without its endpoint does not go to the file's endpoint.
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", envKey)
	if s, err := f.api.chat.effective(); err != nil || s.BaseURL != saved.URL() || s.APIKey != savedKey {
		t.Errorf("OPENAI_API_KEY alone over a saved endpoint and key = %+v, %v; want the saved key", s, err)
	}
	t.Setenv("OPENAI_API_KEY", "")

	// Saving a new endpoint without a key forgets the old endpoint's key.
	v, err := f.api.SaveChatSettings(ChatSettingsInput{BaseURL: fresh.URL(), Model: "gpt-f"})
	if err != nil || v.KeySet {
		t.Errorf("saving a new endpoint without a key = %+v, %v; want no key", v, err)
	}
	if raw, _ := os.ReadFile(f.api.chat.path()); strings.Contains(string(raw), savedKey) {
		t.Errorf("the old endpoint's key stayed in the file with the new endpoint:\n%s", raw)
	}
}
