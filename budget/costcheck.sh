#!/bin/bash
# costcheck.sh BUDGET_TEST [INPUT_REGEX]
#
# Issue 11's cost measure (docs/bench.md "The cost measure"):
# runs BenchmarkViewCost/<input>/{setup,l1,view} of the budget test binary
# BUDGET_TEST once each under `valgrind --tool=cachegrind` (GOGC=off, GOMAXPROCS=1,
# -test.benchtime 1x) and prints per input
#     cost = (I(view) - I(l1)) / (I(l1) - I(setup))
# with I the instructions of a run. Inputs: kubectl-pods github-issues
# npm-view-react app-log records (those matching INPUT_REGEX, an ERE), at most
# two at a time.
#
# Environment:
#   COSTCHECK_DIR    where the cachegrind files go (default: a new /tmp/costcheck.XXXXXX);
#                    <input>-<step>.out, for cg_annotate (view minus l1:
#                    cg_annotate --diff ... or cg_diff l1.out view.out)
# cost-nosched is the same without the instructions of the Go scheduler and
# sysmon (runtime/proc.go, lock_spinbit.go, ...: they grow with wall time).
#   COSTCHECK_REUSE=1  run nothing: print the figures of the files in COSTCHECK_DIR
#   COSTCHECK_CACHE=1  also simulate the caches (--cache-sim=yes) and print the
#                    D1 misses (reads + writes) of view minus l1
#   COSTCHECK_SRC    the budget package directory the binary runs in (its inputs
#                    are ../testdata/captured); default: budget/ of the git worktree
#                    of the current directory, else the directory of this script
#   COMPACT_VIEW_MB  the inputs' size (default 10)
#   COSTCHECK_PROCS  GOMAXPROCS of the runs (default 1: with 2, the runtime's idle
#                    threads add a few million instructions that vary from run to run;
#                    with 1 a run's count repeats within 0.1%; the view and level 1
#                    start no goroutines of their own)
set -euo pipefail
bin=${1:?usage: costcheck.sh BUDGET_TEST [INPUT_REGEX]}
re=${2:-.}
bin=$(readlink -f "$bin")
[ -x "$bin" ] || { echo "costcheck: $bin: not an executable" >&2; exit 2; }
src=${COSTCHECK_SRC:-}
if [ -z "$src" ]; then
	top=$(git rev-parse --show-toplevel 2>/dev/null || true)
	if [ -n "$top" ] && [ -d "$top/budget" ]; then src=$top/budget; else src=$(cd "$(dirname "$0")" && pwd); fi
fi
dir=${COSTCHECK_DIR:-$(mktemp -d /tmp/costcheck.XXXXXX)}
mkdir -p "$dir"
sim=no
[ "${COSTCHECK_CACHE:-0}" = 1 ] && sim=yes
inputs=()
for in in kubectl-pods github-issues npm-view-react app-log records; do
	if echo "$in" | grep -Eq -- "$re"; then inputs+=("$in"); fi
done
[ ${#inputs[@]} -gt 0 ] || { echo "costcheck: no input matches $re" >&2; exit 2; }

# one INPUT: the three runs, one after the other.
one() {
	local in=$1 step
	for step in setup l1 view; do
		(cd "$src" && GOMAXPROCS=${COSTCHECK_PROCS:-1} GOGC=off valgrind --tool=cachegrind --cache-sim=$sim \
			--cachegrind-out-file="$dir/$in-$step.out" \
			"$bin" -test.run '^$' -test.bench "^BenchmarkViewCost\$/^$in\$/^$step\$" -test.benchtime 1x \
			>"$dir/$in-$step.log" 2>&1) || { echo "costcheck: $in/$step failed, see $dir/$in-$step.log" >&2; return 1; }
		grep -q "^BenchmarkViewCost/$in/$step" "$dir/$in-$step.log" || { echo "costcheck: $in/$step did not run, see $dir/$in-$step.log" >&2; return 1; }
	done
}
pids=()
fail=0
[ "${COSTCHECK_REUSE:-0}" = 1 ] && inputs_run=() || inputs_run=("${inputs[@]}")
for in in "${inputs_run[@]}"; do
	one "$in" &
	pids+=($!)
	if [ ${#pids[@]} -ge 2 ]; then
		wait "${pids[0]}" || fail=1
		pids=("${pids[@]:1}")
	fi
done
for p in "${pids[@]+"${pids[@]}"}"; do wait "$p" || fail=1; done
[ $fail = 0 ] || exit 1

# nosched FILE: the instructions of FILE without the Go scheduler's and
# sysmon's (they grow with wall time, which valgrind and the machine's load
# stretch; with GOMAXPROCS=1 they are about 0.1% of a run).
nosched() {
	cg_annotate --auto=no --threshold=0 --show-percs=no "$1" 2>/dev/null | sed -n '/file:function/,$p' |
		awk '$1 ~ /^-?[0-9,]+$/ { x = $1; gsub(",", "", x)
			if ($2 ~ /runtime\/(proc|lock_spinbit|time|sys_linux|runtime1|traceruntime|mprof|mgcpacer|netpoll|os_linux|signal|preempt)/ ||
			    $2 ~ /runtime.(wakep|goschedImpl|casgstatus|schedule|findRunnable|unlock2|lock2|execute|mcall|nanotime1)/) s += x; else o += x }
			END { print o }'
}

# summary: the totals of the events line (Ir first; with the cache
# simulation also D1mr and D1mw).
ev() { # FILE EVENT
	awk -v e="$2" '/^events:/ { for (i = 2; i <= NF; i++) if ($i == e) k = i - 1 }
		/^summary:/ { print $(k + 1) }' "$1"
}
echo "binary $bin ($(date -u +%H:%M) UTC, $dir)"
if [ $sim = yes ]; then
	printf '%-16s %14s %14s %14s %7s %12s\n' input I-setup I-l1 I-view cost D1miss-view-l1
else
	printf '%-16s %14s %14s %14s %7s %13s\n' input I-setup I-l1 I-view cost cost-nosched
fi
for in in "${inputs[@]}"; do
	s=$(ev "$dir/$in-setup.out" Ir); l=$(ev "$dir/$in-l1.out" Ir); v=$(ev "$dir/$in-view.out" Ir)
	cost=$(awk -v s="$s" -v l="$l" -v v="$v" 'BEGIN { printf "%.3f", (v - l) / (l - s) }')
	if [ $sim = yes ]; then
		m=$(( $(ev "$dir/$in-view.out" D1mr) + $(ev "$dir/$in-view.out" D1mw) - $(ev "$dir/$in-l1.out" D1mr) - $(ev "$dir/$in-l1.out" D1mw) ))
		printf '%-16s %14s %14s %14s %7s %12s\n' "$in" "$s" "$l" "$v" "$cost" "$m"
	else
		ns=$(awk -v s="$(nosched "$dir/$in-setup.out")" -v l="$(nosched "$dir/$in-l1.out")" -v v="$(nosched "$dir/$in-view.out")" 'BEGIN { printf "%.3f", (v - l) / (l - s) }')
		printf '%-16s %14s %14s %14s %7s %13s\n' "$in" "$s" "$l" "$v" "$cost" "$ns"
	fi
done
