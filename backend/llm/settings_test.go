package llm_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

func TestSettingsFile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	path, err := llm.SettingsPath()
	if err != nil {
		t.Fatal(err)
	}
	if s, err := llm.LoadSettings(path); err != nil || s != (llm.Settings{}) {
		t.Fatalf("missing file: %+v, %v", s, err)
	}
	want := llm.Settings{BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen3:8b", APIKey: "sk-very-secret-1234"}
	if err := llm.SaveSettings(path, want); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("settings file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if di, _ := os.Stat(filepath.Dir(path)); di.Mode().Perm() != 0o700 {
		t.Errorf("settings folder mode %v, want 0700", di.Mode().Perm())
	}
	got, err := llm.LoadSettings(path)
	if err != nil || got != want {
		t.Errorf("round trip: %+v, %v", got, err)
	}
	if err := os.WriteFile(path, []byte("base_url = [broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := llm.LoadSettings(path); err == nil || !strings.Contains(err.Error(), "fix the file") {
		t.Errorf("broken file: %v", err)
	}
	env := llm.FromEnv(func(k string) string { return map[string]string{"MEMOTREE_MODEL": "env-model"}[k] })
	if m := env.Merge(want); m.Model != "env-model" || m.BaseURL != want.BaseURL || m.APIKey != want.APIKey {
		t.Errorf("merge: %+v", m)
	}
	if k := llm.MaskKey(want.APIKey); k != "…1234" {
		t.Errorf("mask = %q", k)
	}
	if k := llm.MaskKey("short"); strings.Contains(k, "short") {
		t.Errorf("short key shown: %q", k)
	}
}

func TestConnectionTest(t *testing.T) {
	ctx := context.Background()
	client := func(url, model string) *llm.Client {
		c, err := llm.New(llm.Config{BaseURL: url, Model: model, APIKey: "sk-secret-key-999", Backoff: time.Millisecond, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	srv := llmtest.New(t)
	srv.SetModels("llama3", "qwen3:8b")
	if c := client(srv.URL(), "qwen3:8b").Test(ctx); !c.OK || len(c.Models) != 2 {
		t.Errorf("known model: %+v", c)
	}
	if c := client(srv.URL(), "gpt-9").Test(ctx); c.OK || !strings.Contains(c.Message, "pick one of: llama3, qwen3:8b") {
		t.Errorf("unknown model: %+v", c)
	}
	// A server without a model list gets a tiny chat request instead.
	plain := llmtest.New(t, llmtest.Reply{Body: `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"p"},"finish_reason":"length"}]}`})
	if c := client(plain.URL(), "m").Test(ctx); !c.OK {
		t.Errorf("no list, chat ok: %+v", c)
	}
	if r := plain.Requests(); len(r) != 1 || r[0].Body["max_tokens"] != float64(1) {
		t.Errorf("the fallback request: %+v", r)
	}
	bad := llmtest.New(t, llmtest.Error(401, "bad key sk-secret-key-999"))
	if c := client(bad.URL(), "m").Test(ctx); c.OK || !strings.Contains(c.Message, "OPENAI_API_KEY") || strings.Contains(c.Message, "sk-secret-key-999") {
		t.Errorf("401: %+v", c)
	}
	down := client("http://127.0.0.1:1/v1", "m").Test(ctx)
	if down.OK || !strings.Contains(down.Message, "nothing answers") {
		t.Errorf("down: %+v", down)
	}
}

func TestDetectLocalServers(t *testing.T) {
	up := llmtest.New(t)
	up.SetModels("qwen3:8b")
	found := llm.Detect(context.Background(), []llm.Local{
		{Name: "Down", BaseURL: "http://127.0.0.1:1/v1"},
		{Name: "Up", BaseURL: up.URL()},
	}, 2*time.Second)
	if len(found) != 1 || found[0].Name != "Up" || len(found[0].Models) != 1 || found[0].Models[0] != "qwen3:8b" {
		t.Errorf("found = %+v", found)
	}
}

// TestSettingsEmbedderFollowsTheSettings: the embeddings model is read from the
// settings at each call, so a model saved in the window is used without a restart,
// and the environment names it over the file.
func TestSettingsEmbedderFollowsTheSettings(t *testing.T) {
	srv := llmtest.New(t)
	path := filepath.Join(t.TempDir(), "settings.toml")
	env := map[string]string{}
	e := llm.NewSettingsEmbedder(llm.Resolver{Path: path, Getenv: func(k string) string { return env[k] }})
	if m := e.EmbeddingModel(); m != "" {
		t.Errorf("no settings: model %q", m)
	}
	if _, err := e.Embeddings(t.Context(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "Embedding model") {
		t.Errorf("no model named: %v, want an error saying where to name one", err)
	}
	if err := llm.SaveSettings(path, llm.Settings{BaseURL: srv.URL(), Model: "chat", EmbeddingModel: " nomic-embed-text "}); err != nil {
		t.Fatal(err)
	}
	if m := e.EmbeddingModel(); m != "nomic-embed-text" {
		t.Errorf("saved model: %q", m)
	}
	v, err := e.Embeddings(t.Context(), []string{"ada lovelace"})
	if err != nil || len(v) != 1 || len(v[0]) != llmtest.EmbeddingDims {
		t.Fatalf("Embeddings = %d vectors, %v", len(v), err)
	}
	env["MEMOTREE_EMBEDDING_MODEL"] = llmtest.ShuffledPrefix + "env"
	if m := e.EmbeddingModel(); m != llmtest.ShuffledPrefix+"env" {
		t.Errorf("the environment's model: %q", m)
	}
	w, err := e.EmbeddingsOf(t.Context(), llmtest.ShuffledPrefix+"env", []string{"ada lovelace"})
	if err != nil || slices.Equal(w[0], v[0]) {
		t.Errorf("another model gave the same vector (%v)", err)
	}
	// The server's vectors depend on the model it was asked for.
	if !slices.Equal(v[0], llmtest.VectorOf("nomic-embed-text", "ada lovelace")) || !slices.Equal(w[0], llmtest.VectorOf(llmtest.ShuffledPrefix+"env", "ada lovelace")) {
		t.Errorf("the vectors are not those of the models asked for")
	}
}

// TestResolverOrder: flags over the environment over the settings file, field by
// field (a key only with its own endpoint, see Merge), read again at each call; a
// settings file that does not parse is an error for Resolve and empty for InEffect.
func TestResolverOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.toml")
	env := map[string]string{}
	r := llm.Resolver{Path: path, Getenv: func(k string) string { return env[k] }}
	if err := llm.SaveSettings(path, llm.Settings{BaseURL: "http://file/v1", Model: "file-model", APIKey: "file-key", EmbeddingModel: "file-embed"}); err != nil {
		t.Fatal(err)
	}
	env["MEMOTREE_MODEL"] = "env-model"
	env["OPENAI_API_KEY"] = "env-key"
	r.Flags = llm.Settings{Model: "flag-model"}
	got, err := r.Resolve()
	// The environment's key has no endpoint of its own (OpenAI's): it does not go to the
	// file's endpoint, whose own key does.
	want := llm.Settings{BaseURL: "http://file/v1", Model: "flag-model", APIKey: "file-key", EmbeddingModel: "file-embed"}
	if err != nil || got != want {
		t.Errorf("Resolve = %+v, %v; want %+v", got, err, want)
	}
	if err := llm.SaveSettings(path, llm.Settings{BaseURL: "http://changed/v1"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Resolve(); got.BaseURL != "http://changed/v1" {
		t.Errorf("the file is not read again: %+v", got)
	}
	if err := os.WriteFile(path, []byte("base_url = [broken\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve(); err == nil {
		t.Error("a broken settings file resolves without an error")
	}
	if got := r.InEffect(); got.Model != "flag-model" || got.APIKey != "env-key" {
		t.Errorf("InEffect with a broken file = %+v, want the flags and the environment", got)
	}
}

// TestSettingsSummarizerFollowsTheSettings: no model, no summaries; a model saved in
// the settings file is asked at the next call, at its endpoint.
func TestSettingsSummarizerFollowsTheSettings(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("A note about engines."))
	path := filepath.Join(t.TempDir(), "settings.toml")
	s := llm.NewSettingsSummarizer(llm.Resolver{Path: path, Getenv: func(string) string { return "" }})
	if s.Configured() {
		t.Error("configured without a model")
	}
	if _, err := s.Summarize(t.Context(), "Engine", "# Engine"); err == nil {
		t.Error("summarised without a model")
	}
	if err := llm.SaveSettings(path, llm.Settings{BaseURL: srv.URL(), Model: "summary-model"}); err != nil {
		t.Fatal(err)
	}
	if !s.Configured() {
		t.Error("not configured once a model is saved")
	}
	got, err := s.Summarize(t.Context(), "Engine", "# Engine\n\nThe Analytical Engine.")
	if err != nil || got != "A note about engines." {
		t.Fatalf("Summarize = %q, %v", got, err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Body["model"] != "summary-model" {
		t.Errorf("requests = %+v, want one for summary-model", reqs)
	}
}

// A key goes with the endpoint it was given for: merging layers never sends one
// layer's key to another layer's endpoint.
func TestMergeKeepsEachKeyWithItsEndpoint(t *testing.T) {
	const a, b = "http://127.0.0.1:11434/v1", "https://proxy.example/v1"
	file := llm.Settings{BaseURL: a, Model: "m", APIKey: "sk-file"}
	for _, c := range []struct {
		name            string
		env             llm.Settings
		wantBase, wantK string
	}{
		{"the file alone", llm.Settings{}, a, "sk-file"},
		{"the environment's endpoint without a key", llm.Settings{BaseURL: b}, b, ""},
		{"the environment's key without an endpoint (OpenAI's)", llm.Settings{APIKey: "sk-env"}, a, "sk-file"},
		{"the environment's pair", llm.Settings{BaseURL: b, APIKey: "sk-env"}, b, "sk-env"},
		{"the same endpoint spelled otherwise", llm.Settings{BaseURL: "HTTP://127.0.0.1:11434/v1/"}, "HTTP://127.0.0.1:11434/v1/", "sk-file"},
		{"another port", llm.Settings{BaseURL: "http://127.0.0.1:11435/v1"}, "http://127.0.0.1:11435/v1", ""},
	} {
		got := llm.Settings{}.Merge(c.env).Merge(file)
		if got.BaseURL != c.wantBase || got.APIKey != c.wantK {
			t.Errorf("%s: %+v, want base %s and key %q", c.name, got, c.wantBase, c.wantK)
		}
	}
	// The environment's key alone goes to OpenAI's endpoint when nothing names another.
	if got := llm.FromEnv(func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-env"}[k] }).Merge(llm.Settings{}); got.APIKey != "sk-env" {
		t.Errorf("OPENAI_API_KEY alone = %+v, want it for OpenAI's endpoint", got)
	}
	for _, same := range [][2]string{{"", llm.DefaultBaseURL}, {"https://api.openai.com:443/v1/", llm.DefaultBaseURL}} {
		if !llm.SameEndpoint(same[0], same[1]) {
			t.Errorf("SameEndpoint(%q, %q) = false", same[0], same[1])
		}
	}
	for _, other := range [][2]string{{"http://api.openai.com/v1", llm.DefaultBaseURL}, {"https://api.openai.com/v2", llm.DefaultBaseURL}, {"https://api.openai.com.evil/v1", llm.DefaultBaseURL}} {
		if llm.SameEndpoint(other[0], other[1]) {
			t.Errorf("SameEndpoint(%q, %q) = true", other[0], other[1])
		}
	}
}
