package script

import (
	"fmt"
	"strings"

	"go.starlark.net/syntax"
)

// parse parses a script as run_starlark runs it: f-strings rewritten (rewriteFStrings),
// with the options the sandbox allows.
func parse(code string) (*syntax.File, error) {
	src, err := rewriteFStrings(code)
	if err != nil {
		return nil, err
	}
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}
	return opts.Parse("script.star", src, 0)
}

// rewriteFStrings turns Python's f-strings, which Starlark lacks and models write
// (seed 003's own example prints f"Segment: {seg['id']}"), into the str.format calls
// Starlark has: f"a {x!r} b {y}" becomes "a {!r} b {}".format((x), (y)). Literal
// text, escapes, doubled braces and the other string prefixes are kept byte for byte,
// and the line breaks stay where they were, so error lines still match the script.
// Format specs ({x:>8}) pass through to format, which refuses them by name; an
// f-string inside an f-string's expression is refused.
func rewriteFStrings(src string) (string, error) {
	if !strings.ContainsAny(src, "fF") {
		return src, nil
	}
	var out strings.Builder
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			out.WriteString(src[i : i+j])
			i += j
		case c == '"' || c == '\'':
			j, err := stringEnd(src, i, line)
			if err != nil {
				return "", err
			}
			out.WriteString(src[i:j])
			line += strings.Count(src[i:j], "\n")
			i = j
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			word := src[i:j]
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && isFPrefix(word) {
				end, err := stringEnd(src, j, line)
				if err != nil {
					return "", err
				}
				rewritten, err := fstring(strings.NewReplacer("f", "", "F", "").Replace(word), src[j:end], line)
				if err != nil {
					return "", err
				}
				out.WriteString(rewritten)
				line += strings.Count(src[j:end], "\n")
				i = end
				continue
			}
			out.WriteString(word)
			i = j
		default:
			if c == '\n' {
				line++
			}
			out.WriteByte(c)
			i++
		}
	}
	return out.String(), nil
}

// isFPrefix reports whether word is a string prefix holding f: f, rf, fr (any case).
func isFPrefix(word string) bool {
	w := strings.ToLower(word)
	return w == "f" || w == "rf" || w == "fr"
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || '0' <= c && c <= '9' }

// stringEnd returns the offset just after the string literal whose opening quote is at
// src[i] (single or triple quoted; a backslash escapes the next byte, as it does for
// the end of a raw string too).
func stringEnd(src string, i, line int) (int, error) {
	q := src[i : i+1]
	if strings.HasPrefix(src[i:], strings.Repeat(q, 3)) {
		q = strings.Repeat(q, 3)
	}
	for j := i + len(q); j < len(src); j++ {
		switch {
		case src[j] == '\\':
			j++
		case strings.HasPrefix(src[j:], q):
			return j + len(q), nil
		case src[j] == '\n' && len(q) == 1:
			return 0, fmt.Errorf("line %d: unterminated string", line)
		}
	}
	return 0, fmt.Errorf("line %d: unterminated string", line)
}

// fstring rewrites one f-string literal: prefix is what is left of its prefix (r or
// ""), lit the literal from its opening quote to its closing one.
func fstring(prefix, lit string, line int) (string, error) {
	q := lit[:1]
	if strings.HasPrefix(lit, strings.Repeat(q, 3)) {
		q = strings.Repeat(q, 3)
	}
	body := lit[len(q) : len(lit)-len(q)]
	raw := prefix != ""
	var tmpl strings.Builder
	var args []string
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\' && raw:
			// A character of a raw string, which escapes no brace: rf"\{x}" is a
			// backslash, then x.
			tmpl.WriteByte(c)
			i++
		case c == '\\':
			end := min(i+2, len(body))
			tmpl.WriteString(body[i:end])
			i = end
		case strings.HasPrefix(body[i:], "{{"), strings.HasPrefix(body[i:], "}}"):
			tmpl.WriteString(body[i : i+2])
			i += 2
		case c == '}':
			return "", fmt.Errorf("line %d: f-string: a single '}' is not allowed (write '}}' for a brace)", line)
		case c == '{':
			expr, conv, end, err := fstringField(body, i+1, q, line)
			if err != nil {
				return "", err
			}
			tmpl.WriteString("{" + conv + "}")
			args = append(args, "("+expr+")")
			i = end
		default:
			tmpl.WriteByte(c)
			i++
		}
	}
	s := prefix + q + tmpl.String() + q
	if len(args) == 0 {
		return s, nil
	}
	return s + ".format(" + strings.Join(args, ", ") + ")", nil
}

// selfDocumenting reports whether a field's expression ends with Python's "=" (f"{x=}"
// prints "x=" and the value), which is no comparison (==, !=, <=, >=).
func selfDocumenting(expr string) bool {
	e, ok := strings.CutSuffix(expr, "=")
	if !ok {
		return false
	}
	e = strings.TrimRight(e, " ")
	return e != "" && !strings.ContainsAny(e[len(e)-1:], "=!<>")
}

// fstringField reads one replacement field starting after its '{': the expression, what
// follows it for format ("!r", ":spec", "!s:spec", or ""), and the offset after its
// '}'. Brackets and strings inside the expression are skipped whole.
func fstringField(body string, i int, q string, line int) (expr, conv string, end int, err error) {
	depth, start := 0, i
	for ; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']') && depth > 0:
			depth--
		case c == '}' && depth > 0:
			depth--
		case c == '"' || c == '\'':
			if strings.HasPrefix(body[i:], q) {
				return "", "", 0, fmt.Errorf("line %d: f-string: the quote that ends the string appears inside {…}; use the other quote there", line)
			}
			j, err := stringEnd(body, i, line)
			if err != nil {
				return "", "", 0, fmt.Errorf("line %d: f-string: unterminated string inside {…}", line)
			}
			if k := i - 1; k >= start && (body[k] == 'f' || body[k] == 'F') && (k == start || !isIdentPart(body[k-1])) {
				return "", "", 0, fmt.Errorf("line %d: f-string: an f-string inside an f-string is not supported", line)
			}
			i = j - 1
		case depth == 0 && (c == '}' || c == ':' || c == '!' && !strings.HasPrefix(body[i:], "!=")):
			// Kept as written, line breaks included (the parentheses it goes in allow
			// them), so that the lines after it keep their numbers.
			expr = body[start:i]
			if strings.TrimSpace(expr) == "" {
				return "", "", 0, fmt.Errorf("line %d: f-string: empty expression in {}", line)
			}
			if selfDocumenting(strings.TrimSpace(expr)) {
				return "", "", 0, fmt.Errorf("line %d: f-string: {x=} (an expression followed by its value) is not supported; write \"x=\" + repr(x) instead", line)
			}
			rest := strings.IndexByte(body[i:], '}')
			if rest < 0 {
				return "", "", 0, fmt.Errorf("line %d: f-string: '{' is not closed", line)
			}
			conv = body[i : i+rest]
			if strings.Contains(conv, "{") {
				return "", "", 0, fmt.Errorf("line %d: f-string: nested fields in a format spec are not supported", line)
			}
			return expr, conv, i + rest + 1, nil
		}
	}
	return "", "", 0, fmt.Errorf("line %d: f-string: '{' is not closed", line)
}
