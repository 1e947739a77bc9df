package gitrepo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
)

// gitMergeFile runs git merge-file -p on the three texts; clean is its exit status 0.
func gitMergeFile(t *testing.T, base, ours, theirs string) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"base": base, "ours": ours, "theirs": theirs} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return string(out), err == nil
}

func TestMerge3AgreesWithGitMergeFile(t *testing.T) {
	base := "title\n\none\ntwo\nthree\nfour\nfive\nsix\nseven\n"
	for _, tc := range []struct {
		name         string
		ours, theirs string
	}{
		{"different lines", strings.Replace(base, "two", "TWO", 1), strings.Replace(base, "six", "SIX", 1)},
		{"the same change", strings.Replace(base, "two", "2", 1), strings.Replace(base, "two", "2", 1)},
		{"one side only", base, strings.Replace(base, "four\n", "", 1)},
		{"appends and an edit", base + "ours at the end\n", strings.Replace(base, "title", "Title", 1)},
		{"insert and delete apart", strings.Replace(base, "one\n", "one\nnew after one\n", 1), strings.Replace(base, "six\n", "", 1)},
		{"no final newline", strings.TrimSuffix(strings.Replace(base, "one", "ONE", 1), "\n"), strings.Replace(base, "five", "FIVE", 1)},
		{"conflict on one line", strings.Replace(base, "four", "four (ours)", 1), strings.Replace(base, "four", "four (theirs)", 1)},
		{"both append", base + "ours\n", base + "theirs\n"},
		{"delete against edit", strings.Replace(base, "three\n", "", 1), strings.Replace(base, "three", "THREE", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, wantClean := gitMergeFile(t, base, tc.ours, tc.theirs)
			got, clean := gitrepo.Merge3(base, tc.ours, tc.theirs, "ours", "theirs")
			if clean != wantClean {
				t.Fatalf("clean = %v, git says %v\nours:\n%s\ngit:\n%s", clean, wantClean, got, want)
			}
			if clean && got != want {
				t.Errorf("merged:\n%s\ngit merge-file:\n%s", got, want)
			}
			if !clean {
				// Both sides are kept, between markers, and nothing of the rest is lost.
				for _, side := range []string{tc.ours, tc.theirs} {
					for _, l := range strings.Split(side, "\n") {
						if !strings.Contains(got, l) {
							t.Errorf("the conflict lost %q:\n%s", l, got)
						}
					}
				}
				if !strings.Contains(got, "<<<<<<< ours\n") || !strings.Contains(got, "\n=======\n") || !strings.Contains(got, ">>>>>>> theirs\n") {
					t.Errorf("no conflict markers:\n%s", got)
				}
			}
		})
	}
}
