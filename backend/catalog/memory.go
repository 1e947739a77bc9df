package catalog

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, memoryTools) }

// The Refs of the memory tools: each tool is declared through its Ref, which names it
// with its input and output types, so that the compiler checks its handler and rules.
var (
	memoryNotebookReplace = tool.NewRef[memoryReplaceIn, *memoryOut]("memory_notebook_replace")
)

// The memory notebook (seed 004): memory.md in the default library.
const (
	memoryPath vpath.Path = "memory.md"
	// MemoryBudget is the size, in characters, the memory notebook may not grow past.
	MemoryBudget = 4000
	// memoryHeader starts a notebook created by the tool.
	memoryHeader = "# My notebook\n\n"
	// maxMemoryArg bounds old_text and new_text, in bytes: four bytes for each
	// character of the budget, four times over.
	maxMemoryArg = 16 * MemoryBudget
)

// memoryTools declares the memory family.
func memoryTools(e *env) []*tool.Tool {
	return []*tool.Tool{
		memoryNotebookReplace.New(tool.Write, desc("memory_notebook_replace"), e.memoryNotebookReplace).
			Describe(tool.LibraryParam, "the default library's name, or absent: the notebook lives there, and another library is refused"),
	}
}

type memoryReplaceIn struct {
	OldText string `json:"old_text" jsonschema:"the exact text to replace, which must occur once; empty to append new_text at the end"`
	NewText string `json:"new_text" jsonschema:"the text to put instead; empty to delete old_text"`
	tool.LibraryArg
}

// memoryOut is the output of memory_notebook_replace: the notebook's size and budget in
// characters, and what remains of it.
type memoryOut struct {
	Budget    int `json:"budget"`
	Remaining int `json:"remaining"`
	Size      int `json:"size"`
}

func (e *env) memoryNotebookReplace(ctx context.Context, call *tool.Call, in memoryReplaceIn) (tool.Result, *memoryOut, error) {
	libs := e.ws.Libraries()
	if len(libs) == 0 {
		return tool.Fail(tool.CodeNotFound, "no library is open, so there is no memory notebook"), nil, nil
	}
	l, err := library.InTx(ctx, libs[0])
	if err != nil {
		return tool.Result{}, nil, fmt.Errorf("memory notebook: %w", err)
	}
	if call.Library != "" && call.Library != l.Name() {
		// The notebook is the agent's, kept in the default library and read from there
		// on every call; writing another library's would be memory the agent never
		// sees again, and would pass the permission check of the wrong library.
		return tool.Fail(tool.CodeInvalidArguments, "the memory notebook lives in the default library %q, not %q: call memory_notebook_replace without library_name", l.Name(), call.Library), nil, nil
	}
	if bad := badMemoryText(in.OldText, in.NewText); bad != "" {
		return tool.Fail(tool.CodeInvalidArguments, "%s", bad), nil, nil
	}
	// Computed from the notebook as it is when written: two turns editing it never
	// conflict, and neither loses the other's entry.
	var size, before int
	_, res, err := rewriteFile(ctx, l, call, "memory_notebook_replace", memoryPath, "", func(data []byte, exists bool) ([]byte, *tool.Result) {
		cur := string(data)
		if !exists {
			cur = memoryHeader
		}
		next, res := replaceMemory(cur, note.InLineEndings(data, in.OldText), note.InLineEndings(data, in.NewText))
		if res != nil {
			return nil, res
		}
		size, before = utf8.RuneCountInString(next), utf8.RuneCountInString(cur)
		if size > MemoryBudget && size > before {
			r := tool.Fail(tool.CodeTooLarge, "the notebook would be %d characters, over its budget of %d (it is %d now); condense it first: replace older or less useful entries with a shorter summary, then retry",
				size, MemoryBudget, before).WithData(struct {
				Budget int `json:"budget"`
				Size   int `json:"size"`
			}{MemoryBudget, before})
			return nil, &r
		}
		return []byte(next), nil
	})
	if res != nil || err != nil {
		if err != nil {
			err = fmt.Errorf("write memory notebook: %w", err)
		}
		return entResult(res), nil, err
	}
	verb := "replaced the text"
	switch {
	case in.OldText == "":
		verb = "appended"
	case in.NewText == "":
		verb = "deleted the text"
	}
	r := tool.OK(fmt.Sprintf("%s in the memory notebook (%d of %d characters used)", verb, size, MemoryBudget))
	if size > MemoryBudget*9/10 {
		r = r.WithWarning("the notebook is nearly full: condense it soon")
	}
	return r, &memoryOut{Size: size, Budget: MemoryBudget, Remaining: max(MemoryBudget-size, 0)}, nil
}

// badMemoryText says what is wrong with the texts, or "".
func badMemoryText(old, repl string) string {
	switch {
	case old == "" && strings.TrimSpace(repl) == "":
		return "both old_text and new_text are empty: give new_text to append, or old_text to replace"
	case old != "" && old == repl:
		return "old_text and new_text are the same: nothing would change"
	case len(old) > maxMemoryArg || len(repl) > maxMemoryArg:
		return fmt.Sprintf("the text is longer than the whole notebook may be (%d characters)", MemoryBudget)
	}
	for _, s := range []string{old, repl} {
		if !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool {
			return unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r'
		}) >= 0 {
			return "the text holds control characters or invalid UTF-8; write plain text"
		}
	}
	return ""
}

// replaceMemory applies one edit: append repl when old is empty, else replace the
// single occurrence of old by repl. It returns the new content or the result to answer.
func replaceMemory(cur, old, repl string) (string, *tool.Result) {
	if old == "" {
		if cur != "" && !strings.HasSuffix(cur, "\n") {
			cur += "\n"
		}
		if !strings.HasSuffix(repl, "\n") {
			repl += "\n"
		}
		return cur + repl, nil
	}
	switch n := strings.Count(cur, old); {
	case n == 0:
		near := nearestText(cur, old)
		r := tool.Fail(tool.CodeNoMatch, "old_text does not occur in the notebook; copy it exactly (spaces and line breaks count). The nearest text is:\n%s", near)
		r.Data = struct {
			Nearest string `json:"nearest"`
		}{near}
		return "", &r
	case n > 1:
		r := tool.Fail(tool.CodeCountMismatch, "old_text occurs %d times in the notebook; include more of the surrounding text so that it occurs once", n)
		return "", &r
	}
	return strings.Replace(cur, old, repl, 1), nil
}

// nearestText returns the run of lines of cur, as many as old has, closest to old:
// the one sharing the most of old's words, then the nearest by edit distance.
func nearestText(cur, old string) string {
	lines := strings.Split(strings.TrimRight(cur, "\n"), "\n")
	span := min(max(strings.Count(strings.TrimRight(old, "\n"), "\n")+1, 1), len(lines))
	words := strings.Fields(strings.ToLower(old))
	var windows []string
	best, bestScore := "", 0
	for i := 0; i+span <= len(lines); i++ {
		w := strings.Join(lines[i:i+span], "\n")
		if strings.TrimSpace(w) == "" {
			continue
		}
		windows = append(windows, w)
		lw, score := strings.ToLower(w), 0
		for _, word := range words {
			if strings.Contains(lw, word) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = w, score
		}
	}
	if best != "" {
		return best
	}
	if near := tool.Nearest(old, windows, 1); len(near) > 0 {
		return near[0]
	}
	return ""
}
