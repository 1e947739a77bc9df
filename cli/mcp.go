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
	"github.com/memotree/memotree/backend/workspace/face"
)

// Version is the version MemoTree reports to MCP clients.
const Version = "0.1.0"

// tokenEnv names the environment variable that sets the HTTP bearer token.
const tokenEnv = "MEMOTREE_MCP_TOKEN"

func runMCP(ctx context.Context, env Env, args []string) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var ff face.Flags
	ff.Register(fs, "")
	addr := fs.String("http", "", "serve streamable HTTP on this loopback `address` (e.g. 127.0.0.1:7777) instead of stdio; the bearer token comes from $"+tokenEnv+" or is generated and printed")
	if code, ok := parseFlags(fs, env, args); !ok {
		return code
	}
	if !requireLibraries(env, "mcp", ff.Libraries) || !checkFaceFlags(env, "mcp", ff) {
		return 2
	}
	m, err := face.OpenMCP(ctx, ff, Version)
	if err != nil {
		return fail(env, "mcp", err)
	}
	defer m.Close()
	srv := m.Server
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
