package face

import (
	"context"

	"github.com/memotree/memotree/backend/workspace"
)

// OpenIndex opens the libraries of f for `memotree index`: each is read whole before
// it returns, once, never to be kept current. beforeRead, when set, is told how many
// notes a library's scan is about to read.
func OpenIndex(ctx context.Context, f Flags, beforeRead func(notes int)) (*workspace.Workspace, error) {
	face := f.face(workspace.Indexing)
	face.BeforeRead = beforeRead
	return open(ctx, f, face)
}
