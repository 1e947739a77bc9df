//go:build unix && !linux

package mapped

// populate is 0 where the platform has no such flag: pages are mapped as they are read.
const populate = 0
