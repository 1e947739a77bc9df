package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Status says how a call went. It is the first key of every result.
type Status string

// The statuses a result can have (seed 000 has success and failure; partial is for
// batch tools where some items succeeded and the warnings say which did not).
const (
	StatusSuccess Status = "success"
	StatusError   Status = "error"
	StatusPartial Status = "partial"
)

// Code is a machine-readable error code: what went wrong, in a word a model, a script
// or the UI can branch on.
type Code string

// The standard error codes. Tools may define more, but should prefer these.
const (
	CodeNotFound             Code = "not_found"
	CodeAmbiguous            Code = "ambiguous"
	CodeAlreadyExists        Code = "already_exists"
	CodeConflict             Code = "conflict"
	CodeInvalidArguments     Code = "invalid_arguments"
	CodePermissionDenied     Code = "permission_denied"
	CodeNoMatch              Code = "no_match"
	CodeCountMismatch        Code = "count_mismatch"
	CodeTooLarge             Code = "too_large"
	CodeInternal             Code = "internal"
	CodeUnknownTool          Code = "unknown_tool"
	CodeCanceled             Code = "canceled"
	CodeConfirmationRequired Code = "confirmation_required"
	// CodeDiskFull: the disk refused a write (full, over quota, or an input/output
	// error); the message says which disk and what to free. Retrying at once fails
	// again.
	CodeDiskFull Code = "disk_full"
	// CodeInUse: a note could not be replaced or moved because another program holds
	// it open (on Windows, where that blocks a rename, even after MemoTree retried for
	// about two seconds); the message names it. It works once that program closes it.
	CodeInUse Code = "in_use"
)

// Result is the envelope every tool call answers with (seed 000): a status, a message
// for the reader, the data, warnings, an error code when the call failed, and the time
// it took. A failed call is a Result, not a Go error.
type Result struct {
	// Status is success, error or partial.
	Status Status
	// Message says what happened, or for an error what to do instead.
	Message string
	// Data is the answer; anything encoding/json can marshal (nil when none).
	Data any
	// Warnings are things the caller should know that did not stop the call.
	Warnings []string
	// ErrorCode is set when Status is error (and may be set for partial).
	ErrorCode Code
	// Elapsed is the wall time of the call, set by the registry.
	Elapsed time.Duration

	// Script, when set, is what a Starlark script sees of the result instead of Data
	// (WithScriptValue). It is not part of the envelope.
	Script *ScriptValue
}

// ScriptValue is a result as a Starlark script sees it; Value nil is None.
type ScriptValue struct{ Value any }

// WithScriptValue returns a copy of r that a Starlark script sees as v instead of its
// Data: seed 003's signatures return a page's index as a string, a list of pages, or
// None, where the envelope's data is an object that says more. v nil is None. The
// envelope (YAML, JSON, MCP) is unchanged.
func (r Result) WithScriptValue(v any) Result {
	r.Script = &ScriptValue{v}
	return r
}

// ForScript returns what a Starlark script sees of the result: the value given to
// WithScriptValue, else Data.
func (r Result) ForScript() any {
	if r.Script != nil {
		return r.Script.Value
	}
	return r.Data
}

// OK returns a success result with a message; the handler returns its data as the
// tool's output.
func OK(msg string) Result {
	return Result{Status: StatusSuccess, Message: msg}
}

// Fail returns an error result with a code and a message formatted as by fmt.Sprintf.
// Attach the nearest matches or other details with WithData.
func Fail(code Code, format string, args ...any) Result {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return Result{Status: StatusError, Message: msg, ErrorCode: code}
}

// Partial returns a result for a batch that succeeded for some items only; warnings
// say which items failed and why. The handler returns its data as the tool's output.
func Partial(msg string, warnings ...string) Result {
	return Result{Status: StatusPartial, Message: msg, Warnings: warnings}
}

// WithData returns a copy of r carrying data: the details of a failure (the nearest
// names, the current hash, the output so far), or the data of a result built outside a
// handler.
func (r Result) WithData(data any) Result {
	r.Data = data
	return r
}

// WithWarning returns a copy of r with one more warning, formatted as by fmt.Sprintf.
func (r Result) WithWarning(format string, args ...any) Result {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	r.Warnings = append(r.Warnings[:len(r.Warnings):len(r.Warnings)], msg)
	return r
}

// IsError reports whether the call failed.
func (r Result) IsError() bool { return r.Status == StatusError }

// wireResult is the JSON shape of a Result.
type wireResult struct {
	Status    Status   `json:"status"`
	Message   string   `json:"message"`
	Data      any      `json:"data,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
	ErrorCode Code     `json:"error_code,omitempty"`
	ElapsedMS float64  `json:"elapsed_ms"`
}

// elapsedMS returns d in milliseconds, rounded to the microsecond.
func elapsedMS(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}

// MarshalJSON encodes the result with snake_case keys and the time as elapsed_ms.
func (r Result) MarshalJSON() ([]byte, error) {
	w := wireResult{r.Status, r.Message, r.Data, r.Warnings, r.ErrorCode, elapsedMS(r.Elapsed)}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, fmt.Errorf("marshal result: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// UnmarshalJSON decodes what MarshalJSON wrote; Data comes back as generic JSON values.
func (r *Result) UnmarshalJSON(b []byte) error {
	var w wireResult
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("unmarshal result: %w", err)
	}
	*r = Result{
		Status: w.Status, Message: w.Message, Data: w.Data, Warnings: w.Warnings,
		ErrorCode: w.ErrorCode, Elapsed: time.Duration(w.ElapsedMS * float64(time.Millisecond)),
	}
	return nil
}

// JSON renders the result as one line of JSON for MCP clients and --json. If the data
// cannot be encoded, it renders an internal error result saying so instead.
func (r Result) JSON() []byte {
	b, err := r.MarshalJSON()
	if err != nil {
		b, _ = renderFailure(r, err).MarshalJSON()
	}
	return b
}

// renderFailure is the result shown when r's data cannot be rendered.
func renderFailure(r Result, err error) Result {
	f := Fail(CodeInternal, "the tool returned data that cannot be rendered: %v", err)
	f.Elapsed = r.Elapsed
	return f
}
