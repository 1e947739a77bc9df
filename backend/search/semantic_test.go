package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

func embedder(t *testing.T) (*llm.Client, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(t)
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	return c, srv
}

// TestSemanticAndHybrid runs against a local embeddings server whose vectors are
// bags of hashed words: the nearest note to a query is the one sharing most words.
func TestSemanticAndHybrid(t *testing.T) {
	dir := writeVault(t, small)
	_, ix, _ := openIndex(t, dir, Options{SaveDelay: -1})
	if _, _, err := ix.SemanticSearch(t.Context(), Request{Query: "x"}); err != ErrNoEmbedder {
		t.Fatalf("without an embedder: %v", err)
	}
	emb, srv := embedder(t)
	var mu sync.Mutex
	var progress []Progress
	ix.UseEmbedder(emb, func(p Progress) { mu.Lock(); progress = append(progress, p); mu.Unlock() })
	if err := ix.WaitEmbedded(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(progress) == 0 || !progress[len(progress)-1].Final || progress[len(progress)-1].Total != len(small) {
		t.Errorf("progress: %+v", progress)
	}
	mu.Unlock()
	hits, info, err := ix.SemanticSearch(t.Context(), Request{Query: "mechanical computer designed", Limit: 3})
	if err != nil || info.Pending != 0 {
		t.Fatal(err, info)
	}
	if len(hits) == 0 || hits[0].Path != "machines/Analytical Engine.md" {
		t.Errorf("semantic: %v", paths(hits))
	}
	hits, _, err = ix.HybridSearch(t.Context(), Request{Query: "双向链接 笔记", Limit: 2})
	if err != nil || len(hits) == 0 || hits[0].Path != "中文/双向链接.md" {
		t.Errorf("hybrid: %v %v", paths(hits), err)
	}
	// A note changed on disk is embedded again, the others come from the cache.
	_, before := srv.Embedded()
	os.WriteFile(filepath.Join(dir, "notes/engines.md"), []byte("Jacquard looms weave patterns.\n"), 0o644)
	ix.Changed(nil, true)
	hits, _, _ = ix.SemanticSearch(t.Context(), Request{Query: "looms weave", Limit: 1})
	ix.WaitEmbedded(t.Context())
	hits, _, _ = ix.SemanticSearch(t.Context(), Request{Query: "looms weave", Limit: 1})
	if !slices.Equal(paths(hits), []string{"notes/engines.md"}) {
		t.Errorf("after a change: %v", paths(hits))
	}
	if _, after := srv.Embedded(); after-before != 3 { // the note, and two queries
		t.Errorf("%d texts embedded after one change, want 3", after-before)
	}
	// Reopened, the vectors come from .memotree: only queries are embedded.
	_, ix2, _ := openIndex(t, dir, Options{SaveDelay: -1})
	ix2.UseEmbedder(emb, nil)
	_, before = srv.Embedded()
	if err := ix2.WaitEmbedded(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, after := srv.Embedded(); after != before {
		t.Errorf("reopened index embedded %d notes again", after-before)
	}
}

// switchable is an embeddings model chosen in the settings: its name may change
// while the index is open.
type switchable struct {
	c     *llm.Client
	mu    sync.Mutex
	model string
}

func (s *switchable) set(m string) { s.mu.Lock(); s.model = m; s.mu.Unlock() }

func (s *switchable) EmbeddingModel() string { s.mu.Lock(); defer s.mu.Unlock(); return s.model }

func (s *switchable) Embeddings(ctx context.Context, texts []string) ([][]float32, error) {
	return s.c.EmbeddingsOf(ctx, s.EmbeddingModel(), texts)
}

func (s *switchable) EmbeddingsOf(ctx context.Context, model string, texts []string) ([][]float32, error) {
	return s.c.EmbeddingsOf(ctx, model, texts)
}

// TestEmbeddingModelChosenInTheSettings: no model named, semantic search says how to
// name one; each model gets its own vectors (a model's query is never compared with
// another model's notes), cached apart, so switching back embeds nothing again.
func TestEmbeddingModelChosenInTheSettings(t *testing.T) {
	dir := writeVault(t, small)
	_, ix, _ := openIndex(t, dir, Options{SaveDelay: -1})
	c, srv := embedder(t)
	emb := &switchable{c: c}
	ix.UseEmbedder(emb, nil)
	if _, _, err := ix.SemanticSearch(t.Context(), Request{Query: "x"}); !errors.Is(err, ErrNoEmbedder) || !strings.Contains(err.Error(), "settings") {
		t.Fatalf("no model named: %v, want ErrNoEmbedder saying where to name one", err)
	}
	if Configured(emb) {
		t.Errorf("Configured with no model named")
	}
	if _, texts := srv.Embedded(); texts != 0 {
		t.Errorf("%d texts embedded with no model named", texts)
	}
	top := func(model string) string {
		t.Helper()
		emb.set(model)
		if err := ix.WaitEmbedded(t.Context()); err != nil {
			t.Fatal(err)
		}
		hits, info, err := ix.SemanticSearch(t.Context(), Request{Query: "mechanical computer designed", Limit: 1})
		if err != nil || info.Pending != 0 || len(hits) == 0 {
			t.Fatalf("%s: %v %+v %v", model, paths(hits), info, err)
		}
		return string(hits[0].Path)
	}
	const want = "machines/Analytical Engine.md"
	if got := top("m"); got != want {
		t.Errorf("model m: top hit %s, want %s", got, want)
	}
	_, before := srv.Embedded()
	if got := top(llmtest.ShuffledPrefix + "m"); got != want {
		t.Errorf("after switching models: top hit %s, want %s (another model's vectors were used)", got, want)
	}
	_, after := srv.Embedded()
	if after-before != len(small)+1 {
		t.Errorf("switching models embedded %d texts, want every note and the query (%d)", after-before, len(small)+1)
	}
	if got := top("m"); got != want {
		t.Errorf("back to model m: top hit %s", got)
	}
	if _, again := srv.Embedded(); again-after != 1 {
		t.Errorf("switching back embedded %d texts, want the query alone", again-after)
	}
	for _, m := range []string{"m", llmtest.ShuffledPrefix + "m"} {
		if _, err := os.Stat(filepath.Join(dir, ".memotree", filepath.FromSlash(vectorsFileOf(m)))); err != nil {
			t.Errorf("no vectors cached for model %s: %v", m, err)
		}
	}
}
