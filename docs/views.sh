#!/usr/bin/env bash
# Regenerates the views shown in the docs from the binary, so that every view
# a page shows is what `compact run` prints today. A view block is marked
#
#   <!-- view: FILE TOOL BUDGET -->
#   ```
#   ...replaced...
#   ```
#   <!-- /view -->
#
# where FILE is under testdata/captured. Run from the repository root:
#   docs/views.sh docs/artifacts.md docs/level1.md
# then read the diff: the text around each block explains its rows and must
# still match them.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/compact
store=$(mktemp -d)
trap 'rm -rf "$(dirname "$bin")" "$store"' EXIT
go build -o "$bin" ./cmd/compact

for page in "$@"; do
	out=$(mktemp)
	skip=0
	while IFS= read -r line || [ -n "$line" ]; do
		if [[ $line =~ ^\<!--\ view:\ ([^ ]+)\ ([^ ]+)\ ([0-9]+)\ --\>$ ]]; then
			file=${BASH_REMATCH[1]} tool=${BASH_REMATCH[2]} budget=${BASH_REMATCH[3]}
			printf '%s\n```\n' "$line" >>"$out"
			# The store's handles depend only on the content, so they are
			# stable; a view that is no level-2 view prints as it is.
			"$bin" run --tool "$tool" --budget "$budget" --store "$store" "testdata/captured/$file" >>"$out"
			printf '```\n' >>"$out"
			skip=1
			continue
		fi
		if [[ $line == '<!-- /view -->' ]]; then
			skip=0
		fi
		if [[ $skip == 0 ]]; then
			printf '%s\n' "$line" >>"$out"
		fi
	done <"$page"
	mv "$out" "$page"
done
