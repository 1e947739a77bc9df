#!/usr/bin/env bash
# A peer nobody here wrote, @dwmkerr/mock-llm (a real OpenAI-compatible server driven by
# YAML rules), against `memotree chat -p`, as `make test-llm` runs it: the non-streamed
# tool loop (create a note, relate it, answer), streamed text, and error statuses —
# streamed (an error event after a 200) and not (the HTTP status) — each ending in a
# clear message that never shows the key. Each scenario in scenarios/ replaces the
# server's rules through its /config endpoint.
#   usage: tests/llm/run.sh MEMOTREE_BINARY VAULT_TO_COPY
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# Absolute paths: the script works from its own folder.
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") src=$(cd "$2" && pwd)
work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
cd "$here"

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
HOST=127.0.0.1 PORT=$port node node_modules/@dwmkerr/mock-llm/dist/main.js --config scenarios/streamed-text.yaml >"$work/mock.log" 2>&1 &
pid=$!
base=http://127.0.0.1:$port
for _ in $(seq 1 100); do curl -sf "$base/health" >/dev/null && break; sleep 0.1; done
curl -sf "$base/health" >/dev/null || { echo "llm: mock-llm did not start"; cat "$work/mock.log"; exit 1; }

key=sk-mock-secret-1234
export OPENAI_BASE_URL=$base/v1 MEMOTREE_MODEL=mock OPENAI_API_KEY=$key XDG_CONFIG_HOME=$work/config
failures=0

# use SCENARIO: fresh rules and sequence counters, and a fresh copy of the vault.
use() {
  curl -sf -X DELETE "$base/config" >/dev/null
  curl -sf -X POST -H 'Content-Type: application/x-yaml' --data-binary "@scenarios/$1.yaml" "$base/config" >/dev/null
  rm -rf "$work/vault" && cp -r "$src" "$work/vault"
}

# chat ARGS...: runs memotree chat -p; sets code, out, err.
chat() {
  set +e
  "$bin" chat --library demo="$work/vault" "$@" >"$work/out" 2>"$work/err"
  code=$?
  set -e
  out=$(cat "$work/out") err=$(cat "$work/err")
}

# check NAME CONDITION...: reports one expectation.
check() {
  local name=$1
  shift
  if "$@"; then echo "llm: ok   $name"; else
    echo "llm: FAIL $name (exit $code)"; echo "  stdout: $out"; echo "  stderr: $err"; failures=$((failures + 1)); fi
}
has() { grep -qF -- "$2" <<<"$1"; }
lacks() { ! grep -qF -- "$2" <<<"$1"; }

use tool-loop
chat --no-stream -p "Add Mary Somerville, who mentored Ada."
note=$(cat "$work/vault/people/Mary Somerville.md" 2>/dev/null || true)
check "tool loop: exit 0 and the answer on stdout" [ "$code" = 0 -a "$out" = "Mary Somerville is in the vault, as mentor of Ada Lovelace." ]
check "tool loop: one line per call on stderr" has "$err" "· create_relations"
check "tool loop: the note exists and carries the relation" has "$note" "mentor of"
check "tool loop: the journey names the turn" has "$(cat "$work/vault/journey.yaml")" "turn: t-"

use streamed-text
chat -p "Say something."
check "streamed text: whole on stdout" [ "$code" = 0 -a "$out" = "Streamed by a peer server, five characters at a time." ]

use 429-then-ok
chat --no-stream -p "Try twice."
check "429 then success" [ "$code" = 0 -a "$out" = "Answered on the second try." ]

for mode in --no-stream stream; do
  args=()
  [ "$mode" = --no-stream ] && args=(--no-stream)
  use status-401
  chat "${args[@]}" -p "hi"
  check "401 ($mode): says to check the key, never shows it" eval '[ "$code" = 1 ] && has "$err" OPENAI_API_KEY && lacks "$err" "$key"'
  use status-429
  chat "${args[@]}" -p "hi"
  check "429 ($mode): says to wait" eval '[ "$code" = 1 ] && has "$err" "rate limiting" && has "$err" "wait"'
  use status-500
  chat "${args[@]}" -p "hi"
  check "500 ($mode): says the endpoint failed after retries" eval '[ "$code" = 1 ] && has "$err" "endpoint failed" && has "$err" "tries"'
done

# The endpoint down: nothing listens.
kill "$pid" && wait "$pid" 2>/dev/null || true
pid=
chat -p "hi"
check "endpoint down: says nothing answers" eval '[ "$code" = 1 ] && has "$err" "nothing answers"'

if [ "$failures" -gt 0 ]; then echo "llm: $failures FAILED"; exit 1; fi
echo "llm: every scenario passed"
