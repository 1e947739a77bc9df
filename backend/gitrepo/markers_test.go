package gitrepo_test

import (
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
)

func TestHasConflictMarkers(t *testing.T) {
	for _, tc := range []struct {
		name     string
		text     string
		markdown bool
		want     bool
	}{
		{"a region", "a\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\nb\n", true, true},
		{"git's diff3 style", "<<<<<<< HEAD\nx\n||||||| base\nw\n=======\ny\n>>>>>>> main\n", false, true},
		{"CRLF and a mark first", "\ufeff<<<<<<< ours\r\nx\r\n=======\r\ny\r\n>>>>>>> theirs\r\n", true, true},
		{"markers without labels", "<<<<<<<\nx\n=======\n>>>>>>>\n", false, true},
		{"no closing marker", "<<<<<<< ours\nx\n=======\ny\n", false, false},
		{"a setext heading", "Title\n=======\n\ntext\n", true, false},
		{"longer runs", "<<<<<<<< x\n=======\n>>>>>>>> y\n", false, false},
		{"in a fenced block of a note", "```text\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n```\n", true, false},
		{"in a fenced block of another file", "```text\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n```\n", false, true},
		{"after a closed tilde fence", "~~~\ncode\n~~~\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gitrepo.HasConflictMarkers([]byte(tc.text), tc.markdown); got != tc.want {
				t.Errorf("HasConflictMarkers = %v, want %v", got, tc.want)
			}
		})
	}
}
