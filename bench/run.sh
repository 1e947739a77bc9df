#!/usr/bin/env bash
# bench/run.sh — measure MemoTree beside ripgrep on synthetic vaults; writes bench/RESULTS.md.
#
#   bench/run.sh [SIZE...]        sizes in notes, default: 1000 10000 50000
#
# Environment:
#   MEMOTREE_BENCH_DIR   cache for vaults, binaries and raw results
#                        (default ~/.cache/memotree-bench); vaults are reused while their
#                        stamp (size, seed, generator source hash) matches
#   MEMOTREE_BENCH_SEED  vault seed (default 1)
#   MEMOTREE_BENCH_RUNS  hyperfine runs per warm measurement (default 10; 5 for cold)
#   MEMOTREE_BENCH_GO    set to 0 to skip the Go micro-benchmarks
#   MEMOTREE_BENCH_CANVAS set to 0 to skip the canvas figures (10k vault only)
#   MEMOTREE_BENCH_GRAPH  set to 0 to skip the graph view in Chromium (10k and 50k vaults;
#                        needs frontend/node_modules, Debian's /usr/bin/chromium and a
#                        binary with the frontend embedded, as `make bench` builds)
#   MEMOTREE_BENCH_OUT   the Markdown report (default bench/RESULTS.md)
#   MEMOTREE_BIN         an already built memotree to measure (default: build one with
#                        CGO_ENABLED=0 go build from the repository root)
#
# The Go benchmarks of ./backend/... can find the 10k vault in MEMOTREE_BENCH_VAULT.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

CACHE=${MEMOTREE_BENCH_DIR:-$HOME/.cache/memotree-bench}
SEED=${MEMOTREE_BENCH_SEED:-1}
RUNS=${MEMOTREE_BENCH_RUNS:-10}
COLD_RUNS=$(( RUNS < 5 ? RUNS : 5 ))
OUT=${MEMOTREE_BENCH_OUT:-$ROOT/bench/RESULTS.md}
SIZES=("$@")
[[ ${#SIZES[@]} -gt 0 ]] || SIZES=(1000 10000 50000)

say() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

for tool in go hyperfine rg; do
	if ! command -v "$tool" >/dev/null; then
		case $tool in
		hyperfine) die "hyperfine is not installed: 'sudo apt-get install hyperfine' (Debian/Ubuntu), 'brew install hyperfine' or 'cargo install hyperfine'" ;;
		rg) die "ripgrep (rg) is not installed: 'sudo apt-get install ripgrep' or 'brew install ripgrep'" ;;
		*) die "$tool is not installed" ;;
		esac
	fi
done
TIME=/usr/bin/time
[[ -x $TIME ]] || { say "no $TIME (GNU time): peak memory will not be measured"; TIME=; }

mkdir -p "$CACHE/bin" "$CACHE/results"
BIN=${MEMOTREE_BIN:-$CACHE/bin/memotree}
RAW=$CACHE/results
rm -f "$RAW"/*.json "$RAW"/*.err "$RAW"/*.txt "$RAW"/rows.tsv

say "building memotree and the bench tools"
if [[ -z ${MEMOTREE_BIN:-} ]]; then
	CGO_ENABLED=0 go build -o "$BIN" .
fi
[[ -x $BIN ]] || die "$BIN is not an executable"
for cmd in vaultgen evict table; do
	go build -o "$CACHE/bin/$cmd" "./bench/cmd/$cmd"
done
GEN_HASH=$(find bench/vaultgen -name '*.go' ! -name '*_test.go' | sort | xargs cat | sha256sum | cut -c1-16)
LOAD=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

label() { # 1000 -> 1k, 50000 -> 50k
	if (( $1 % 1000 == 0 )); then echo "$(( $1 / 1000 ))k"; else echo "$1"; fi
}

# vault SIZE: prints the path of a generated vault, generating it when its stamp differs.
vault() {
	local n=$1 dir="$CACHE/vault-$1-s$SEED"
	local stamp="vaultgen n=$n seed=$SEED src=$GEN_HASH"
	if [[ -d $dir && -f $dir.stamp && $(cat "$dir.stamp") == "$stamp" ]]; then
		say "reusing $dir"
	else
		say "generating $n notes into $dir"
		rm -rf "$dir" "$dir.stamp" "$dir.summary.json"
		"$CACHE/bin/vaultgen" -n "$n" -seed "$SEED" -out "$dir" >"$dir.summary.json"
		echo "$stamp" >"$dir.stamp"
	fi
	echo "$dir"
}

# How to start a run with a cold page cache: drop every cache as root, or else evict the
# vault's files one by one (bench/cmd/evict, no privileges needed).
if [[ $EUID -eq 0 ]] && (sync && echo 3 >/proc/sys/vm/drop_caches) 2>/dev/null; then
	COLD_HOW="dropping the whole page cache (echo 3 > /proc/sys/vm/drop_caches)"
	cold_prepare() { echo "sync; echo 3 > /proc/sys/vm/drop_caches"; }
else
	COLD_HOW="evicting the vault's files with posix_fadvise(DONTNEED) (bench/cmd/evict); directory entries stay cached"
	cold_prepare() { printf '%q %q' "$CACHE/bin/evict" "$1"; }
fi

ROWS=$RAW/rows.tsv
{
	echo "# rows for bench/cmd/table"
	echo -e "note\tCold runs start from a cold page cache by $COLD_HOW."
} >"$ROWS"

# index_ok VAULT: runs memotree index once, keeping its stats for the correctness table.
index_ok() {
	local v=$1 out=$2
	if ! "$BIN" index --library "v=$v" --stats >"$out" 2>"$out.err"; then
		say "memotree index failed on $v: $(head -c 500 "$out.err")"
		return 1
	fi
}

# peak PROGRAM...: peak resident set size in KB.
peak() {
	local f
	f=$(mktemp)
	"$TIME" -f %M -o "$f" "$@" >/dev/null 2>&1 || true
	tail -n1 "$f"
	rm -f "$f"
}

for n in "${SIZES[@]}"; do
	v=$(vault "$n")
	l=$(label "$n")
	mt="$(printf '%q' "$BIN") index --library $(printf '%q' "v=$v") --stats"
	rg="rg -c '\[\[' $(printf '%q' "$v")"
	if ! index_ok "$v" "$RAW/stats-$l.json"; then
		echo -e "note\tThe $l vault was skipped: \`memotree index\` failed." >>"$ROWS"
		continue
	fi
	echo -e "check\t$l\t$v.summary.json\t$RAW/stats-$l.json" >>"$ROWS"

	# Big vaults take seconds per run: fewer runs keep the whole bench in minutes.
	runs=$RUNS warmup=2 cold=$COLD_RUNS
	if (( n >= 50000 )); then runs=$(( RUNS < 3 ? RUNS : 3 )) warmup=1 cold=$(( COLD_RUNS < 3 ? COLD_RUNS : 3 )); fi

	say "warm cache, $l notes"
	if hyperfine --style basic --warmup "$warmup" --runs "$runs" \
		-n memotree "$mt" -n rg "$rg" --export-json "$RAW/warm-$l.json"; then
		echo -e "time\tindex, warm cache\t$l\t$RAW/warm-$l.json" >>"$ROWS"
	else
		echo -e "note\tWarm-cache runs on the $l vault failed." >>"$ROWS"
	fi

	say "cold cache, $l notes"
	prep=$(cold_prepare "$v")
	if hyperfine --style basic --runs "$cold" --prepare "$prep" \
		-n memotree "$mt" -n rg "$rg" --export-json "$RAW/cold-$l.json"; then
		echo -e "time\tindex, cold cache\t$l\t$RAW/cold-$l.json" >>"$ROWS"
	else
		echo -e "note\tCold-cache runs on the $l vault failed." >>"$ROWS"
	fi

	say "cold cache, $l notes, beside reading every note"
	cat="find $(printf '%q' "$v") -name '*.md' -exec cat {} + >/dev/null"
	if hyperfine --style basic --runs "$cold" --prepare "$prep" \
		-n memotree "$mt" -n "read every note" "$cat" --export-json "$RAW/coldread-$l.json"; then
		echo -e "time\tindex, cold cache, vs reading the files\t$l\t$RAW/coldread-$l.json" >>"$ROWS"
	fi

	if [[ -n $TIME ]]; then
		say "peak memory, $l notes"
		m=$(peak "$BIN" index --library "v=$v" --stats)
		r=$(peak rg -c '\[\[' "$v")
		if [[ $m =~ ^[0-9]+$ && $r =~ ^[0-9]+$ ]]; then
			echo -e "value\tpeak memory\t$l\t$m\trg\t$r\tKB" >>"$ROWS"
			md=$(find "$v" -name '*.md' -printf '%s\n' | awk '{s+=$1} END {print int(s/1024)}')
			echo -e "value\tpeak memory vs the vault's Markdown bytes (target ≤ 2.5×)\t$l\t$m\tMarkdown bytes\t$md\tKB" >>"$ROWS"
			# What the notes cost beyond the process itself (its code and runtime,
			# measured on an empty vault), which dominates a small vault.
			if [[ -z ${base:-} ]]; then
				empty=$(mktemp -d)
				base=$(peak "$BIN" index --library "v=$empty" --stats)
				rm -rf "$empty"
			fi
			if [[ $base =~ ^[0-9]+$ ]]; then
				echo -e "value\tpeak memory above an empty vault's ($base KB) vs the Markdown bytes\t$l\t$((m - base))\tMarkdown bytes\t$md\tKB" >>"$ROWS"
			fi
		fi
	fi
done

# git: status and a commit of 10 notes, whole processes, beside the git command line, on
# a committed copy of the 10k vault with 10 notes modified.
for n in "${SIZES[@]}"; do
	[[ $n == 10000 ]] || continue
	l=$(label "$n")
	src="$CACHE/vault-$n-s$SEED"
	[[ -d $src ]] || continue
	say "git, $l notes"
	gitdir=$(mktemp -d)
	for side in memotree git; do
		cp -r "$src" "$gitdir/$side"
		(cd "$gitdir/$side" && printf '.memotree/\n' >.gitignore && git init -q && git add -A &&
			git config user.name bench && git config user.email bench@invalid && git commit -qm vault)
	done
	mapfile -d '' ten < <(cd "$gitdir/git" && git ls-files -z '*.md' | head -z -n 10)
	edit="" names=""
	for f in "${ten[@]}"; do
		edit+="; echo edit >>$(printf '%q' "$f")"
		names+="\"$(basename "${f%.md}")\","
	done
	edit=${edit#; }
	(cd "$gitdir/memotree" && eval "$edit") && (cd "$gitdir/git" && eval "$edit")
	if hyperfine --style basic --warmup 3 --runs "$RUNS" \
		-n memotree "$(printf '%q' "$BIN") call --library $(printf '%q' "v=$gitdir/memotree") git_status" \
		-n git "git -C $(printf '%q' "$gitdir/git") status --porcelain" --export-json "$RAW/gitstatus-$l.json"; then
		echo -e "time\tgit status, 10 notes modified (target ≤ 1.5×)\t$l\t$RAW/gitstatus-$l.json" >>"$ROWS"
	fi
	commit_args="{\"message\":\"bench\",\"entity_names\":[${names%,}]}"
	files=$(printf ' %q' "${ten[@]}")
	if hyperfine --style basic --runs "$RUNS" \
		--prepare "cd $(printf '%q' "$gitdir/memotree") && $edit" \
		--prepare "cd $(printf '%q' "$gitdir/git") && $edit" \
		-n memotree "$(printf '%q' "$BIN") call --library $(printf '%q' "v=$gitdir/memotree") git_commit $(printf '%q' "$commit_args")" \
		-n git "cd $(printf '%q' "$gitdir/git") && git add --$files && git -c user.name=bench -c user.email=bench@invalid commit -qm bench" \
		--export-json "$RAW/gitcommit-$l.json"; then
		echo -e "time\tgit commit of 10 notes (target ≤ 2×)\t$l\t$RAW/gitcommit-$l.json" >>"$ROWS"
	fi
	rm -rf "$gitdir"
done

# Search on the 10k vault, whole process against whole process: a ranked query and a
# regular expression through `memotree call` (the persisted index under .memotree is
# built once before timing, as it is after the first search) beside ripgrep over the
# same notes. A copy of the vault keeps the shared one free of index files.
for n in "${SIZES[@]}"; do
	[[ $n == 10000 ]] || continue
	v=$(vault "$n")
	l=$(label "$n")
	sv=$(mktemp -d)
	cp -r "$v/." "$sv/"
	say "search, $l notes: building the index once"
	"$BIN" call --library "v=$sv" search_nodes '{"query":"warmup"}' >/dev/null 2>&1 || true # no_match is fine
	q=$(printf '%q' "$BIN")" call --library $(printf '%q' "v=$sv")"
	say "search, $l notes: ranked query"
	if hyperfine --style basic --warmup 2 --runs "$RUNS" \
		-n memotree "$q search_nodes '{\"query\":\"gallolum thijomor\"}'" \
		-n rg "rg -c -i gallolum --glob '*.md' $(printf '%q' "$sv")" --export-json "$RAW/search-ranked-$l.json"; then
		echo -e "time\tsearch_nodes, ranked with snippets, vs rg one word\t$l\t$RAW/search-ranked-$l.json" >>"$ROWS"
	fi
	for pat in 'Gallolum thijomor' 'zunar pelcoster'; do
		say "search, $l notes: /$pat/"
		slug=${pat// /-}
		if hyperfine --style basic --warmup 2 --runs "$RUNS" \
			-n memotree "$q search_in_contents '{\"content_glob\":\"/$pat/\",\"limit\":500}'" \
			-n rg "rg -c '$pat' --glob '*.md' $(printf '%q' "$sv")" --export-json "$RAW/search-regex-$slug-$l.json"; then
			echo -e "time\tregex content search /$pat/ vs rg\t$l\t$RAW/search-regex-$slug-$l.json" >>"$ROWS"
		fi
	done
	rm -rf "$sv"
done

# MCP: MemoTree's server beside the official memory server, same work over stdio.
MEMSRV=$ROOT/bench/node/node_modules/@modelcontextprotocol/server-memory/dist/index.js
if [[ ${MEMOTREE_BENCH_MCP:-1} != 0 ]]; then
	if [[ ! -f $MEMSRV ]]; then
		say "installing @modelcontextprotocol/server-memory (bench/node)"
		(cd "$ROOT/bench/node" && npm ci --no-audit --no-fund >/dev/null)
	fi
	say "MCP servers, ${MEMOTREE_BENCH_MCP_N:-10000} entities"
	go build -o "$CACHE/bin/mcpbench" ./bench/cmd/mcpbench
	mcpdir=$(mktemp -d)
	mkdir -p "$mcpdir/vault"
	if ! "$CACHE/bin/mcpbench" -memotree "$BIN" -vault "$mcpdir/vault" -memory "node $MEMSRV" \
		-memory-file "$mcpdir/memory.jsonl" -n "${MEMOTREE_BENCH_MCP_N:-10000}" -queries 1000 -rows "$ROWS" >"$RAW/mcp.jsonl"; then
		echo -e "note\tThe MCP benchmark failed." >>"$ROWS"
	fi
	rm -rf "$mcpdir"
fi

# Canvas: the agent's default view of the 10k vault beside server-memory's read_graph
# of the same entities and relations.
if [[ ${MEMOTREE_BENCH_CANVAS:-1} != 0 ]]; then
	for n in "${SIZES[@]}"; do
		[[ $n == 10000 ]] || continue
		if [[ ! -f $MEMSRV ]]; then
			say "installing @modelcontextprotocol/server-memory (bench/node)"
			(cd "$ROOT/bench/node" && npm ci --no-audit --no-fund >/dev/null)
		fi
		say "canvas, $(label "$n") notes"
		go build -o "$CACHE/bin/canvasbench" ./bench/cmd/canvasbench
		if ! "$CACHE/bin/canvasbench" -vault "$(vault "$n")" -memory "node $MEMSRV" -label "$(label "$n")" \
			-rows "$ROWS" >"$RAW/canvas-$(label "$n").json"; then
			echo -e "note\tThe canvas benchmark failed." >>"$ROWS"
		fi
	done
fi

# The graph view: the 10k and 50k vaults' global graph in headless Chromium, from
# navigation to drawn, frames per second while panning and zooming, and the layout's
# figures once settled (frontend/e2e/graph-bench.mjs).
if [[ ${MEMOTREE_BENCH_GRAPH:-1} != 0 ]]; then
	for n in "${SIZES[@]}"; do
		[[ $n == 10000 || $n == 50000 ]] || continue
		graph_runs=3 graph_timeout=120000
		(( n >= 50000 )) && graph_runs=1 graph_timeout=600000
		if [[ ! -d $ROOT/frontend/node_modules ]]; then
			say "installing the frontend's packages (for the graph benchmark)"
			(cd "$ROOT/frontend" && npm ci --no-audit --no-fund >/dev/null)
		fi
		say "graph view in Chromium, $(label "$n") notes"
		if ! (cd "$ROOT/frontend" && MEMOTREE_BIN=$BIN node e2e/graph-bench.mjs --vault "$(vault "$n")" \
			--label "$(label "$n")" --runs "$graph_runs" --layout-timeout "$graph_timeout" --rows "$ROWS" >"$RAW/graph-$(label "$n").json"); then
			echo -e "note\tThe graph view benchmark failed." >>"$ROWS"
		fi
	done
fi

GOBENCH=()
if [[ ${MEMOTREE_BENCH_GO:-1} != 0 ]]; then
	say "Go benchmarks"
	for n in "${SIZES[@]}"; do [[ $n == 10000 ]] && export MEMOTREE_BENCH_VAULT="$CACHE/vault-$n-s$SEED"; done
	if go test -run '^$' -bench . -benchmem ./backend/... 2>&1 | tee "$RAW/gobench.txt"; then
		GOBENCH=(-gobench "$RAW/gobench.txt")
	else
		say "go test -bench failed; see $RAW/gobench.txt"
		echo -e "note\tThe Go benchmarks failed; their output is in the cache folder." >>"$ROWS"
		GOBENCH=(-gobench "$RAW/gobench.txt")
	fi
fi

CPU=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
RGV=$(rg --version)
RGV=${RGV%%$'\n'*}
"$CACHE/bin/table" -o "$OUT" \
	-note "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -sr), ${CPU:-unknown CPU}, $(nproc) CPUs (load average $LOAD at start), $(go version | cut -d' ' -f3), hyperfine $(hyperfine --version | cut -d' ' -f2), $RGV." \
	-note "Vaults: \`bench/cmd/vaultgen -seed $SEED\`; reference: \`rg -c '\\[\\['\` over the same folder. Raw data: \`${RAW/#$HOME/\~}\`." \
	"${GOBENCH[@]}" "$ROWS"
say "wrote $OUT"
