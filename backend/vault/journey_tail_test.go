package vault

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestJourneyTail(t *testing.T) {
	v, _ := openTemp(t)
	if es, _, err := v.JourneyTail(1 << 20); err != nil || len(es) != 0 {
		t.Fatalf("JourneyTail of a vault without journey = %v, %v", es, err)
	}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var want []Entry
	for i := range 50 {
		e := Entry{Time: at.Add(time.Duration(i) * time.Second), Actor: "agent@t-" + fmt.Sprint(i), Op: "update_entity",
			Entities: []string{fmt.Sprintf("n%d.md", i)}, Outcome: "ok"}
		if err := v.AppendJourney(t.Context(), e); err != nil {
			t.Fatal(err)
		}
		want = append(want, e)
	}
	all, _, err := v.Journey()
	if err != nil {
		t.Fatal(err)
	}
	full, warns, err := v.JourneyTail(1 << 20)
	if err != nil || len(warns) > 0 {
		t.Fatalf("JourneyTail = %v, %v", warns, err)
	}
	if d := cmp.Diff(all, full); d != "" {
		t.Errorf("the whole tail differs from Journey (-want +got):\n%s", d)
	}
	b, _ := v.root.ReadFile(osName(JourneyPath))
	// Every window size gives a suffix of the journey, never a torn entry.
	for size := int64(0); size <= int64(len(b)); size += 7 {
		tail, warns, err := v.JourneyTail(size)
		if err != nil || len(warns) > 0 {
			t.Fatalf("JourneyTail(%d): %v, %v", size, warns, err)
		}
		if d := cmp.Diff(all[len(all)-len(tail):], tail, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("JourneyTail(%d) is not a suffix (-want +got):\n%s", size, d)
		}
	}
	// A window ending exactly at an entry's start keeps that entry.
	last := bytesIndexLast(b, []byte("\n- "))
	tail, _, _ := v.JourneyTail(int64(len(b) - last - 1))
	if len(tail) != 1 || tail[0].Actor != "agent@t-49" {
		t.Errorf("window at the last entry's start = %v", tail)
	}
}

func bytesIndexLast(b, sep []byte) int {
	for i := len(b) - len(sep); i >= 0; i-- {
		if string(b[i:i+len(sep)]) == string(sep) {
			return i
		}
	}
	return -1
}
