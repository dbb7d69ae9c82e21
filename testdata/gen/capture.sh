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
want go-mod-graph-compact && go mod graph >"$out/go-mod-graph-compact.txt"
want ls-l-usr-bin && ls -l --time-style=long-iso /usr/bin >"$out/ls-l-usr-bin.txt"
# git-log-fuller-go-sdk: in a clone of https://github.com/extism/go-sdk (set GO_SDK_GIT to its .git)
want git-log-fuller-go-sdk && [[ -n "${GO_SDK_GIT:-}" ]] && git --git-dir="$GO_SDK_GIT" log --format=fuller -n 200 --date=iso-strict |
		python3 testdata/gen/pseudo-git.py >"$out/git-log-fuller-go-sdk.txt"
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
want npm-view-vite && npm view vite --json 2>/dev/null >"$out/npm-view-vite.json"
want python3-sysconfig-debian && /usr/bin/python3 -c 'import sysconfig,json;print(json.dumps(sysconfig.get_config_vars(), indent=1))' >"$out/python3-sysconfig-debian.json"
if want npm-ls-all; then
	# A scratch project with eslint 8, express 4 and jest 29 installed, whose
	# package.json then asks for express 5 and left-pad (not installed), so
	# that npm ls reports an invalid and a missing dependency (exit 1).
	d=$(mktemp -d)
	(cd "$d" && mkdir npmproj && cd npmproj &&
		echo '{"name":"scratch-app","version":"1.0.0","private":true}' >package.json &&
		npm install --ignore-scripts --no-audit --no-fund express@4 eslint@8 jest@29 >/dev/null 2>&1 &&
		node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync("package.json"));p.dependencies.express="^5.0.0";p.dependencies["left-pad"]="^1.3.0";fs.writeFileSync("package.json",JSON.stringify(p,null,2)+"\n")' &&
		{ npm ls --all --json 2>/dev/null || true; }) >"$out/npm-ls-all.json"
	rm -rf "$d"
fi
if want npm-package-lock; then
	# package-lock.json of a scratch project (express and chalk, eslint and
	# jest as dev dependencies, fsevents optional), resolved without
	# installing: a .packages map of ~400 packages with dev flags,
	# licenses, engines and dependency maps.
	d=$(mktemp -d)
	(cd "$d" &&
		echo '{"name":"lockdemo","version":"1.0.0","private":true,"license":"MIT","dependencies":{"express":"^4.19.2","chalk":"^4.1.2"},"devDependencies":{"eslint":"^8.57.0","jest":"^29.7.0"},"optionalDependencies":{"fsevents":"^2.3.3"}}' >package.json &&
		npm install --package-lock-only --ignore-scripts --no-audit --no-fund >/dev/null 2>&1) &&
		cp "$d/package-lock.json" "$out/npm-package-lock.json"
	rm -rf "$d"
fi
if want npm-registry-debug; then
	# The registry document of debug as npm fetches it (a .versions map of
	# every version's manifest), read from npm's own cache through npm's
	# cacache, indented as npm view --json prints; authors and contributors
	# pseudonymised (Person NN).
	npm view debug name >/dev/null 2>&1
	NPM_ROOT="$(npm root -g)" CACHE="$(npm config get cache)" node -e '
		const c = require(process.env.NPM_ROOT + "/npm/node_modules/cacache");
		c.get(process.env.CACHE + "/_cacache", "make-fetch-happen:request-cache:https://registry.npmjs.org/debug")
			.then(r => process.stdout.write(JSON.stringify(JSON.parse(r.data), null, 2) + "\n"))' |
		perl -pe '
			sub person { my $k = shift; $id{$k} //= sprintf("%02d", ++$n); "Person $id{$k}" }
			s{"([^"<>()\\]+?)\s*<[^<>"]*\@[^<>"]*>(?:\s*\([^()"]*\))?"}{ my $p = person($1); "\"$p <" . lc($p =~ s/ /-/r) . "\@example.invalid>\"" }ge;
			s{"([A-Z][^"<>()\\]+?)\s*\(https?://[^()"]*\)"}{ "\"" . person($1) . "\"" }ge' >"$out/npm-registry-debug.json"
fi
if want go-test-shop; then
	# testdata/gen/scratch/shop: one failing test, one panicking test, one
	# skipped test, a slow test; go test exits 1.
	(cd testdata/gen/scratch/shop && { go test -count=1 -json ./... || true; }) >"$out/go-test-shop.jsonl"
fi
if want go-build-failed; then
	# testdata/gen/scratch/ledger: compile errors in two packages; an empty
	# build cache makes -x print every command of the build first.
	c=$(mktemp -d)
	(cd testdata/gen/scratch/ledger && { GOCACHE="$c" go build -x ./... 2>&1 || true; }) >"$out/go-build-failed.txt"
	rm -rf "$c"
fi
if want apt-cache-show-node; then
	# shellcheck disable=SC2046
	apt-cache show $(apt-cache pkgnames node- | sort) 2>/dev/null |
		perl -pe '
			if (/^(Maintainer|Original-Maintainer|Uploaders): (.*)$/) {
				my ($k, $v) = ($1, $2);
				$id{$v} //= sprintf("%03d", ++$n);
				$_ = "$k: Maintainer $id{$v} <maintainer-$id{$v}\@example.invalid>\n";
			}' >"$out/apt-cache-show-node.txt"
fi
want tree-pip && tree -J -s /usr/lib/python3/dist-packages/pip >"$out/tree-pip.json"
# The Mozilla roots of the ca-certificates package only (not the machine's
# own additions in /etc/ssl/certs), printed as text.
want openssl-x509-mozilla && cat /usr/share/ca-certificates/mozilla/*.crt |
	openssl crl2pkcs7 -nocrl -certfile /dev/stdin | openssl pkcs7 -print_certs -text -noout >"$out/openssl-x509-mozilla.txt"

# Text outputs of failing runs (see testdata/gen/textcaps): a go test -json
# stream with failing tests, a panic and a build failure; a go build -x log
# ending in compile errors; an npm install log whose postinstall script
# fails at the end; apt-cache show of 400 packages (maintainers
# pseudonymised as for dpkg-status).
caps=testdata/gen/textcaps
want go-test-json && { (cd "$caps/shop" && go test -json ./... >"../../../../$out/go-test-json.jsonl" 2>/dev/null) || true; }
if want go-build-fail; then
	# The same module as shop, renamed example.com/shopbuild, without the
	# legacy package and with two compile errors in package orders, built in
	# a scratch copy so that one copy of the module is kept in the tree.
	tmp=$(mktemp -d)
	b="$tmp/shopbuild"
	cp -r "$caps/shop" "$b"
	rm -rf "$b/legacy"
	sed -i 's#^module example.com/shop$#module example.com/shopbuild#' "$b/go.mod"
	cat >"$b/orders/notify.go" <<'GO'
package orders

// Notify tells the customer.
func Notify(id string) error {
	return sendMail(id, "shipped")
}
GO
	cat >"$b/orders/status.go" <<'GO'
package orders

import "fmt"

// Status is an order's state.
type Status int

// String names the status.
func (s Status) String() string {
	return fmt.Sprintf("status-%d", s)
}

// Next moves an order on.
func Next(s Status) Status {
	var total float64 = s
	return Status(total + 1)
}
GO
	(cd "$b" && go build -a -x -v ./... 2>&1 || true) >"$out/go-build-fail.txt"
	rm -rf "$tmp"
fi
if want go-nm-nmprog; then
	# The symbol table of a small static program, largest first: symbols
	# such as go:itab.*os.SyscallError,error name error types.
	tmp=$(mktemp -d)
	(cd "$caps/nmprog" && CGO_ENABLED=0 go build -o "$tmp/nmprog" .)
	go tool nm -size -sort size "$tmp/nmprog" >"$out/go-nm-nmprog.txt"
	rm -rf "$tmp"
fi
if want gcc-warnings; then
	# gcc's diagnostics of a small C file: warnings, notes and two errors,
	# each "file:line:col: level: message" with its caret lines.
	# Too short for the bench corpus (it fits any budget whole): kept
	# beside the text view's tests.
	(cd "$caps/cwarn" && LC_ALL=C.UTF-8 gcc -Wall -Wextra -c main.c -o /dev/null 2>&1 || true) >budget/view/testdata/gcc-warnings.txt
fi
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
if want jest-verbose-lib || want vitest-verbose-lib || want mocha-spec-lib; then
	# Test reports of three JavaScript runners over the same scratch
	# project (testdata/gen/textcaps/jestlib: 14 jest files, 3 mocha
	# files; failing, skipped and todo tests, a few slow ones). jest runs
	# the mocha files too (its default testMatch takes *.spec.js).
	tmp=$(mktemp -d)
	cp -r "$caps/jestlib/." "$tmp/"
	(cd "$tmp" && npm install --no-audit --no-fund --loglevel=error >/dev/null 2>&1)
	(cd "$tmp" && npx jest --verbose --colors=false >jest.txt 2>&1) || true
	(cd "$tmp" && npx vitest run --globals --reporter=verbose --dir test >vitest.txt 2>&1) || true
	(cd "$tmp" && npx mocha --reporter spec 'mtest/*.spec.js' >mocha.txt 2>&1) || true
	cp "$tmp/jest.txt" "$out/jest-verbose-lib.txt"
	cp "$tmp/vitest.txt" "$out/vitest-verbose-lib.txt"
	cp "$tmp/mocha.txt" budget/view/testdata/mocha-spec-lib.txt # fits any budget: beside the view's tests
	rm -rf "$tmp"
fi
if want tsc-build-list || want tsc-build-codes; then
	# A failing `npm run build` of tsc --listFiles --extendedDiagnostics
	# over two scratch projects (testdata/gen/textcaps/tsnode: 4 errors,
	# the 163 files it read with @types/node, then tsc's statistics;
	# testdata/gen/textcaps/tsbuild: 114 errors of 8 codes over 13
	# files).
	for p in tsnode:tsc-build-list tsbuild:tsc-build-codes; do
		want "${p#*:}" || continue
		tmp=$(mktemp -d)
		cp -r "$caps/${p%%:*}/." "$tmp/"
		(cd "$tmp" && npm install --no-audit --no-fund --loglevel=error >/dev/null 2>&1)
		(cd "$tmp" && npm run build >out.txt 2>&1) || true
		dest=budget/view/testdata # tsc-build-list: beside the view's tests
		[[ ${p#*:} == tsc-build-codes ]] && dest=$out # the bench corpus
		cp "$tmp/out.txt" "$dest/${p#*:}.txt"
		rm -rf "$tmp"
	done
fi
if want gcc-wcodes; then
	# gcc's diagnostics of 30 small functions with deliberate warnings
	# of 6 -W codes (testdata/gen/textcaps/cwarnmany/ring.c), each
	# "file:line:col: warning: message [-Wcode]" with its caret lines.
	(cd "$caps/cwarnmany" && LC_ALL=C.UTF-8 gcc -Wall -Wextra -Wshadow -Wconversion -c ring.c -o /dev/null 2>&1 || true) >budget/view/testdata/gcc-wcodes.txt
fi
if want go-build-gcflags-registry; then
	# The compiler's optimization notes on this repository's registry
	# package (go build -gcflags=-m: every line "file:line:col: note",
	# inlining and escape analysis; the packages it inlines from the
	# standard library). Beside the view's tests (text_diag_test.go).
	go build -gcflags=-m ./registry/ >budget/view/testdata/go-build-gcflags-registry.txt 2>&1
fi
if want ldd-usr-sbin; then
	# ldd of every file in /usr/sbin and of a directory (its one
	# "ldd: ...: not regular file" line among the records): a record per
	# file, its header "path:" then its libraries, TAB-indented.
	(ldd /usr/sbin/* /usr/libexec 2>&1 || true) >budget/view/testdata/ldd-usr-sbin.txt
fi
# Tables of budget/view's tests (text_paths_test.go), kept beside them:
# tab stops (gcc), rows set apart by their indentation (pprof), a cell of
# several words (git ls-tree), a missing last cell (readelf), paths.
want gcc-q-help-optimizers && LC_ALL=C gcc -Q --help=optimizers >budget/view/testdata/gcc-q-help-optimizers.txt
want dpkg-L-util-linux && dpkg -L util-linux >budget/view/testdata/dpkg-L-util-linux.txt
want readelf-ws-libm && readelf -Ws /lib/x86_64-linux-gnu/libm.so.6 >budget/view/testdata/readelf-ws-libm.txt
# git-ls-tree-wazero: in a clone of https://github.com/tetratelabs/wazero
# at 481bac90 (set WAZERO_GIT to its .git); its 9,479 integration test files left out.
want git-ls-tree-wazero && [[ -n "${WAZERO_GIT:-}" ]] && git --git-dir="$WAZERO_GIT" ls-tree -r 481bac90d33f6b3ab6220b66ed9f29a6dec7201b |
		grep -vP '\tinternal/integration_test/' >budget/view/testdata/git-ls-tree-wazero.txt
if want pprof-top-query; then
	# the CPU profile of budget/query's benchmarks, its 200 heaviest nodes
	tmp=$(mktemp -d)
	(cd budget/query && go test -run XXX -bench . -benchtime 100ms -o "$tmp/query.test" -cpuprofile "$tmp/cpu.out" >/dev/null)
	go tool pprof -top -nodecount=200 "$tmp/cpu.out" 2>/dev/null >budget/view/testdata/pprof-top-query.txt
	rm -rf "$tmp"
fi
want dpkg-query-width && dpkg-query -W -f='${binary:Package;-44}${Essential;-6}${Homepage}\n' >budget/view/testdata/dpkg-query-width.txt
# the first 300 objects of this repository (hash, type, size), a table
# after a hash, not a commit list (text_diag_test.go)
want git-cat-file-check && git cat-file --batch-all-objects --batch-check | head -300 >budget/view/testdata/git-cat-file-check.txt
want du-ah-git-doc && du -ah /usr/share/doc/git >budget/view/testdata/du-ah-git-doc.txt
# go-list-m-all-2026-11: go list -m -json all at the root of this
# repository (Go 1.26.8, 2026-11-26), beside the view's tests: the rare
# GoVersion values of TestRareValueAmongManyValues (the bench corpus has
# go-list-modules.json, an older capture of the same command).
want go-list-m-all-2026-11 && go list -m -json all >budget/view/testdata/go-list-m-all-2026-11.json
if want jest-json-lib; then
	# jest --json over the same scratch project as jest-verbose-lib
	# (testdata/gen/textcaps/jestlib), its paths as /tmp/jestlib: tests
	# nested in assertionResults arrays (TestRowNamesTheNestedRecord).
	tmp=$(mktemp -d)
	cp -r "$caps/jestlib/." "$tmp/"
	(cd "$tmp" && npm install --no-audit --no-fund --loglevel=error >/dev/null 2>&1)
	(cd "$tmp" && npx jest --json --outputFile=jest.json >/dev/null 2>&1) || true
	sed "s#$tmp#/tmp/jestlib#g" "$tmp/jest.json" >budget/view/testdata/jest-json-lib.json
	rm -rf "$tmp"
fi
# go-mod-download-prometheus-common: go mod download -json of the
# requirements of github.com/prometheus/common v0.72.0 (from the module
# cache), beside the view's tests (TestIndexListsOpaqueFieldsLast).
want go-mod-download-prometheus-common && (cd "$(go env GOMODCACHE)/github.com/prometheus/common@v0.72.0" &&
	GOFLAGS=-mod=mod go mod download -json) >budget/view/testdata/go-mod-download-prometheus-common.json
want file-usr-sbin && file /usr/sbin/* >budget/view/testdata/file-usr-sbin.txt
if want eslint-print-config-standard; then
	# A linter's resolved configuration: eslint 8.57 with eslint-config-
	# standard 17, plugin:n/recommended and plugin:promise/recommended,
	# three rules overridden: .rules is a map of name -> [severity,
	# options...] (a map of tuples, read by position: json_tuple.go).
	d=$(mktemp -d)
	(cd "$d" && npm init -y >/dev/null &&
		npm install --no-audit --no-fund eslint@8.57.1 eslint-config-standard@17.1.0 eslint-plugin-import@2.29.1 eslint-plugin-n@16.6.2 eslint-plugin-promise@6.1.1 >/dev/null 2>&1 &&
		printf '%s\n' '{"root": true, "extends": ["standard", "plugin:n/recommended", "plugin:promise/recommended"],' \
			'"env": {"node": true, "es2022": true},' \
			'"rules": {"no-console": "warn", "promise/always-return": ["warn", {"ignoreLastCallback": true}], "n/no-process-exit": "off"}}' >.eslintrc.json &&
		echo 'console.log(1)' >index.js &&
		npx eslint --print-config index.js) >"$out/eslint-print-config-standard.json"
	rm -rf "$d"
fi
if want madge-ramda; then
	# npx madge --json over ramda 0.30.1's ES modules (copied out of
	# node_modules, which madge skips): module -> the modules it requires.
	d=$(mktemp -d)
	(cd "$d" && npm init -y >/dev/null && npm install --no-audit --no-fund madge@8 ramda@0.30.1 >/dev/null 2>&1 &&
		cp -r node_modules/ramda/es ramda && npx madge --json ramda/ 2>/dev/null) >"$out/madge-ramda.json"
	rm -rf "$d"
fi
if want iostat-tx-json; then
	# iostat (sysstat 12.6.1) -t -x -o JSON 1 45 while the machine is
	# busy (other builds; a 300 MB dd with fsync and a CPU burner run
	# in the middle): a series of 45 samples named by their timestamp,
	# each with avg-cpu and disk[] (vda), beside the view's tests
	# (TestSeriesExtremesNameTheirSample). Captured by session 17.
	(sleep 14; timeout 7 sh -c 'yes >/dev/null'; sleep 8; dd if=/dev/zero of="$(mktemp)" bs=1M count=300 conv=fsync 2>/dev/null) &
	iostat -t -x -o JSON 1 45 >budget/view/testdata/iostat-tx-json.json
	wait
fi
if want caddy-json-log-api; then
	# Caddy 2.6.2 with a JSON access log (captured in session 17):
	# /static/* file_server over /usr/share, /api/*
	# reverse-proxied to a small node backend that is killed before the
	# 110th of 140 curl requests (502s), /ping, other paths 404; then
	# SIGTERM. Its stderr, beside the view's tests
	# (TestLogRowsShowKindAndResource).
	d=$(mktemp -d)
	printf '%s\n' '{' '	admin 127.0.0.1:12119' '	log {' '		format json' '	}' '}' 'http://127.0.0.1:18330 {' \
		'	log {' '		format json' '	}' '	handle /static/* {' '		root * /usr/share' '		file_server browse' '	}' \
		'	handle /api/* {' '		reverse_proxy 127.0.0.1:18331 {' '			lb_try_duration 0' '		}' '	}' \
		'	handle /ping {' '		respond "pong" 200' '	}' '	handle {' '		respond "not here" 404' '	}' '}' >"$d/Caddyfile"
	node -e "require('http').createServer((q,s)=>{setTimeout(()=>{s.setHeader('content-type','application/json');s.end(JSON.stringify({u:q.url,pad:'x'.repeat(q.url.length*37%900)}))},q.url.length*7%90)}).listen(18331,'127.0.0.1')" &
	backend=$!
	caddy run --config "$d/Caddyfile" --adapter caddyfile >/dev/null 2>budget/view/testdata/caddy-json-log-api.jsonl &
	srv=$!
	sleep 2
	for n in $(seq 1 140); do
		case $((n % 7)) in
		0) p=/static/doc/bash/ ;; 1 | 2 | 3) p=/api/items/$((n * 37 % 500)) ;; 4) p=/ping ;; 5) p=/api/users/u$((n * 13 % 40)) ;; 6) p=/nothing/$n ;;
		esac
		[ "$n" -eq 110 ] && kill "$backend"
		curl -s -o /dev/null -H "User-Agent: loadgen/$((n % 3))" "http://127.0.0.1:18330$p"
	done
	kill -TERM "$srv"
	wait "$srv" || true
	rm -rf "$d"
fi
if want typedoc-json-commander; then
	# typedoc --json over commander 12.1.0's typings (typedoc 0.26.11,
	# TypeScript 5.6.3): reflections nested through children[], numeric
	# ids and targets beside names, beside the view's tests
	# (TestColumnsNameBeforePlaces).
	d=$(mktemp -d)
	(cd "$d" && npm init -y >/dev/null && npm install --no-audit --no-fund typedoc@0.26.11 typescript@5.6.3 commander@12.1.0 >/dev/null 2>&1 &&
		echo '{"compilerOptions":{"strict":true,"skipLibCheck":true},"files":["node_modules/commander/typings/index.d.ts"]}' >tsconfig.json &&
		npx typedoc --json td.json --entryPoints node_modules/commander/typings/index.d.ts --skipErrorChecking >/dev/null 2>&1) &&
		cp "$d/td.json" budget/view/testdata/typedoc-json-commander.json
	rm -rf "$d"
fi
if want valgrind-memcheck-leak; then
	# valgrind's memcheck over a small C program with memory errors
	# (testdata/gen/textcaps/memleak/leak.c: 120 leaking allocators, an
	# off-by-one strcpy, a read past an array, an uninitialised flag, a
	# double free): the errors, 124 loss records, the leak summary and
	# the -s list of error contexts (valgrind 3.19, gcc 12.2, Debian 12).
	d=$(mktemp -d)
	gcc -g -O0 -o "$d/leak" "$caps/memleak/leak.c"
	(cd "$d" && valgrind --leak-check=full --show-leak-kinds=all --track-origins=yes -s ./leak >/dev/null 2>"$d/memcheck.log") || true
	cp "$d/memcheck.log" "$out/valgrind-memcheck-leak.txt"
	rm -rf "$d"
fi
# go test -bench of seven standard packages, three runs each with
# -benchmem (result lines with and without a MB/s pair), Go 1.26.
want go-test-bench-count3 && go test -run '^$' -bench . -benchtime 2000x -count 3 -benchmem \
	strconv unicode/utf8 encoding/base64 encoding/hex hash/crc32 math/bits container/list >"$out/go-test-bench-count3.txt" 2>&1
if want hyperfine-compressors; then
	# hyperfine 1.15 over eight commands on a 64 KB text (three licenses
	# of /usr/share/common-licenses), -L level 1,3,6,9 applied to each:
	# 32 results, one command (grep -q of a missing word) exits 1 (-i).
	d=$(mktemp -d)
	cat /usr/share/common-licenses/GPL-3 /usr/share/common-licenses/Apache-2.0 /usr/share/common-licenses/GPL-2 >"$d/hf-input.txt"
	(cd "$d" && hyperfine -N -i --warmup 3 --runs 60 --export-json hyperfine.json -L level 1,3,6,9 \
		'gzip -{level} -c hf-input.txt' 'bzip2 -9 -c hf-input.txt' 'xz -6 -c hf-input.txt' 'zstd -q -19 -c hf-input.txt' \
		'grep -c license hf-input.txt' 'grep -q nosuchword hf-input.txt' 'sha256sum hf-input.txt' 'md5sum hf-input.txt' >/dev/null 2>&1)
	cp "$d/hyperfine.json" "$out/hyperfine-compressors.json"
	rm -rf "$d"
fi
if want mocha-json-license-checker; then
	# mocha --reporter json over license-checker 25.0.1's own tests, run in
	# its installed package without its dev dependencies (14 of 70 fail),
	# the scratch project's path written as /tmp/lcproj.
	d=$(mktemp -d)
	(cd "$d" && npm init -y >/dev/null && npm install --no-audit --no-fund mocha@12.0.3 license-checker@25.0.1 qs tape express >/dev/null 2>&1)
	(cd "$d/node_modules/license-checker" && ../.bin/mocha --reporter json --timeout 20000 'tests/*-test.js' tests/test.js 2>/dev/null) |
		sed "s#$d#/tmp/lcproj#g" >"$out/mocha-json-license-checker.json" || true
	rm -rf "$d"
fi
