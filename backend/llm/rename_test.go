package llm

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

func TestRenameReasoning(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"delta":{"reasoning":"x"}}`, `{"delta":{"reasoning_content":"x"}}`},
		{`{"delta":{"reasoning" : "x"}}`, `{"delta":{"reasoning_content" : "x"}}`},
		{`{"delta":{"content":"the \"reasoning\": part"}}`, `{"delta":{"content":"the \"reasoning\": part"}}`},
		{`{"delta":{"content":"\\","reasoning":"y"}}`, `{"delta":{"content":"\\","reasoning_content":"y"}}`},
		{`{"delta":{"content":"reasoning"}}`, `{"delta":{"content":"reasoning"}}`},
		{`{"delta":{"reasoning_content":"a","reasoning":"a"}}`, `{"delta":{"reasoning_content":"a","reasoning":"a"}}`},
		{`{"usage":{"reasoning_tokens":3},"x":["reasoning"]}`, `{"usage":{"reasoning_tokens":3},"x":["reasoning"]}`},
	}
	for _, tt := range tests {
		if got := string(renameReasoning([]byte(tt.in))); got != tt.want {
			t.Errorf("renameReasoning(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	body := "data: {\"reasoning\":\"a\"}\n\ndata: [DONE]\n\n"
	b, err := io.ReadAll(newRenamingBody(io.NopCloser(strings.NewReader(body))))
	if err != nil || string(b) != "data: {\"reasoning_content\":\"a\"}\n\ndata: [DONE]\n\n" {
		t.Errorf("body: %q %v", b, err)
	}
}

// FuzzRenameReasoning checks that renaming never breaks a line of JSON: valid JSON
// stays valid, and a line without the key stays as it was.
func FuzzRenameReasoning(f *testing.F) {
	f.Add(`{"reasoning":"a"}`)
	f.Add(`{"a":"\"reasoning\":","reasoning" :1}`)
	f.Add(`["reasoning",{"reasoning":{"reasoning":null}}]`)
	f.Fuzz(func(t *testing.T, s string) {
		out := renameReasoning([]byte(s))
		if json.Valid([]byte(s)) && !json.Valid(out) {
			t.Fatalf("%q became invalid: %q", s, out)
		}
		if !strings.Contains(s, `"reasoning"`) && string(out) != s {
			t.Fatalf("%q changed to %q", s, out)
		}
	})
}
