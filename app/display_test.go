package app

import (
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNoDisplay: the window is refused, with the reason, when neither an X server nor
// a Wayland compositor GTK would use can be reached; a reachable one lets it open.
// The Wayland sockets are real ones in a temporary runtime folder; the X server's are
// answered by a fake dial.
func TestNoDisplay(t *testing.T) {
	runtimeDir := t.TempDir()
	ln, err := net.Listen("unix", filepath.Join(runtimeDir, "wayland-1"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	xUp := map[string]bool{"/tmp/.X11-unix/X0": true, "example.org:6010": true}
	dial := func(network, address string) error {
		if network == "unix" && !strings.HasPrefix(address, "/tmp/.X11-unix/") && !strings.HasPrefix(address, "@") {
			c, err := net.Dial(network, address)
			if err == nil {
				c.Close()
			}
			return err
		}
		if xUp[address] {
			return nil
		}
		return errors.New("connection refused")
	}
	tests := []struct {
		name string
		goos string
		env  map[string]string
		want string // "" opens the window; otherwise words of the reason
	}{
		{"nothing set", "linux", nil, "DISPLAY and WAYLAND_DISPLAY are unset"},
		{"nothing set, FreeBSD", "freebsd", nil, "DISPLAY and WAYLAND_DISPLAY are unset"},
		{"Windows needs none", "windows", nil, ""},
		{"macOS needs none", "darwin", nil, ""},
		{"X server up", "linux", map[string]string{"DISPLAY": ":0"}, ""},
		{"X server up, screen given", "linux", map[string]string{"DISPLAY": "unix:0.0"}, ""},
		{"no X server", "linux", map[string]string{"DISPLAY": ":99"}, "DISPLAY is :99 but no X server answers at /tmp/.X11-unix/X99"},
		{"remote X server up", "linux", map[string]string{"DISPLAY": "example.org:10.0"}, ""},
		{"remote X server down", "linux", map[string]string{"DISPLAY": "example.org:11"}, "example.org:6011"},
		{"unknown DISPLAY form", "linux", map[string]string{"DISPLAY": "/private/tmp/launchd/org.xquartz:0"}, ""},
		{"Wayland up", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": runtimeDir, "XDG_SESSION_TYPE": "wayland"}, ""},
		{"Wayland by path", "linux", map[string]string{"WAYLAND_DISPLAY": filepath.Join(runtimeDir, "wayland-1"), "GDK_BACKEND": "wayland"}, ""},
		{"Wayland down", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-2", "XDG_RUNTIME_DIR": runtimeDir, "XDG_SESSION_TYPE": "wayland"},
			"no compositor answers at " + filepath.Join(runtimeDir, "wayland-2") + "; DISPLAY is unset"},
		{"Wayland up but GTK told to use X11", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": runtimeDir},
			"GTK is to use X11"},
		{"Wayland down, X up", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-2", "XDG_RUNTIME_DIR": runtimeDir, "DISPLAY": ":0"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := noDisplay(tt.goos, func(k string) string { return tt.env[k] }, dial)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("noDisplay = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestX11Addresses: where the X server of a DISPLAY listens.
func TestX11Addresses(t *testing.T) {
	tests := []struct {
		display string
		want    []socketAddr
		ok      bool
	}{
		{":0", []socketAddr{{"unix", "/tmp/.X11-unix/X0"}, {"unix", "@/tmp/.X11-unix/X0"}}, true},
		{":1.0", []socketAddr{{"unix", "/tmp/.X11-unix/X1"}, {"unix", "@/tmp/.X11-unix/X1"}}, true},
		{"unix:2", []socketAddr{{"unix", "/tmp/.X11-unix/X2"}, {"unix", "@/tmp/.X11-unix/X2"}}, true},
		{"localhost:10.0", []socketAddr{{"tcp", "localhost:6010"}}, true},
		{"tcp/host:3", []socketAddr{{"tcp", "host:6003"}}, true},
		{"[::1]:0", []socketAddr{{"tcp", "[::1]:6000"}}, true},
		{"nonsense", nil, false},
		{":x", nil, false},
		{"/private/tmp/launchd/org.xquartz:0", nil, false},
	}
	for _, tt := range tests {
		got, ok := x11Addresses(tt.display)
		if ok != tt.ok {
			t.Errorf("%q: ok %v, want %v", tt.display, ok, tt.ok)
		}
		if d := cmp.Diff(tt.want, got, cmp.AllowUnexported(socketAddr{})); d != "" {
			t.Errorf("%q (-want +got):\n%s", tt.display, d)
		}
	}
}

// TestNoDisplayMessage: the message names the reason and `memotree serve`, and the
// failure Wails panics with is recognised (other panics are not).
func TestNoDisplayMessage(t *testing.T) {
	msg := noDisplayMessage("DISPLAY and WAYLAND_DISPLAY are unset")
	for _, w := range []string{"no display found", "DISPLAY and WAYLAND_DISPLAY are unset", "memotree serve", "browser"} {
		if !strings.Contains(msg, w) {
			t.Errorf("message lacks %q:\n%s", w, msg)
		}
	}
	for _, tt := range []struct {
		v    any
		want bool
	}{
		{errors.New("failed to init GTK"), true},
		{"failed to init GTK", true},
		{errors.New("index out of range"), false},
		{42, false},
	} {
		if got := noDisplayPanic(tt.v); got != tt.want {
			t.Errorf("noDisplayPanic(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
