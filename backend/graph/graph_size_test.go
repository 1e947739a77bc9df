package graph

import (
	"testing"
	"unsafe"
)

// TestLinkSize holds the size of the graph's own record of a link (a million of them
// at 100,000 notes): what the link says is read from the note, not copied.
func TestLinkSize(t *testing.T) {
	if s := unsafe.Sizeof(link{}); s > 24 {
		t.Errorf("link is %d bytes, want at most 24", s)
	}
}
