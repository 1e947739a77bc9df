//go:build unix

package mapped

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/memotree/memotree/backend/internal/regular"
)

// File maps the file at path read-only. release unmaps it; nothing may use data after
// release. An empty file gives nil data; anything but a regular file (a named pipe) is
// refused without blocking (internal/regular).
func File(path string, o Options) (data []byte, release func(), err error) {
	f, st, err := regular.OpenPath(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if st.Size() == 0 {
		return nil, func() {}, nil
	}
	if st.Size() > 1<<40 {
		return nil, nil, errors.New("file too large to map")
	}
	flags := syscall.MAP_SHARED
	if o.Populate {
		flags |= populate
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, flags)
	if err != nil {
		return nil, nil, fmt.Errorf("map %s: %w", path, err)
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
