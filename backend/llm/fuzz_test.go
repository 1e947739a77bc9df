package llm_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/llm"
)

// bodyTransport answers every request with 200 and the same body, without a network.
type bodyTransport struct {
	body        []byte
	contentType string
}

func (b bodyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	h := http.Header{}
	h.Set("Content-Type", b.contentType)
	return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(b.body)),
		ContentLength: -1, Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
}

// FuzzStream feeds arbitrary bytes to the gateway as the body of a streamed (or, with
// whole set, a non-streamed) reply: the SSE decoding, the merging of text and
// tool-call deltas, and the error explanations. It never panics or hangs; a reply is
// either a well-formed message (every call named, with an id and arguments, the text
// exactly what was streamed) or an error of a known kind that does not show the key.
func FuzzStream(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
	}
	for _, s := range []string{
		"", "data: [DONE]\n\n", ": keep-alive\n\n", "data: {\n\n", "<html>x</html>",
		`data: {"error":{"message":"` + secretKey + `","code":"invalid_api_key"}}` + "\n\n",
		`data: {"choices":[{"delta":{"tool_calls":[{"index":-1,"function":{"arguments":"{"}}]},"finish_reason":"stop"}]}` + "\n\n",
		`data: {"choices":[{"delta":{"tool_calls":[{"index":2147483647,"id":"a"},{"id":"b","function":{"name":"x"}}]}},{"delta":{"content":"é"},"finish_reason":"length"}]}` + "\n\n",
		`{"choices":[{"message":{"content":"hi","tool_calls":[{"function":{"name":"","arguments":"["}}]}}]}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	known := []error{llm.ErrIncomplete, llm.ErrMalformed, llm.ErrTooLarge, llm.ErrUnauthorized, llm.ErrUnknownModel,
		llm.ErrContextLength, llm.ErrRateLimited, llm.ErrServer}
	f.Fuzz(func(t *testing.T, body []byte, whole bool) {
		c, err := llm.New(llm.Config{BaseURL: "http://model.invalid/v1", APIKey: secretKey, Model: "m", Tries: 1,
			Timeout: 5 * time.Second, NoStream: whole, MaxReplyBytes: 4096,
			HTTPClient: &http.Client{Transport: bodyTransport{body: body, contentType: "text/event-stream"}}})
		if err != nil {
			t.Fatal(err)
		}
		var streamed strings.Builder
		m, err := c.Stream(context.Background(), llm.Request{
			Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}},
			OnDelta:  func(s string) { streamed.WriteString(s) },
		})
		if err != nil {
			if strings.Contains(err.Error(), secretKey) {
				t.Fatalf("the error shows the key: %v", err)
			}
			for _, k := range known {
				if errors.Is(err, k) {
					return
				}
			}
			// Anything else must still name the endpoint, so the person knows where to look.
			if !strings.Contains(err.Error(), "model.invalid") {
				t.Fatalf("an error of no known kind: %v", err)
			}
			return
		}
		if m.Role != llm.RoleAssistant || m.Content != streamed.String() {
			t.Fatalf("message %+v, streamed %q", m, streamed.String())
		}
		if len(m.Content) > 4096 {
			t.Fatalf("a reply of %d bytes passed the 4096-byte cap", len(m.Content))
		}
		for _, tc := range m.ToolCalls {
			if tc.Name == "" || tc.ID == "" || strings.TrimSpace(tc.Arguments) == "" {
				t.Fatalf("a malformed call: %+v", tc)
			}
		}
	})
}
