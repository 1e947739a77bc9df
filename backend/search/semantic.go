package search

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/memotree/memotree/backend/vpath"
)

// Embedder computes one vector per text (the LLM gateway's Embeddings).
type Embedder interface {
	Embeddings(ctx context.Context, texts []string) ([][]float32, error)
}

// NamedEmbedder is an Embedder that says which model it uses, which may change while
// the index is open (a person picks another model in the settings). Vectors are kept
// per model, so that one model's vectors are never compared with another's; a model
// named "" means none is configured: semantic search answers ErrNoEmbedder.
type NamedEmbedder interface {
	Embedder
	// EmbeddingModel names the model to use now.
	EmbeddingModel() string
	// EmbeddingsOf computes the vectors with the named model, whatever the current
	// one is (a pass started for one model stays with it).
	EmbeddingsOf(ctx context.Context, model string, texts []string) ([][]float32, error)
}

// embed computes vectors with model (an unnamed Embedder has one model, "").
func (s *semantic) embed(ctx context.Context, model string, texts []string) ([][]float32, error) {
	if n, ok := s.emb.(NamedEmbedder); ok {
		return n.EmbeddingsOf(ctx, model, texts)
	}
	return s.emb.Embeddings(ctx, texts)
}

// Progress reports the background embedding of a library's notes.
type Progress struct {
	Done  int    `json:"done"`
	Total int    `json:"total"`
	Final bool   `json:"final"`
	Err   string `json:"error,omitempty"`
}

const (
	vectorsFile   = "search/vectors.bin" // of an Embedder that names no model
	embedBatch    = 32
	embedTextSize = 2000 // bytes of a note's body embedded with its title
	rrfK          = 60   // reciprocal rank fusion constant
)

var vectorsMagic = []byte("MTVECS\x01")

// semantic holds the vectors of one index, by content fingerprint, so that an
// unchanged note is never embedded twice and a renamed one keeps its vector.
type semantic struct {
	emb      Embedder
	progress func(Progress)

	mu      sync.Mutex
	model   string               // the model vecs belong to ("" for an unnamed Embedder)
	vecs    map[uint64][]float32 // normalised
	running bool
	done    chan struct{} // closed when the running pass ends
	err     error         // of the last pass
}

// UseEmbedder enables semantic and hybrid search with emb; progress (may be nil)
// hears about the background embedding. Vectors cached under .memotree are reused.
// Call it before the index is shared with other goroutines; calling it again has no
// effect.
func (ix *Index) UseEmbedder(emb Embedder, progress func(Progress)) {
	ix.semOnce.Do(func() {
		s := &semantic{emb: emb, progress: progress}
		s.model = modelOf(emb)
		s.vecs = ix.loadVectors(s.model)
		ix.sem = s
	})
}

// Configured reports whether emb can embed now: it is set and, when it names its
// model, it names one.
func Configured(emb Embedder) bool {
	if emb == nil {
		return false
	}
	n, ok := emb.(NamedEmbedder)
	return !ok || n.EmbeddingModel() != ""
}

// modelOf is the model a NamedEmbedder names now, or "" for another Embedder.
func modelOf(emb Embedder) string {
	if n, ok := emb.(NamedEmbedder); ok {
		return n.EmbeddingModel()
	}
	return ""
}

// vectorsFileOf is the cache of a model's vectors (see vault.WriteCache).
func vectorsFileOf(model string) string {
	if model == "" {
		return vectorsFile
	}
	sum := sha256.Sum256([]byte(model))
	return "search/vectors-" + hex.EncodeToString(sum[:8]) + ".bin"
}

// loadVectors reads a model's cached vectors; none when there is no cache.
func (ix *Index) loadVectors(model string) map[uint64][]float32 {
	if data, err := ix.v.ReadCache(vectorsFileOf(model)); err == nil {
		return decodeVectors(data)
	}
	return map[uint64][]float32{}
}

// ready returns ErrNoEmbedder when semantic search cannot run, and otherwise makes
// the vectors those of the model the embedder names now and returns it (a running
// pass for another model stops at its next batch, keeping what it did in its
// model's cache).
func (ix *Index) ready() (string, error) {
	s := ix.sem
	if s == nil {
		return "", ErrNoEmbedder
	}
	n, ok := s.emb.(NamedEmbedder)
	if !ok {
		return "", nil
	}
	model := n.EmbeddingModel()
	if model == "" {
		return "", fmt.Errorf("%w: name one in the settings (Embedding model) or in MEMOTREE_EMBEDDING_MODEL", ErrNoEmbedder)
	}
	s.mu.Lock()
	same := s.model == model
	s.mu.Unlock()
	if same {
		return model, nil
	}
	vecs := ix.loadVectors(model)
	s.mu.Lock()
	if s.model != model {
		s.model, s.vecs = model, vecs
		s.running = false // a pass for the old model ends by itself
	}
	s.mu.Unlock()
	return model, nil
}

// EmbedPending starts embedding, in the background, the notes without a vector; it
// returns a channel closed when that pass ends (at once when nothing is pending).
func (ix *Index) EmbedPending() <-chan struct{} {
	s := ix.sem
	if _, err := ix.ready(); s == nil || err != nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	s.mu.Lock()
	if s.running {
		defer s.mu.Unlock()
		return s.done
	}
	s.mu.Unlock()
	todo := ix.unembedded()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return s.done
	}
	s.done = make(chan struct{})
	if len(todo) == 0 {
		close(s.done)
		return s.done
	}
	s.running = true
	go ix.embedAll(todo, s.model, s.vecs, s.done)
	return s.done
}

// unembedded lists the live notes whose content has no vector. Locks are taken in
// the order ix.mu, then sem.mu, everywhere.
func (ix *Index) unembedded() []docInfo {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ix.sem.mu.Lock()
	defer ix.sem.mu.Unlock()
	var out []docInfo
	for _, d := range ix.x.docs {
		if _, ok := ix.sem.vecs[d.sum]; d.alive && !ok {
			out = append(out, d)
		}
	}
	return out
}

// embedAll embeds todo with model into vecs in batches, reporting progress, and
// saves the vectors in model's cache. It stops early when the model changes.
func (ix *Index) embedAll(todo []docInfo, model string, vecs map[uint64][]float32, done chan struct{}) {
	s := ix.sem
	ctx := context.Background()
	var err error
	current := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.model == model
	}
	for i := 0; i < len(todo) && err == nil && current(); i += embedBatch {
		batch := todo[i:min(len(todo), i+embedBatch)]
		texts := make([]string, len(batch))
		for k, d := range batch {
			texts[k] = ix.embedText(d)
		}
		var got [][]float32
		got, err = s.embed(ctx, model, texts)
		if err == nil && len(got) != len(batch) {
			err = fmt.Errorf("embeddings: %d vectors for %d texts", len(got), len(batch))
		}
		if err != nil {
			break
		}
		s.mu.Lock()
		for k, d := range batch {
			vecs[d.sum] = normalise(got[k])
		}
		s.mu.Unlock()
		if s.progress != nil {
			s.progress(Progress{Done: i + len(batch), Total: len(todo)})
		}
	}
	s.mu.Lock()
	data := encodeVectors(vecs)
	s.mu.Unlock()
	saveErr := ix.v.WriteCache(vectorsFileOf(model), data)
	err = errors.Join(err, saveErr)
	// The pass ends only once its vectors are on disk, so that whoever waits for it
	// (or opens the vault next) finds them there.
	if s.progress != nil {
		p := Progress{Done: len(todo), Total: len(todo), Final: true}
		if err != nil {
			p.Err = err.Error()
		}
		s.progress(p)
	}
	s.mu.Lock()
	s.err = err
	if s.done == done {
		s.running = false
	}
	close(done)
	s.mu.Unlock()
}

// embedText is what stands for a note: its title and the start of its text.
func (ix *Index) embedText(d docInfo) string {
	data, err := ix.v.ReadFile(d.path)
	if err != nil {
		return d.title
	}
	body := data[bodyStart(data):]
	if len(body) > embedTextSize {
		body = body[:embedTextSize]
		for len(body) > 0 && body[len(body)-1]&0xC0 == 0x80 {
			body = body[:len(body)-1]
		}
	}
	return d.title + "\n" + string(body)
}

func normalise(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	inv := float32(1 / math.Sqrt(n))
	for i, x := range v {
		out[i] = x * inv
	}
	return out
}

// ErrNoEmbedder is returned by semantic and hybrid searches without UseEmbedder.
var ErrNoEmbedder = errors.New("search: no embeddings model configured")

// SemanticInfo tells how complete a semantic answer is.
type SemanticInfo struct {
	// Pending is how many notes had no vector yet (they are being embedded).
	Pending int `json:"pending"`
}

// SemanticSearch ranks notes by the cosine similarity of their vectors to the
// query's (exact, over every embedded note). Notes not embedded yet are left out and
// counted in the info; embedding them starts in the background.
func (ix *Index) SemanticSearch(ctx context.Context, r Request) ([]Hit, SemanticInfo, error) {
	ranked, info, err := ix.semanticRank(ctx, r)
	if err != nil {
		return nil, info, err
	}
	hits, err := ix.hitsOf(ctx, ranked, r)
	return hits, info, err
}

func (ix *Index) semanticRank(ctx context.Context, r Request) ([]scored, SemanticInfo, error) {
	var info SemanticInfo
	model, err := ix.ready()
	if err != nil {
		return nil, info, err
	}
	if err := ix.Refresh(ctx); err != nil {
		return nil, info, err
	}
	ix.EmbedPending()
	qv, err := ix.sem.embed(ctx, model, []string{r.Query})
	if err != nil {
		return nil, info, err
	}
	if len(qv) != 1 {
		return nil, info, fmt.Errorf("embeddings: %d vectors for one query", len(qv))
	}
	q := normalise(qv[0])
	if r.Limit <= 0 {
		r.Limit = 20
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ix.sem.mu.Lock()
	defer ix.sem.mu.Unlock()
	if ix.sem.model != model {
		return nil, info, fmt.Errorf("embeddings: the model changed from %s to %s during the search; search again", model, ix.sem.model)
	}
	var out []scored
	for id := range ix.x.docs {
		d := &ix.x.docs[id]
		if !d.alive || !keep(d, r) {
			continue
		}
		v, ok := ix.sem.vecs[d.sum]
		if !ok {
			info.Pending++
			continue
		}
		if len(v) != len(q) {
			continue // from another model: re-embedded when the cache is rebuilt
		}
		var dot float32
		for i, x := range v {
			dot += x * q[i]
		}
		out = append(out, scored{uint32(id), float64(dot)})
	}
	out = topK(out, r.Limit, func(a, b scored) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return ix.x.docs[a.doc].path < ix.x.docs[b.doc].path
	})
	return out, info, nil
}

// HybridSearch fuses the full-text and semantic rankings by reciprocal rank fusion:
// a note scores the sum of 1/(60+rank) over the rankings that hold it.
func (ix *Index) HybridSearch(ctx context.Context, r Request) ([]Hit, SemanticInfo, error) {
	wide := r
	wide.Limit = max(r.Limit, 20) * 3
	wide.NoSnippet = true
	text, err := ix.Search(ctx, wide)
	if err != nil {
		return nil, SemanticInfo{}, err
	}
	sem, info, err := ix.semanticRank(ctx, wide)
	if err != nil {
		return nil, info, err
	}
	fused := map[vpath.Path]float64{}
	for i, h := range text {
		fused[h.Path] += 1 / float64(rrfK+i+1)
	}
	ix.mu.RLock()
	for i, s := range sem {
		fused[ix.x.docs[s.doc].path] += 1 / float64(rrfK+i+1)
	}
	var out []scored
	for p, f := range fused {
		if id, ok := ix.x.byPath[p]; ok {
			out = append(out, scored{id, f})
		}
	}
	out = topK(out, max(r.Limit, 1), func(a, b scored) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return ix.x.docs[a.doc].path < ix.x.docs[b.doc].path
	})
	ix.mu.RUnlock()
	hits, err := ix.hitsOf(ctx, out, r)
	return hits, info, err
}

// hitsOf turns ranked documents into hits with snippets around the query's words.
func (ix *Index) hitsOf(ctx context.Context, ranked []scored, r Request) ([]Hit, error) {
	if r.Limit <= 0 {
		r.Limit = 20
	}
	ix.mu.RLock()
	hits := make([]Hit, 0, len(ranked))
	for _, s := range ranked {
		d := ix.x.docs[s.doc]
		hits = append(hits, Hit{Path: d.path, Title: d.title, Score: math.Round(s.score*10000) / 10000, EntityType: d.entityType, Tags: d.tags, Aliases: d.aliases})
	}
	ix.mu.RUnlock()
	clauses := parseQuery(r.Query)
	for i := range clauses {
		clauses[i].phrase = false // highlights only: nothing is filtered out here
	}
	return ix.finish(ctx, hits, clauses, r)
}

// WaitEmbedded waits until no background embedding runs and returns its error.
func (ix *Index) WaitEmbedded(ctx context.Context) error {
	if _, err := ix.ready(); err != nil {
		return err
	}
	select {
	case <-ix.EmbedPending():
	case <-ctx.Done():
		return ctx.Err()
	}
	ix.sem.mu.Lock()
	defer ix.sem.mu.Unlock()
	return ix.sem.err
}

func encodeVectors(vecs map[uint64][]float32) []byte {
	keys := make([]uint64, 0, len(vecs))
	for k := range vecs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b := append([]byte(nil), vectorsMagic...)
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		v := vecs[k]
		b = binary.LittleEndian.AppendUint64(b, k)
		b = binary.AppendUvarint(b, uint64(len(v)))
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	return b
}

// decodeVectors reads the vector cache; a damaged file gives an empty cache.
func decodeVectors(b []byte) map[uint64][]float32 {
	out := map[uint64][]float32{}
	if len(b) < len(vectorsMagic) || string(b[:len(vectorsMagic)]) != string(vectorsMagic) {
		return out
	}
	d := &decoder{b: b[len(vectorsMagic):]}
	n := d.uvarint()
	for range n {
		if len(d.b) < 8 {
			return map[uint64][]float32{}
		}
		k := binary.LittleEndian.Uint64(d.b)
		d.b = d.b[8:]
		dims := d.uvarint()
		if d.err != nil || dims*4 > uint64(len(d.b)) {
			return map[uint64][]float32{}
		}
		v := make([]float32, dims)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(d.b[4*i:]))
		}
		d.b = d.b[4*dims:]
		out[k] = v
	}
	return out
}
