//go:build desktop || bindings

package app

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
)

// desktopFlags are the flags of the window.
type desktopFlags struct {
	specs        []workspace.Spec
	smoke        bool
	smokeTimeout time.Duration
	smokeHold    time.Duration
}

func parseDesktopFlags(args []string) (desktopFlags, error) {
	var f desktopFlags
	fs := flag.NewFlagSet("memotree", flag.ContinueOnError)
	fs.Func("library", "mount a vault as `NAME=PATH` (repeatable; default: the demo vault)", func(s string) error {
		sp, err := workspace.ParseSpec(s)
		if err == nil {
			f.specs = append(f.specs, sp)
		}
		return err
	})
	fs.BoolVar(&f.smoke, "smoke-test", false, "open, wait until the window has rendered the notes, print how many, exit")
	fs.DurationVar(&f.smokeTimeout, "smoke-timeout", 90*time.Second, "how long the smoke test waits for the first render")
	fs.DurationVar(&f.smokeHold, "smoke-hold", 3*time.Second, "how long the smoke test keeps the window open after the render (for a screenshot)")
	return f, fs.Parse(args)
}

// runDesktop opens the window.
func runDesktop(assets fs.FS, args []string) int {
	if generatingBindings {
		// `wails build` runs the program to generate the JavaScript bindings: bind the
		// API type and let Wails do the rest. Nothing is opened.
		return runWails(assets, uiapi.NewAPI(nil, uiapi.Options{}), nil, nil)
	}
	f, err := parseDesktopFlags(args)
	if err != nil {
		return 2
	}
	if len(f.specs) == 0 {
		spec, err := workspace.DemoSpec()
		if err != nil {
			fmt.Fprintln(os.Stderr, "memotree:", err)
			return 1
		}
		f.specs = []workspace.Spec{spec}
	}
	sh := &shell{}
	var opts uiapi.Options
	if f.smoke {
		opts.OnRendered = sh.smokeRendered(f.smokeHold)
	}
	ws, api, err := openWindow(context.Background(), f.specs, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "memotree:", err)
		return 1
	}
	defer ws.Close()
	sh.ws = ws
	if f.smoke {
		go sh.smokeDeadline(f.smokeTimeout)
	}
	// MCP clients on these vaults that cannot ask the person put their destructive
	// calls in the window's approval queue.
	if stop, err := uiapi.ServeApprovals(api); err != nil {
		fmt.Fprintln(os.Stderr, "memotree:", "no approval queue for MCP clients:", err)
	} else {
		defer stop()
	}
	code := runWails(assets, api, sh.startup, sh.shutdown)
	if f.smoke && code == 0 {
		return sh.smokeCode()
	}
	return code
}

func runWails(assets fs.FS, api *uiapi.API, startup, shutdown func(context.Context)) int {
	err := wails.Run(&options.App{
		Title:            "MemoTree",
		Width:            1280,
		Height:           820,
		MinWidth:         720,
		MinHeight:        480,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 249, A: 1},
		OnStartup:        startup,
		OnShutdown:       shutdown,
		Bind:             []any{api},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "memotree:", err)
		return 1
	}
	return 0
}

// shell holds the window's lifecycle state.
type shell struct {
	ws *workspace.Workspace

	mu       sync.Mutex
	ctx      context.Context // the Wails lifecycle context, the one context kept in a struct
	rendered int             // notes the window reported (smoke test), -1 when none yet
	reported bool
	stopBus  func()
}

func (s *shell) startup(ctx context.Context) {
	s.mu.Lock()
	s.ctx = ctx
	s.mu.Unlock()
	ch, cancel := s.ws.Bus().Subscribe(64)
	s.stopBus = cancel
	go func() {
		for e := range ch {
			emit(ctx, string(e.Topic), e.Data)
		}
	}()
}

func (s *shell) shutdown(context.Context) {
	if s.stopBus != nil {
		s.stopBus()
	}
}

// emit sends a Wails event; a function value so that tests never call the runtime
// (which exits the process when given a context that is not Wails').
var emit = func(ctx context.Context, topic string, data any) { runtime.EventsEmit(ctx, topic, data) }

// quit closes the window.
var quit = func(ctx context.Context) { runtime.Quit(ctx) }

func (s *shell) smokeRendered(hold time.Duration) func(int) {
	return func(n int) {
		s.mu.Lock()
		first := !s.reported
		s.reported, s.rendered = true, n
		ctx := s.ctx
		s.mu.Unlock()
		if !first {
			return
		}
		fmt.Printf("smoke: the window rendered %d notes\n", n)
		go func() {
			time.Sleep(hold)
			quit(ctx)
		}()
	}
}

func (s *shell) smokeDeadline(d time.Duration) {
	time.Sleep(d)
	s.mu.Lock()
	ok := s.reported
	s.mu.Unlock()
	if !ok {
		fmt.Fprintf(os.Stderr, "smoke: the window did not report a render within %s\n", d)
		os.Exit(1)
	}
}

func (s *shell) smokeCode() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.reported || s.rendered <= 0 {
		fmt.Fprintln(os.Stderr, "smoke: the window rendered no notes")
		return 1
	}
	return 0
}
