package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace/face"
)

// chatSession is one terminal conversation.
type chatSession struct {
	env   Env
	agent *agent.Agent
	// sessions keeps the conversations in the default library; sess is this one.
	sessions *agent.Sessions
	sess     *agent.Session
	memory   func(ctx context.Context) (string, error)
	// in reads the REPL's lines; approvals read their answer from it too.
	in *bufio.Scanner
	// yes approves every destructive call without asking (--yes).
	yes bool
}

func runChat(ctx context.Context, env Env, args []string) int {
	fs := flag.NewFlagSet("chat", flag.ContinueOnError)
	var ff face.Flags
	ff.Register(fs, "")
	prompt := fs.String("p", "", "answer this `PROMPT` and exit (the answer on stdout, tool activity on stderr)")
	model := fs.String("model", "", "the model `NAME` (default $MEMOTREE_MODEL, then the saved settings)")
	resume := fs.String("resume", "", "continue the saved session `ID` (see /sessions in the REPL)")
	noStream := fs.Bool("no-stream", false, "ask for whole replies, for servers that cannot stream tool calls")
	yes := fs.Bool("yes", false, "approve every destructive call (delete, merge, discard) without asking")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, "usage: memotree chat --library NAME=PATH [--permission NAME=LEVEL] [-p PROMPT [--yes]] [--model M]\n\n"+
			"The endpoint comes from OPENAI_BASE_URL (e.g. http://127.0.0.1:11434/v1 for Ollama)\nand the key from OPENAI_API_KEY.\n\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, env, args); !ok {
		return code
	}
	if !requireLibraries(env, "chat", ff.Libraries) || !checkFaceFlags(env, "chat", ff) {
		return 2
	}
	settings, err := endpointSettings(ctx, env, *model)
	if err != nil {
		fmt.Fprintf(env.Stderr, "memotree chat: %v\n", err)
		return 2
	}
	// The workspace's models follow the same settings as the agent's: the endpoint
	// and model resolved (or found) here are its flags.
	s := &chatSession{env: env, yes: *yes}
	c, err := face.OpenChat(ctx, ff, face.ChatOptions{Settings: settings, NoStream: *noStream, Ask: s.approve})
	if err != nil {
		return fail(env, "chat", err)
	}
	defer c.Close()
	s.attach(c)
	if *resume != "" {
		if err := s.resumeSession(*resume); err != nil {
			return fail(env, "chat", err)
		}
	}
	if *prompt != "" {
		return s.once(ctx, *prompt)
	}
	return s.repl(ctx)
}

// endpointSettings resolves the --model flag over the environment over the saved
// settings (llm.Resolver, as the window does). With no endpoint and no model anywhere
// it looks for a local Ollama or LM Studio and uses the first that answers.
func endpointSettings(ctx context.Context, env Env, model string) (llm.Settings, error) {
	r := llm.Resolver{Flags: llm.Settings{Model: model}}
	path := r.SettingsFile()
	s, err := r.Resolve()
	if err != nil {
		return llm.Settings{}, err
	}
	if s.Empty() {
		if found := llm.Detect(ctx, llm.KnownLocals, time.Second); len(found) > 0 {
			s.BaseURL = found[0].BaseURL
			if len(found[0].Models) > 0 {
				s.Model = found[0].Models[0]
			}
			fmt.Fprintf(env.Stderr, "memotree chat: using %s at %s, model %q (set MEMOTREE_MODEL or --model to choose another)\n", found[0].Name, s.BaseURL, s.Model)
		}
	}
	if strings.TrimSpace(s.Model) == "" {
		return s, fmt.Errorf("no model: set MEMOTREE_MODEL or pass --model (and OPENAI_BASE_URL for a server other than OpenAI), or save them in the chat panel's settings (%s); no local Ollama (:11434) or LM Studio (:1234) answered", path)
	}
	return s, nil
}

// attach takes the agent and the conversations of the chat face (face.OpenChat: the
// workspace's agent, asking through s.approve), starts a new conversation and shows
// each tool call on stderr.
func (s *chatSession) attach(c *face.Chat) {
	s.agent, s.sessions, s.memory, s.sess = c.Agent, c.Sessions, c.Agent.Memory, agent.NewSession(time.Now())
	env := s.env
	s.agent.OnTool = func(name, args string, res tool.Result) {
		shown, _ := tool.Clip(args, 120)
		fmt.Fprintf(env.Stderr, "· %s %s → %s: %s\n", name, shown, res.Status, firstLine(res.Message))
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

// turn runs one turn, streaming the answer to stdout. A reasoning model's thinking
// is shown folded on stderr: a line when it starts and one with its length when the
// answer comes (/think unfolds it). Ctrl-C stops the turn (and leaves a consistent
// history), not the program.
func (s *chatSession) turn(ctx context.Context, prompt string) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	streamed := false
	var thought strings.Builder
	folded := false
	fold := func() {
		if thought.Len() > 0 && !folded {
			folded = true
			fmt.Fprintf(s.env.Stderr, "· thought for %d words (/think shows it)\n", len(strings.Fields(thought.String())))
		}
	}
	s.agent.OnReasoning = func(t string) {
		if thought.Len() == 0 || folded {
			fmt.Fprintln(s.env.Stderr, "· thinking…")
			thought.Reset()
			folded = false
		}
		thought.WriteString(t)
	}
	s.agent.OnDelta = func(t string) {
		fold()
		streamed = true
		io.WriteString(s.env.Stdout, t)
	}
	answer, err := s.agent.TurnIn(ctx, s.sessions, s.sess, prompt)
	fold()
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
	s.in = in
	fmt.Fprintln(s.env.Stderr, "memotree chat: /exit to leave, /clear, /history, /think [N], /sessions, /resume ID, /memory, /system [TEXT]")
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
		system := s.sess.System
		s.sess = agent.NewSession(time.Now())
		s.sess.System = system
		fmt.Fprintln(s.env.Stderr, "(conversation cleared; the old one stays in /sessions; the system prompt stays)")
	case "/history":
		s.history()
	case "/think":
		s.think(strings.TrimSpace(line[len("/think"):]))
	case "/sessions":
		list, err := s.sessions.List()
		if err != nil {
			fmt.Fprintf(s.env.Stderr, "error: %v\n", err)
		}
		for _, i := range list {
			fmt.Fprintf(w, "%s  %s  %3d messages  %s\n", i.ID, i.Updated.Local().Format("2006-01-02 15:04"), i.Messages, i.Title)
		}
	case "/resume":
		f := strings.Fields(line)
		if len(f) != 2 {
			fmt.Fprintln(s.env.Stderr, "usage: /resume ID (see /sessions)")
			break
		}
		if err := s.resumeSession(f[1]); err != nil {
			fmt.Fprintf(s.env.Stderr, "error: %v\n", err)
		}
	case "/memory":
		mem, err := s.memory(ctx)
		if err != nil {
			fmt.Fprintf(s.env.Stderr, "error: %v\n", err)
		}
		fmt.Fprintln(w, mem)
	case "/system":
		s.system(strings.TrimSpace(line[len("/system"):]))
	default:
		fmt.Fprintf(s.env.Stderr, "unknown command %s: /exit, /quit, /clear, /history, /think [N], /sessions, /resume ID, /memory, /system [TEXT]\n", line)
	}
	return false
}

// resumeSession continues the saved session id.
func (s *chatSession) resumeSession(id string) error {
	sess, err := s.sessions.Load(id)
	if err != nil {
		return err
	}
	s.sess = sess
	fmt.Fprintf(s.env.Stderr, "(resumed %s: %d messages, %q)\n", sess.ID, len(sess.Messages), sess.Title)
	return nil
}

// approve asks the person at the terminal about a call the library's permission holds
// for them (approval.Asker): in the REPL, on its input; with -p there is no one to
// ask, so only --yes approves.
func (s *chatSession) approve(ctx context.Context, r approval.Request) (bool, error) {
	t := terminal{out: s.env.Stderr, yes: s.yes, advice: "pass --yes to allow it (memotree chat --yes)"}
	if s.in != nil {
		t.line = func() (string, bool) {
			if !s.in.Scan() {
				return "", false
			}
			return s.in.Text(), true
		}
	}
	return t.ask(ctx, r)
}

// describeMessage renders history message i on one line.
func describeMessage(i int, m llm.Message) string {
	var calls []string
	for _, c := range m.ToolCalls {
		calls = append(calls, c.Name+" "+c.Arguments)
	}
	text, _ := tool.Clip(firstLine(m.Content), 200)
	if len(calls) > 0 {
		text += " [calls: " + strings.Join(calls, "; ") + "]"
	}
	if m.Reasoning != "" {
		text += fmt.Sprintf(" (thought for %d words: /think %d)", len(strings.Fields(m.Reasoning)), i)
	}
	return fmt.Sprintf("[%d] %s: %s", i, m.Role, text)
}

// firstLine returns s up to its first line break.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// history prints the conversation numbered as seed 004 shows it: [0] the system prompt,
// then every message from [1].
func (s *chatSession) history() {
	w := s.env.Stdout
	if s.sess.System == "" {
		fmt.Fprintln(w, "[0] system: (none: /system TEXT sets one)")
	} else {
		shown, _ := tool.Clip(firstLine(s.sess.System), 200)
		fmt.Fprintf(w, "[0] system: %s\n", shown)
	}
	for i, m := range s.sess.History() {
		fmt.Fprintln(w, describeMessage(i+1, m))
	}
}

// think prints the reasoning of message number arg (as /history numbers them), or of
// the latest message that has one.
func (s *chatSession) think(arg string) {
	msgs := s.sess.History()
	at := -1
	if arg == "" {
		for i := len(msgs) - 1; i >= 0 && at < 0; i-- {
			if msgs[i].Reasoning != "" {
				at = i
			}
		}
		if at < 0 {
			fmt.Fprintln(s.env.Stderr, "(no reasoning in this conversation: the model did not think aloud)")
			return
		}
	} else {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > len(msgs) {
			fmt.Fprintf(s.env.Stderr, "usage: /think [N], N a message number of /history (1 to %d)\n", len(msgs))
			return
		}
		at = n - 1
		if msgs[at].Reasoning == "" {
			fmt.Fprintf(s.env.Stderr, "(message %d has no reasoning)\n", n)
			return
		}
	}
	fmt.Fprintln(s.env.Stdout, msgs[at].Reasoning)
}

// system shows, sets or clears the conversation's system prompt (seed 004's /system):
// it is kept with the session and sent after MemoTree's own instruction.
func (s *chatSession) system(arg string) {
	switch arg {
	case "":
		if s.sess.System == "" {
			fmt.Fprintln(s.env.Stderr, "(no system prompt: /system TEXT sets one for this conversation; /system --builtin shows MemoTree's own instruction, which comes first)")
			return
		}
		fmt.Fprintln(s.env.Stdout, s.sess.System)
		return
	case "--builtin":
		fmt.Fprintln(s.env.Stdout, agent.SystemInstruction)
		return
	case "--clear":
		s.sess.System = ""
		s.saveSession("(system prompt cleared)")
		return
	case `""`, `''`:
		arg = ""
	}
	if err := s.sess.SetSystem(arg); err != nil {
		fmt.Fprintf(s.env.Stderr, "error: %v; the system prompt is unchanged (/system --clear removes it)\n", err)
		return
	}
	s.saveSession(fmt.Sprintf("(system prompt set for this conversation, %d characters; it applies from your next message)", utf8.RuneCountInString(s.sess.System)))
}

// saveSession saves the session and says note, or what went wrong.
func (s *chatSession) saveSession(note string) {
	if err := s.sessions.Save(s.sess); err != nil {
		fmt.Fprintf(s.env.Stderr, "error: %v\n", err)
		return
	}
	fmt.Fprintln(s.env.Stderr, note)
}
