package script

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// TextCall is one seed-003 tool call written as text by a model without native
// function calling: a fenced TOML block
//
//	```toml
//	[tool_call]
//	target = "what the script is for"
//	code = '''
//	__result__ = list_entities(entity_glob="**")
//	'''
//	```
type TextCall struct {
	Target string
	Code   string
	// Problem, when set, says why a block that names [tool_call] cannot be run (bad
	// TOML, no code); the model should be told so it can write it again.
	Problem string
}

// Bounds of what ParseToolCalls looks at.
const (
	maxTextCalls     = 8
	maxTextCallBytes = 1 << 20
)

// ParseToolCalls returns the [tool_call] blocks of a model's reply, in order: fenced
// blocks whose info string is toml. A toml block without a [tool_call] table is not a
// call (a model may show TOML for other reasons). At most 8 calls are returned.
func ParseToolCalls(reply string) []TextCall {
	var out []TextCall
	for _, block := range tomlBlocks(reply) {
		if len(out) == maxTextCalls {
			break
		}
		if c, ok := parseBlock(block); ok {
			out = append(out, c)
		}
	}
	return out
}

// tomlBlocks returns the bodies of the fenced ```toml blocks of text. A fence is a
// line of three or more backticks (or tildes), optionally indented; the block ends at
// a fence of the same character at least as long.
func tomlBlocks(text string) []string {
	var blocks []string
	lines := strings.SplitAfter(text, "\n")
	for i := 0; i < len(lines); i++ {
		fence, info, ok := openFence(lines[i])
		if !ok || !strings.EqualFold(info, "toml") {
			continue
		}
		var body strings.Builder
		j := i + 1
		for ; j < len(lines); j++ {
			if closesFence(lines[j], fence) {
				break
			}
			body.WriteString(lines[j])
		}
		if body.Len() <= maxTextCallBytes {
			blocks = append(blocks, body.String())
		}
		i = j
	}
	return blocks
}

// openFence recognises an opening fence and returns it and its info string.
func openFence(line string) (fence, info string, ok bool) {
	t := strings.TrimSpace(line)
	for _, c := range []string{"`", "~"} {
		n := len(t) - len(strings.TrimLeft(t, c))
		if n >= 3 {
			info = strings.TrimSpace(t[n:])
			if c == "`" && strings.Contains(info, "`") {
				return "", "", false
			}
			return t[:n], info, true
		}
	}
	return "", "", false
}

func closesFence(line, fence string) bool {
	t := strings.TrimSpace(line)
	return len(t) >= len(fence) && strings.Trim(t, fence[:1]) == "" && t[0] == fence[0]
}

// parseBlock decodes one TOML block; ok is false when it names no [tool_call].
func parseBlock(body string) (TextCall, bool) {
	var doc struct {
		ToolCall *struct {
			Target string `toml:"target"`
			Code   string `toml:"code"`
		} `toml:"tool_call"`
	}
	if _, err := toml.Decode(body, &doc); err != nil {
		if !strings.Contains(body, "[tool_call]") {
			return TextCall{}, false
		}
		return TextCall{Problem: "the [tool_call] block is not valid TOML: " + err.Error() + "; write code as a '''literal''' multi-line string"}, true
	}
	if doc.ToolCall == nil {
		return TextCall{}, false
	}
	c := TextCall{Target: doc.ToolCall.Target, Code: doc.ToolCall.Code}
	if strings.TrimSpace(c.Code) == "" {
		c.Problem = "the [tool_call] block has no code: set code = '''...''' to the Starlark script"
	}
	return c, true
}

// Args returns the JSON arguments of run_starlark for c.
func (c TextCall) Args() json.RawMessage {
	b, _ := json.Marshal(map[string]string{"target": c.Target, "code": c.Code})
	return b
}

// FormatToolResult renders what a text tool call produced, to feed back to the model
// as a fenced TOML [tool_result] block: the target, the status, and the value of
// __result__ as JSON — or, for a failure, the error code and message. Printed output
// is not fed back (seed 003: only __result__ is returned).
func FormatToolResult(target string, status, code, message string, result any) string {
	var doc struct {
		ToolResult map[string]string `toml:"tool_result"`
	}
	doc.ToolResult = map[string]string{"target": target, "status": status}
	if code != "" {
		doc.ToolResult["error_code"] = code
		doc.ToolResult["message"] = message
	} else {
		b, err := json.Marshal(result)
		if err != nil {
			b = []byte(fmt.Sprintf("%q", fmt.Sprint(result)))
		}
		doc.ToolResult["result"] = string(b)
	}
	var buf bytes.Buffer
	buf.WriteString("```toml\n")
	if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
		return fmt.Sprintf("```toml\n[tool_result]\nstatus = %q\n```\n", status)
	}
	buf.WriteString("```\n")
	return buf.String()
}
