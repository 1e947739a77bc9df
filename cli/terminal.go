package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/memotree/memotree/backend/approval"
)

// terminal is the person at a terminal, asked about a call that waits for them
// (approval.Asker) in the one wording every face uses (approval.Request.Question):
// `memotree call` and `memotree chat` ask here.
type terminal struct {
	// out shows the question (standard error: standard output is the answer's).
	out io.Writer
	// line reads the person's answer; nil when no one at a terminal can answer (a
	// pipe, a script, chat -p).
	line func() (string, bool)
	// yes approves every call without asking (--yes).
	yes bool
	// advice says how to allow a call when no one can be asked.
	advice string
}

// ask puts r to the person: y or yes runs it, anything else (end of input included)
// does not.
func (t terminal) ask(_ context.Context, r approval.Request) (bool, error) {
	if t.yes {
		fmt.Fprintf(t.out, "· approved by --yes: %s in library %q\n", r.Tool, r.Library)
		return true, nil
	}
	if t.line == nil {
		return false, approval.Nobody(t.advice)
	}
	// The whole call, however long: the person approves what they were shown.
	fmt.Fprint(t.out, r.Question()+" [y/N] ")
	a, ok := t.line()
	a = strings.ToLower(strings.TrimSpace(a))
	return ok && (a == "y" || a == "yes"), nil
}
