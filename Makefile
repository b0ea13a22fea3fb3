# agentty-plugins: every target has a one-line description after "##"; `make` alone prints them.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
PLUGIN ?=
PLUGIN_DIRS := $(patsubst %/agentty-plugin.json,%,$(wildcard plugins/*/agentty-plugin.json))

.PHONY: help venv new test fuzz check lint typecheck manifests bench demo screenshots clean bundle install uninstall export link

help: ## List the targets
	@awk 'BEGIN {FS = ":.*?## "} /^[a-zA-Z_-]+:.*?## / {printf "  \033[36m%-14s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): pyproject.toml $(wildcard plugins/*/requirements.txt)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@# PYTHONWARNINGS: setuptools' note on every editable install ("be careful with folders named like
	@# your package") is for packaging authors, not for someone who typed make demo.
	PYTHONWARNINGS=ignore $(PY) -m pip install --quiet -e '.[dev,plugins,acp,devhost]'
	@# The plugins' pinned wheels, fetched here once: the distribution tests bundle from this cache offline.
	$(PY) tests/distribution/prefetch_wheels.py
	@rm -f $(VENV)/.installed-*; touch $@

venv: $(STAMP) ## Create the project's virtual environment and install what it needs

new: $(STAMP) ## Write a small working plugin plugins/<id>/ from the template, with its own test (PLUGIN=<id>)
	@test -n "$(PLUGIN)" || { echo "usage: make new PLUGIN=<id>"; exit 2; }
	$(PY) -m agentty_plugin new $(PLUGIN) --dest plugins

test: $(STAMP) ## Run every test (the README's test command), the tests of every plugins/<id>/tests/ too
	$(PY) -m pytest

fuzz: $(STAMP) ## Property tests with fresh random examples (make test replays fixed ones); prints any failing example
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -m hypothesis $(if $(PLUGIN),tests/$(PLUGIN))

lint: $(STAMP) ## ruff (target py39) over the runtime, plugins, tests and benchmarks
	$(VENV)/bin/ruff check --extend-exclude _vendor $(wildcard shared plugins tests bench)

typecheck: $(STAMP) ## mypy: strict on the runtime, per plugin folder for the plugins
	$(VENV)/bin/mypy shared/agentty_plugin shared/agentty_devhost
	@for d in $(PLUGIN_DIRS); do \
		echo "mypy $$d"; (cd $$d && ../../$(VENV)/bin/mypy --config-file ../../pyproject.toml --exclude '(^|/)_vendor/' .) || exit 1; \
	done

manifests: $(STAMP) ## Validate every plugin manifest and its command handlers
	$(PY) -m agentty_plugin check $(PLUGIN_DIRS)

check: lint typecheck manifests ## Lint, type-check and validate manifests

bench: $(STAMP) ## Run the benchmarks and print their tables (not tests)
	$(PY) bench/run.py $(PLUGIN)

demo: $(STAMP) ## Run every plugin in the browser dev host on sample data made in .demo/ (prints the URL; Ctrl-C stops)
	$(VENV)/bin/agentty-plugin dev --sample-data .demo $(PLUGIN_DIRS)

screenshots: $(STAMP) ## Draw each plugin's panel on the demo data to plugins/<id>/screenshot.png (needs Chromium)
	$(PY) -m agentty_devhost.screenshots --sample-data .demo $(PLUGIN_DIRS)

bundle: $(STAMP) ## Build self-contained dist/<id>/ and dist/<id>-<version>.zip (every plugin, or PLUGIN=<id>)
	$(PY) -m agentty_plugin bundle $(PLUGIN)

install: bundle ## Install bundles into ${AGENTTY_HOME:-~/.agentty}/plugins/ (all, or PLUGIN=<id>), then press Plugins → Refresh
	$(PY) -m agentty_plugin install $(PLUGIN)

uninstall: $(STAMP) ## Remove an installed plugin and its data as Agentty does (PLUGIN=<id>; KEEP_DATA=1 keeps its data)
	@test -n "$(PLUGIN)" || { echo "usage: make uninstall PLUGIN=<id> [KEEP_DATA=1]"; exit 2; }
	$(PY) -m agentty_plugin uninstall $(PLUGIN) $(if $(KEEP_DATA),--keep-data)

export: $(STAMP) ## Write or update a git repo whose root is the bundle, for "Install from Git" (PLUGIN=<id> DEST=<dir>)
	@test -n "$(PLUGIN)" -a -n "$(DEST)" || { echo "usage: make export PLUGIN=<id> DEST=<dir>"; exit 2; }
	$(PY) -m agentty_plugin bundle $(PLUGIN)
	$(PY) -m agentty_plugin export $(PLUGIN) $(DEST)

link: $(STAMP) ## Dev mode: Agentty runs plugins/<id> from this checkout; Restart picks up edits (PLUGIN=<id>; REMOVE=1 unlinks)
	@test -n "$(PLUGIN)" || { echo "usage: make link PLUGIN=<id> [REMOVE=1]"; exit 2; }
	$(PY) -m agentty_plugin link $(PLUGIN) $(if $(REMOVE),--remove)

clean: ## Remove the virtual environment, caches and build output
	rm -rf $(VENV) dist build .pytest_cache .mypy_cache .ruff_cache
