package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Check is the outcome of a connection test.
type Check struct {
	// OK is true when the endpoint answered and knows the model.
	OK bool `json:"ok"`
	// Models are the models the endpoint lists (empty when it lists none).
	Models []string `json:"models"`
	// Message says what happened and, when not OK, what to do.
	Message string `json:"message"`
}

// Redact returns the check with each of keys (those longer than three characters)
// replaced by "[key]" wherever the endpoint's answer put it: in a model's name or the
// message. An endpoint that was sent a key may echo it; the window never shows it.
func (c Check) Redact(keys ...string) Check {
	out := Check{OK: c.OK, Message: c.Message, Models: slices.Clone(c.Models)}
	for _, k := range keys {
		out.Message = redact(out.Message, k)
		for i := range out.Models {
			out.Models[i] = redact(out.Models[i], k)
		}
	}
	return out
}

// Test checks the endpoint: it lists the models and looks for the configured one;
// an endpoint that cannot list models gets a one-token chat request instead. The
// key is redacted from what it reports.
func (c *Client) Test(ctx context.Context) Check { return c.test(ctx).Redact(c.cfg.APIKey) }

func (c *Client) test(ctx context.Context) Check {
	ctx, cancel := context.WithTimeout(ctx, min(c.cfg.Timeout, 20*time.Second))
	defer cancel()
	list, err := c.api.ListModels(ctx)
	if err == nil {
		var ids []string
		for _, m := range list.Models {
			ids = append(ids, m.ID)
		}
		slices.Sort(ids)
		if len(ids) > 0 && !slices.Contains(ids, c.cfg.Model) {
			return Check{Models: ids, Message: fmt.Sprintf("%s answers, but has no model %q; pick one of: %s", c.cfg.BaseURL, c.cfg.Model, strings.Join(clipList(ids, 12), ", "))}
		}
		if len(ids) > 0 {
			return Check{OK: true, Models: ids, Message: fmt.Sprintf("connected to %s; model %s is available", c.cfg.BaseURL, c.cfg.Model)}
		}
	} else if code := status(err); code != http.StatusNotFound && code != http.StatusMethodNotAllowed {
		return Check{Message: c.explain(err).Error()}
	}
	_, err = c.api.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: c.cfg.Model, MaxTokens: 1,
		Messages: []openai.ChatCompletionMessage{{Role: RoleUser, Content: "ping"}}})
	if err != nil {
		return Check{Message: c.explain(err).Error()}
	}
	return Check{OK: true, Message: fmt.Sprintf("connected to %s; model %s answered", c.cfg.BaseURL, c.cfg.Model)}
}

func clipList(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(slices.Clip(s[:n]), fmt.Sprintf("and %d more", len(s)-n))
}

// Local is a model server that may run on this machine.
type Local struct {
	Name    string `json:"name"`
	BaseURL string `json:"base_url"`
}

// KnownLocals are the servers Detect looks for: Ollama and LM Studio on their default
// ports.
var KnownLocals = []Local{
	{Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1"},
	{Name: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1"},
}

// Found is a local server that answered, with its models.
type Found struct {
	Local
	Models []string `json:"models"`
}

// Detect asks each candidate for its models, all at once, each within timeout, and
// returns the ones that answered, in the candidates' order.
func Detect(ctx context.Context, candidates []Local, timeout time.Duration) []Found {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res := make([]*Found, len(candidates))
	done := make(chan struct{}, len(candidates))
	for i, l := range candidates {
		go func() {
			defer func() { done <- struct{}{} }()
			models, err := listModels(ctx, l.BaseURL)
			if err == nil {
				res[i] = &Found{Local: l, Models: models}
			}
		}()
	}
	for range candidates {
		<-done
	}
	var out []Found
	for _, f := range res {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

// listModels reads GET base/models without a key.
func listModels(ctx context.Context, base string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/models", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s/models: %s", base, resp.Status)
	}
	var body struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, errors.New("not an OpenAI-compatible model list")
	}
	var ids []string
	for _, d := range body.Data {
		ids = append(ids, d.ID)
	}
	slices.Sort(ids)
	return ids, nil
}
