package app

import (
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/godbus/dbus/v5"
)

// reveal shows the file at path in the system's file manager: selected in its folder
// where the file manager can (the freedesktop FileManager1 interface on Linux, Finder,
// Explorer), otherwise its folder opened with xdg-open.
func reveal(path string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", "-R", path)
	case "windows":
		cmd = exec.Command("explorer", "/select,"+path)
	default:
		if showItem(path) == nil {
			return nil
		}
		cmd = exec.Command("xdg-open", filepath.Dir(path))
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("show %s in its folder: %w", path, err)
	}
	go cmd.Wait() // the file manager outlives the call; reap the launcher
	return nil
}

// showItem asks a freedesktop file manager (Nautilus, Dolphin, Nemo…) over the
// session bus to show path selected in its folder.
func showItem(path string) error {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return err
	}
	defer conn.Close()
	obj := conn.Object("org.freedesktop.FileManager1", "/org/freedesktop/FileManager1")
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	return obj.Call("org.freedesktop.FileManager1.ShowItems", 0, []string{uri}, "").Err
}
