# agentty-plugins: every target has a one-line description after "##"; `make` alone prints them.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
PLUGIN ?=
PLUGIN_DIRS := $(patsubst %/agentty-plugin.json,%,$(wildcard plugins/*/agentty-plugin.json))

.PHONY: help venv test check lint typecheck manifests bench clean

help: ## List the targets
	@awk 'BEGIN {FS = ":.*?## "} /^[a-zA-Z_-]+:.*?## / {printf "  \033[36m%-14s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,plugins,acp,devhost]'
	@rm -f $(VENV)/.installed-*; touch $@

venv: $(STAMP) ## Create the project's virtual environment and install what it needs

test: $(STAMP) ## Run every test (the README's test command)
	$(PY) -m pytest

lint: $(STAMP) ## ruff (target py39) over the runtime, plugins, tests and benchmarks
	$(VENV)/bin/ruff check $(wildcard shared plugins tests bench)

typecheck: $(STAMP) ## mypy: strict on the runtime, per plugin folder for the plugins
	$(VENV)/bin/mypy shared/agentty_plugin
	@for d in $(PLUGIN_DIRS); do \
		echo "mypy $$d"; (cd $$d && ../../$(VENV)/bin/mypy --config-file ../../pyproject.toml .) || exit 1; \
	done

manifests: $(STAMP) ## Validate every plugin manifest and its command handlers
	$(PY) -m agentty_plugin check $(PLUGIN_DIRS)

check: lint typecheck manifests ## Lint, type-check and validate manifests

bench: $(STAMP) ## Run the benchmarks and print their tables (not tests)
	$(PY) bench/run.py $(PLUGIN)

clean: ## Remove the virtual environment, caches and build output
	rm -rf $(VENV) dist build .pytest_cache .mypy_cache .ruff_cache
