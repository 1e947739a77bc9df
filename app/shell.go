//go:build desktop || bindings

package app

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2/pkg/options"

	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/vaults"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/backend/workspace/face"
)

// shell holds the window's lifecycle state.
type shell struct {
	win       *face.Window // what the window works on; ws, api and store are its
	ws        *workspace.Workspace
	api       *uiapi.API
	store     *vaults.Store
	statePath string

	mu      sync.Mutex
	ctx     context.Context // the Wails lifecycle context, the one context kept in a struct
	stopBus func()

	// The smoke test (--smoke-test): the reports the window made.
	smoke     bool
	smokeHold time.Duration
	smokeWant int
	reports   int
	bad       string // why the smoke test fails, "" when it does not
}

func (s *shell) context() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ctx
}

func (s *shell) startup(ctx context.Context) {
	s.mu.Lock()
	s.ctx = ctx
	s.mu.Unlock()
	takeSignals(os.Stderr, s.quit)
	ch, cancel := s.ws.Bus().Subscribe(64)
	s.stopBus = cancel
	go func() {
		for e := range ch {
			emit(ctx, string(e.Topic), e.Data)
		}
	}()
}

// domReady puts the window where it was when it last closed (Wails centres it).
func (s *shell) domReady(ctx context.Context) {
	w := s.store.State().Window
	if w.Width > 0 && !w.Maximised && w.X >= 0 && w.Y >= 0 {
		placeWindow(ctx, w.X, w.Y)
	}
}

// beforeClose remembers the window's size and place; the window then closes.
func (s *shell) beforeClose(ctx context.Context) bool {
	width, height, x, y, maximised := windowGeometry(ctx)
	win := vaults.Window{Width: width, Height: height, X: x, Y: y, Maximised: maximised}
	if maximised { // keep the size to come back to
		prev := s.store.State().Window
		win.Width, win.Height, win.X, win.Y = prev.Width, prev.Height, prev.X, prev.Y
	}
	if err := s.store.SetWindow(win); err != nil {
		fmt.Fprintln(os.Stderr, "memotree:", err)
	}
	return false
}

func (s *shell) shutdown(context.Context) {
	if s.stopBus != nil {
		s.stopBus()
	}
}

func (s *shell) quit() { quit(s.context()) }

// pickFolder shows the system's folder chooser (uiapi.VaultOptions.PickFolder).
func (s *shell) pickFolder() (string, error) {
	ctx := s.context()
	if ctx == nil {
		return "", fmt.Errorf("the window is not up yet")
	}
	return pickFolder(ctx, "Open a folder as a vault")
}

// pickAndOpen asks for a folder and opens it (File › Open Folder as Vault).
func (s *shell) pickAndOpen() {
	dir, err := s.pickFolder()
	if err != nil {
		s.notice(err.Error())
		return
	}
	if dir != "" {
		s.openFolder(dir)
	}
}

// openFolder opens dir as a vault; the window switches to it when the workspace says
// it was opened, and shows what went wrong otherwise.
func (s *shell) openFolder(dir string) {
	if _, err := s.api.OpenVault(dir); err != nil {
		s.notice(err.Error())
	}
}

// secondLaunch is a second `memotree [FOLDER]` by the same person: its window is
// this one, brought to the front, and the folder it names opens here.
func (s *shell) secondLaunch(d options.SecondInstanceData) {
	ctx := s.context()
	if ctx != nil {
		raiseWindow(ctx)
	}
	f, err := parseDesktopFlags(d.Args, d.WorkingDirectory, discard{})
	if err != nil {
		s.notice(fmt.Sprintf("MemoTree was launched again with %q: %v", d.Args, err))
		return
	}
	if s.smoke {
		fmt.Printf("smoke: a second launch asked for %q\n", d.Args)
	}
	switch {
	case f.folder != "":
		s.openFolder(f.folder)
	case f.demo:
		if _, err := s.api.OpenDemoVault(); err != nil {
			s.notice(err.Error())
		}
	}
	for _, sp := range f.flags.Libraries {
		s.openFolder(sp.Path)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// smokeRendered is the window's report of a library's tree rendered.
func (s *shell) smokeRendered(r uiapi.RenderReport) {
	fmt.Printf("smoke: the window rendered %d notes of %s (panels: %s)\n", r.Notes, r.Library, r.Layout)
	bad := ""
	if r.Notes == 0 {
		bad = "the window rendered no notes of " + r.Library
	}
	s.smokeReport(bad)
}

// smokeWelcome is the window's report that it shows the welcome.
func (s *shell) smokeWelcome() {
	fmt.Println("smoke: the window shows the welcome")
	s.smokeReport("")
}

// smokeReport counts a report of the window; after the reports the smoke test waits
// for, it holds the window for a screenshot, then closes it.
func (s *shell) smokeReport(bad string) {
	s.mu.Lock()
	s.reports++
	if bad != "" {
		s.bad = bad
	}
	done := s.reports == s.smokeWant
	ctx := s.ctx
	s.mu.Unlock()
	if done {
		go func() {
			time.Sleep(s.smokeHold)
			quit(ctx)
		}()
	}
}

func (s *shell) smokeDeadline(d time.Duration) {
	time.Sleep(d)
	s.mu.Lock()
	n := s.reports
	s.mu.Unlock()
	if n < s.smokeWant {
		fmt.Fprintf(os.Stderr, "smoke: the window made %d of %d reports within %s\n", n, s.smokeWant, d)
		os.Exit(1)
	}
}

func (s *shell) smokeCode() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reports < s.smokeWant {
		fmt.Fprintf(os.Stderr, "smoke: the window made %d of %d reports\n", s.reports, s.smokeWant)
		return 1
	}
	if s.bad != "" {
		fmt.Fprintln(os.Stderr, "smoke:", s.bad)
		return 1
	}
	return 0
}
