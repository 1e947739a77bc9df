package gitrepo

// SetBeforeHunkWrite makes UndoHunks call f once it has read the file, before its
// compare-and-swap write.
func SetBeforeHunkWrite(r *Repo, f func()) { r.beforeHunkWrite = f }
