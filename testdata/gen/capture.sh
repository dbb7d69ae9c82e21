#!/usr/bin/env bash
# capture.sh re-captures the outputs of real programs in testdata/captured/.
# Run from the repository root: testdata/gen/capture.sh [NAME...]
# With no NAME it captures everything. The results depend on the machine,
# the date and the network (npm), so a re-capture changes the files and the
# ground truth of their questions; the questions' filters are written to
# survive that (they never hard-code an answer).
#
# Scrubbing: personal names and e-mail addresses of Debian maintainers are
# replaced by stable pseudonyms (same person, same pseudonym), so questions
# about distinct maintainers keep their answers.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=testdata/captured
want=" $* "
want() { [[ "$want" == "  " || "$want" == *" $1 "* ]]; }

want npm-view-react && npm view react --json 2>/dev/null >"$out/npm-view-react.json"
want npm-view-typescript && npm view typescript --json 2>/dev/null >"$out/npm-view-typescript.json"
want go-list-std && go list -json std >"$out/go-list-std.json"
want go-list-modules && go list -m -json all >"$out/go-list-modules.json"
want go-doc-net-http && go doc -all net/http >"$out/go-doc-net-http.txt"
want man-bash && MANWIDTH=80 man bash 2>/dev/null | col -bx |
		sed -E 's/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[a-z]{2,}/address@example.invalid/g' >"$out/man-bash.txt"
want find-usr-share-doc && find /usr/share/doc -maxdepth 3 | LC_ALL=C sort >"$out/find-usr-share-doc.txt"
want apt-list-installed && apt list --installed 2>/dev/null >"$out/apt-list-installed.txt"
want dpkg-log && cp /var/log/dpkg.log "$out/dpkg-log.txt"
want apt-history && cp /var/log/apt/history.log "$out/apt-history.txt"
if want dpkg-status; then
	# shellcheck disable=SC2046
	dpkg-query -s $(dpkg-query -W -f='${binary:Package} ') 2>/dev/null |
		perl -pe '
			if (/^(Maintainer|Original-Maintainer|Uploaders): (.*)$/) {
				my ($k, $v) = ($1, $2);
				$id{$v} //= sprintf("%03d", ++$n);
				$_ = "$k: Maintainer $id{$v} <maintainer-$id{$v}\@example.invalid>\n";
			}' >"$out/dpkg-status.txt"
fi
if want fs-tree; then
	go run ./testdata/gen/fstree "$(go env GOROOT)/src/net" >"$out/fs-tree.json"
fi

# Text outputs of failing runs (see testdata/gen/textcaps): a go test -json
# stream with failing tests, a panic and a build failure; a go build -x log
# ending in compile errors; an npm install log whose postinstall script
# fails at the end; apt-cache show of 400 packages (maintainers
# pseudonymised as for dpkg-status).
caps=testdata/gen/textcaps
want go-test-json && { (cd "$caps/shop" && go test -json ./... >"../../../../$out/go-test-json.jsonl" 2>/dev/null) || true; }
want go-build-fail && { (cd "$caps/shopbuild" && go build -a -x -v ./... >"../../../../$out/go-build-fail.txt" 2>&1) || true; }
if want npm-install-fail; then
	tmp=$(mktemp -d)
	cp -r "$caps/npmfail/." "$tmp/"
	(cd "$tmp" && npm install --loglevel silly --no-audit --no-fund --foreground-scripts --cache "$tmp/.cache" >npm.log 2>&1) || true
	cp "$tmp/npm.log" "$out/npm-install-fail.txt"
	rm -rf "$tmp"
fi
if want apt-cache-show; then
	# shellcheck disable=SC2046
	apt-cache show $(apt-cache pkgnames | LC_ALL=C sort | head -400) 2>/dev/null |
		perl -pe '
			if (/^(Maintainer|Original-Maintainer|Uploaders): (.*)$/) {
				my ($k, $v) = ($1, $2);
				$id{$v} //= sprintf("%03d", ++$n);
				$_ = "$k: Maintainer $id{$v} <maintainer-$id{$v}\@example.invalid>\n";
			}' >"$out/apt-cache-show.txt"
fi
