package script

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/tool"
)

func TestToolsNamed(t *testing.T) {
	e := newEnv(t, writeVault(t, false), Limits{})
	code := "f = delete_entities\nfor n in list_entities(entity_glob='x/*')['entities']:\n    f(entity_names=[n])\nread_entities = 1"
	var got []string
	destructive := 0
	for _, tl := range ToolsNamed(e.reg, code) {
		got = append(got, tl.Name())
		if tl.Class() == tool.Destructive {
			destructive++
		}
	}
	if d := cmp.Diff([]string{"delete_entities", "list_entities", "read_entities"}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if destructive != 1 {
		t.Errorf("%d destructive", destructive)
	}
	if ToolsNamed(e.reg, "def (") != nil {
		t.Error("a script that does not parse names tools")
	}
}
