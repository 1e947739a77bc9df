package llm_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

func TestEmbeddings(t *testing.T) {
	srv := llmtest.New(t)
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), Model: "chat", EmbeddingModel: "embed"})
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"Ada Lovelace", "反向链接", "Ada Lovelace"}
	got, err := c.Embeddings(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{llmtest.Vector(texts[0]), llmtest.Vector(texts[1]), llmtest.Vector(texts[2])}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("vectors (-want +got):\n%s", diff)
	}
	if calls, n := srv.Embedded(); calls != 1 || n != 3 {
		t.Errorf("server saw %d calls with %d texts, want 1 with 3", calls, n)
	}
	if got, err := c.Embeddings(t.Context(), nil); err != nil || got != nil {
		t.Errorf("no texts: %v %v", got, err)
	}
}
