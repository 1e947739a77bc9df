package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/demo"
)

// demoCopy copies the demo vault into a temporary folder and returns its path.
func demoCopy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// chatEnv points the chat command at srv.
func chatEnv(t *testing.T, url string) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("OPENAI_BASE_URL", url)
	t.Setenv("OPENAI_API_KEY", "sk-cli-secret-key")
	t.Setenv("MEMOTREE_MODEL", "test-model")
}

func TestChatPromptEndToEnd(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "create_entity", `{"entity_name":"people/Mary Somerville","entity_type":"person"}`),
		llmtest.ToolCall("call_2", "create_relations", `{"relations":[{"from":"people/Mary Somerville","to":"Ada Lovelace","type":"mentor of"}]}`),
		llmtest.Text("Added Mary Somerville."))
	chatEnv(t, srv.URL())
	dir := demoCopy(t)
	code, stdout, stderr := runCLI(t, "chat", "--library", "demo="+dir, "-p", "Add Mary Somerville")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != "Added Mary Somerville.\n" {
		t.Errorf("stdout = %q", stdout)
	}
	if strings.Count(stderr, "· ") != 2 || !strings.Contains(stderr, "create_entity") || !strings.Contains(stderr, "create_relations") {
		t.Errorf("stderr = %q, want one line per call", stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "people", "Mary Somerville.md"))
	if err != nil || !strings.Contains(string(b), "mentor of") {
		t.Errorf("note = %q, %v", b, err)
	}
}

func TestChatErrors(t *testing.T) {
	srv := llmtest.New(t, llmtest.Error(401, "Incorrect API key provided: sk-cli-secret-key"))
	chatEnv(t, srv.URL())
	dir := demoCopy(t)
	code, _, stderr := runCLI(t, "chat", "--library", "demo="+dir, "-p", "hi")
	if code != 1 || !strings.Contains(stderr, "OPENAI_API_KEY") || strings.Contains(stderr, "sk-cli-secret-key") {
		t.Errorf("401: exit %d, stderr %q", code, stderr)
	}
	for _, args := range [][]string{{"chat"}, {"chat", "--library", "demo=" + dir, "stray"}} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	t.Setenv("MEMOTREE_MODEL", "")
	if code, _, stderr := runCLI(t, "chat", "--library", "demo="+dir, "-p", "hi"); code != 2 || !strings.Contains(stderr, "MEMOTREE_MODEL") {
		t.Errorf("no model: exit %d, stderr %q", code, stderr)
	}
}

func TestChatREPL(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("Hello there."))
	chatEnv(t, srv.URL())
	dir := demoCopy(t)
	var out, errOut bytes.Buffer
	in := strings.NewReader("hi\n/history\n/memory\n/system\n/bogus\n/clear\n/history\n/exit\nnever sent\n")
	code := Main(t.Context(), Env{Stdin: in, Stdout: &out, Stderr: &errOut}, []string{"chat", "--library", "demo=" + dir})
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	got := out.String()
	for _, want := range []string{"Hello there.\n", "[1] user: hi", "[2] assistant: Hello there.", "entity type: memory"} {
		if !strings.Contains(got, want) {
			t.Errorf("stdout lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "user:") != 1 || strings.Count(got, "[0] system: (none") != 2 {
		t.Errorf("/clear did not clear the history:\n%s", got)
	}
	if !strings.Contains(errOut.String(), "unknown command /bogus") || len(srv.Requests()) != 1 {
		t.Errorf("stderr %q, %d requests", errOut.String(), len(srv.Requests()))
	}
}

func TestChatApprovals(t *testing.T) {
	del := llmtest.ToolCall("call_1", "delete_entities", `{"entity_names":["Welcome"]}`)
	gone := func(dir string) bool {
		_, err := os.Stat(filepath.Join(dir, "Welcome.md"))
		return os.IsNotExist(err)
	}
	t.Run("-p refuses", func(t *testing.T) {
		srv := llmtest.New(t, del, llmtest.Text("Could not."))
		chatEnv(t, srv.URL())
		dir := demoCopy(t)
		code, _, stderr := runCLI(t, "chat", "--library", "demo="+dir, "-p", "delete Welcome")
		if code != 0 || gone(dir) || !strings.Contains(stderr, "pass --yes") {
			t.Errorf("exit %d, deleted %v, stderr %q", code, gone(dir), stderr)
		}
	})
	t.Run("-p --yes", func(t *testing.T) {
		srv := llmtest.New(t, del, llmtest.Text("Deleted."))
		chatEnv(t, srv.URL())
		dir := demoCopy(t)
		code, _, stderr := runCLI(t, "chat", "--library", "demo="+dir, "-p", "delete Welcome", "--yes")
		if code != 0 || !gone(dir) {
			t.Errorf("exit %d, deleted %v, stderr %q", code, gone(dir), stderr)
		}
	})
	t.Run("permission write asks nothing", func(t *testing.T) {
		srv := llmtest.New(t, del, llmtest.Text("Deleted."))
		chatEnv(t, srv.URL())
		dir := demoCopy(t)
		code, _, stderr := runCLI(t, "chat", "--library", "demo="+dir, "--permission", "demo=write", "-p", "delete Welcome")
		if code != 0 || !gone(dir) {
			t.Errorf("exit %d, deleted %v, stderr %q", code, gone(dir), stderr)
		}
	})
	for _, answer := range []string{"y", "n"} {
		t.Run("repl "+answer, func(t *testing.T) {
			srv := llmtest.New(t, del, llmtest.Text("Ok."))
			chatEnv(t, srv.URL())
			dir := demoCopy(t)
			var out, errOut bytes.Buffer
			in := strings.NewReader("delete Welcome\n" + answer + "\n/exit\n")
			code := Main(t.Context(), Env{Stdin: in, Stdout: &out, Stderr: &errOut}, []string{"chat", "--library", "demo=" + dir})
			if code != 0 || gone(dir) != (answer == "y") || !strings.Contains(errOut.String(), "Allow it? [y/N]") {
				t.Errorf("exit %d, deleted %v, stderr %q", code, gone(dir), errOut.String())
			}
		})
	}
}

func TestChatSessionsResume(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("One."), llmtest.Text("Two."))
	chatEnv(t, srv.URL())
	dir := demoCopy(t)
	if code, _, stderr := runCLI(t, "chat", "--library", "demo="+dir, "-p", "first question"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out, errOut bytes.Buffer
	code := Main(t.Context(), Env{Stdin: strings.NewReader("/sessions\n/exit\n"), Stdout: &out, Stderr: &errOut}, []string{"chat", "--library", "demo=" + dir})
	if code != 0 || !strings.Contains(out.String(), "first question") {
		t.Fatalf("exit %d, /sessions printed %q", code, out.String())
	}
	id := strings.Fields(out.String())[0]
	code, stdout, stderr := runCLI(t, "chat", "--library", "demo="+dir, "--resume", id, "-p", "second question")
	if code != 0 || stdout != "Two.\n" || !strings.Contains(stderr, "resumed "+id) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	reqs := srv.Requests()
	msgs := reqs[len(reqs)-1].Body["messages"].([]any)
	if len(msgs) != 4 || !strings.Contains(msgs[1].(map[string]any)["content"].(string), "first question") {
		t.Errorf("the resumed call did not carry the first exchange: %v", msgs)
	}
	if code, _, stderr := runCLI(t, "chat", "--library", "demo="+dir, "--resume", "s-nope", "-p", "x"); code != 1 || !strings.Contains(stderr, "no such chat session") {
		t.Errorf("unknown session: exit %d, %q", code, stderr)
	}
}

func TestChatSavedSettings(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("From the file."))
	chatEnv(t, "")
	t.Setenv("MEMOTREE_MODEL", "")
	t.Setenv("OPENAI_API_KEY", "")
	path, err := llm.SettingsPath()
	if err != nil {
		t.Fatal(err)
	}
	if err := llm.SaveSettings(path, llm.Settings{BaseURL: srv.URL(), Model: "saved-model", APIKey: "sk-saved-secret"}); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "chat", "--library", "demo="+demoCopy(t), "-p", "hi")
	if code != 0 || stdout != "From the file.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	r := srv.Requests()[0]
	if r.Body["model"] != "saved-model" || r.Authorization != "Bearer sk-saved-secret" {
		t.Errorf("request used model %v, auth %q", r.Body["model"], r.Authorization)
	}
}
