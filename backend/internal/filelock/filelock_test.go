package filelock

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestHoldAndHeld holds a lock, sees it held from this process and from another (a
// child process running this test binary), sees a second Hold refused, and sees the
// lock gone once released, and once the child that held it is killed.
func TestHoldAndHeld(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("filelock holds only on Linux")
	}
	if path := os.Getenv("FILELOCK_CHILD"); path != "" {
		child(path)
		return
	}
	path := filepath.Join(t.TempDir(), "lock")
	if held, err := Held(path); err != nil || held {
		t.Fatalf("Held of a missing file = %v, %v", held, err)
	}
	release, ok, err := Hold(path)
	if err != nil || !ok {
		t.Fatalf("Hold = %v, %v", ok, err)
	}
	if held, err := Held(path); err != nil || !held {
		t.Fatalf("Held while held = %v, %v", held, err)
	}
	if _, ok, err := Hold(path); err != nil || ok {
		t.Fatalf("a second Hold = %v, %v; want refused", ok, err)
	}
	// Asking from this process did not drop the lock (a POSIX record lock would be).
	if held, err := Held(path); err != nil || !held {
		t.Fatalf("Held after asking twice = %v, %v", held, err)
	}
	if out := runChild(t, path, "held"); out != "held" {
		t.Fatalf("the other process sees %q, want held", out)
	}
	release()
	if held, err := Held(path); err != nil || held {
		t.Fatalf("Held after release = %v, %v", held, err)
	}
	// A process that dies drops its lock.
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldAndHeld$")
	cmd.Env = append(os.Environ(), "FILELOCK_CHILD="+path, "FILELOCK_DO=hold")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := stdout.Read(buf); err != nil || string(buf) != "hold" {
		t.Fatalf("the child says %q, %v", buf, err)
	}
	if held, err := Held(path); err != nil || !held {
		t.Fatalf("Held while the child holds = %v, %v", held, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if held, err := Held(path); err != nil || held {
		t.Fatalf("Held after the holder died = %v, %v", held, err)
	}
}

// runChild runs the child asking whether the lock is held, and returns its answer.
func runChild(t *testing.T, path, do string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldAndHeld$")
	cmd.Env = append(os.Environ(), "FILELOCK_CHILD="+path, "FILELOCK_DO="+do)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}

// child is the other process: it reports whether the lock is held, or holds it until
// killed.
func child(path string) {
	switch os.Getenv("FILELOCK_DO") {
	case "held":
		held, err := Held(path)
		switch {
		case err != nil:
			os.Stdout.WriteString("error\n")
		case held:
			os.Stdout.WriteString("held\n")
		default:
			os.Stdout.WriteString("free\n")
		}
	case "hold":
		if _, ok, err := Hold(path); err != nil || !ok {
			os.Stdout.WriteString("fail\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("hold")
		time.Sleep(time.Minute)
	}
	os.Exit(0)
}
