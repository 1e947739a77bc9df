package cli

import (
	"context"
	"crypto/subtle"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/httpapi"
	"github.com/memotree/memotree/backend/mcpserver"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// Version is the version MemoTree reports to MCP clients.
const Version = "0.1.0"

// tokenEnv names the environment variable that sets the HTTP bearer token.
const tokenEnv = "MEMOTREE_MCP_TOKEN"

func runMCP(ctx context.Context, env Env, args []string) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	specs := libraryFlags(fs)
	perms := permissionFlags(fs)
	addr := fs.String("http", "", "serve streamable HTTP on this loopback `address` (e.g. 127.0.0.1:7777) instead of stdio; the bearer token comes from $"+tokenEnv+" or is generated and printed")
	if code, ok := parseFlags(fs, env, args); !ok {
		return code
	}
	if !requireLibraries(env, "mcp", *specs) {
		return 2
	}
	if err := applyPermissions(*specs, *perms); err != nil {
		fmt.Fprintf(env.Stderr, "memotree mcp: %v\n", err)
		return 2
	}
	ws, err := workspace.OpenFace(ctx, *specs, workspace.Face{Mode: workspace.Serving})
	if err != nil {
		return fail(env, "mcp", err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		return fail(env, "mcp", err)
	}
	srv, err := mcpserver.New(ctx, mcpserver.Deps{Registry: reg, Libraries: ws, Version: Version})
	if err != nil {
		return fail(env, "mcp", err)
	}
	go srv.Follow(ctx)
	if *addr == "" {
		// stdout belongs to the protocol: everything else goes to stderr.
		if err := srv.MCP().Run(ctx, &mcp.StdioTransport{}); err != nil && !errors.Is(err, context.Canceled) {
			return fail(env, "mcp", err)
		}
		return 0
	}
	return serveMCPHTTP(ctx, env, srv, *addr)
}

func serveMCPHTTP(ctx context.Context, env Env, srv *mcpserver.Server, addr string) int {
	ln, err := listenLoopback(addr)
	if err != nil {
		return fail(env, "mcp", err)
	}
	defer ln.Close()
	token := os.Getenv(tokenEnv)
	if token == "" {
		if token, err = httpapi.NewToken(); err != nil {
			return fail(env, "mcp", err)
		}
		fmt.Fprintf(env.Stderr, "memotree mcp: bearer token (set %s to choose one): %s\n", tokenEnv, token)
	}
	hs := httpLimits.Server(mcpHTTPHandler(srv, token))
	fmt.Fprintf(env.Stdout, "http://%s/mcp\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		return 0
	case err := <-errc:
		return fail(env, "mcp", err)
	}
}

// mcpHTTPHandler serves srv's streamable HTTP at /mcp to requests addressed to a
// loopback Host, from no foreign Origin, carrying the bearer token.
func mcpHTTPHandler(srv *mcpserver.Server, token string) http.Handler {
	h := srv.HTTPHandler(http.NewCrossOriginProtection())
	mux := http.NewServeMux()
	mux.Handle("/mcp", requireBearer(token, h))
	return httpapi.LoopbackOnly(mux)
}

// requireBearer answers 401 to a request without the token.
func requireBearer(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="memotree"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// permissionFlags registers the repeatable --permission NAME=LEVEL flag.
func permissionFlags(fs *flag.FlagSet) *map[string]tool.Permission {
	perms := map[string]tool.Permission{}
	fs.Func("permission", "what the agent and MCP clients may do in a library: `NAME=read|propose|write` (default propose)", func(s string) error {
		name, level, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("want NAME=LEVEL, got %q", s)
		}
		p, err := tool.ParsePermission(level)
		if err != nil {
			return err
		}
		perms[name] = p
		return nil
	})
	return &perms
}

// applyPermissions sets each spec's permission from the flags.
func applyPermissions(specs []workspace.Spec, perms map[string]tool.Permission) error {
	for name := range perms {
		found := false
		for i := range specs {
			if specs[i].Name == name {
				specs[i].Permission, found = perms[name], true
			}
		}
		if !found {
			return fmt.Errorf("--permission names %q, which is not a mounted library", name)
		}
	}
	return nil
}
