// Package fsfault is how a full or failing disk shows in MemoTree's errors, and the
// seam through which tests make file-system writes fail the way such a disk does.
//
// Classify tells a disk fault (no space, quota exceeded, an input/output error) from
// any other error; Wrap names the folder whose disk it happened on, so that Advice can
// say how much is free there and what to free. Every write of the vault, the git
// repository and the app's own files calls Check before each step that changes the
// disk (create, write, sync, rename, link, remove, make a folder): in production it
// does nothing; a test that called Inject gets the error it chose at the step it chose.
//
// Concurrency: Check, Classify, Wrap and Advice are safe for concurrent use. Inject
// sets one process-wide hook: tests that use it must not run in parallel with other
// tests that write.
package fsfault

import (
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"
)

// Kind is the kind of disk fault an error shows.
type Kind int

// The kinds of disk fault.
const (
	// None is any other error (or none).
	None Kind = iota
	// NoSpace is a full disk (ENOSPC).
	NoSpace
	// Quota is a disk quota used up (EDQUOT).
	Quota
	// IO is an input/output error the disk reported (EIO).
	IO
)

// Classify returns the kind of disk fault err shows, looking through wrapped errors.
func Classify(err error) Kind {
	if err == nil {
		return None
	}
	return classify(err)
}

// Is reports whether err is a disk fault of any kind.
func Is(err error) bool { return Classify(err) != None }

// DiskError is a disk fault that happened while writing under Dir (an absolute folder:
// the vault, the git repository, the settings folder).
type DiskError struct {
	Dir string
	Err error
}

func (e *DiskError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *DiskError) Unwrap() error { return e.Err }

// Wrap returns err with the folder dir attached if err is a disk fault that does not
// name a folder yet; any other error is returned as it is.
func Wrap(dir string, err error) error {
	if Classify(err) == None {
		return err
	}
	var de *DiskError
	if errors.As(err, &de) {
		return err
	}
	return &DiskError{Dir: dir, Err: err}
}

// Advice says, for a disk fault, what happened and what the person can do: which
// disk is full and how much is free on it, what to free. It is "" for other errors.
func Advice(err error) string {
	dir := ""
	var de *DiskError
	if errors.As(err, &de) {
		dir = de.Dir
	}
	where := "the disk"
	if dir != "" {
		where = "the disk holding " + dir
		if free, ok := freeBytes(dir); ok {
			where += fmt.Sprintf(" (%s free)", humanBytes(free))
		}
	}
	switch Classify(err) {
	case NoSpace:
		return fmt.Sprintf("%s is full: free some space on it (empty the trash, remove large or temporary files), then try again", where)
	case Quota:
		return fmt.Sprintf("your disk quota on %s is used up: remove some of your files there or ask for a larger quota, then try again", where)
	case IO:
		return fmt.Sprintf("%s reported an input/output error: check the disk (it may be failing or disconnected) and try again", where)
	}
	return ""
}

func humanBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Hook decides whether one step of a write fails: op names the step ("create",
// "write", "sync", "rename", "link", "remove", "mkdir", "syncdir", "truncate"), name
// the file. A nil error lets the step happen.
type Hook func(op, name string) error

var hook atomic.Pointer[Hook]

// Inject makes every later Check call h, until restore is called. Tests only.
func Inject(h Hook) (restore func()) {
	hook.Store(&h)
	return func() { hook.Store(nil) }
}

// Check is called by writers before each step that changes the disk; it returns the
// error a test injected for this step, or nil.
func Check(op, name string) error {
	h := hook.Load()
	if h == nil {
		return nil
	}
	if err := (*h)(op, name); err != nil {
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	return nil
}

// FailAt returns a Hook that fails the nth step it sees (counting from 1) with err
// and lets every other step happen, as a disk that is full for a moment; it counts
// every step in *steps. n <= 0 fails none (to count the steps of an operation first).
func FailAt(n int, err error, steps *atomic.Int64) Hook {
	return func(op, name string) error {
		if k := steps.Add(1); n > 0 && k == int64(n) {
			return err
		}
		return nil
	}
}

// FailFrom returns a Hook that fails the nth step it sees and every step after it,
// as a disk that stays full (so that what a failed write does to clean up fails too,
// except removing files, which frees space); it counts every step in *steps.
func FailFrom(n int, err error, steps *atomic.Int64) Hook {
	return func(op, name string) error {
		if k := steps.Add(1); n > 0 && k >= int64(n) && op != "remove" {
			return err
		}
		return nil
	}
}
