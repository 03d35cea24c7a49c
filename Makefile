# Two commands matter on a fresh clone: `make run` and `make test`. Everything installs from the npm registry.
SHELL := /bin/bash
BUN := node_modules/.bin/bun
HOST_BIN = dist/$(shell $(BUN) -e 'import {hostTarget} from "./build.ts"; console.log(hostTarget().name)')/memnox

.PHONY: run test typecheck lint format unit build build-all release bench e2e cloud clean

# Installed once per lockfile content: a checkout sharing node_modules (a worktree) never reinstalls it.
LOCK := $(shell (sha256sum package-lock.json 2>/dev/null || shasum -a 256 package-lock.json) | cut -c1-16)
node_modules/.installed: node_modules/.installed-$(LOCK)
	@touch $@

node_modules/.installed-$(LOCK):
	npm ci --no-audit --no-fund
	@touch $@

build: node_modules/.installed
	$(BUN) build.ts --single

build-all: node_modules/.installed
	$(BUN) build.ts

# Every target: dist/release (archives, install.sh, SHA256SUMS, release.json) and dist/npm (packages to publish).
release: node_modules/.installed
	$(BUN) build.ts --release

# The main job: build this machine's binary and run memnox against this machine: the scan, then the help.
run: build
	@$(HOST_BIN)
	@echo
	@$(HOST_BIN) --help

typecheck: node_modules/.installed
	node_modules/.bin/tsc -p .

lint: node_modules/.installed
	node_modules/.bin/biome check --error-on-warnings .

format: node_modules/.installed
	node_modules/.bin/biome check --write .

unit: node_modules/.installed
	$(BUN) test --timeout 60000

test: typecheck lint unit

# The slow end-to-end runs, kept out of unit: real binaries released, installed and upgraded; npm pack and install;
# the real agent CLIs over wrapped configs and through the MCP proxy; the control plane and its console on PostgreSQL
# in Chromium; canaries through every seam; setup and uninstall driven at a real terminal (tmux).
e2e: node_modules/.installed
	$(BUN) test --timeout 120000 $(addprefix ./,$(wildcard test/e2e/*.e2e.ts))

# A local control plane on http://127.0.0.1:8787 with a PostgreSQL cluster of its own in .cache/cloud (Ctrl-C stops both).
cloud: build
	@mkdir -p .cache
	$(HOST_BIN) cloud serve --data .cache/cloud --port $(or $(CLOUD_PORT),8787)

bench: build
	@for f in bench/*.bench.ts; do echo "== $$f"; $(BUN) "$$f" || exit 1; done

clean:
	rm -rf dist .cache
