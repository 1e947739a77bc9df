// Package mapped maps a file read-only into memory where the platform allows it
// (Unix), and reads it elsewhere: the search index file and git's index are read
// this way, in place, without a copy into the heap.
//
// The mapping stays valid when the file is replaced by a rename, which is how both
// files are written; a file cut short in place while mapped would fault on access,
// as it would for git, which maps its index too.
package mapped

// Options say how to map.
type Options struct {
	// Populate maps every page at once (Linux: MAP_POPULATE), for a file that is
	// about to be read whole: one system call instead of a page fault per 4 KB.
	Populate bool
}
