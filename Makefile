# Two commands matter on a fresh clone: `make run` and `make test`. Everything installs from the npm registry.
SHELL := /bin/bash
BUN := node_modules/.bin/bun
HOST_BIN = dist/$(shell $(BUN) -e 'import {hostTarget} from "./build.ts"; console.log(hostTarget().name)')/memnox

.PHONY: run test typecheck lint format unit build build-all bench e2e clean

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

build: node_modules/.installed
	$(BUN) build.ts --single

build-all: node_modules/.installed
	$(BUN) build.ts

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

bench: build
	@for f in bench/*.bench.ts; do echo "== $$f"; $(BUN) "$$f" || exit 1; done

clean:
	rm -rf dist .cache
