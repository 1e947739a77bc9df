package llm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Embeddings returns one vector per text from the endpoint's /embeddings, in the
// order of texts, retrying on 429, 5xx and connection errors like Stream.
func (c *Client) Embeddings(ctx context.Context, texts []string) ([][]float32, error) {
	model := c.cfg.EmbeddingModel
	if model == "" {
		model = c.cfg.Model
	}
	return c.EmbeddingsOf(ctx, model, texts)
}

// EmbeddingModel is the model Embeddings asks for.
func (c *Client) EmbeddingModel() string {
	if c.cfg.EmbeddingModel != "" {
		return c.cfg.EmbeddingModel
	}
	return c.cfg.Model
}

// EmbeddingsOf is Embeddings with the named model.
func (c *Client) EmbeddingsOf(ctx context.Context, model string, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	wait := c.cfg.Backoff
	var err error
	for try := 1; ; try++ {
		var out [][]float32
		out, err = c.embedOnce(ctx, model, texts)
		if err == nil {
			return out, nil
		}
		if try >= c.cfg.Tries || !retryable(err) || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
			return nil, c.explain(ctx.Err())
		case <-time.After(wait):
		}
		wait *= 2
	}
	return nil, c.explain(err)
}

func (c *Client) embedOnce(ctx context.Context, model string, texts []string) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	resp, err := c.api.CreateEmbeddings(ctx, openai.EmbeddingRequestStrings{Input: texts, Model: openai.EmbeddingModel(model)})
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	out := make([][]float32, len(texts))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(texts) {
			return nil, fmt.Errorf("embeddings: the server answered index %d for %d texts", d.Index, len(texts))
		}
		out[d.Index] = d.Embedding
	}
	for i, v := range out {
		if len(v) == 0 {
			return nil, fmt.Errorf("embeddings: the server gave no vector for text %d of %d", i+1, len(texts))
		}
	}
	return out, nil
}

// SettingsEmbedder computes embeddings with the model the settings name at the time of
// each call, as its Resolver says (MEMOTREE_EMBEDDING_MODEL, OPENAI_BASE_URL and
// OPENAI_API_KEY over the settings file), so that a model chosen in the window's
// settings is used without a restart. No model named means no semantic search.
//
// It is safe for concurrent use.
type SettingsEmbedder struct {
	r Resolver

	mu     sync.Mutex
	client *Client
	key    Settings // the endpoint client was made for
}

// NewSettingsEmbedder follows the settings r resolves.
func NewSettingsEmbedder(r Resolver) *SettingsEmbedder { return &SettingsEmbedder{r: r} }

// settings are the settings in effect.
func (e *SettingsEmbedder) settings() Settings { return e.r.InEffect() }

// EmbeddingModel names the embeddings model in effect, or "" when none is named.
func (e *SettingsEmbedder) EmbeddingModel() string { return e.settings().EmbeddingModel }

// Embeddings computes vectors with the model in effect.
func (e *SettingsEmbedder) Embeddings(ctx context.Context, texts []string) ([][]float32, error) {
	s := e.settings()
	return e.embeddingsAt(ctx, s, s.EmbeddingModel, texts)
}

// EmbeddingsOf computes vectors with the named model at the endpoint in effect.
func (e *SettingsEmbedder) EmbeddingsOf(ctx context.Context, model string, texts []string) ([][]float32, error) {
	return e.embeddingsAt(ctx, e.settings(), model, texts)
}

func (e *SettingsEmbedder) embeddingsAt(ctx context.Context, s Settings, model string, texts []string) ([][]float32, error) {
	if model == "" {
		return nil, errors.New("embeddings: no embeddings model is named: set one in the settings (Embedding model) or in MEMOTREE_EMBEDDING_MODEL")
	}
	key := Settings{BaseURL: s.BaseURL, APIKey: s.APIKey}
	e.mu.Lock()
	if e.client == nil || e.key != key {
		c, err := New(Config{BaseURL: s.BaseURL, APIKey: s.APIKey, Model: model, EmbeddingModel: model})
		if err != nil {
			e.mu.Unlock()
			return nil, err
		}
		e.client, e.key = c, key
	}
	c := e.client
	e.mu.Unlock()
	return c.EmbeddingsOf(ctx, model, texts)
}
