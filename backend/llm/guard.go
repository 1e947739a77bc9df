package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"
)

// ErrTooLarge says the endpoint sent more than the client accepts for one reply.
var ErrTooLarge = errors.New("the model's reply is too large")

// DefaultMaxReplyBytes bounds the assembled reply (text and tool-call arguments) when
// Config.MaxReplyBytes is 0: twice the registry's argument cap, far above any answer a
// person reads.
const DefaultMaxReplyBytes = 8 << 20

// minBodyBytes is the smallest cap on the raw response body: the stream's framing
// (JSON around every delta) can be forty times the text it carries.
const minBodyBytes = 32 << 20

// headBytes is how much of a response body is kept to say what an endpoint sent
// instead of a stream.
const headBytes = 512

// sniff records, for one request, what the response looked like: its content type
// and the first bytes of its body. The transport fills it; the error paths read it.
type sniff struct {
	mu          sync.Mutex
	contentType string
	head        []byte
	body        int64
}

type sniffKey struct{}

// withSniff returns ctx carrying a fresh sniff for the request made with it.
func withSniff(ctx context.Context) (context.Context, *sniff) {
	s := &sniff{}
	return context.WithValue(ctx, sniffKey{}, s), s
}

// describe says what the endpoint sent, for an error message: the content type and
// the start of the body, one line, the key removed.
func (s *sniff) describe(key string) string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.body == 0 {
		return "it sent an empty body"
	}
	head := strings.Join(strings.Fields(strings.ToValidUTF8(string(s.head), "?")), " ")
	if len(head) > 200 {
		head = head[:200]
		for !utf8.ValidString(head) {
			head = head[:len(head)-1]
		}
		head += "…"
	}
	ct := s.contentType
	if ct == "" {
		ct = "no content type"
	}
	return fmt.Sprintf("it sent %s: %s", ct, redact(head, key))
}

// capTransport limits every response body to max bytes (a read past it fails with
// ErrTooLarge, so a single endless line cannot fill memory), fills the request's sniff,
// and renames the "reasoning" field of replies to the "reasoning_content" go-openai
// reads (renamingBody).
type capTransport struct {
	base http.RoundTripper
	max  int64
}

// RoundTrip sends req and wraps the response body.
func (t capTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	s, _ := req.Context().Value(sniffKey{}).(*sniff)
	if s != nil {
		s.mu.Lock()
		s.contentType = resp.Header.Get("Content-Type")
		s.mu.Unlock()
	}
	resp.Body = newRenamingBody(&capBody{ReadCloser: resp.Body, left: t.max, max: t.max, sniff: s})
	return resp, nil
}

// capBody is a response body that refuses to be read past its cap.
type capBody struct {
	io.ReadCloser
	left, max int64
	sniff     *sniff
}

func (b *capBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("%w: the endpoint sent more than %d bytes", ErrTooLarge, b.max)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if s := b.sniff; s != nil && n > 0 {
		s.mu.Lock()
		if k := headBytes - len(s.head); k > 0 {
			s.head = append(s.head, p[:min(k, n)]...)
		}
		s.body += int64(n)
		s.mu.Unlock()
	}
	return n, err
}
