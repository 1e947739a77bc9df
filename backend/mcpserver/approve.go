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

// How a call that waits for the person (tool.CodeApprovalRequired) is put to them,
// in order:
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

// approve puts a call that waits for the person to them. It returns approved true
// when they said yes to this very call; otherwise out is what to answer the client
// instead: an input request (the client asks the person and calls again) or a refusal.
func (s *Server) approve(ctx context.Context, req *mcp.CallToolRequest, call *tool.Call, name string, args json.RawMessage, waits tool.Result) (approved bool, out *mcp.CallToolResult) {
	if len(args) > approval.MaxArgs {
		// The person is shown the whole call or asked nothing.
		return false, s.refusal(tool.Fail(tool.CodeApprovalRequired, "%s was not run: its arguments are %d bytes, too long to show the person for approval (at most %d); nothing changed. Send less at a time: fewer notes per call, or a shorter script", name, len(args), approval.MaxArgs))
	}
	if p := req.Params; p != nil && p.RequestState != "" {
		if !s.approvals.check(p.RequestState, call.Actor, name, args) {
			return false, s.refusal(tool.Fail(tool.CodeApprovalRequired, "%s was not run: the approval this call carries was not asked for it, or has expired; call the tool again to be asked", name))
		}
		return s.answered(name, p.InputResponses[approvalInput])
	}
	if caps := req.ClientCapabilities(); caps != nil && caps.Elicitation != nil && (caps.Elicitation.Form != nil || caps.Elicitation.URL == nil) {
		params := elicitParams(call.Actor, s.libraryName(call.Library), name, args)
		if req.ProtocolVersion() >= "2026-07-28" {
			return false, &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{approvalInput: params},
				RequestState:  s.approvals.sign(call.Actor, name, args),
			}
		}
		if req.Session != nil {
			if res, err := req.Session.Elicit(ctx, params); err == nil {
				return s.answered(name, res)
			}
			// A client that declared elicitation but cannot be asked now (a stateless
			// HTTP request): try the window.
		}
	}
	return s.askWindow(ctx, call, name, args, waits)
}

// answered reads the person's answer to an approval elicitation.
func (s *Server) answered(name string, r mcp.InputResponse) (bool, *mcp.CallToolResult) {
	res, ok := r.(*mcp.ElicitResult)
	if ok && res.Action == "accept" && res.Content["approve"] == true {
		return true, nil
	}
	why := "the person declined"
	if !ok {
		why = "no answer came"
	} else if res.Action == "cancel" {
		why = "the person dismissed the question"
	}
	return false, s.refusal(tool.Fail(tool.CodeApprovalRequired, "%s was not run: %s. Nothing changed; do not retry it unless the person asks", name, why))
}

// askWindow puts the request in the approval queue of a MemoTree window open on the
// call's library, or refuses the call when there is none.
func (s *Server) askWindow(ctx context.Context, call *tool.Call, name string, args json.RawMessage, waits tool.Result) (bool, *mcp.CallToolResult) {
	l, err := s.deps.Libraries.Library(call.Library)
	if err != nil {
		return false, s.refusal(waits)
	}
	wctx, cancel := context.WithTimeout(ctx, windowWait)
	defer cancel()
	yes, err := approval.Ask(wctx, l.Vault(), approval.Request{From: call.Actor, Library: l.Name(), Tool: name, Args: string(args)})
	switch {
	case errors.Is(err, approval.ErrNoWindow):
		return false, s.refusal(tool.Fail(tool.CodeApprovalRequired,
			"%s waits for the person's approval in library %q (permission propose), and nobody could be asked: this client does not support MCP elicitation, and no MemoTree window is open on the library. Nothing changed. The person may do it themselves, approve it from a client that supports elicitation or with the MemoTree window open, or let MCP clients run such calls by serving the library with --permission %s=write",
			name, l.Name(), l.Name()))
	case err != nil:
		return false, s.refusal(tool.Fail(tool.CodeApprovalRequired, "%s was not run: no answer came from the MemoTree window (%v). Nothing changed", name, err))
	case !yes:
		return false, s.refusal(tool.Fail(tool.CodeApprovalRequired, "%s was not run: the person declined in the MemoTree window. Nothing changed; do not retry it unless the person asks", name))
	}
	return true, nil
}

// libraryName is the name of the library a call acts on (name "" for the default).
func (s *Server) libraryName(name string) string {
	if l, err := s.deps.Libraries.Library(name); err == nil {
		return l.Name()
	}
	return name
}

// elicitParams asks the person, through the client, about one call of actor in
// library lib. The arguments are shown whole (approve refuses longer ones than
// approval.MaxArgs): the person approves only what they were shown.
func elicitParams(actor, lib, name string, args json.RawMessage) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Message: fmt.Sprintf("MemoTree: %s wants to run %s in library %q, which deletes, merges or discards notes:\n%s\nAllow it?", actor, name, lib, args),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"approve": map[string]any{"type": "boolean", "title": "Allow " + name, "description": "Run this call once", "default": false},
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
