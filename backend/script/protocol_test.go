package script

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
)

func TestParseToolCalls(t *testing.T) {
	seed := "I will create the page.\n\n```toml\n[tool_call]\ntarget = \"创建新的详情页\"\ncode = '''\n# 规则\n__result__ = create_entity(\n    entity_name=\"新想法\",\n    content=\"详细内容...\",\n)\n'''\n```\n"
	tests := []struct {
		name, reply string
		want        []TextCall
	}{
		{"seed 003", seed, []TextCall{{Target: "创建新的详情页", Code: "# 规则\n__result__ = create_entity(\n    entity_name=\"新想法\",\n    content=\"详细内容...\",\n)\n"}}},
		{"no block", "Just an answer.", nil},
		{"other toml", "```toml\n[server]\nport = 1\n```", nil},
		{"other language", "```python\n[tool_call]\n```", nil},
		{"two calls, tilde fence", "```toml\n[tool_call]\ntarget='a'\ncode='x=1'\n```\ntext\n~~~TOML\n[tool_call]\ntarget='b'\ncode='''y=2'''\n~~~", []TextCall{{Target: "a", Code: "x=1"}, {Target: "b", Code: "y=2"}}},
		{"backticks in code", "````toml\n[tool_call]\ntarget='t'\ncode='''\ns = \"```\"\n'''\n````", []TextCall{{Target: "t", Code: "s = \"```\"\n"}}},
		{"unclosed fence", "```toml\n[tool_call]\ntarget='t'\ncode='z=1'\n", []TextCall{{Target: "t", Code: "z=1"}}},
		{"no code", "```toml\n[tool_call]\ntarget='t'\n```", []TextCall{{Target: "t", Problem: "the [tool_call] block has no code: set code = '''...''' to the Starlark script"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, ParseToolCalls(tt.reply)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	bad := ParseToolCalls("```toml\n[tool_call]\ncode = \"unterminated\n```")
	if len(bad) != 1 || !strings.Contains(bad[0].Problem, "not valid TOML") {
		t.Errorf("bad TOML: %+v", bad)
	}
}

func TestFormatToolResultIsTOML(t *testing.T) {
	for _, s := range []string{
		FormatToolResult("t", "success", "", "", map[string]any{"n": 3, "s": "'''\"x"}),
		FormatToolResult("t", "error", "not_found", "no note named \"x\"", nil),
	} {
		body := strings.TrimSuffix(strings.TrimPrefix(s, "```toml\n"), "```\n")
		var doc map[string]map[string]string
		if _, err := toml.Decode(body, &doc); err != nil || doc["tool_result"]["status"] == "" {
			t.Errorf("%v: %q", err, s)
		}
	}
}

// FuzzParseToolCalls checks the parser never panics and that what it returns comes
// from the input.
func FuzzParseToolCalls(f *testing.F) {
	f.Add("```toml\n[tool_call]\ntarget='t'\ncode='''x = 1'''\n```")
	f.Add("````toml\n[tool_call]\ncode=\"\"\"\n```\n\"\"\"\n````\n~~~toml\n[[tool_call]]\n~~~")
	f.Add("```toml\n[tool_call\n```")
	f.Fuzz(func(t *testing.T, s string) {
		calls := ParseToolCalls(s)
		if len(calls) > maxTextCalls {
			t.Fatalf("%d calls", len(calls))
		}
		for _, c := range calls {
			if c.Problem == "" && strings.TrimSpace(c.Code) == "" {
				t.Fatalf("a call without code and without a problem: %+v", c)
			}
		}
	})
}
