#!/usr/bin/env bash
# The desktop smoke tests, on the real window under Xvfb, each run in a home folder of
# its own (so nothing of the person's is read or written):
#   1. the demo vault: the window renders its notes, reporting through a real binding
#      how many, and a screenshot shows a painted window rather than a blank one;
#   2. a first start: with no vault the window shows the welcome; a second launch
#      naming a folder hands it to the first window, which opens it (one window only);
#      a key of the native menu (Ctrl+Shift+G) opens the Changes panel;
#   3. the next start opens that folder again, without the welcome, with the Changes
#      panel open and the window where it was left (its size and place are remembered
#      at the close); File › Open Folder as Vault shows the system's folder chooser, and
#      the folder chosen opens;
#   4. SIGTERM (a session ending, `kill`) closes the window quietly: no "Ctrl+C
#      detected", exit status 0.
# The window reports what it shows in --smoke-test mode ("smoke: ..." lines).
#   usage: xvfb-run -a scripts/smoke.sh BINARY SCREENSHOT.png
# The single-instance lock needs a D-Bus session bus: without one, this script runs
# itself again under dbus-run-session.
set -euo pipefail
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  # The bus's daemon logs every service it starts, and that it may not raise its file
  # limit, and the accessibility registry it starts says it runs: lines a reader takes
  # for failures, left out.
  quiet() { grep --line-buffered -v -e '^dbus-daemon\[' -e '^SpiRegistry daemon'; }
  exec dbus-run-session -- "$0" "$@" > >(quiet) 2> >(quiet >&2)
fi
bin=$(realpath "$1") shot=$2
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "smoke: FAIL: $*"; for f in "$work"/*.log; do echo "--- $f"; grep -v 'dbus-daemon' "$f" || true; done; exit 1; }

# home NAME: a fresh home folder; exports HOME and the XDG folders into it.
home() {
  local h=$work/$1
  mkdir -p "$h"
  export HOME=$h XDG_CONFIG_HOME=$h/.config XDG_DATA_HOME=$h/.local/share XDG_CACHE_HOME=$h/.cache
}

# waitfor FILE PATTERN PID: waits (90 s at most) until FILE has a line matching PATTERN.
waitfor() {
  for _ in $(seq 1 900); do
    if grep -q "$2" "$1"; then return 0; fi
    if ! kill -0 "$3" 2>/dev/null; then grep -q "$2" "$1" && return 0; return 1; fi
    sleep 0.1
  done
  return 1
}

# --- 1. the demo vault ----------------------------------------------------------------
home demo
log=$work/demo.log
"$bin" --demo --smoke-test --smoke-hold 4s >"$log" 2>&1 &
pid=$!; pids+=("$pid")
waitfor "$log" '^smoke: the window rendered' "$pid" || fail "no render report from the demo"
sleep 1.5 # let the graph settle for the picture
import -window root "$shot"
status=0; wait "$pid" || status=$?
colours=$(convert "$shot" -format '%k' info:)
echo "smoke: screenshot $shot has $colours colours"
[ "$status" = 0 ] || fail "the demo run exited $status"
n=$(sed -n 's/^smoke: the window rendered \([0-9]*\) notes of demo .*/\1/p' "$log")
[ "${n:-0}" -ge 20 ] || fail "only ${n:-0} notes of the demo rendered"
[ "$colours" -ge 50 ] || fail "the window looks blank"
echo "smoke: ok — the desktop window rendered $n notes of the demo vault"

# --- 2. a first start: the welcome, then a second launch with a folder ----------------
home first
vault="$work/first/My Notes"
mkdir -p "$vault/people"
printf '# Ada\n\nSee [[Charles]].\n' >"$vault/people/Ada.md"
printf '# Charles\n' >"$vault/people/Charles.md"
printf '# Start\n\n[[Ada]] and [[Charles]].\n' >"$vault/Start.md"
log=$work/first.log
"$bin" --smoke-test --smoke-reports 2 --smoke-hold 4s >"$log" 2>&1 &
pid=$!; pids+=("$pid")
waitfor "$log" '^smoke: the window shows the welcome' "$pid" || fail "no welcome on a first start"
welcome=$work/welcome.png
import -window root "$welcome"
[ "$(convert "$welcome" -format '%k' info:)" -ge 20 ] || fail "the welcome looks blank"
echo "smoke: ok — a first start shows the welcome"

second=$work/second.log
(cd "$work/first" && "$bin" "My Notes") >"$second" 2>&1 || fail "the second launch exited $?"
grep -q 'its window takes it from here' "$second" || fail "the second launch did not hand its folder over"
waitfor "$log" '^smoke: the window rendered 3 notes of My-Notes' "$pid" || fail "the first window did not open the folder of the second launch"
windows=$(xdotool search --onlyvisible --name '^MemoTree$' | wc -l)
[ "$windows" = 1 ] || fail "$windows MemoTree windows are open, want one"
echo "smoke: ok — a second launch opened its folder in the first window (one window)"
win=$(xdotool search --onlyvisible --name '^MemoTree$' | head -1)
xdotool windowmove --sync "$win" 40 30 # to be found there at the next start
xdotool windowfocus --sync "$win"
xdotool key ctrl+shift+g # View › Changes in the native menu
status=0; wait "$pid" || status=$?
[ "$status" = 0 ] || fail "the first window exited $status"
grep -q '^\[window\]' "$XDG_CONFIG_HOME/memotree/vaults.toml" && grep -q 'width = ' "$XDG_CONFIG_HOME/memotree/vaults.toml" ||
  fail "the window's size was not remembered"

# --- 3. the next start: the folder again, the panel still open; the folder chooser ----
picked="$work/first/Picked"
mkdir -p "$picked"
printf '# Chosen\n' >"$picked/Chosen.md"
log=$work/again.log
"$bin" --smoke-test --smoke-reports 2 --smoke-hold 1s >"$log" 2>&1 &
pid=$!; pids+=("$pid")
waitfor "$log" '^smoke: the window' "$pid" || fail "no report at the next start"
grep -q '^smoke: the window shows the welcome' "$log" && fail "the next start showed the welcome"
grep -q '^smoke: the window rendered 3 notes of My-Notes (panels: .*side=git' "$log" ||
  fail "the next start did not open the folder with the Changes panel: $(grep '^smoke:' "$log")"
win=$(xdotool search --onlyvisible --name '^MemoTree$' | head -1)
where=$(xdotool getwindowgeometry "$win" | sed -n 's/.*Position: \([0-9]*,[0-9]*\).*/\1/p')
[ "$where" = "40,30" ] || fail "the window opened at $where, not where it was left (40,30)"
echo "smoke: ok — the next start opened the folder again, with the panel open last time, where the window was left"

# File › Open Folder as Vault (Ctrl+Shift+O): the system's folder chooser, a path typed
# into it. A "/" opens GTK's location entry, which takes a moment to appear (nothing
# outside the window shows when it has): one more try with a longer pause, then fail.
win=$(xdotool search --onlyvisible --name '^MemoTree$' | head -1)
for pause in 0.6 2; do
  xdotool windowfocus --sync "$win"
  xdotool key ctrl+shift+o
  dialog=
  for _ in $(seq 1 100); do
    dialog=$(xdotool search --onlyvisible --name '^Open a folder as a vault$' | head -1) && [ -n "$dialog" ] && break
    sleep 0.1
  done
  [ -n "$dialog" ] || fail "File › Open Folder as Vault showed no folder chooser"
  xdotool type "/"
  sleep "$pause"
  xdotool type --delay 30 "${picked#/}/"
  xdotool key Return
  for _ in $(seq 1 100); do grep -q '^smoke: the window rendered 1 notes of Picked' "$log" && break 2; sleep 0.1; done
  xdotool search --onlyvisible --name '^Open a folder as a vault$' >/dev/null && xdotool key Escape
done
waitfor "$log" '^smoke: the window rendered 1 notes of Picked' "$pid" || fail "the folder chosen in the folder chooser did not open"
status=0; wait "$pid" || status=$?
[ "$status" = 0 ] || fail "the next start exited $status"
echo "smoke: ok — the folder chosen in the system's folder chooser opened"

# --- 4. SIGTERM closes the window quietly ---------------------------------------------
home term
log=$work/term.log
"$bin" --demo --smoke-test --smoke-hold 120s >"$log" 2>&1 &
pid=$!; pids+=("$pid")
waitfor "$log" '^smoke: the window rendered' "$pid" || fail "no render report before SIGTERM"
kill -TERM "$pid"
status=0; wait "$pid" || status=$?
grep -q 'Ctrl+C' "$log" && fail "SIGTERM printed: $(grep 'Ctrl+C' "$log")"
[ "$status" = 0 ] || fail "the app exited $status after SIGTERM"
echo "smoke: ok — SIGTERM closed the window quietly"
