# MemoTree — the commands of the README:
#   make run      install what running needs, build the desktop app, open it
#   make install  put memotree on the PATH (PREFIX=/usr/local; a launcher entry and icons too)
#   make package  build the Linux packages (.deb, .tar.gz) under build/package/
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
PREFIX        ?= /usr/local
APP           := build/bin/memotree
HEADLESS      := build/bin/memotree-headless
ARTIFACTS     := test-artifacts
# Debian packages: building the window (GTK, WebKitGTK 4.1), and testing it (Xvfb,
# screenshots, Debian's Chromium for browser tests, fonts with CJK glyphs), and what
# make bench measures beside (ripgrep, hyperfine, GNU time for peak memory).
APT_BUILD := build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev
APT_TEST  := xvfb xauth xdotool imagemagick chromium fonts-dejavu-core fonts-noto-cjk ripgrep hyperfine time git openssh-client \
             dbus-daemon desktop-file-utils

.PHONY: help run test deps apt-install deps-apt deps-apt-build deps-wails deps-npm deps-npm-frontend deps-nfpm \
        build headless frontend install uninstall package \
        test-go test-fuzz test-frontend test-mcp test-llm test-e2e test-smoke test-package bench lint fuzz soak

help:
	@echo "make run      build the desktop app ($(APP)) and open it on the demo vault"
	@echo "make install  put memotree on the PATH: $(PREFIX)/bin/memotree, with a launcher entry and icons"
	@echo "make package  build build/package/memotree_$(VERSION)_amd64.deb and a .tar.gz"
	@echo "make test     run every test (Go, fuzz, type check, Vitest, Chromium end-to-end, desktop smoke, package)"
	@echo "make bench    measure MemoTree beside git and ripgrep; writes bench/RESULTS.md"

# Running needs the build packages, the Wails CLI and the frontend's npm packages only.
run: build
	./$(APP) --demo

SUITES := lint test-go test-fuzz test-frontend test-mcp test-llm test-e2e test-smoke test-package
test: deps $(SUITES)
	@echo "make test: every suite passed"
	@echo "suites: $(words $(SUITES)) passed, 0 failed"

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

deps-nfpm:
	@if ! go version -m "$(NFPM)" 2>/dev/null | grep -q 'mod.*goreleaser/nfpm/v2.*$(NFPM_VERSION)'; then \
	  echo "installing nfpm $(NFPM_VERSION)"; \
	  go install github.com/goreleaser/nfpm/v2/cmd/nfpm@$(NFPM_VERSION); \
	fi

deps-npm: deps-npm-frontend tests/mcp/node_modules/.package-lock.json tests/llm/node_modules/.package-lock.json

deps-npm-frontend: frontend/node_modules/.package-lock.json

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

# Real MCP clients (the conformance suite, the inspector) and the Node 22 they need.
tests/mcp/node_modules/.package-lock.json: tests/mcp/package-lock.json
	cd tests/mcp && npm ci --no-audit --no-fund
	@touch $@

# A real OpenAI-compatible server nobody here wrote (@dwmkerr/mock-llm) for memotree chat.
tests/llm/node_modules/.package-lock.json: tests/llm/package-lock.json
	cd tests/llm && npm ci --no-audit --no-fund
	@touch $@

# --- building ------------------------------------------------------------------------
frontend: deps-npm-frontend
	cd frontend && npm run build

# The desktop app (cgo, GTK, WebKitGTK); wails builds the frontend itself. The
# frontend calls the bound API through window.go, so the TypeScript bindings are
# not generated (-skipbindings; generating them printed pages of warnings).
build: deps-apt-build deps-wails deps-npm-frontend
	"$(WAILS)" build -m -skipbindings -o memotree
	@echo "built $(APP): run it, or put it on the PATH with \`make install\`"

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
	CGO_ENABLED=0 go build -o $(HEADLESS) .

# --- testing -------------------------------------------------------------------------
# go vet for the three systems the app ships on: the files built only on macOS or
# Windows (locks, folder sync, memory maps) are never compiled on Linux otherwise.
lint:
	@bad=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$bad" ]; then echo "gofmt: $$bad"; exit 1; fi
	go vet ./...
	GOOS=darwin go vet ./...
	GOOS=windows go vet ./...
	CGO_ENABLED=0 go build -o /dev/null .

# The real-vault tests (../shared/corpora) log whether they ran; the count is printed,
# and said plainly when the corpora are absent (MEMOTREE_REQUIRE_CORPORA=1 fails then).
test-go: headless
	@log=$$(mktemp); code=0; MEMOTREE_CORPUS_LOG=$$log go test -race -count=1 ./... || code=$$?; \
	ran=$$(grep -c '^ran ' $$log || true); skipped=$$(grep -c '^skipped ' $$log || true); rm -f $$log; \
	echo "corpus tests: $$ran ran, $$skipped skipped"; \
	if [ "$$skipped" -gt 0 ]; then echo "!! the shared corpora are absent (../shared/corpora beside the repository): $$skipped real-vault tests did not run"; fi; \
	exit $$code

# Every parser's fuzz target, briefly (about 3-6 s each here); `make fuzz` runs them
# longer. Budgets are counts of executions, not durations: with a duration, Go 1.26's
# fuzz coordinator can report "context deadline exceeded" at the end of a clean run on
# a loaded machine (golang/go#75804, fixed in Go 1.27), which failed CI once.
FUZZTIME ?= 20000x
FUZZ_TARGETS := backend/note:FuzzParse backend/note:FuzzSetProperties backend/note:FuzzFastYAML backend/note:FuzzSetDateLine backend/note:FuzzValidUTF8 \
                backend/graph:FuzzResolve backend/vault:FuzzParseJourney backend/tool:FuzzCall \
                backend/gitrepo:FuzzParseIndex backend/gitrepo:FuzzParseCacheTree backend/gitrepo:FuzzSpliceIndex backend/script:FuzzParseToolCalls \
                backend/search:FuzzParseQuery backend/search:FuzzDecodeIndex \
                backend/llm:FuzzStream backend/workspace:FuzzEveryTool backend/uiapi:FuzzParseObsidianGraph
test-fuzz:
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; \
	  echo "fuzz $$pkg $$fn ($(FUZZTIME))"; \
	  go test -run='^$$' -fuzz="^$$fn$$" -fuzztime=$(FUZZTIME) ./$$pkg; done

fuzz:
	$(MAKE) test-fuzz FUZZTIME=5000000x

# The crash, concurrency and resource tests of `make test`, run longer: more SIGKILLs at
# random moments (MEMOTREE_CRASH_SEED repeats a run's delays), more concurrent writes.
SOAK_KILLS ?= 50
SOAK_WRITES ?= 5000
soak:
	MEMOTREE_CRASH_KILLS=$(SOAK_KILLS) go test -race -count=1 -timeout 2h -run 'SIGKILL' ./backend/gitrepo ./backend/workspace ./tests/soak
	MEMOTREE_SOAK=$(SOAK_WRITES) go test -race -count=1 -timeout 2h -v -run 'WritersAtOnce|AppendsAtOnce|ResourcesStayFlat' ./tests/soak

test-frontend: deps-npm
	cd frontend && npm run check && npm test

test-mcp: headless deps-npm
	tests/mcp/run.sh $(CURDIR)/$(HEADLESS) demo/vault

test-llm: headless deps-npm
	tests/llm/run.sh $(CURDIR)/$(HEADLESS) demo/vault

test-e2e: headless
	cd frontend && MEMOTREE_BIN=$(CURDIR)/$(HEADLESS) npm run e2e

test-smoke: build deps-apt
	mkdir -p $(ARTIFACTS)
	xvfb-run -a -s "-screen 0 1280x1024x24" scripts/smoke.sh $(APP) $(ARTIFACTS)/window.png

# Installs the .deb with dpkg, smoke-tests the installed app, removes the package.
test-package: package
	scripts/test-package.sh build/package/memotree_$(VERSION)_amd64.deb $(ARTIFACTS)

bench: deps-apt headless
	bench/run.sh
