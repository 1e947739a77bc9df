package cli

import (
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tools"
)

// embedder returns the embeddings model of semantic and hybrid search: the one the
// settings name at the time of each search (MEMOTREE_EMBEDDING_MODEL at
// OPENAI_BASE_URL, with OPENAI_API_KEY, over the settings file). With none named,
// semantic and hybrid search answer that no embeddings model is configured.
func embedder() tools.Embedder { return llm.NewSettingsEmbedder("", nil) }
