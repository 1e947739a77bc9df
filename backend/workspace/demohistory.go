package workspace

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vpath"
)

// DemoAuthor signs the demo vault's history. It is the demo's alone: the person's own
// commits carry their git identity.
var DemoAuthor = gitrepo.Signature{Name: "MemoTree Demo", Email: "demo@memotree.invalid"}

// demoCommits is the demo vault's history, oldest first: the folders (or files) each
// commit adds, and the notes that reach their final text in it after an earlier
// version (their last section missing) went in with their folder.
var demoCommits = []struct {
	message string
	adds    []string
	grows   []string
}{
	{"Start the notebook: the manual, the welcome page and the first people", []string{".gitignore", "journey.yaml", "meta.md", "Welcome.md", "memory.md", "people"}, nil},
	{"Add the machines, the ideas behind them and the sources", []string{"machines", "ideas", "sources", "places"}, nil},
	{"Add the Chinese notes and the projects; finish Ada Lovelace and Alan Turing", []string{"中文", "projects"}, []string{"people/Ada Lovelace.md", "people/Alan Turing.md"}},
}

// demoPending is the change the demo leaves for review: a note the open questions
// asked for, and a line added to another, as if made in another editor.
var demoPending = map[string]string{
	"people/Konrad Zuse.md": `---
entity type: person
relations:
  - relation type: built
    relation to: "[[Stored Program]]"
tags: [people, history/computing]
summary: German engineer (1910–1995) who built the Z3, a working programmable computer, in 1941.
---

# Konrad Zuse

Konrad Zuse built his first machines in his parents' living room in Berlin. The Z3
(1941) read its program from punched film and computed in binary floating point, a
working programmable computer years before the [[Stored Program]] machines, though its
program was not kept in memory. He also designed Plankalkül, an early high-level
programming language, which went unpublished for decades.
`,
}

// demoAppend is a line added to an existing note, pending too.
const demoAppendPath, demoAppendText = "projects/Open Questions.md", "\n- Konrad Zuse now has a note: does the Z3 belong on the timeline before ENIAC?\n"

// makeDemoHistory turns the copy of the demo vault in dir into a git repository with a
// few commits by DemoAuthor and a pending change, so that the review panel, a note's
// history and the diff have something to show on the first run.
func makeDemoHistory(ctx context.Context, dir string) (err error) {
	l, err := library.Open(ctx, "demo", dir, library.Options{Lazy: true})
	if err != nil {
		return err
	}
	defer l.Close()
	final := map[string][]byte{}
	for _, c := range demoCommits {
		for _, p := range c.grows {
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
			if err != nil {
				return fmt.Errorf("demo history: %w", err)
			}
			final[p] = b
			if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), withoutLastSection(b), 0o644); err != nil {
				return fmt.Errorf("demo history: %w", err)
			}
		}
	}
	r, err := l.InitGit(ctx)
	if err != nil {
		return fmt.Errorf("demo history: %w", err)
	}
	// git signs a commit's committer from its configuration, which a new user's
	// machine may not have: the demo's identity signs the demo's history, from the
	// repository's own configuration for as long as it takes, and is then taken out,
	// so that the person's commits carry their own name.
	restore, err := signAs(dir, DemoAuthor)
	if err != nil {
		return fmt.Errorf("demo history: %w", err)
	}
	defer func() {
		if rerr := restore(); err == nil && rerr != nil {
			err = fmt.Errorf("demo history: %w", rerr)
		}
	}()
	for _, c := range demoCommits {
		var paths []vpath.Path
		for _, p := range c.grows {
			if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), final[p], 0o644); err != nil {
				return fmt.Errorf("demo history: %w", err)
			}
			paths = append(paths, vpath.Path(p))
		}
		for _, a := range c.adds {
			files, err := filesUnder(dir, a)
			if err != nil {
				return fmt.Errorf("demo history: %w", err)
			}
			paths = append(paths, files...)
		}
		if _, err := r.Commit(ctx, gitrepo.CommitOptions{Message: c.message, Paths: paths, Author: &DemoAuthor}); err != nil {
			return fmt.Errorf("demo history: %w", err)
		}
	}
	for p, text := range demoPending {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(text), 0o644); err != nil {
			return fmt.Errorf("demo pending change: %w", err)
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(demoAppendPath)), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("demo pending change: %w", err)
	}
	_, err = f.WriteString(demoAppendText)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("demo pending change: %w", err)
	}
	return nil
}

// filesUnder lists the files at or under name (slash-separated) in dir as vault paths.
func filesUnder(dir, name string) ([]vpath.Path, error) {
	var out []vpath.Path
	root := filepath.Join(dir, filepath.FromSlash(name))
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err == nil {
			out = append(out, vpath.Path(filepath.ToSlash(rel)))
		}
		return err
	})
	return out, err
}

// withoutLastSection returns a note's text without its last "## " section: the
// earlier version of a note that grows in the demo's history.
func withoutLastSection(b []byte) []byte {
	i := bytes.LastIndex(b, []byte("\n## "))
	if i < 0 || !strings.Contains(string(b[:i]), "\n# ") {
		return b
	}
	return append(bytes.TrimRight(b[:i], "\n"), '\n')
}

// signAs adds an identity to the configuration of the repository in dir and returns
// the function that puts the configuration back as it was.
func signAs(dir string, who gitrepo.Signature) (restore func() error, err error) {
	name := filepath.Join(dir, ".git", "config")
	before, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	with := fmt.Sprintf("%s\n[user]\n\tname = %s\n\temail = %s\n", bytes.TrimRight(before, "\n"), who.Name, who.Email)
	if err := os.WriteFile(name, []byte(with), 0o644); err != nil {
		return nil, err
	}
	return func() error { return os.WriteFile(name, before, 0o644) }, nil
}
