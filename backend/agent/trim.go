package agent

import (
	"sync"

	"github.com/memotree/memotree/backend/llm"
	"github.com/tiktoken-go/tokenizer"
)

// DefaultHistoryTokens is the default budget of the conversation sent to the model.
const DefaultHistoryTokens = 32000

// messageOverhead is what the wire format adds to each message, in tokens.
const messageOverhead = 4

// codec is the BPE encoding the budget is counted in; cl100k is close enough for
// every model a budget is about. Loaded once, read-only after.
var codec = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.Cl100kBase) })

// tokenCounter counts tokens with a cache by text, so a long conversation is encoded
// once, not on every call. It is safe for concurrent use.
type tokenCounter struct {
	mu    sync.Mutex
	cache map[string]int
}

// text returns the tokens of s.
func (c *tokenCounter) text(s string) int {
	if s == "" {
		return 0
	}
	c.mu.Lock()
	n, ok := c.cache[s]
	c.mu.Unlock()
	if ok {
		return n
	}
	if enc, err := codec(); err == nil {
		n, err = enc.Count(s)
		if err != nil {
			n = len(s) / 3
		}
	} else {
		n = len(s) / 3
	}
	c.mu.Lock()
	if c.cache == nil || len(c.cache) > 4096 {
		c.cache = map[string]int{}
	}
	c.cache[s] = n
	c.mu.Unlock()
	return n
}

// message returns the tokens of m.
func (c *tokenCounter) message(m llm.Message) int {
	n := messageOverhead + c.text(m.Content)
	for _, tc := range m.ToolCalls {
		n += messageOverhead + c.text(tc.Name) + c.text(tc.Arguments)
	}
	return n
}

// trim returns the end of hist that fits budget tokens, dropping the oldest first and
// never splitting a tool call from its result. Whole exchanges (a user message and
// what answered it) go first; the last exchange always stays, and when it alone is
// too long, its oldest rounds (an assistant message with its tool results) go, its
// user message and last round staying.
func (c *tokenCounter) trim(hist []llm.Message, budget int) []llm.Message {
	sizes := make([]int, len(hist))
	total := 0
	for i, m := range hist {
		sizes[i] = c.message(m)
		total += sizes[i]
	}
	if total <= budget {
		return hist
	}
	// suffix[i] is the size of hist[i:].
	suffix := make([]int, len(hist)+1)
	for i := len(hist) - 1; i >= 0; i-- {
		suffix[i] = suffix[i+1] + sizes[i]
	}
	for i, m := range hist {
		if m.Role == llm.RoleUser && suffix[i] <= budget {
			return hist[i:]
		}
	}
	return c.trimTurn(hist, sizes, budget)
}

// trimTurn keeps the last user message and as many of the latest rounds after it as
// fit, at least the last one.
func (c *tokenCounter) trimTurn(hist []llm.Message, sizes []int, budget int) []llm.Message {
	u := -1
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role == llm.RoleUser {
			u = i
			break
		}
	}
	if u < 0 {
		return hist
	}
	// Round starts: assistant messages after u.
	var starts []int
	for i := u + 1; i < len(hist); i++ {
		if hist[i].Role == llm.RoleAssistant {
			starts = append(starts, i)
		}
	}
	total := 0
	for i := u; i < len(hist); i++ {
		total += sizes[i]
	}
	from := u + 1
	for k := 0; k+1 < len(starts) && total > budget; k++ {
		for i := starts[k]; i < starts[k+1]; i++ {
			total -= sizes[i]
		}
		from = starts[k+1]
	}
	out := make([]llm.Message, 0, 1+len(hist)-from)
	out = append(out, hist[u])
	return append(out, hist[from:]...)
}
