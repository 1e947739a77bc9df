package mapped

import "syscall"

// populate is the flag that maps every page at once.
const populate = syscall.MAP_POPULATE
