#!/usr/bin/env bash
# The desktop smoke test, run under Xvfb: open the real window on a fresh copy of the
# demo vault, wait until the frontend reports through a real binding how many notes it
# rendered, take a screenshot while the window is up, and check that the process exits 0
# and that the screenshot shows a painted window rather than a blank one.
#   usage: xvfb-run -a scripts/smoke.sh BINARY SCREENSHOT.png
set -euo pipefail
bin=$1 shot=$2
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
log=$home/out.log
XDG_DATA_HOME=$home/data HOME=$home "$bin" --smoke-test --smoke-hold 4s >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 900); do
  if grep -q '^smoke: the window rendered' "$log"; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if ! grep -q '^smoke: the window rendered' "$log"; then
  echo "smoke: FAIL: no render report"; cat "$log"; kill "$pid" 2>/dev/null || true; exit 1
fi
sleep 1.5 # let the graph settle for the picture
import -window root "$shot"
status=0; wait "$pid" || status=$?
cat "$log"
colours=$(convert "$shot" -format '%k' info:)
echo "smoke: screenshot $shot has $colours colours"
if [ "$status" != 0 ]; then echo "smoke: FAIL: exit status $status"; exit 1; fi
n=$(sed -n 's/^smoke: the window rendered \([0-9]*\) notes$/\1/p' "$log")
if [ "${n:-0}" -lt 20 ]; then echo "smoke: FAIL: only ${n:-0} notes rendered"; exit 1; fi
if [ "$colours" -lt 50 ]; then echo "smoke: FAIL: the window looks blank"; exit 1; fi
echo "smoke: ok — the desktop window rendered $n notes"
