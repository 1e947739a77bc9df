package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/tool"
)

// How a call that waits for the person (approval.Pending) is put to them, in order,
// always in the one wording of package approval (Request.Question, approval.Decide):
//
//  1. the client asks them, when it supports MCP elicitation: on the protocol of
//     2026-07-28 by an input request the client answers when it calls again (its
//     state signed here, so that no answer is taken for another call), on older
//     protocols by an elicitation request during the call;
//  2. otherwise a MemoTree window open on the library (the desktop app or `memotree
//     serve`) shows the request in its approval queue (package approval);
//  3. otherwise the call is refused, with what to do to allow it.

// approvalInput names the input request of an approval.
const approvalInput = "memotree_approval"

// windowWait bounds how long a call waits for the person in the window.
var windowWait = 10 * time.Minute

// stateTTL bounds how long a signed approval state may be answered.
const stateTTL = 15 * time.Minute

// approvals signs the state of input requests and remembers the ones answered, so an
// answer is taken once, for the call it was asked for.
type approvals struct {
	key  [32]byte
	mu   sync.Mutex
	used map[string]time.Time // nonce → expiry
}

func newApprovals() *approvals {
	a := &approvals{used: map[string]time.Time{}}
	if _, err := rand.Read(a.key[:]); err != nil {
		panic(fmt.Sprintf("mcpserver: no randomness for the approval key: %v", err)) // crypto/rand does not fail
	}
	return a
}

// sign returns the state of an approval asked for tool name with args by actor.
func (a *approvals) sign(actor, name string, args json.RawMessage) string {
	b := make([]byte, 16+8)
	_, _ = rand.Read(b[:16])
	binary.BigEndian.PutUint64(b[16:], uint64(time.Now().Add(stateTTL).Unix()))
	return base64.RawURLEncoding.EncodeToString(append(b, a.mac(b, actor, name, args)...))
}

// check reports whether state was signed here for this very call, unexpired and not
// answered before; it spends it.
func (a *approvals) check(state, actor, name string, args json.RawMessage) bool {
	b, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(b) != 16+8+32 {
		return false
	}
	head, mac := b[:24], b[24:]
	if !hmac.Equal(mac, a.mac(head, actor, name, args)) {
		return false
	}
	exp := time.Unix(int64(binary.BigEndian.Uint64(head[16:])), 0)
	now := time.Now()
	if now.After(exp) {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for n, e := range a.used {
		if now.After(e) {
			delete(a.used, n)
		}
	}
	nonce := string(head[:16])
	if _, spent := a.used[nonce]; spent {
		return false
	}
	a.used[nonce] = exp
	return true
}

func (a *approvals) mac(head []byte, actor, name string, args json.RawMessage) []byte {
	h := hmac.New(sha256.New, a.key[:])
	h.Write(head)
	sum := sha256.Sum256(args)
	for _, s := range []string{actor, name, string(sum[:])} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return h.Sum(nil)
}

// approve puts r, a call that waits for the person (approval.Pending), to them. It
// returns nil when they said yes to this very call; otherwise what to answer the
// client instead: an input request (the client asks the person and calls again) or a
// refusal, in the one wording of package approval.
func (s *Server) approve(ctx context.Context, req *mcp.CallToolRequest, call *tool.Call, r approval.Request) *mcp.CallToolResult {
	args := json.RawMessage(r.Args)
	if p := req.Params; p != nil && p.RequestState != "" {
		if !s.approvals.check(p.RequestState, call.Actor, r.Tool, args) {
			return s.refusal(tool.Fail(tool.CodeApprovalRequired, "%s was not run: the approval this call carries was not asked for it, or has expired; call the tool again to be asked", r.Tool))
		}
		yes, err := answered(p.InputResponses[approvalInput])
		return s.decided(r, yes, err)
	}
	if caps := req.ClientCapabilities(); caps != nil && caps.Elicitation != nil && (caps.Elicitation.Form != nil || caps.Elicitation.URL == nil) {
		params := elicitParams(r)
		if req.ProtocolVersion() >= "2026-07-28" {
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{approvalInput: params},
				RequestState:  s.approvals.sign(call.Actor, r.Tool, args),
			}
		}
		if req.Session != nil {
			if res, err := req.Session.Elicit(ctx, params); err == nil {
				yes, err := answered(res)
				return s.decided(r, yes, err)
			}
			// A client that declared elicitation but cannot be asked now (a stateless
			// HTTP request): try the window.
		}
	}
	yes, err := s.askWindow(ctx, call.Library, r)
	return s.decided(r, yes, err)
}

// decided renders the person's answer (approval.Decide): nil when they said yes.
func (s *Server) decided(r approval.Request, yes bool, err error) *mcp.CallToolResult {
	if res := approval.Decide(r, yes, err); res != nil {
		return s.refusal(*res)
	}
	return nil
}

// answered reads the person's answer to an approval elicitation: the box ticked and
// accepted is a yes; declined, or accepted without the box, a no.
func answered(r mcp.InputResponse) (bool, error) {
	res, ok := r.(*mcp.ElicitResult)
	switch {
	case !ok:
		return false, errors.New("the client sent none")
	case res.Action == "cancel":
		return false, approval.ErrDismissed
	}
	return res.Action == "accept" && res.Content["approve"] == true, nil
}

// askWindow puts r in the approval queue of a MemoTree window open on the library the
// call acts on (named lib in the call), and waits for the person's answer there.
func (s *Server) askWindow(ctx context.Context, lib string, r approval.Request) (bool, error) {
	nobody := approval.Nobody(fmt.Sprintf("this client does not support MCP elicitation, and no MemoTree window is open on the library. The person may do it themselves, approve it from a client that supports elicitation or with the MemoTree window open, or let MCP clients run such calls by serving the library with --permission %s=write", r.Library))
	l, err := s.deps.Libraries.Library(lib)
	if err != nil {
		return false, nobody
	}
	wctx, cancel := context.WithTimeout(ctx, windowWait)
	defer cancel()
	yes, err := approval.Ask(wctx, l.State(), r)
	if errors.Is(err, approval.ErrNoWindow) {
		return false, nobody
	}
	return yes, err
}

// libraryName is the name of the library a call acts on (name "" for the default).
func (s *Server) libraryName(name string) string {
	if l, err := s.deps.Libraries.Library(name); err == nil {
		return l.Name()
	}
	return name
}

// elicitParams asks the person, through the client, about r in the one wording of
// package approval. The arguments are shown whole (approval.Pending refuses longer
// ones than approval.MaxArgs): the person approves only what they were shown.
func elicitParams(r approval.Request) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Message: r.Question(),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"approve": map[string]any{"type": "boolean", "title": "Allow " + r.Tool, "description": "Run this call once", "default": false},
			},
			"required": []string{"approve"},
		},
	}
}

// refusal renders a result as the client's answer.
func (s *Server) refusal(r tool.Result) *mcp.CallToolResult {
	r.Status = tool.StatusError
	return toMCP(r)
}

// toMCP renders a result as MCP's: the YAML as text, the JSON as structured content.
func toMCP(res tool.Result) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: res.YAML()}},
		StructuredContent: json.RawMessage(res.JSON()),
		IsError:           res.IsError(),
	}
}
