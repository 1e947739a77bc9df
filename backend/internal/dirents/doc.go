// Package dirents lists a folder's entries with their types and nothing else: on
// Linux straight from getdents64 into a pooled buffer, with no stat, *os.File,
// DirEntry or FileInfo per entry; elsewhere through os.File.ReadDir. The vault's
// walk and the git working-tree walk both list folders through it.
//
// On Linux, Lstat and Mode stat one entry relative to an open folder for the vault
// walk, the vault's write batches and git status alike.
//
// List may be called from many goroutines at once, on different folders.
package dirents

import "io/fs"

// TypeUnknown is the type List gives an entry whose type the file system does not
// report; the caller stats it.
const TypeUnknown = ^fs.FileMode(0)
