package script

import (
	"strings"
	"testing"
)

func TestRewriteFStrings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`print(f"Segment: {seg['id']}, Type: {seg['type']}")`, `print("Segment: {}, Type: {}".format((seg['id']), (seg['type'])))`},
		{`x = f'{a!r} and {b}'`, `x = '{!r} and {}'.format((a), (b))`},
		{`f"{{literal}} {x}"`, `"{{literal}} {}".format((x))`},
		{`rf"\d{x}" + Rf'{y}' + fr"{z}"`, `r"\d{}".format((x)) + R'{}'.format((y)) + r"{}".format((z))`},
		{`f"no fields"`, `"no fields"`},
		{`f"{a != b} {d[1:2]} {g(x, {'k': 1})['k']}"`, `"{} {} {}".format((a != b), (d[1:2]), (g(x, {'k': 1})['k']))`},
		{`f"{x:>8}"`, `"{:>8}".format((x))`},
		// In a raw f-string a backslash is a character: the brace after it opens a field.
		{`rf"\{x}\d"`, `r"\{}\d".format((x))`},
		{`fr'a\\{x}'`, `r'a\\{}'.format((x))`},
		{`f"{'\n'.join(xs)}"`, `"{}".format(('\n'.join(xs)))`},
		{"s = f\"\"\"a\n{x}\nb\"\"\"\ny = 1", "s = \"\"\"a\n{}\nb\"\"\".format((x))\ny = 1"},
		// Not f-strings: left byte for byte.
		{`"plain {x}" + r"{y}" + b'{z}'`, `"plain {x}" + r"{y}" + b'{z}'`},
		{`# f"a comment {x}"` + "\n" + `elif_ = "f{x}"`, `# f"a comment {x}"` + "\n" + `elif_ = "f{x}"`},
		{`half = "say \"f{x}\" " + 'it\'s f{y}'`, `half = "say \"f{x}\" " + 'it\'s f{y}'`},
	}
	for _, tt := range tests {
		got, err := rewriteFStrings(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("rewriteFStrings(%s)\n got %s (%v)\nwant %s", tt.in, got, err, tt.want)
		}
		if strings.Count(got, "\n") != strings.Count(tt.in, "\n") {
			t.Errorf("%s: the line breaks moved", tt.in)
		}
	}
	for _, bad := range []struct{ in, want string }{
		{`f"{x"`, "not closed"},
		{`f"a } b"`, "single '}'"},
		{`f"{}"`, "empty expression"},
		{`f"{f'{x}'}"`, "f-string inside an f-string"},
		{"x = 1\ny = f\"{x", "line 2"},
		{`f"{x:{w}}"`, "nested fields"},
		{`f"{x=}"`, "{x=}"},
		{`f"{a + b = }"`, "{x=}"},
	} {
		if _, err := rewriteFStrings(bad.in); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("rewriteFStrings(%s) = %v, want an error with %q", bad.in, err, bad.want)
		}
	}
}

// FuzzRewriteFStrings checks that the rewrite never panics, and leaves a script
// without an f prefix before a quote as it is.
func FuzzRewriteFStrings(f *testing.F) {
	for _, s := range []string{`f"{a}"`, `x = f'{b!r:>3}' # c`, "f\"\"\"\n{x}\n\"\"\"", `"{f}"`, `f"{'`, `rf"\{x}"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, err := rewriteFStrings(src)
		if err == nil && strings.Count(out, "\n") != strings.Count(src, "\n") {
			t.Errorf("%q: the line breaks moved: %q", src, out)
		}
	})
}
