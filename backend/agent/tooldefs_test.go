package agent_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// TestToolDefsSayEachThingOnce: what the model is given of every tool of a real
// workspace says each thing once — no "Arguments:" paragraph beside an input schema
// that describes every argument (the paragraph was a sixth of each request) — and
// keeps the rest of the description: what the tool does, its errors, its result and
// its example.
func TestToolDefsSayEachThingOnce(t *testing.T) {
	reg := registry(t)
	defs := agent.ToolDefs(&agent.Agent{Registry: reg})
	if len(defs) < 40 {
		t.Fatalf("%d tools declared", len(defs))
	}
	full := map[string]string{}
	for _, x := range reg.List() {
		full[x.Name()] = x.Description()
	}
	dropped := 0
	for _, d := range defs {
		if strings.Contains(d.Description, "\nArguments:") || strings.HasPrefix(d.Description, "Arguments:") {
			t.Errorf("%s: the model is given its Arguments paragraph beside the schema", d.Name)
		}
		if strings.Contains(full[d.Name], "Arguments:") {
			dropped++
		}
		for _, para := range strings.Split(full[d.Name], "\n\n") {
			if !strings.HasPrefix(para, "Arguments:") && !strings.Contains(d.Description, para) {
				t.Errorf("%s: the model is not given %.60q", d.Name, para)
			}
		}
		var schema any
		if err := json.Unmarshal(d.Parameters, &schema); err != nil {
			t.Fatalf("%s: schema: %v", d.Name, err)
		}
		undescribed(t, d.Name, "", schema)
	}
	if dropped == 0 {
		t.Error("no tool's description has an Arguments paragraph: the test checks nothing")
	}
}

// undescribed reports every property of a schema, nested ones too, without a
// description: the model would then know nothing of it but its name.
func undescribed(t *testing.T, tool, path string, schema any) {
	t.Helper()
	m, ok := schema.(map[string]any)
	if !ok {
		return
	}
	props, _ := m["properties"].(map[string]any)
	for k, v := range props {
		if p, ok := v.(map[string]any); ok {
			if s, _ := p["description"].(string); strings.TrimSpace(s) == "" {
				t.Errorf("%s: argument %s%s has no description in the schema", tool, path, k)
			}
		}
		undescribed(t, tool, path+k+".", v)
	}
	if items, ok := m["items"]; ok {
		undescribed(t, tool, path+"[].", items)
	}
}

// maxToolTokens bounds the tokens of the tools' definitions every model call carries
// (descriptions and input schemas, in canvas.Encoding): docs/chat.md tells the person
// to give a local server a context of 32k tokens on this figure.
const maxToolTokens = 18000

// TestToolDefsFitALocalContext keeps the tools a model is given on every call within
// maxToolTokens, so that a new tool or a longer description cannot silently outgrow the
// context docs/chat.md asks a local server for.
func TestToolDefsFitALocalContext(t *testing.T) {
	total := 0
	for _, d := range agent.ToolDefs(&agent.Agent{Registry: registry(t)}) {
		total += canvas.Tokens(d.Name) + canvas.Tokens(d.Description) + canvas.Tokens(string(d.Parameters))
	}
	if total > maxToolTokens {
		t.Errorf("the tools' definitions are %d tokens, more than %d: shorten descriptions (the manual can hold the rest) or raise the figure here and in docs/chat.md", total, maxToolTokens)
	}
	if total < maxToolTokens/2 {
		t.Errorf("the tools' definitions are %d tokens: lower maxToolTokens and the figures in docs/chat.md to say so", total)
	}
}

// registry returns the tool registry of a real workspace on an empty vault.
func registry(t *testing.T) *tool.Registry {
	t.Helper()
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "v", Path: t.TempDir()}}, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}
