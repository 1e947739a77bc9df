package note

import (
	"strings"
	"testing"
	"time"
)

func TestKeepStyle(t *testing.T) {
	for _, c := range []struct{ name, old, next, want string }{
		{"CRLF note, LF appended", "a\r\nb\r\n", "a\r\nb\r\n\nc\n", "a\r\nb\r\n\r\nc\r\n"},
		{"LF note, CRLF given", "a\nb\n", "a\nb\r\nc\r\n", "a\nb\nc\n"},
		{"mixed note left as it is", "a\r\nb\n", "a\r\nb\nc\n", "a\r\nb\nc\n"},
		{"BOM kept", "\ufeffa\n", "a\nb\n", "\ufeffa\nb\n"},
		{"no BOM stays without", "a\n", "\ufeffa\nb\n", "a\nb\n"},
		{"no final line break kept", "a\r\nb", "a\r\nb\r\nc\r\n", "a\r\nb\r\nc"},
		{"final line break kept", "a\n", "a\nb", "a\nb\n"},
		{"CRLF final break added as CRLF", "a\r\n", "a\r\nb", "a\r\nb\r\n"},
		{"BOM, CRLF, no final break", "\ufeff---\r\nx: 1\r\n---\r\nbody", "---\r\nx: 1\r\n---\r\nbody\nmore\n", "\ufeff---\r\nx: 1\r\n---\r\nbody\r\nmore"},
		{"empty old", "", "a\n", "a\n"},
	} {
		if got := string(KeepStyle([]byte(c.old), []byte(c.next))); got != c.want {
			t.Errorf("%s: KeepStyle = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestInLineEndings(t *testing.T) {
	if got := InLineEndings([]byte("a\r\nb\r\n"), "x\ny\r\nz"); got != "x\r\ny\r\nz" {
		t.Errorf("in a CRLF note: %q", got)
	}
	if got := InLineEndings([]byte("a\nb\n"), "x\r\ny"); got != "x\ny" {
		t.Errorf("in an LF note: %q", got)
	}
}

// TestDateValue: a note's date keeps its format, quoting and zone; a note without one
// gets Obsidian's date & time form, local time without a zone.
func TestDateValue(t *testing.T) {
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.FixedZone("UTC+8", 8*3600) // local time is not UTC here
	now := time.Date(2026, 11, 25, 16, 20, 37, 0, time.UTC)
	local := now.In(time.Local)
	for _, c := range []struct{ name, src, want string }{
		{"none", "# x\n", "date modified: 2026-11-26T00:20:37\n"},
		{"RFC 3339 with offset", "---\ndate modified: 2025-10-27T09:12:00+08:00\n---\n", "date modified: " + local.Format(time.RFC3339) + "\n"},
		{"UTC", "---\ndate modified: 2025-10-27T09:12:00Z\n---\n", "date modified: 2026-11-25T16:20:37Z\n"},
		{"offset in UTC", "---\ndate modified: 2025-10-27T09:12:00+00:00\n---\n", "date modified: " + local.Format("2006-01-02T15:04:05-07:00") + "\n"},
		{"date only, quoted", "---\ndate modified: \"2025-10-27\"\n---\n", "date modified: \"" + local.Format("2006-01-02") + "\"\n"},
		{"from date created", "---\ndate created: 2025-10-27 09:12\n---\n", "date modified: " + local.Format("2006-01-02 15:04") + "\n"},
		{"not a date", "---\ndate modified: yesterday\n---\n", "date modified: " + local.Format("2006-01-02T15:04:05") + "\n"},
	} {
		out, err := SetProperties([]byte(c.src), []Property{{Key: "date modified", Value: DateValue([]byte(c.src), "date modified", now)}}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("%s: wrote\n%s\nwant a line %q", c.name, out, c.want)
		}
		n := Parse(out)
		if len(n.Warnings) > 0 {
			t.Errorf("%s: warnings %v", c.name, n.Warnings)
		}
	}
}
