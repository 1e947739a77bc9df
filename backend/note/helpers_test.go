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
