package llm

import (
	"context"
	"fmt"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Embeddings returns one vector per text from the endpoint's /embeddings, in the
// order of texts, retrying on 429, 5xx and connection errors like Stream.
func (c *Client) Embeddings(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	model := c.cfg.EmbeddingModel
	if model == "" {
		model = c.cfg.Model
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
