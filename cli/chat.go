package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/workspace"
)

// chatSession is one terminal conversation.
type chatSession struct {
	env     Env
	agent   *agent.Agent
	history []llm.Message
	memory  func(ctx context.Context) (string, error)
}

func runChat(ctx context.Context, env Env, args []string) int {
	fs := flag.NewFlagSet("chat", flag.ContinueOnError)
	specs := libraryFlags(fs)
	prompt := fs.String("p", "", "answer this `PROMPT` and exit (the answer on stdout, tool activity on stderr)")
	model := fs.String("model", os.Getenv("MEMOTREE_MODEL"), "the model `NAME` (default $MEMOTREE_MODEL)")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, "usage: memotree chat --library NAME=PATH [-p PROMPT] [--model M]\n\n"+
			"The endpoint comes from OPENAI_BASE_URL (e.g. http://127.0.0.1:11434/v1 for Ollama)\nand the key from OPENAI_API_KEY.\n\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, env, args); !ok {
		return code
	}
	if !requireLibraries(env, "chat", *specs) {
		return 2
	}
	if strings.TrimSpace(*model) == "" {
		fmt.Fprintln(env.Stderr, "memotree chat: no model: set MEMOTREE_MODEL or pass --model")
		return 2
	}
	client, err := llm.New(llm.Config{BaseURL: os.Getenv("OPENAI_BASE_URL"), APIKey: os.Getenv("OPENAI_API_KEY"), Model: *model})
	if err != nil {
		return fail(env, "chat", err)
	}
	ws, err := workspace.Open(ctx, *specs, workspace.Options{Lazy: true, Embedder: embedderFromEnv()})
	if err != nil {
		return fail(env, "chat", err)
	}
	defer ws.Close()
	s, err := newChatSession(env, ws, client)
	if err != nil {
		return fail(env, "chat", err)
	}
	if *prompt != "" {
		return s.once(ctx, *prompt)
	}
	return s.repl(ctx)
}

// newChatSession wires an agent to the workspace's registry and the model.
func newChatSession(env Env, ws *workspace.Workspace, model agent.Model) (*chatSession, error) {
	reg, err := ws.Registry()
	if err != nil {
		return nil, err
	}
	s := &chatSession{env: env, memory: memoryReader(ws)}
	s.agent = &agent.Agent{Registry: reg, Model: model, Memory: s.memory,
		Session: fmt.Sprintf("cli-%d", time.Now().UnixNano()),
		OnTool: func(name, args string, res tool.Result) {
			shown, _ := tool.Clip(args, 120)
			fmt.Fprintf(env.Stderr, "· %s %s → %s: %s\n", name, shown, res.Status, firstLine(res.Message))
		}}
	return s, nil
}

// memoryReader reads memory.md of the default library; a missing notebook is empty.
func memoryReader(ws *workspace.Workspace) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		l, err := ws.Library("")
		if err != nil {
			return "", err
		}
		b, _, err := l.Vault().Read("memory.md")
		if errors.Is(err, vault.ErrNotFound) {
			return "", nil
		}
		return string(b), err
	}
}

// once answers one prompt: streamed text goes to stdout as it arrives.
func (s *chatSession) once(ctx context.Context, prompt string) int {
	if err := s.turn(ctx, prompt); err != nil {
		fmt.Fprintf(s.env.Stderr, "memotree chat: %v\n", err)
		return 1
	}
	return 0
}

// turn runs one turn, streaming the answer to stdout. Ctrl-C stops the turn (and
// leaves a consistent history), not the program.
func (s *chatSession) turn(ctx context.Context, prompt string) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	streamed := false
	s.agent.OnDelta = func(t string) {
		streamed = true
		io.WriteString(s.env.Stdout, t)
	}
	hist, answer, err := s.agent.Turn(ctx, s.history, prompt)
	s.history = hist
	if !streamed && answer != "" {
		io.WriteString(s.env.Stdout, answer)
	}
	if streamed || answer != "" {
		io.WriteString(s.env.Stdout, "\n")
	}
	return err
}

// repl reads prompts and commands from stdin until /exit or end of input.
func (s *chatSession) repl(ctx context.Context) int {
	if s.env.Stdin == nil {
		fmt.Fprintln(s.env.Stderr, "memotree chat: no standard input; pass -p PROMPT")
		return 2
	}
	in := bufio.NewScanner(s.env.Stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	fmt.Fprintln(s.env.Stderr, "memotree chat: /exit to leave, /clear, /history, /memory, /system")
	for {
		fmt.Fprint(s.env.Stderr, "> ")
		if !in.Scan() {
			return 0
		}
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "/") {
			if done := s.command(ctx, line); done {
				return 0
			}
			continue
		}
		if err := s.turn(ctx, line); err != nil {
			fmt.Fprintf(s.env.Stderr, "error: %v\n", err)
		}
	}
}

// command runs a slash command; done is true for /exit.
func (s *chatSession) command(ctx context.Context, line string) (done bool) {
	w := s.env.Stdout
	switch strings.Fields(line)[0] {
	case "/exit", "/quit":
		return true
	case "/clear":
		s.history = nil
		fmt.Fprintln(s.env.Stderr, "(conversation cleared)")
	case "/history":
		for _, m := range s.history {
			fmt.Fprintln(w, describeMessage(m))
		}
	case "/memory":
		mem, err := s.memory(ctx)
		if err != nil {
			fmt.Fprintf(s.env.Stderr, "error: %v\n", err)
		}
		fmt.Fprintln(w, mem)
	case "/system":
		fmt.Fprintln(w, agent.SystemInstruction)
	default:
		fmt.Fprintf(s.env.Stderr, "unknown command %s: /exit, /quit, /clear, /history, /memory, /system\n", line)
	}
	return false
}

// describeMessage renders one history message on one line.
func describeMessage(m llm.Message) string {
	var calls []string
	for _, c := range m.ToolCalls {
		calls = append(calls, c.Name+" "+c.Arguments)
	}
	text, _ := tool.Clip(firstLine(m.Content), 200)
	if len(calls) > 0 {
		text += " [calls: " + strings.Join(calls, "; ") + "]"
	}
	return fmt.Sprintf("%-9s %s", m.Role+":", text)
}

// firstLine returns s up to its first line break.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
