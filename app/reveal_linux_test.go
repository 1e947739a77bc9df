package app

import (
	"bufio"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"
)

// fileManager is a freedesktop FileManager1 service on the session bus that records
// what it is asked to show.
type fileManager struct{ shown chan []string }

func (m *fileManager) ShowItems(uris []string, _ string) *dbus.Error {
	m.shown <- uris
	return nil
}

// sessionBus starts a D-Bus session bus of the test's own (dbus-daemon) and points
// DBUS_SESSION_BUS_ADDRESS at it.
func sessionBus(t *testing.T) {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Fatalf("dbus-daemon is missing (Debian's dbus-daemon package; make deps-apt installs it): %v", err)
	}
	cmd := exec.Command(daemon, "--session", "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dbus-daemon: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", strings.TrimSpace(addr))
}

// TestRevealAsksTheFileManager: Show in folder asks the file manager, over the session
// bus, to show the note selected in its folder, naming it by its file URI (spaces and
// all).
func TestRevealAsksTheFileManager(t *testing.T) {
	sessionBus(t)
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fm := &fileManager{shown: make(chan []string, 1)}
	if err := conn.Export(fm, "/org/freedesktop/FileManager1", "org.freedesktop.FileManager1"); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName("org.freedesktop.FileManager1", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own the FileManager1 name: %v, %v", reply, err)
	}
	note := filepath.Join(t.TempDir(), "people", "Ada Lovelace.md")
	if err := os.MkdirAll(filepath.Dir(note), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(note, []byte("# Ada\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := reveal(note); err != nil {
		t.Fatalf("reveal: %v", err)
	}
	select {
	case uris := <-fm.shown:
		if len(uris) != 1 {
			t.Fatalf("the file manager was asked to show %q", uris)
		}
		u, err := url.Parse(uris[0])
		if err != nil || u.Scheme != "file" || u.Path != note {
			t.Errorf("the file manager was asked to show %q, want the file URI of %s", uris[0], note)
		}
	default: // the call waits for the file manager's answer: it was asked by now, or never
		t.Fatal("the file manager was never asked")
	}
}
