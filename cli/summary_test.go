package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/internal/wait"
)

// The auto summary in every face: a library whose canvas settings turn auto_summary
// on, a model named in the environment (a local OpenAI-compatible server), and a note
// created without a summary gets the one the model wrote. Each face opens its
// workspace through workspace.OpenFace; these tests fail for a face that does not.

// summaryText is what the fake model answers the summary request with.
const summaryText = "A mathematician who wrote on the physical sciences."

// autoSummaryVault is a copy of the demo vault with auto_summary on.
func autoSummaryVault(t *testing.T) string {
	t.Helper()
	dir := demoCopy(t)
	if err := os.MkdirAll(filepath.Join(dir, ".memotree"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".memotree", "canvas.json"), []byte(`{"auto_summary": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// waitSummary waits until the note at rel has the model's summary, and fails the test
// if it does not within a generous bound.
func waitSummary(t *testing.T, dir, rel string) {
	t.Helper()
	wait.Until(t, rel+" to have the model's summary", func() error {
		b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if strings.Contains(string(b), "summary: "+summaryText+"\n") {
			return nil
		}
		return fmt.Errorf("%s reads:\n%s", rel, b)
	})
}

func TestAutoSummaryCall(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text(summaryText))
	chatEnv(t, srv.URL())
	dir := autoSummaryVault(t)
	code, stdout, stderr := runCLI(t, "call", "--library", "demo="+dir, "create_entity", `{"entity_name":"people/Mary Somerville","content":"Wrote On the Connexion of the Physical Sciences."}`)
	if code != 0 || !strings.Contains(stdout, "summary: "+summaryText) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	waitSummary(t, dir, "people/Mary Somerville.md")
}

func TestAutoSummaryChat(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "create_entity", `{"entity_name":"people/Mary Somerville","content":"Wrote On the Connexion of the Physical Sciences."}`),
		llmtest.Text(summaryText),
		llmtest.Text("Added Mary Somerville."))
	chatEnv(t, srv.URL())
	dir := autoSummaryVault(t)
	code, stdout, stderr := runCLI(t, "chat", "--library", "demo="+dir, "-p", "Add Mary Somerville")
	if code != 0 || stdout != "Added Mary Somerville.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	waitSummary(t, dir, "people/Mary Somerville.md")
}

// startServer runs a serving subcommand in this process until the test ends and
// returns the first line it prints (its URL).
func startServer(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := Main(ctx, Env{Stdout: pw, Stderr: io.Discard}, args)
		pw.Close()
		done <- code
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("%s printed no URL: %v", args[0], err)
	}
	go io.Copy(io.Discard, pr) // never block the server on its output
	return strings.TrimSpace(line)
}

func TestAutoSummaryMCP(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text(summaryText))
	chatEnv(t, srv.URL())
	t.Setenv(tokenEnv, "auto-summary-token")
	dir := autoSummaryVault(t)
	url := startServer(t, "mcp", "--library", "demo="+dir, "--permission", "demo=write", "--http", "127.0.0.1:0")
	client := &http.Client{Transport: bearer{token: "auto-summary-token", next: http.DefaultTransport}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "auto-summary-test", Version: "1"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "create_entity",
		Arguments: map[string]any{"entity_name": "people/Mary Somerville", "content": "Wrote On the Connexion of the Physical Sciences."}})
	if err != nil || res.IsError {
		t.Fatalf("create_entity over MCP: %+v, %v", res, err)
	}
	waitSummary(t, dir, "people/Mary Somerville.md")
}

// bearer adds the MCP server's token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func TestAutoSummaryServe(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "create_entity", `{"entity_name":"people/Mary Somerville","content":"Wrote On the Connexion of the Physical Sciences."}`),
		llmtest.Text(summaryText),
		llmtest.Text("Added Mary Somerville."))
	chatEnv(t, srv.URL())
	dir := autoSummaryVault(t)
	url := startServer(t, "serve", "--library", "demo="+dir)
	base, token, ok := strings.Cut(url, "/?token=")
	if !ok {
		t.Fatalf("serve printed %q, want a URL with its token", url)
	}
	// The window's chat, as the page sends it: the turn runs in the background.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, base+"/api/call/ChatSend",
		strings.NewReader(`[{"prompt":"Add Mary Somerville","library":"demo"}]`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("ChatSend: %s %s", resp.Status, body)
	}
	waitSummary(t, dir, "people/Mary Somerville.md")
}
