#!/usr/bin/env bash
# search-index.sh BIN VAULT...: for each vault, builds the search index as bench/run.sh's
# search_build does (a first search_nodes from a fresh process, less the fastest of three
# warm ones) and prints the index's size against the Markdown bytes and the build rate.
# The index is written into each vault's .memotree, which is removed first: give it
# copies of read-only vaults.
set -euo pipefail
bin=$1
shift
printf '%-10s %9s %9s %6s %7s %7s %7s\n' vault md_KB idx_KB ratio first_s warm_s MB/s
for v in "$@"; do
	rm -rf "$v/.memotree"
	mkdir -p "$v/.memotree"
	s=$(date +%s.%N)
	"$bin" call --library "v=$v" search_nodes '{"query":"warmup"}' >/dev/null 2>&1 || true
	e=$(date +%s.%N)
	first=$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}')
	warm=
	for k in 1 2 3; do
		s=$(date +%s.%N)
		"$bin" call --library "v=$v" search_nodes '{"query":"warmup"}' >/dev/null 2>&1 || true
		e=$(date +%s.%N)
		w=$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}')
		[[ -z $warm ]] || awk -v a="$w" -v b="$warm" 'BEGIN {exit !(a < b)}' && warm=$w
	done
	md=$(find "$v" -name '*.md' -printf '%s\n' | awk '{s+=$1} END {print int(s/1024)}')
	idx=$(du -sk "$v/.memotree/search" | cut -f1)
	printf '%-10s %9d %9d %6.3f %7.3f %7.3f %7.1f\n' "$(basename "$v")" "$md" "$idx" \
		"$(awk -v a="$idx" -v b="$md" 'BEGIN {print a / b}')" "$first" "$warm" \
		"$(awk -v k="$md" -v t="$first" -v w="$warm" 'BEGIN {printf "%.1f", (t > w ? k / 1024 / (t - w) : 0)}')"
done
