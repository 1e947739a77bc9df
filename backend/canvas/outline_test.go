package canvas

import (
	"fmt"
	"strings"
	"testing"
)

// TestOutlineIsBoundedInTokens: the folders the default view always lists are bounded
// in tokens as well as in number, so that a vault whose folders have long names in
// scripts that cost several tokens a character (here Thai and Greek, 64 folders: within
// OutlineFolders, about 1,900 tokens of lines) keeps a short default view, and
// still lists its top folders.
func TestOutlineIsBoundedInTokens(t *testing.T) {
	files := map[string]string{}
	for i := range 8 {
		top := fmt.Sprintf("ห้องสมุดประวัติศาสตร์ %d", i)
		files[top+"/n.md"] = "# n\n"
		for j := range 7 {
			sub := fmt.Sprintf("%s/Βιβλιοθήκη ιστορικών αρχείων %d", top, j)
			files[sub+"/n.md"] = "# n\n"
		}
	}
	l := openLib(t, writeVault(t, files))
	r, err := New(l, nil).Render(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	folderTokens, tops, subs := 0, 0, 0
	for _, n := range r.Nodes {
		if n.Kind != KindFolder || n.ID == RootID {
			continue
		}
		folderTokens += n.Tokens
		if strings.Count(n.ID, "/") == 1 {
			tops++
		} else {
			subs++
		}
	}
	if folderTokens > OutlineTokens {
		t.Errorf("the default view lists %d folders (%d top, %d below) in %d tokens, more than OutlineTokens (%d):\n%s", tops+subs, tops, subs, folderTokens, OutlineTokens, r.Text)
	}
	if tops != 8 {
		t.Errorf("the default view lists %d of the 8 top folders, want all:\n%s", tops, r.Text)
	}
}
