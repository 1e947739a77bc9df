#!/usr/bin/env bash
# bench/run.sh — measure MemoTree beside ripgrep, git and the MCP memory server on
# generated vaults; writes bench/RESULTS.md with every row's target and spread.
#
#   bench/run.sh [SIZE...]        sizes in notes, default: 1000 10000 100000
#
# Every timed row runs MemoTree and its reference interleaved, round by round
# (bench/cmd/ab), and reports medians with their range; a target counts as met only
# when every round holds it (bench/cmd/table).
#
# Environment:
#   MEMOTREE_BENCH_DIR    cache for vaults, binaries and raw results (default
#                         bench/.cache, git-ignored); vaults are reused while their stamp
#                         (size, shape, seed, generator source hash) matches
#   MEMOTREE_BENCH_SEED   vault seed (default 1)
#   MEMOTREE_BENCH_RUNS   interleaved rounds per warm measurement (default 10; fewer on
#                         big vaults and for cold runs)
#   MEMOTREE_BENCH_GO     set to 0 to skip the Go micro-benchmarks
#   MEMOTREE_BENCH_COLD   set to 0 to skip the cold-cache runs (as root they drop the
#                         whole page cache: not on a machine shared with other work)
#   MEMOTREE_BENCH_SHAPES set to 0 to skip the vault shapes (10k)
#   MEMOTREE_BENCH_GIT    set to 0 to skip git status and commit
#   MEMOTREE_BENCH_MCP    set to 0 to skip the MCP servers
#   MEMOTREE_BENCH_MCP_ROUNDS  whole MCP runs on empty stores (default 3)
#   MEMOTREE_BENCH_CANVAS set to 0 to skip the canvas figures
#   MEMOTREE_BENCH_GRAPH  set to 0 to skip the window in Chromium (needs
#                         frontend/node_modules, Debian's /usr/bin/chromium and a binary
#                         with the frontend embedded, as `make bench` builds)
#   MEMOTREE_BENCH_OUT    the Markdown report (default bench/RESULTS.md)
#   MEMOTREE_BIN          an already built memotree to measure (default: build one with
#                         CGO_ENABLED=0 go build from the repository root)
#
# The Go benchmarks of ./backend/... can find the 10k vault in MEMOTREE_BENCH_VAULT.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

CACHE=${MEMOTREE_BENCH_DIR:-$ROOT/bench/.cache}
SEED=${MEMOTREE_BENCH_SEED:-1}
RUNS=${MEMOTREE_BENCH_RUNS:-10}
OUT=${MEMOTREE_BENCH_OUT:-$ROOT/bench/RESULTS.md}
SIZES=("$@")
[[ ${#SIZES[@]} -gt 0 ]] || SIZES=(1000 10000 100000)
STARTED=$(date +%s)

say() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }
has_size() { local n; for n in "${SIZES[@]}"; do [[ $n == "$1" ]] && return 0; done; return 1; }
q() { printf '%q' "$1"; }

for tool in go rg git; do
	if ! command -v "$tool" >/dev/null; then
		case $tool in
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
for cmd in vaultgen evict table ab fsynclat; do
	go build -o "$CACHE/bin/$cmd" "./bench/cmd/$cmd"
done
GEN_HASH=$(find bench/vaultgen -name '*.go' ! -name '*_test.go' | sort | xargs cat | sha256sum | cut -c1-16)
LOAD=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
AB=$CACHE/bin/ab
M=$(q "$BIN")

label() { # 1000 -> 1k, 100000 -> 100k
	if (( $1 % 1000 == 0 )); then echo "$(( $1 / 1000 ))k"; else echo "$1"; fi
}

# vault SIZE [SHAPE]: prints the path of a generated vault, generating it when its stamp
# differs. The size of the long and code shapes is the number of notes of the own shape
# holding as many words: a fifth of it.
vault() {
	local n=$1 shape=${2:-own} notes=$1
	[[ $shape == long || $shape == code ]] && notes=$(( n / 5 ))
	local dir="$CACHE/vault-$shape-$n-s$SEED"
	[[ $shape == own ]] && dir="$CACHE/vault-$n-s$SEED"
	local stamp="vaultgen n=$notes shape=$shape seed=$SEED src=$GEN_HASH"
	if [[ -d $dir && -f $dir.stamp && $(cat "$dir.stamp") == "$stamp" ]]; then
		say "reusing $dir"
	else
		say "generating $notes notes ($shape) into $dir"
		rm -rf "$dir" "$dir.stamp" "$dir.summary.json"
		"$CACHE/bin/vaultgen" -n "$notes" -shape "$shape" -seed "$SEED" -out "$dir" >"$dir.summary.json"
		echo "$stamp" >"$dir.stamp"
		# A freshly written vault is still being written back to disk: measuring
		# while the kernel flushes it slowed whichever command ran during the flush
		# (a rerun on a fresh machine showed the index 1.8x slower against ripgrep).
		sync
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
row() { local IFS=$'\t'; echo "$*" >>"$ROWS"; }
note() { row note "$1"; }

# ab_row OP VAULT TARGET FILE RUNS WARMUP PREPARE NAME CMD [NAME CMD]: times the
# commands interleaved and adds the row; a failed measurement becomes a note.
ab_row() {
	local op=$1 vault=$2 target=$3 file=$4 runs=$5 warmup=$6 prep=$7
	shift 7
	local args=(-runs "$runs" -warmup "$warmup" -out "$RAW/$file")
	[[ -n $prep ]] && args+=(-prepare "$prep")
	say "$op, $vault"
	if "$AB" "${args[@]}" "$@"; then
		row ab "$op" "$vault" "$target" "$RAW/$file"
	else
		note "The measurement \"$op\" on the $vault vault failed."
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

md_kb() { find "$1" -name '*.md' -printf '%s\n' | awk '{s+=$1} END {print int(s/1024)}'; }

# --- the index, by size -------------------------------------------------------------
# The 1k and 10k vaults are of the own shape; the 100k vault is of the flow shape, as
# ordinary Obsidian front matter over longer English notes (1 GB).
for n in "${SIZES[@]}"; do
	l=$(label "$n")
	shape=own
	(( n >= 100000 )) && shape=flow
	v=$(vault "$n" "$shape")
	mt="$M index --library $(q "v=$v") --stats"
	rg="rg -c '\[\[' $(q "$v")"
	if ! "$BIN" index --library "v=$v" --stats >"$RAW/stats-$l.json" 2>"$RAW/stats-$l.err"; then
		note "The $l vault was skipped: \`memotree index\` failed: $(head -c 300 "$RAW/stats-$l.err")"
		continue
	fi
	row check "$l" "$v.summary.json" "$RAW/stats-$l.json"
	runs=$RUNS warmup=2 cold=5
	if (( n >= 50000 )); then runs=$(( RUNS < 5 ? RUNS : 5 )) warmup=1 cold=3; fi
	ab_row "index, warm cache" "$l" "ratio<=3" "warm-$l.json" "$runs" "$warmup" "" memotree "$mt" rg "$rg"
	if [[ ${MEMOTREE_BENCH_COLD:-1} != 0 ]]; then
		ab_row "index, cold cache" "$l" "-" "cold-$l.json" "$cold" 0 "$(cold_prepare "$v")" memotree "$mt" rg "$rg"
	fi
	if [[ -n $TIME ]]; then
		say "peak memory, $l notes"
		m=$(peak "$BIN" index --library "v=$v" --stats)
		md=$(md_kb "$v")
		if [[ $m =~ ^[0-9]+$ ]]; then
			memtarget="ratio<=2.5"
			(( n >= 100000 )) && memtarget="ratio<=1"
			row value "peak memory of the index vs the vault's Markdown bytes" "$l" "$m" "Markdown bytes" "$md" KB "$memtarget"
			# What the notes cost beyond the process itself (its code and runtime,
			# measured on an empty vault), which dominates a small vault.
			if [[ -z ${base:-} ]]; then
				empty=$(mktemp -d)
				base=$(peak "$BIN" index --library "v=$empty" --stats)
				rm -rf "$empty"
			fi
			[[ $base =~ ^[0-9]+$ ]] && row value "peak memory above an empty vault's ($base KB) vs the Markdown bytes" "$l" "$((m - base))" "Markdown bytes" "$md" KB
		fi
	fi
done

# --- the index on vaults of other shapes (10k notes each, or as many words) ----------
if [[ ${MEMOTREE_BENCH_SHAPES:-1} != 0 ]] && has_size 10000; then
	for shape in own flow crlf long chinese hub names mixed code; do
		v=$(vault 10000 "$shape")
		if ! "$BIN" index --library "v=$v" --stats >"$RAW/stats-$shape.json" 2>"$RAW/stats-$shape.err"; then
			note "The $shape vault was skipped: \`memotree index\` failed."
			continue
		fi
		[[ $shape != own ]] && row check "10k $shape" "$v.summary.json" "$RAW/stats-$shape.json"
		ab_row "index, warm cache, $shape shape" "10k" "ratio<=3" "warm-shape-$shape.json" 7 2 "" \
			memotree "$M index --library $(q "v=$v") --stats" rg "rg -c '\[\[' $(q "$v")"
	done
	note "Vault shapes (bench/vaultgen): own — the project's block-style front matter; flow — flow lists, type/created/modified keys, relations of type and to, folded descriptions, nested maps, English prose; crlf — own with CRLF and a byte order mark; long — 2,000 notes of 6,000-12,000 words with one or two links; chinese — Chinese titles, folders, tags and prose; hub — own with one note linking to 2,000 others; names, mixed and code — see below."
fi

# --- git: status and a commit of 10 notes, beside the git command line --------------
git_rows() {
	local n=$1 shape=$2 l src gitdir
	l=$(label "$n")
	src=$(vault "$n" "$shape")
	say "git, $l notes: preparing two committed copies"
	gitdir=$(mktemp -d "$CACHE/git-XXXX")
	for side in memotree git; do
		cp -r "$src" "$gitdir/$side"
		# No automatic gc: on a big repository git starts one in the background after a
		# commit, which would run during the timings (and in the folder being removed).
		# The repository's identity signs MemoTree's commits as it signs git's.
		(cd "$gitdir/$side" && printf '.memotree/\n' >.gitignore && git init -q &&
			git config gc.auto 0 && git config maintenance.auto false &&
			git config user.name bench && git config user.email bench@invalid &&
			git add -A && git commit -qm vault)
	done
	mapfile -d '' ten < <(cd "$gitdir/git" && git ls-files -z '*.md' | head -z -n 10)
	local edit="" names="" f
	for f in "${ten[@]}"; do
		edit+="; echo edit >>$(q "$f")"
		names+="\"$(basename "${f%.md}")\","
	done
	edit=${edit#; }
	(cd "$gitdir/memotree" && eval "$edit") && (cd "$gitdir/git" && eval "$edit")
	ab_row "git status, 10 notes modified" "$l" "ratio<=1.5" "gitstatus-$l.json" "$RUNS" 3 "" \
		memotree "$M call --library $(q "v=$gitdir/memotree") git_status" \
		git "git -C $(q "$gitdir/git") status --porcelain"
	if (( n < 100000 )); then
		local commit_args="{\"message\":\"bench\",\"entity_names\":[${names%,}]}" files
		files=$(printf ' %q' "${ten[@]}")
		ab_row "git commit of 10 notes" "$l" "ratio<=2" "gitcommit-$l.json" "$RUNS" 1 \
			"cd $(q "$gitdir/memotree") && $edit && cd $(q "$gitdir/git") && $edit" \
			memotree "$M call --library $(q "v=$gitdir/memotree") git_commit $(q "$commit_args")" \
			git "cd $(q "$gitdir/git") && git add --$files && git -c user.name=bench -c user.email=bench@invalid commit -qm bench"
	fi
	rm -rf "$gitdir" || { sleep 1; rm -rf "$gitdir"; }
}
if [[ ${MEMOTREE_BENCH_GIT:-1} != 0 ]]; then
	has_size 10000 && git_rows 10000 own
	has_size 100000 && git_rows 100000 flow
fi

# --- search: ranked queries and regular expressions, whole process beside ripgrep ----
# On a copy of the vault, so that the shared one holds no index files. The persisted
# index is built once before timing (the first search builds it); that build is a row.
search_copy() { # search_copy VAULT: prints a copy's path
	local sv
	sv=$(mktemp -d "$CACHE/search-XXXX")
	cp -r "$1/." "$sv/"
	# A vault MemoTree has opened has .memotree/, where the search index lives; in
	# a folder without it a one-shot process keeps the index in the user's cache
	# folder, which the rows below would neither measure nor remove.
	mkdir -p "$sv/.memotree"
	echo "$sv"
}
search_build() { # search_build LABEL VAULT TARGET
	local s e secs md idx warm w k
	say "search index build, $1"
	s=$(date +%s.%N)
	"$BIN" call --library "v=$2" search_nodes '{"query":"warmup"}' >/dev/null 2>&1 || true # no_match is fine
	e=$(date +%s.%N)
	secs=$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.2f", e - s}')
	row value "search index: first search_nodes, building the index (whole process)" "$1" "$secs" target "$3" s "value<=$3"
	idx=$(du -sk "$2/.memotree/search" | cut -f1)
	md=$(md_kb "$2")
	row value "search index on disk vs the Markdown bytes" "$1" "$idx" "Markdown bytes" "$md" KB "ratio<=0.5"
	# The build's rate: the Markdown over the first search's time less a warm one's
	# (the fastest of three), so that starting a process, which a small vault's build
	# would hide behind, is not counted as building.
	warm=
	for k in 1 2 3; do
		s=$(date +%s.%N)
		"$BIN" call --library "v=$2" search_nodes '{"query":"warmup"}' >/dev/null 2>&1 || true
		e=$(date +%s.%N)
		w=$(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", e - s}')
		[[ -z $warm ]] || awk -v a="$w" -v b="$warm" 'BEGIN {exit !(a < b)}' && warm=$w
	done
	row value "search index build rate: Markdown MB per second of the first search_nodes less a warm one ($warm s)" "$1" \
		"$(awk -v k="$md" -v t="$secs" -v w="$warm" 'BEGIN {printf "%.1f", (t > w ? k / 1024 / (t - w) : 0)}')" target 40 MB/s "value>=40"
}
# page_notes TOOL JSON VAULT: how many notes MemoTree's first page holds (0: no match,
# which exits 1, as grep does: under pipefail a grep -c of nothing would end the run).
page_notes() {
	local out
	out=$("$BIN" call --json --library "v=$3" "$1" "$2" 2>/dev/null) || true
	awk '{n += gsub(/"entity_name"/, "")} END {print n + 0}' <<<"$out"
}
# regex_rows LABEL VAULT TOOL PATTERN RG-ARGS...: two rows that each compare equal
# work. The first page — the notes up to 50 matching lines or 50 notes, in path order,
# each with up to 5 lines and their context — against ripgrep stopping once it has
# named as many files (rg -l | head -n N: any N files, names only; with no match both
# read every note). The count of every note with a match (summary_only: each note read
# up to its first matching line, front matter aside for search_in_contents) against
# ripgrep's count of the files with a match (rg -l | wc -l: each file read up to its
# first match).
regex_rows() {
	local l=$1 sv=$2 tool=$3 pat=$4 arg slug n
	shift 4
	arg=content_glob
	[[ $tool == search_anywhere ]] && arg=pattern_glob
	slug=$(echo "$tool-$pat" | tr -c 'a-zA-Z0-9' '-' | tr -s '-' | cut -c1-60)
	local esc=${pat//\\/\\\\}
	esc=${esc//\"/\\\"}
	local page="{\"$arg\":\"$esc\"}" count="{\"$arg\":\"$esc\",\"summary_only\":true}"
	local rgl="rg -l $(printf '%q ' "$@") --glob '*.md' $(q "$sv")"
	n=$(page_notes "$tool" "$page" "$sv")
	local ref="$rgl | head -n $n" what="rg -l | head -n $n: the first $n files found, names only"
	local mine="first page ($n notes in path order, up to 5 lines each with context)"
	if (( n == 0 )); then
		ref="$rgl" what="rg -l: no file matches, every file read"
		mine="first page, no note matches (every note the index cannot rule out read)"
	fi
	ab_row "$tool $pat, $mine vs $what" "$l" "ratio<=2" "re-page-$slug-$l.json" "$RUNS" 2 "" -ok-exit 1 \
		memotree "$M call --library $(q "v=$sv") $tool $(q "$page")" \
		rg "$ref"
	local counted="every note with a match counted"
	[[ $tool == search_in_contents ]] && counted="every note with a match in its body counted (not equal work where a match lies in a front matter: ripgrep counts that file at its first lines, MemoTree reads the note to its end and counts it only for a match below)"
	ab_row "$tool $pat, summary_only: $counted vs rg -l | wc -l: every file with a match counted" "$l" "ratio<=1" "re-count-$slug-$l.json" "$RUNS" 2 "" -ok-exit 1 \
		memotree "$M call --library $(q "v=$sv") $tool $(q "$count")" \
		rg "$rgl | wc -l"
}
if has_size 10000; then
	# The own vault: rare literals, and the ranked query.
	sv=$(search_copy "$(vault 10000 own)")
	search_build 10k "$sv" 30
	ab_row "search_nodes, the 20 best notes with snippets from the index vs rg -c -i one word: every file read, lines counted (not equal work: a ranking against a count)" 10k "ratio<=1" "search-ranked-10k.json" "$RUNS" 2 "" \
		memotree "$M call --library $(q "v=$sv") search_nodes '{\"query\":\"gallolum thijomor\"}'" \
		rg "rg -c -i gallolum --glob '*.md' $(q "$sv")"
	regex_rows 10k "$sv" search_in_contents '/Gallolum thijomor/' 'Gallolum thijomor'
	regex_rows 10k "$sv" search_in_contents '/zunar pelcoster/' 'zunar pelcoster'
	rm -rf "$sv"
	# The flow vault, English prose: every other shape of pattern — a literal, an
	# alternation, a class with word boundaries, a glob, patterns without a literal.
	sv=$(search_copy "$(vault 10000 flow)")
	search_build "10k flow" "$sv" 30
	regex_rows "10k flow" "$sv" search_in_contents '/question/' 'question'
	regex_rows "10k flow" "$sv" search_in_contents '/foo|bar/' 'foo|bar'
	regex_rows "10k flow" "$sv" search_in_contents '/\bqu[a-z]*(ion|ness)\b/' '\bqu[a-z]*(ion|ness)\b'
	regex_rows "10k flow" "$sv" search_in_contents '*quiet*harbour*' -i 'quiet.*harbour'
	regex_rows "10k flow" "$sv" search_anywhere '/[0-9]{4}-[0-9]{2}/' '[0-9]{4}-[0-9]{2}'
	regex_rows "10k flow" "$sv" search_in_contents '/\d{3}-\d{4}-\d{4}/' '\d{3}-\d{4}-\d{4}'
	rm -rf "$sv"
	note "Regular expressions, two rows each, each row equal work: the first page (the notes up to 50 matching lines or 50 notes, in path order, with up to 5 lines each and their context) against ripgrep naming as many files (rg -l | head -n N, any N files, names only), and the count of every note with a match (summary_only) against ripgrep's count of the files with a match (rg -l | wc -l). Both read each file up to its first match; search_in_contents leaves the front matter out, search_anywhere also matches names. /\\d{3}-\\d{4}-\\d{4}/ matches nothing and has no literal: every note is read and run through RE2, by both rows."
fi
# held FILE: whether a process holds an open file description lock on FILE, as the
# search index's voucher does on .memotree/search/vouch.lock (/proc/locks).
held() {
	local ino
	ino=$(stat -c %i "$1" 2>/dev/null) || return 1
	grep -q "OFDLCK .*:$ino " /proc/locks
}
# voucher_start VAULT: runs `memotree mcp` on the vault, as the window or an agent's
# server does (watching it and vouching for its search index), until voucher_stop;
# waits until it vouches. Returns 1 if it does not within 5 minutes.
voucher_start() {
	local fifo=$CACHE/voucher.stdin i
	rm -f "$fifo" && mkfifo "$fifo"
	"$BIN" mcp --library "v=$1" <"$fifo" >/dev/null 2>"$RAW/voucher.err" &
	VOUCHER_PID=$!
	exec 7>"$fifo" # its standard input stays open until voucher_stop
	for ((i = 0; i < 3000; i++)); do
		held "$1/.memotree/search/vouch.lock" && return 0
		kill -0 "$VOUCHER_PID" 2>/dev/null || break
		sleep 0.1
	done
	return 1
}
voucher_stop() {
	kill "$VOUCHER_PID" 2>/dev/null || true
	wait "$VOUCHER_PID" 2>/dev/null || true
	exec 7>&-
	rm -f "$CACHE/voucher.stdin"
}
if has_size 100000; then
	sv=$(search_copy "$(vault 100000 flow)")
	search_build 100k "$sv" 30
	# Without a running MemoTree process nobody can say what changed since the index
	# was saved: the process stats every note, as find does.
	ab_row "search_nodes, whole process, nothing changed, no MemoTree running (stats every note, as find does, then ranks from the index)" 100k "value<=0.2" "search-ranked-walk-100k.json" 5 1 "" \
		memotree "$M call --library $(q "v=$sv") search_nodes '{\"query\":\"quiet harbour\"}'" \
		find "find $(q "$sv") -name '*.md' -printf '%s %T@\\n'"
	if voucher_start "$sv"; then
		ab_row "search_nodes, whole process, nothing changed, a running MemoTree vouching for the index (the 20 best notes from the index vs rg -c -i: every file read, lines counted; not equal work)" 100k "value<=0.2" "search-ranked-100k.json" 5 1 "" \
			memotree "$M call --library $(q "v=$sv") search_nodes '{\"query\":\"quiet harbour\"}'" \
			rg "rg -c -i harbour --glob '*.md' $(q "$sv")"
	else
		note "The running process (memotree mcp) did not vouch for the 100k search index: $(head -c 300 "$RAW/voucher.err")"
	fi
	voucher_stop
	note "A running MemoTree process (the window, serve, mcp) whose watcher follows the vault vouches for the persisted search index: a one-shot process asks it, through a fence file its watcher sees in order, which notes changed since the file was written, and reads only those (backend/search/vouch.go, Linux). Without one it stats every note."
	regex_rows 100k "$sv" search_in_contents '/foo|bar/' 'foo|bar'
	regex_rows 100k "$sv" search_in_contents '/Unwritten Of/' 'Unwritten Of'
	rm -rf "$sv"
fi

# --- shapes the index was not tuned on, and the real corpora (issue 30) -------------
# On each: the search index's size and build rate, search_nodes as a whole process
# with no MemoTree running, a first page and a count of four patterns (a literal, an
# alternation, a class with word boundaries, no literal), and the canvas's default
# view. Every target is judged on every one of them.
untuned_rows() { # untuned_rows LABEL VAULT QUERY
	local l=$1 src=$2 query=$3 sv slug
	slug=$(echo "$l" | tr -c 'a-zA-Z0-9' '-' | tr -s '-')
	sv=$(search_copy "$src")
	search_build "$l" "$sv" 30
	ab_row "search_nodes, whole process, nothing changed, no MemoTree running (stats every note, as find does, then ranks from the index)" "$l" "value<=0.2" "search-walk-$slug.json" 5 1 "" \
		memotree "$M call --library $(q "v=$sv") search_nodes $(q "{\"query\":\"$query\"}")" \
		find "find $(q "$sv") -name '*.md' -printf '%s %T@\\n'"
	regex_rows "$l" "$sv" search_in_contents '/the/' 'the'
	regex_rows "$l" "$sv" search_in_contents '/note|file/' 'note|file'
	regex_rows "$l" "$sv" search_in_contents '/\b[a-z]+ion\b/' '(?-u:\b)[a-z]+ion(?-u:\b)'
	regex_rows "$l" "$sv" search_in_contents '/[0-9]{2}:[0-9]{2}/' '[0-9]{2}:[0-9]{2}'
	if [[ ${MEMOTREE_BENCH_CANVAS:-1} != 0 ]]; then
		go build -o "$CACHE/bin/canvasbench" ./bench/cmd/canvasbench
		say "canvas, $l"
		"$CACHE/bin/canvasbench" -vault "$sv" -label "$l" -rows "$ROWS" >"$RAW/canvas-$slug.json" ||
			note "The canvas benchmark failed on the $l vault."
	fi
	rm -rf "$sv"
}
if [[ ${MEMOTREE_BENCH_SHAPES:-1} != 0 ]]; then
	if has_size 10000; then
		for shape in names mixed code; do
			untuned_rows "10k $shape" "$(vault 10000 "$shape")" "quiet harbour"
		done
		# The search index's size and build on the shapes above have no row of
		# their own: every target is judged on every shape.
		for shape in chinese long hub crlf; do
			sv=$(search_copy "$(vault 10000 "$shape")")
			search_build "10k $shape" "$sv" 30
			rm -rf "$sv"
		done
	fi
	if has_size 100000; then
		untuned_rows "100k names" "$(vault 100000 names)" "quiet harbour"
	fi
	# The real corpora, read where they lie (../shared/corpora) and copied for the
	# index; absent corpora are said so in the report.
	for corpus in obsidian-help-en obsidian-help-zh; do
		dir=${MEMOTREE_CORPORA:-$ROOT/../shared/corpora}/$corpus
		if [[ -d $dir ]]; then
			untuned_rows "$corpus" "$dir" "backlinks"
		else
			note "The corpus $corpus is absent ($dir): its rows were not measured."
		fi
	done
	note "Shapes the index was not tuned on (bench/vaultgen, issue 30): names — a vocabulary that grows with the vault (people, places, projects, invented words) in prose, titles and folders; mixed — nine languages and scripts, one a note; code — 2,000 long notes (3,000-9,000 words) with code blocks (as many words as 10k notes). The corpora are the English and Chinese Obsidian Help vaults (173 notes each)."
fi

# --- MCP: MemoTree's server beside the official memory server, same work over stdio --
MEMSRV=$ROOT/bench/node/node_modules/@modelcontextprotocol/server-memory/dist/index.js
need_memsrv() {
	if [[ ! -f $MEMSRV ]]; then
		say "installing @modelcontextprotocol/server-memory (bench/node)"
		(cd "$ROOT/bench/node" && npm ci --no-audit --no-fund >/dev/null)
	fi
}
if [[ ${MEMOTREE_BENCH_MCP:-1} != 0 ]]; then
	need_memsrv
	say "MCP servers, ${MEMOTREE_BENCH_MCP_N:-10000} entities"
	go build -o "$CACHE/bin/mcpbench" ./bench/cmd/mcpbench
	mcpdir=$(mktemp -d)
	mkdir -p "$mcpdir/vault"
	if ! "$CACHE/bin/mcpbench" -memotree "$BIN" -vault "$mcpdir/vault" -memory "node $MEMSRV" \
		-memory-file "$mcpdir/memory.jsonl" -n "${MEMOTREE_BENCH_MCP_N:-10000}" -queries 1000 \
		-rounds "${MEMOTREE_BENCH_MCP_ROUNDS:-3}" -ab-dir "$RAW" -rows "$ROWS" >"$RAW/mcp.jsonl"; then
		note "The MCP benchmark failed."
	fi
	rm -rf "$mcpdir"
	note "Writes: MemoTree syncs every note it writes to disk (fsync) before renaming it into place; server-memory and git (by default) do not. The create rows and the git commit row depend on the disk's flush time: $("$CACHE/bin/fsynclat" "$CACHE") on this machine."
fi

# --- the canvas: the agent's default view, and view_canvas as a whole process -------
if [[ ${MEMOTREE_BENCH_CANVAS:-1} != 0 ]]; then
	need_memsrv
	go build -o "$CACHE/bin/canvasbench" ./bench/cmd/canvasbench
	for n in 10000 100000; do
		has_size "$n" || continue
		shape=own
		(( n >= 100000 )) && shape=flow
		v=$(vault "$n" "$shape")
		l=$(label "$n")
		say "canvas, $l notes"
		mem=(-memory "node $MEMSRV")
		(( n >= 100000 )) && mem=() # server-memory's read_graph of 1M relations takes minutes
		if ! "$CACHE/bin/canvasbench" -vault "$v" "${mem[@]}" -label "$l" -rows "$ROWS" >"$RAW/canvas-$l.json"; then
			note "The canvas benchmark failed on the $l vault."
		fi
		cv=$(search_copy "$v")
		ab_row "view_canvas, whole process" "$l" "value<=1" "canvas-view-$l.json" 5 1 "" \
			memotree "$M call --library $(q "v=$cv") view_canvas" \
			"list the folder" "find $(q "$cv") -name '*.md' >/dev/null"
		rm -rf "$cv"
	done
fi

# --- the window: first tree while the scan runs, and the graph drawn, in Chromium ----
if [[ ${MEMOTREE_BENCH_GRAPH:-1} != 0 ]]; then
	if [[ ! -d $ROOT/frontend/node_modules ]]; then
		say "installing the frontend's packages (for the window benchmarks)"
		(cd "$ROOT/frontend" && npm ci --no-audit --no-fund >/dev/null)
	fi
	for n in 10000 100000; do
		has_size "$n" || continue
		shape=own
		(( n >= 100000 )) && shape=flow
		v=$(vault "$n" "$shape")
		l=$(label "$n")
		say "window in Chromium, $l notes: first tree"
		if ! (cd "$ROOT/frontend" && MEMOTREE_BIN=$BIN node e2e/window-bench.mjs --vault "$v" \
			--label "$l" --runs 3 --rows "$ROWS" >"$RAW/window-$l.json"); then
			note "The window benchmark failed on the $l vault."
		fi
		say "graph view in Chromium, $l notes"
		target=2000 graph_runs=3 graph_timeout=120000
		(( n >= 50000 )) && target=5000 graph_runs=3 graph_timeout=600000
		if ! (cd "$ROOT/frontend" && MEMOTREE_BIN=$BIN node e2e/graph-bench.mjs --vault "$v" \
			--label "$l" --runs "$graph_runs" --layout-timeout "$graph_timeout" --target-ms "$target" --rows "$ROWS" >"$RAW/graph-$l.json"); then
			note "The graph view benchmark failed on the $l vault."
		fi
	done
fi

GOBENCH=()
if [[ ${MEMOTREE_BENCH_GO:-1} != 0 ]]; then
	say "Go benchmarks"
	has_size 10000 && export MEMOTREE_BENCH_VAULT="$(vault 10000 own)"
	if go test -run '^$' -bench . -benchmem ./backend/... 2>&1 | tee "$RAW/gobench.txt"; then
		GOBENCH=(-gobench "$RAW/gobench.txt")
	else
		say "go test -bench failed; see $RAW/gobench.txt"
		note "The Go benchmarks failed; their output is in the cache folder."
		GOBENCH=(-gobench "$RAW/gobench.txt")
	fi
	if has_size 100000; then
		say "search queries in process, 100k notes"
		if MEMOTREE_BENCH_VAULT="$(vault 100000 flow)" go test -run '^$' -bench 'BenchmarkQuery$' -benchtime 800x ./backend/search/ >"$RAW/gobench-100k.txt" 2>&1; then
			# BenchmarkQuery/built: the index built by this process; /reopened: the
			# persisted index opened again, its note table used in the mapped file.
			for sub in built reopened; do
				line=$(grep "^BenchmarkQuery/$sub" "$RAW/gobench-100k.txt" || true)
				p50=$(grep -o '[0-9.]* p50-ms' <<<"$line" | cut -d' ' -f1 || true)
				p99=$(grep -o '[0-9.]* p99-ms' <<<"$line" | cut -d' ' -f1 || true)
				[[ -n $p50 ]] && row value "search_nodes in process, p50, index $sub" 100k "$p50" target 10 ms "value<=10"
				[[ -n $p99 ]] && row value "search_nodes in process, p99, index $sub" 100k "$p99" target 50 ms "value<=50"
			done
		else
			note "The 100k search query benchmark failed; its output is in the cache folder."
		fi
	fi
fi

CPU=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
MHZ=$(grep -m1 'cpu MHz' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
GOV=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo "not exposed")
THP=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)
RGV=$(rg --version)
RGV=${RGV%%$'\n'*}
"$CACHE/bin/table" -o "$OUT" \
	-note "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -sr), ${CPU:-unknown CPU} (${MHZ:-?} MHz, governor $GOV), $(nproc) CPUs, transparent huge pages $THP, load average $LOAD at start and $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(go version | cut -d' ' -f3), $RGV; $(( ($(date +%s) - STARTED) / 60 )) minutes." \
	-note "Vaults: \`bench/cmd/vaultgen -seed $SEED\` (-shape as named); reference: \`rg -c '\\[\\['\` over the same folder. Raw data: \`${RAW/#$ROOT\//}\`." \
	"${GOBENCH[@]}" "$ROWS"
say "wrote $OUT"
