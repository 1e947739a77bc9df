//go:build linux

package osmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestPrepareHugeHeap: the span the heap grows into is advised for huge pages, which
// /proc/self/smaps shows as a mapping of at least that size with the "hg" flag.
func TestPrepareHugeHeap(t *testing.T) {
	const size = 64 << 20
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skipf("this kernel has no transparent huge pages: %v", err)
	}
	before := hugeAdvisedKB(t)
	if !PrepareHugeHeap(size) {
		t.Fatal("PrepareHugeHeap: madvise(MADV_HUGEPAGE) was refused")
	}
	if got := hugeAdvisedKB(t) - before; got < size>>10 {
		t.Fatalf("memory advised for huge pages grew by %d KB, want at least %d KB", got, size>>10)
	}
}

// hugeAdvisedKB sums the sizes of this process's mappings that carry the "hg"
// (MADV_HUGEPAGE) flag.
func hugeAdvisedKB(t *testing.T) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	total, size := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Size:"):
			size, _ = strconv.Atoi(strings.Fields(line)[1])
		case strings.HasPrefix(line, "VmFlags:"):
			if strings.Contains(line+" ", " hg ") {
				total += size
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return total
}

// TestPrepareHugeHeapIsBounded: a size past any machine's memory (a build's estimate
// of a huge vault) prepares MaxHugeHeap at most, instead of asking the kernel for
// address space it may refuse, which would end the process.
func TestPrepareHugeHeapIsBounded(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skipf("this kernel has no transparent huge pages: %v", err)
	}
	before := hugeAdvisedKB(t)
	PrepareHugeHeap(1 << 42) // 4 TB
	if got := hugeAdvisedKB(t) - before; got > MaxHugeHeap>>10+64<<10 {
		t.Fatalf("memory advised for huge pages grew by %d KB, more than MaxHugeHeap (%d KB)", got, MaxHugeHeap>>10)
	}
}
