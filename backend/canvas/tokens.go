package canvas

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding is the BPE encoding tokens are counted in (o200k_base, the encoding of
// current OpenAI models; counts in other models' encodings differ by a few percent).
const Encoding = "o200k_base"

var (
	codecOnce sync.Once
	codec     tokenizer.Codec
	codecErr  error
)

// Tokens counts the tokens of s in Encoding. The encodings are embedded: no network.
// Should the codec ever fail, it falls back to a conservative estimate of one token
// per three bytes.
func Tokens(s string) int {
	codecOnce.Do(func() { codec, codecErr = tokenizer.Get(tokenizer.O200kBase) })
	if codecErr == nil {
		if n, err := codec.Count(s); err == nil {
			return n
		}
	}
	return (len(s) + 2) / 3
}
