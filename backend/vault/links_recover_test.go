package vault

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// trapGitConfig is a git configuration whose core.fsmonitor runs a command at the
// next `git status`.
const trapGitConfig = "[core]\n\tfsmonitor = \"touch /tmp/memotree-trap\"\n"

// A vault copied from elsewhere (a clone of a repository that committed .memotree/, an
// archive) may carry a crafted batch intent, which the next process to take the vault
// lock recovers. Its paths go through a folder link to .git: the recovery writes
// nothing there, and .git keeps every byte.
func TestRecoveryFollowsNoLink(t *testing.T) {
	cur := "[core]\n\tbare = false\n"
	tmp := TempPrefix + "XXXXXXXXXXXXXXXXXXXXXXXXXX" // a name MemoTree makes (IsTempName)
	cases := map[string]string{
		"a move across folders": `{"steps":[{"temp":"notes/` + tmp + `","target":"gl/config"}]}`,
		"a move in the link":    `{"steps":[{"temp":"gl/` + tmp + `","target":"gl/config"}]}`,
		"a removal":             `{"steps":[{"target":"gl/config"}]}`,
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			v, dir := openWith(t, map[string]string{".git/config": cur, ".git/" + tmp: trapGitConfig,
				"notes/" + tmp: trapGitConfig, ".memotree/" + intentName: text})
			if err := os.Symlink(".git", filepath.Join(dir, "gl")); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			before := guardedState(t, dir)
			_, err := v.Recover(t.Context())
			t.Logf("Recover: %v", err)
			if _, werr := v.Write(t.Context(), "a.md", []byte("a\n"), WriteOptions{}); werr != nil {
				t.Logf("a write after it: %v", werr)
			}
			after := guardedState(t, dir)
			for p := range after {
				if filepath.Dir(p) == ".memotree" {
					delete(after, p) // MemoTree's own files come and go
					delete(before, p)
				}
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf(".git changed (-before +after):\n%s", diff)
			}
		})
	}
}
