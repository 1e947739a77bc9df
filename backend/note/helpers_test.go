package note

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// yamlNode shortens test signatures.
type yamlNode = yaml.Node

// fmtNode describes a node's kind, style, value and position.
func fmtNode(n *yaml.Node) string {
	return fmt.Sprintf("%d/%d %q @%d:%d", n.Kind, n.Style, n.Value, n.Line, n.Column)
}

// The fast parser's buffer of block scalars is overwritten when the parser is
// released, so that checkLean sees a value a note kept without copying it.
func init() { scribbleReleased = true }
