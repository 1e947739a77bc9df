package portable

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"syscall"
	"time"
)

// ErrInUse means a file could not be renamed or replaced because another program
// holds it open (Windows' sharing violation), even after Rename's retries.
var ErrInUse = errors.New("the file is open in another program")

// Windows' error codes for a file another program holds: ERROR_ACCESS_DENIED (a
// replaced file open without delete sharing, or one an antivirus or indexer scans),
// ERROR_SHARING_VIOLATION and ERROR_LOCK_VIOLATION.
const (
	errorAccessDenied     syscall.Errno = 5
	errorSharingViolation syscall.Errno = 32
	errorLockViolation    syscall.Errno = 33
)

// Renamer renames a file; *os.Root does, and a test's fake.
type Renamer interface {
	Rename(oldname, newname string) error
}

// Retry says how long Rename keeps trying while another program holds the file.
// The zero value tries for about two seconds on Windows and never retries elsewhere.
type Retry struct {
	// GOOS is the system whose error codes are read (runtime.GOOS when empty).
	GOOS string
	// Tries is how many times to try in all (9 when zero: about two seconds).
	Tries int
	// Sleep waits d or until ctx ends (a timer when nil); tests pass one that
	// records the waits instead.
	Sleep func(ctx context.Context, d time.Duration) error
}

// InUse reports whether err is the error goos gives when another program holds the
// file (a sharing or lock violation, or access denied); always false but on Windows.
func InUse(goos string, err error) bool {
	var errno syscall.Errno
	if goos != "windows" || !errors.As(err, &errno) {
		return false
	}
	return errno == errorSharingViolation || errno == errorLockViolation || errno == errorAccessDenied
}

// Rename renames from to to through r. While the rename fails because another
// program holds one of the files, it waits (10 ms, doubling up to half a second) and
// tries again; when the tries run out the error wraps ErrInUse and the last cause,
// and names both files (the caller, who knows which of them is the person's file,
// says to close it). Other errors, and the context's end, return at once.
func (p Retry) Rename(ctx context.Context, r Renamer, from, to string) error {
	goos, tries, sleep := p.GOOS, p.Tries, p.Sleep
	if goos == "" {
		goos = runtime.GOOS
	}
	if tries <= 0 {
		tries = 9
	}
	if sleep == nil {
		sleep = sleepCtx
	}
	delay := 10 * time.Millisecond
	var waited time.Duration
	for try := 1; ; try++ {
		err := r.Rename(from, to)
		if err == nil || !InUse(goos, err) {
			return err
		}
		if try == tries {
			return fmt.Errorf("rename %s to %s: %w (tried %d times in %s): %w",
				from, to, ErrInUse, tries, waited, err)
		}
		if serr := sleep(ctx, delay); serr != nil {
			return fmt.Errorf("rename %s to %s: %w", from, to, errors.Join(err, serr))
		}
		waited += delay
		delay = min(2*delay, 500*time.Millisecond)
	}
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
