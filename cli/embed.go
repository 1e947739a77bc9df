package cli

import (
	"os"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tools"
)

// embedderFromEnv returns the embeddings model named by MEMOTREE_EMBEDDING_MODEL at
// OPENAI_BASE_URL (with OPENAI_API_KEY), or nil when none is named: semantic and
// hybrid search then answer that no embeddings model is configured.
func embedderFromEnv() tools.Embedder {
	model := os.Getenv("MEMOTREE_EMBEDDING_MODEL")
	if model == "" {
		return nil
	}
	c, err := llm.New(llm.Config{BaseURL: os.Getenv("OPENAI_BASE_URL"), APIKey: os.Getenv("OPENAI_API_KEY"), Model: model, EmbeddingModel: model})
	if err != nil {
		return nil
	}
	return c
}
