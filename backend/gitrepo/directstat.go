package gitrepo

import "sync/atomic"

// directStat makes the status walk's lstat calls raw system calls (see DirectStat).
var directStat atomic.Bool

// DirectStat makes the status walk stat the working tree's files with raw system
// calls (on Linux), which keep the goroutine's processor while in the kernel. With
// ordinary calls the runtime's monitor (sysmon) finds a processor in a system call
// on almost every wake-up of a status's thousands of short lstat calls, hands it to
// another thread and keeps waking every 20 µs: at 10k notes about 1,000 wake-ups and
// 100 thread hand-offs per status, several percent of a one-shot `memotree call
// git_status`. For a one-shot process only: a stat that blocks (a hung network
// mount) then holds its processor, and a garbage collection waits for it, stalling
// the whole process rather than the status alone — a serving process keeps the
// ordinary calls.
func DirectStat() { directStat.Store(true) }
