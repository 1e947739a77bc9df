//go:build (desktop || bindings) && linux

package app

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/godbus/dbus/v5"
	"github.com/wailsapp/wails/v2/pkg/options"
)

// forwardToRunning hands args to the window already running under the single-instance
// id, over the session bus, the way Wails' own single-instance lock does on Linux
// (the name and the message are Wails'): the running window opens the folder named
// and comes to the front. It reports whether a running window took them; with no
// session bus, or none running, the caller starts the app itself. Doing this before
// anything is opened keeps a second launch from scanning vaults, or starting GTK, only
// to be told to exit.
func forwardToRunning(id string, args []string) (bool, error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return false, nil
	}
	defer conn.Close()
	name := "org.wails_app_" + id + ".SingleInstance"
	var has bool
	if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&has); err != nil || !has {
		return false, nil
	}
	wd, _ := os.Getwd()
	msg, err := json.Marshal(options.SecondInstanceData{Args: args, WorkingDirectory: wd})
	if err != nil {
		return false, err
	}
	obj := conn.Object(name, dbus.ObjectPath("/org/wails_app_"+id+"/SingleInstance"))
	if err := obj.Call(name+".SendMessage", 0, string(msg)).Store(); err != nil {
		return false, fmt.Errorf("tell the running window: %w", err)
	}
	return true, nil
}
