package llm_test

import (
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

const secretKey = "sk-test-SECRET-0123456789"

func client(t *testing.T, url string) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: url, APIKey: secretKey, Model: "test-model",
		Backoff: time.Millisecond, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func recorded(t *testing.T, name string) llmtest.Reply {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return llmtest.Reply{Body: string(b)}
}

func ask(t *testing.T, c *llm.Client) (llm.Message, string, error) {
	t.Helper()
	var streamed strings.Builder
	m, err := c.Stream(context.Background(), llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}},
		OnDelta:  func(s string) { streamed.WriteString(s) },
	})
	if err != nil && strings.Contains(err.Error(), secretKey) {
		t.Errorf("the error shows the API key: %v", err)
	}
	return m, streamed.String(), err
}

func TestStreamText(t *testing.T) {
	s := llmtest.New(t, recorded(t, "text.txt"))
	m, streamed, err := ask(t, client(t, s.URL()))
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "Hello, world" || streamed != "Hello, world" || len(m.ToolCalls) != 0 {
		t.Errorf("got %+v, streamed %q", m, streamed)
	}
	req := s.Requests()[0]
	if req.Body["model"] != "test-model" || req.Body["stream"] != true || req.Authorization != "Bearer "+secretKey {
		t.Errorf("request: %+v", req)
	}
}

func TestStreamToolCalls(t *testing.T) {
	tests := []struct {
		file string
		want []llm.ToolCall
	}{
		{"tool_split.txt", []llm.ToolCall{{ID: "call_a", Name: "create_entity", Arguments: `{"name": "Ada"}`}}},
		{"tool_parallel.txt", []llm.ToolCall{
			{ID: "call_1", Name: "read_entities", Arguments: `{"entity_names":["Welcome"]}`},
			{ID: "call_2", Name: "search", Arguments: `{"query":"ada"}`}}},
		// finish_reason "stop" with tool calls, and no index: a new id is a new call.
		{"tool_stop_noindex.txt", []llm.ToolCall{
			{ID: "call_x", Name: "read_manual", Arguments: `{}`},
			{ID: "call_y", Name: "search", Arguments: `{"query":"x"}`}}},
		// Every call at index 0, each whole in one chunk.
		{"tool_same_index.txt", []llm.ToolCall{
			{ID: "call_p", Name: "read_manual", Arguments: `{}`},
			{ID: "call_q", Name: "search", Arguments: `{"query":"y"}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			s := llmtest.New(t, recorded(t, tt.file))
			m, _, err := ask(t, client(t, s.URL()))
			if err != nil {
				t.Fatal(err)
			}
			if len(m.ToolCalls) != len(tt.want) {
				t.Fatalf("calls = %+v, want %+v", m.ToolCalls, tt.want)
			}
			for i := range tt.want {
				if m.ToolCalls[i] != tt.want[i] {
					t.Errorf("call %d = %+v, want %+v", i, m.ToolCalls[i], tt.want[i])
				}
			}
		})
	}
}

func TestStreamUsageAndKeepAlive(t *testing.T) {
	many := strings.Repeat(": keep-alive\n\n", 1000)
	body := recorded(t, "usage_keepalive.txt")
	body.Body = many + body.Body
	s := llmtest.New(t, body)
	m, _, err := ask(t, client(t, s.URL()))
	if err != nil || m.Content != "Hi" {
		t.Fatalf("got %+v, %v", m, err)
	}
}

func TestToolCallsGoBackWithoutIndex(t *testing.T) {
	s := llmtest.New(t, recorded(t, "text.txt"))
	_, err := client(t, s.URL()).Stream(context.Background(), llm.Request{Messages: []llm.Message{
		{Role: llm.RoleUser, Content: "hi"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "search", Arguments: `{}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Content: "status: success"},
	}, Tools: []llm.ToolDef{{Name: "search", Description: "find", Parameters: []byte(`{"type":"object"}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	msgs := s.Requests()[0].Body["messages"].([]any)
	call := msgs[1].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)
	if _, ok := call["index"]; ok {
		t.Errorf("a tool call was sent back with its index: %v", call)
	}
	if msgs[2].(map[string]any)["tool_call_id"] != "c1" {
		t.Errorf("tool message: %v", msgs[2])
	}
}

func TestStreamErrors(t *testing.T) {
	tests := []struct {
		name    string
		replies []llmtest.Reply
		want    error
		words   string
		tries   int
	}{
		{"cut mid tool call", []llmtest.Reply{{Body: mustRead(t, "cut_tool.txt")}}, llm.ErrIncomplete, "cut off", 1},
		{"401", []llmtest.Reply{llmtest.Error(401, "Incorrect API key provided: "+secretKey)}, llm.ErrUnauthorized, "OPENAI_API_KEY", 1},
		{"404 model", []llmtest.Reply{llmtest.Error(404, "model 'nope' not found for key "+secretKey)}, llm.ErrUnknownModel, "MEMOTREE_MODEL", 1},
		{"context too long", []llmtest.Reply{llmtest.Error(400, "This model's maximum context length is 8192 tokens")}, llm.ErrContextLength, "/clear", 1},
		{"500 three times", []llmtest.Reply{llmtest.Error(500, "boom "+secretKey)}, llm.ErrServer, "after 3 tries", 3},
		{"429 always", []llmtest.Reply{llmtest.Error(429, "slow down")}, llm.ErrRateLimited, "429", 3},
		{"malformed SSE", []llmtest.Reply{{Body: "data: {not json\n\n"}}, llm.ErrMalformed, "OpenAI-compatible", 1},
		{"timeout", []llmtest.Reply{{Delay: 5 * time.Second}}, llm.ErrTimeout, "timeout", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t, tt.replies...)
			c := client(t, s.URL())
			if tt.name == "timeout" {
				c, _ = llm.New(llm.Config{BaseURL: s.URL(), APIKey: secretKey, Model: "m", Timeout: 100 * time.Millisecond, Backoff: time.Millisecond})
			}
			_, _, err := ask(t, c)
			if err == nil || tt.want != nil && !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.words) {
				t.Errorf("err = %v, want %v mentioning %q", err, tt.want, tt.words)
			}
			if got := len(s.Requests()); got != tt.tries {
				t.Errorf("%d requests, want %d", got, tt.tries)
			}
		})
	}
}

func Test429ThenSuccess(t *testing.T) {
	s := llmtest.New(t, llmtest.Error(429, "slow down"), llmtest.Error(503, "busy"), recorded(t, "text.txt"))
	m, _, err := ask(t, client(t, s.URL()))
	if err != nil || m.Content != "Hello, world" || len(s.Requests()) != 3 {
		t.Fatalf("got %+v, %v after %d requests", m, err, len(s.Requests()))
	}
}

func TestConnectionErrorThenSuccess(t *testing.T) {
	s := llmtest.New(t, llmtest.Reply{Hangup: true}, recorded(t, "text.txt"))
	m, _, err := ask(t, client(t, s.URL()))
	if err != nil || m.Content != "Hello, world" || len(s.Requests()) != 2 {
		t.Fatalf("got %+v, %v after %d requests", m, err, len(s.Requests()))
	}
}

func TestEndpointDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	_, _, err = ask(t, client(t, url))
	if !errors.Is(err, llm.ErrUnreachable) || !strings.Contains(err.Error(), "OPENAI_BASE_URL") {
		t.Errorf("err = %v", err)
	}
}

func TestStopCancels(t *testing.T) {
	s := llmtest.New(t, llmtest.Reply{Delay: 5 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := client(t, s.URL()).Stream(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestNewNeedsModel(t *testing.T) {
	if _, err := llm.New(llm.Config{APIKey: secretKey}); err == nil || strings.Contains(err.Error(), secretKey) {
		t.Errorf("err = %v", err)
	}
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	return recorded(t, name).Body
}

func TestNoStreamToolLoop(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Body: `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,` +
		`"tool_calls":[{"id":"call_9","type":"function","function":{"name":"read_manual","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`},
		llmtest.Reply{Body: `{"id":"y","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Whole answer."},"finish_reason":"stop"}]}`})
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), Model: "m", NoStream: true, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if err != nil || len(m.ToolCalls) != 1 || m.ToolCalls[0].ID != "call_9" || m.ToolCalls[0].Name != "read_manual" {
		t.Fatalf("tool reply: %+v, %v", m, err)
	}
	var deltas []string
	m, err = c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, OnDelta: func(s string) { deltas = append(deltas, s) }})
	if err != nil || m.Content != "Whole answer." || strings.Join(deltas, "|") != "Whole answer." {
		t.Fatalf("text reply: %+v, %v, deltas %q", m, err, deltas)
	}
	for _, r := range srv.Requests() {
		if r.Body["stream"] == true {
			t.Error("a request asked for a stream")
		}
	}
}

// Some servers report an error inside a 200 stream; its code says what it is.
func TestErrorInsideStream(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Body: `data: {"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}` + "\n\n"})
	_, _, err := ask(t, client(t, srv.URL()))
	if !errors.Is(err, llm.ErrUnauthorized) || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("err = %v", err)
	}
}
