package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// flowWidth is the longest one-line {key: value} mapping rendered in flow style.
const flowWidth = 72

// YAML renders the result as the flat YAML models read (seed 002): keys in the order
// status, message, data, warnings, error_code, elapsed; empty ones left out; strings
// with newlines as literal blocks; small mappings of scalars inside lists on one line.
// Data is rendered through its JSON encoding, so json tags name the keys and struct
// field order is kept. If the data cannot be encoded, it renders an internal error.
func (r Result) YAML() string {
	s, err := r.renderYAML()
	if err != nil {
		s, _ = renderFailure(r, err).renderYAML()
	}
	return s
}

// renderYAML builds the document node and encodes it.
func (r Result) renderYAML() (string, error) {
	doc := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) { doc.Content = append(doc.Content, strNode(key), v) }
	add("status", strNode(string(r.Status)))
	if r.Message != "" {
		add("message", strNode(r.Message))
	}
	if r.Data != nil {
		n, err := dataNode(r.Data)
		if err != nil {
			return "", err
		}
		add("data", n)
	}
	if len(r.Warnings) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, w := range r.Warnings {
			seq.Content = append(seq.Content, strNode(w))
		}
		add("warnings", seq)
	}
	if r.ErrorCode != "" {
		add("error_code", strNode(string(r.ErrorCode)))
	}
	add("elapsed", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: formatElapsed(r.Elapsed)})
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return "", fmt.Errorf("encode yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return "", fmt.Errorf("encode yaml: %w", err)
	}
	return buf.String(), nil
}

// formatElapsed writes a duration in milliseconds: two decimals under 1 ms, one under
// 10 ms, none above.
func formatElapsed(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	if ms < 1 {
		return strconv.FormatFloat(ms, 'f', 2, 64) + "ms"
	}
	if ms < 10 {
		return strconv.FormatFloat(ms, 'f', 1, 64) + "ms"
	}
	return strconv.FormatFloat(ms, 'f', 0, 64) + "ms"
}

// oldBools are the strings YAML 1.1 readers take for booleans; they are quoted.
var oldBools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
}

// strNode is a string scalar; multi-line strings become literal blocks.
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch {
	case strings.Contains(s, "\n"):
		n.Style = yaml.LiteralStyle
	case oldBools[s]:
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// dataNode converts v to a YAML node through its JSON encoding, keeping key order.
func dataNode(v any) (*yaml.Node, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("marshal data: %w", err)
	}
	dec := json.NewDecoder(&buf)
	dec.UseNumber()
	n, err := readNode(dec)
	if err != nil {
		return nil, fmt.Errorf("convert data: %w", err)
	}
	compact(n, false)
	return n, nil
}

// readNode reads one JSON value from dec as a YAML node.
func readNode(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		return readContainer(dec, t)
	case string:
		return strNode(t), nil
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(t.String(), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: t.String()}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t)}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// readContainer reads the rest of an object or array whose opening delimiter was d.
func readContainer(dec *json.Decoder, d json.Delim) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	if d == '{' {
		n.Kind = yaml.MappingNode
	}
	for dec.More() {
		if n.Kind == yaml.MappingNode {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, ok := tok.(string)
			if !ok {
				return nil, fmt.Errorf("object key %v is not a string", tok)
			}
			n.Content = append(n.Content, strNode(key))
		}
		child, err := readNode(dec)
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, child)
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		if errors.Is(err, io.EOF) {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return n, nil
}

// compact puts small mappings of one-line scalars that are list items on one line,
// as seed 002 writes relations: { from: a, to: b, type: knows }.
func compact(n *yaml.Node, inList bool) {
	if n.Kind == yaml.MappingNode && inList && fitsFlow(n) {
		n.Style = yaml.FlowStyle
		return
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			continue
		}
		compact(c, n.Kind == yaml.SequenceNode)
	}
}

// fitsFlow reports whether a mapping holds only short one-line scalars.
func fitsFlow(n *yaml.Node) bool {
	if len(n.Content) == 0 {
		return false
	}
	width := 2
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || c.Style == yaml.LiteralStyle {
			return false
		}
		width += len(c.Value) + 2
	}
	return width <= flowWidth
}
