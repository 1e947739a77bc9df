package search

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"
)

// TestNoVouchingOnNetworkFileSystems: the file systems another machine may change are
// told from local ones, and a local folder is watched locally.
func TestNoVouchingOnNetworkFileSystems(t *testing.T) {
	if !watchedLocally(t.TempDir()) {
		t.Skip("the temporary folder is itself on a network file system")
	}
	for _, name := range []string{"NFS", "SMB", "FUSE"} {
		if !slices.Contains(slices.Collect(maps.Values(remoteFS)), name) {
			t.Errorf("%s is not among the remote file systems", name)
		}
	}
	if watchedLocally(filepath.Join(t.TempDir(), "missing")) {
		t.Error("a folder that cannot be looked at is taken for a local one")
	}
}
