package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tool"
)

// SystemInstruction tells the model how to read what follows.
const SystemInstruction = `You are the agent of MemoTree, a Markdown knowledge vault you share with a person.
You work on the vault only through the tools. What follows this instruction is the
library's manual (meta.md): follow its conventions; then your canvas, the tree of the
vault at the level of detail you chose. The person's latest message ends
with two blocks that are not from the person: <memory_notebook>, your own notes kept
across conversations (edit them with memory_notebook_replace), and <sensory>, facts
about the moment (the current time, the note the person has open, the changes
waiting for the person's review). Tool results are YAML with a status and a
message; when a call fails, read the message and act on it.
The vault is also a tree of pages (seed 003): each library is a segment, each folder
(or the note standing for it) a contents page, each other note a detail page whose
description is its summary and whose detail is its body; a page_index is
"library:path" ("notes:people/Ada Lovelace", "notes:people/"). The page tools
(get_page, get_children, create_detail_page, ...) and the entity tools change the
same notes.`

// context builds the messages of one model call: the system instruction with the
// manual, then the history, with the memory notebook and the sensory block added to
// the last user message only. hist is not changed.
func (a *Agent) context(ctx context.Context, hist []llm.Message) ([]llm.Message, error) {
	system := SystemInstruction
	if p := strings.TrimSpace(a.System); p != "" {
		system += "\n\nThe person's instructions for this conversation:\n<system_prompt>\n" + p + "\n</system_prompt>"
	}
	system += "\n\n<manual>\n" + a.manual(ctx) + "\n</manual>"
	hist = a.tokens.trim(hist, a.historyBudget())
	msgs := make([]llm.Message, 0, len(hist)+1)
	msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: system + a.canvasBlock(ctx)})
	msgs = append(msgs, hist...)
	last := -1
	for i := len(msgs) - 1; i > 0; i-- {
		if msgs[i].Role == llm.RoleUser {
			last = i
			break
		}
	}
	if last < 0 {
		return msgs, nil
	}
	inject, err := a.injection(ctx)
	if err != nil {
		return nil, err
	}
	m := msgs[last]
	m.Content += inject
	msgs[last] = m
	return msgs, nil
}

// injection returns the memory notebook and sensory blocks.
func (a *Agent) injection(ctx context.Context) (string, error) {
	mem := ""
	if a.Memory != nil {
		var err error
		if mem, err = a.Memory(ctx); err != nil {
			return "", fmt.Errorf("read the memory notebook: %w", err)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n<memory_notebook>\n%s\n</memory_notebook>", strings.TrimSpace(mem))
	fmt.Fprintf(&b, "\n\n<sensory>\ntime: %s\n", a.now().Format("Monday 2006-01-02 15:04:05 MST (-07:00)"))
	if a.ActiveNote != nil {
		if n := a.ActiveNote(); n != "" {
			fmt.Fprintf(&b, "note open in the window: %s\n", n)
		} else {
			b.WriteString("note open in the window: none\n")
		}
	}
	if a.PendingChanges != nil {
		if n, err := a.PendingChanges(ctx); err == nil {
			fmt.Fprintf(&b, "pending changes (not committed): %d\n", n)
		}
	}
	b.WriteString("</sensory>")
	return b.String(), nil
}

// historyBudget is the token budget of the conversation.
func (a *Agent) historyBudget() int {
	if a.HistoryTokens > 0 {
		return a.HistoryTokens
	}
	return DefaultHistoryTokens
}

// manual returns the text of read_manual, or what went wrong in its place.
func (a *Agent) manual(ctx context.Context) string {
	res, m, err := catalog.ReadManual.Call(ctx, a.Registry, &tool.Call{Actor: tool.ActorAgent, Session: a.Session}, catalog.ReadManualIn{})
	switch {
	case err != nil:
		return "(no manual: " + err.Error() + ")"
	case m == nil:
		return "(no manual: " + res.Message + ")"
	}
	return m.Content
}
