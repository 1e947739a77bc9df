package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// The kinds of failure, for errors.Is.
var (
	ErrUnreachable   = errors.New("the model endpoint is unreachable")
	ErrUnauthorized  = errors.New("the endpoint refused the API key")
	ErrUnknownModel  = errors.New("the endpoint does not know the model")
	ErrContextLength = errors.New("the conversation is too long for the model")
	ErrRateLimited   = errors.New("the endpoint is rate limiting")
	ErrServer        = errors.New("the endpoint failed")
	ErrTimeout       = errors.New("the model did not answer in time")
	ErrMalformed     = errors.New("the endpoint's reply is not an OpenAI-compatible stream")
)

// status returns the HTTP status of err, or 0. An error sent inside a stream (after
// a 200) has no status: its code or type stands for one.
func status(err error) int {
	var ae *openai.APIError
	if errors.As(err, &ae) {
		if ae.HTTPStatusCode != 0 {
			return ae.HTTPStatusCode
		}
		return statusOfCode(fmt.Sprint(ae.Code), ae.Type)
	}
	var re *openai.RequestError
	if errors.As(err, &re) {
		return re.HTTPStatusCode
	}
	return 0
}

// statusOfCode maps OpenAI's error codes and types to the status they stand for.
func statusOfCode(code, typ string) int {
	switch {
	case code == "invalid_api_key" || typ == "authentication_error":
		return http.StatusUnauthorized
	case code == "model_not_found":
		return http.StatusNotFound
	case code == "rate_limit_exceeded" || typ == "rate_limit_error" || typ == "insufficient_quota":
		return http.StatusTooManyRequests
	case typ == "server_error" || typ == "api_error":
		return http.StatusInternalServerError
	}
	return 0
}

// retryable reports whether another try may succeed.
func retryable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	code := status(err)
	if code == http.StatusTooManyRequests || code >= 500 {
		return true
	}
	// A stream cut before any text reached the person can be asked for again.
	return code == 0 && (isConnErr(err) || errors.Is(err, errDropped))
}

// isConnErr reports whether err is a failure to reach the server.
func isConnErr(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &oe) || errors.As(err, &ne)
}

// explain wraps err in words a person can act on. The key never appears: go-openai
// does not echo it, and the messages below do not name it.
func (c *Client) explain(err error) error {
	code := status(err)
	detail := redact(serverMessage(err), c.cfg.APIKey)
	switch {
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("stopped: %w", context.Canceled)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: no complete reply from %s within %s; a slow local model may need a longer timeout", ErrTimeout, c.cfg.BaseURL, c.cfg.Timeout)
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Errorf("%w (HTTP %d): check OPENAI_API_KEY for %s", ErrUnauthorized, code, c.cfg.BaseURL)
	case code == http.StatusNotFound:
		return fmt.Errorf("%w: %s has no model %q (or the base URL lacks /v1); check MEMOTREE_MODEL or --model: %s", ErrUnknownModel, c.cfg.BaseURL, c.cfg.Model, detail)
	case code == http.StatusTooManyRequests:
		return fmt.Errorf("%w: %s still answered 429 after %d tries; wait and try again: %s", ErrRateLimited, c.cfg.BaseURL, c.cfg.Tries, detail)
	case contextTooLong(detail):
		return fmt.Errorf("%w: start a new conversation with /clear or use a model with a larger context: %s", ErrContextLength, detail)
	case code >= 500:
		return fmt.Errorf("%w (HTTP %d) after %d tries: %s", ErrServer, code, c.cfg.Tries, detail)
	case errors.Is(err, ErrTooLarge):
		return fmt.Errorf("%w; nothing of it was kept: the endpoint at %s may be misbehaving, or ask for a shorter answer", redacted{err, c.cfg.APIKey}, c.cfg.BaseURL)
	case errors.Is(err, errDropped):
		return fmt.Errorf("%w: %w; the text shown so far was not kept, try again", ErrIncomplete, redacted{err, c.cfg.APIKey})
	case errors.Is(err, ErrMalformed):
		return fmt.Errorf("%w; is %s an OpenAI-compatible /v1 endpoint?", redacted{err, c.cfg.APIKey}, c.cfg.BaseURL)
	case errors.Is(err, ErrIncomplete):
		return fmt.Errorf("%w; nothing of it was kept, try again", redacted{err, c.cfg.APIKey})
	case isMalformed(err):
		return fmt.Errorf("%w: is %s an OpenAI-compatible /v1 endpoint? %s", ErrMalformed, c.cfg.BaseURL, detail)
	case code == 0 && isConnErr(err):
		return fmt.Errorf("%w: nothing answers at %s; start the server or check OPENAI_BASE_URL: %s", ErrUnreachable, c.cfg.BaseURL, detail)
	}
	return fmt.Errorf("model %s at %s: %w", c.cfg.Model, c.cfg.BaseURL, redacted{err, c.cfg.APIKey})
}

// serverMessage returns what the server said, without the wrapping go-openai adds.
func serverMessage(err error) string {
	var ae *openai.APIError
	if errors.As(err, &ae) && ae.Message != "" {
		return ae.Message
	}
	return err.Error()
}

// isMalformed reports whether a chunk of the stream was not valid JSON.
func isMalformed(err error) bool {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	return errors.As(err, &se) || errors.As(err, &te)
}

// contextTooLong recognises the servers' ways of saying the prompt is too long.
func contextTooLong(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "context_length") || strings.Contains(s, "context length") ||
		strings.Contains(s, "maximum context") || strings.Contains(s, "too many tokens")
}

// minRedactedKey is the shortest key redact looks for: a shorter one would match
// ordinary text.
const minRedactedKey = 4

// redact removes the key from s, in case a proxy echoed it.
func redact(s, key string) string {
	if len(key) < minRedactedKey {
		return s
	}
	return strings.ReplaceAll(s, key, "[key]")
}

// redacted is an error whose text never shows the key; it unwraps to the original.
type redacted struct {
	err error
	key string
}

func (r redacted) Error() string { return redact(r.err.Error(), r.key) }
func (r redacted) Unwrap() error { return r.err }
