package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/llm/llmtest"
)

// TestChatSystemAndThinking drives the REPL as seed 004 shows it: /system sets the
// conversation's system prompt (kept with the session, sent to the model, shown by
// /history, which numbers the messages); a reasoning model's thinking is folded on
// stderr, kept out of the answer, and unfolded by /think.
func TestChatSystemAndThinking(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Deltas(llmtest.Contents("<think>Keep it", " very short.</thi", "nk>\n\nREST is an architectural style.")...),
		llmtest.Deltas(llmtest.Contents("<think>This one never ends")...))
	chatEnv(t, srv.URL())
	dir := demoCopy(t)
	var out, errOut bytes.Buffer
	lines := []string{
		"/system",
		"/system 你是一个专业的技术文档写作助手",
		"/system",
		`/system ""`,
		"/system " + strings.Repeat("x", 100<<10),
		"帮我写一段关于 REST API 的介绍",
		"/history",
		"/think",
		"/think 1",
		"/think 9",
		"again",
		"/clear",
		"/history",
		"/exit",
	}
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	if code := Main(t.Context(), Env{Stdin: in, Stdout: &out, Stderr: &errOut}, []string{"chat", "--library", "demo=" + dir}); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	stdout, stderr := out.String(), errOut.String()
	for _, want := range []string{
		"你是一个专业的技术文档写作助手\n", // /system shows it
		"REST is an architectural style.\n",
		"[0] system: 你是一个专业的技术文档写作助手\n[1] user: 帮我写一段关于 REST API 的介绍\n[2] assistant: REST is an architectural style. (thought for 4 words: /think 2)\n",
		"Keep it very short.\n", // /think
		"This one never ends\n", // an unclosed <think> is the answer
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "<think>") || strings.Count(stdout, "Keep it very short.") != 1 {
		t.Errorf("the reasoning leaked into the answer:\n%s", stdout)
	}
	for _, want := range []string{
		"(no system prompt",
		"system prompt set for this conversation, 15 characters",
		"error: the system prompt is empty",
		"error: the system prompt is too long: 102400 bytes",
		"· thinking…\n· thought for 4 words (/think shows it)\n",
		"(message 1 has no reasoning)",
		"usage: /think [N]",
		"the system prompt stays",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	// After /clear, the new conversation keeps the prompt.
	if !strings.Contains(stdout[strings.LastIndex(stdout, "[0] system"):], "[0] system: 你是一个专业的技术文档写作助手\n") {
		t.Errorf("/clear dropped the system prompt:\n%s", stdout)
	}
	// The model got it after MemoTree's own instruction, and never the reasoning.
	reqs := srv.Requests()
	sys := reqs[0].Body["messages"].([]any)[0].(map[string]any)["content"].(string)
	if !strings.Contains(sys, "<system_prompt>\n你是一个专业的技术文档写作助手\n</system_prompt>") {
		t.Errorf("system message:\n%s", sys)
	}
	body, _ := json.Marshal(reqs[1].Body)
	if strings.Contains(string(body), "very short") {
		t.Errorf("the reasoning was sent back: %s", body)
	}
	// The session on disk keeps the prompt and the reasoning apart.
	files, _ := filepath.Glob(filepath.Join(dir, ".memotree", "sessions", "*.json"))
	found := false
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), `"system": "你是一个专业的技术文档写作助手"`) && strings.Contains(string(b), `"reasoning": "Keep it very short."`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no saved session keeps the system prompt and the reasoning (%d files)", len(files))
	}
}
