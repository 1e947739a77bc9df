package app

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// noDisplay says why the window cannot open on a system of kind goos, or "" when a
// display looks reachable there (Windows and macOS always have one). getenv reads the
// environment and dial tries to connect to a display server's socket. On Linux and
// the BSDs GTK needs an X server (DISPLAY) or a Wayland compositor (WAYLAND_DISPLAY);
// Wails makes GTK use X11 unless GDK_BACKEND or XDG_SESSION_TYPE says otherwise, so
// a Wayland socket counts only then. A DISPLAY whose form is not known is taken as
// reachable: GTK decides, and noDisplayPanic catches its failure.
func noDisplay(goos string, getenv func(string) string, dial func(network, address string) error) string {
	if goos == "windows" || goos == "darwin" {
		return ""
	}
	x, w := getenv("DISPLAY"), getenv("WAYLAND_DISPLAY")
	if x == "" && w == "" {
		return "DISPLAY and WAYLAND_DISPLAY are unset"
	}
	var why []string
	if w != "" {
		path := w
		if !filepath.IsAbs(path) {
			path = filepath.Join(getenv("XDG_RUNTIME_DIR"), w)
		}
		switch {
		case dial("unix", path) != nil:
			why = append(why, fmt.Sprintf("WAYLAND_DISPLAY is %s but no compositor answers at %s", w, path))
		case gdkBackend(getenv) == "x11":
			why = append(why, fmt.Sprintf("WAYLAND_DISPLAY is %s but GTK is to use X11 (set XDG_SESSION_TYPE=wayland to use Wayland)", w))
		default:
			return ""
		}
	}
	if x != "" {
		addrs, ok := x11Addresses(x)
		if !ok {
			return ""
		}
		for _, a := range addrs {
			if dial(a.network, a.address) == nil {
				return ""
			}
		}
		why = append(why, fmt.Sprintf("DISPLAY is %s but no X server answers at %s", x, addrs[0].address))
	} else {
		why = append(why, "DISPLAY is unset")
	}
	return strings.Join(why, "; ")
}

// gdkBackend returns the backend GTK will use as Wails starts it: GDK_BACKEND when
// set, else x11 when XDG_SESSION_TYPE is unset, "unspecified" or "x11" (Wails sets
// GDK_BACKEND=x11 then), else "" (GTK chooses).
func gdkBackend(getenv func(string) string) string {
	if b := getenv("GDK_BACKEND"); b != "" {
		return b
	}
	switch getenv("XDG_SESSION_TYPE") {
	case "", "unspecified", "x11":
		return "x11"
	}
	return ""
}

// socketAddr is a place a display server listens at.
type socketAddr struct{ network, address string }

// x11Addresses returns where the X server of display ([host]:N[.S]) listens: its
// Unix socket (the file, and the abstract one Linux servers open too) for a local
// display, TCP port 6000+N otherwise. ok is false for a form it does not know.
func x11Addresses(display string) (addrs []socketAddr, ok bool) {
	if strings.HasPrefix(display, "/") { // a launchd socket path, with :N after it
		return nil, false
	}
	i := strings.LastIndex(display, ":")
	if i < 0 {
		return nil, false
	}
	host, num := display[:i], display[i+1:]
	host = strings.TrimPrefix(strings.TrimPrefix(host, "unix/"), "tcp/")
	num, _, _ = strings.Cut(num, ".")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || n > 59535 {
		return nil, false
	}
	if host == "" || host == "unix" {
		sock := "/tmp/.X11-unix/X" + num
		return []socketAddr{{"unix", sock}, {"unix", "@" + sock}}, true
	}
	return []socketAddr{{"tcp", net.JoinHostPort(strings.Trim(host, "[]"), strconv.Itoa(6000+n))}}, true
}

// dialTimeout bounds the wait for a display server to accept a connection.
const dialTimeout = 2 * time.Second

// dialDisplay connects to a display server's socket and hangs up.
func dialDisplay(network, address string) error {
	c, err := net.DialTimeout(network, address, dialTimeout)
	if err != nil {
		return err
	}
	return c.Close()
}

// noDisplayMessage is what the person reads when the window cannot open for want of
// a display: why, and how to get the same window in a browser.
func noDisplayMessage(why string) string {
	return "memotree: no display found (" + why + "), so the window cannot open.\n" +
		"Run memotree in a graphical session, or run `memotree serve` for the same window in a browser:\n" +
		"it prints the address to open (add --library NAME=PATH to open a vault, or pick one in its welcome).\n"
}

// noDisplayPanic reports whether v, a value recovered from a panic while the window
// was starting, is GTK failing to start for want of a usable display (Wails panics
// with "failed to init GTK" then).
func noDisplayPanic(v any) bool {
	err, ok := v.(error)
	if !ok {
		s, isString := v.(string)
		err, ok = errors.New(s), isString
	}
	return ok && strings.Contains(err.Error(), "failed to init GTK")
}
