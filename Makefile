# Two commands set everything up on a fresh machine: `make run` and `make test`.
# `make run` installs what the bot needs at run time (requirements.lock); `make test` adds the
# development tools (requirements-dev.lock, a superset with the same versions). Both install
# exactly what their lock lists, checked against its hashes; `make lock` refreshes both after
# pyproject.toml changes (LOCK_FLAGS=--upgrade: every package to the newest version allowed).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
# The full install (runtime and dev tools), and the lean one `make run` needs.
STAMP  := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run
LOCK   := requirements.lock
DEV_LOCK := requirements-dev.lock
UV     := uv==0.13.9
LOCK_FLAGS ?=
# bench/scale.py's options, e.g. SCALE_ARGS=--quick (it needs the PostgreSQL server the tests use).
SCALE_ARGS ?=
# The REST proxy (@discordjs/proxy, from npm) the tests put between the bot and the fake Discord.
PROXY_STAMP := proxy/node_modules/.installed
# Debian's Chromium, for the live page's browser tests (Playwright drives it; it downloads none).
CHROMIUM ?= /usr/bin/chromium
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: run install invite test lint types unit bench lock proxy clean chromium container-tools

# One line per step, and pip's own line per package, so a first install shows it is moving.
define install
	@echo "== $(1): creating $(VENV) with $(PYTHON)" && (test -x $(PY) || $(PYTHON) -m venv $(VENV))
	@echo "== $(1): installing $$(grep -c '^[a-z0-9]' $(2)) packages from $(2), checked against its hashes"
	@$(PY) -m pip install --disable-pip-version-check --require-hashes -r $(2)
	@echo "== $(1): installing chaos-referee itself (editable)"
	@$(PY) -m pip install --disable-pip-version-check --quiet --no-deps -e .
	@# Fails when pyproject.toml asks for something the lock lacks: run `make lock`.
	@$(PY) -m pip check --disable-pip-version-check
endef

$(RUN_STAMP): pyproject.toml $(LOCK)
	$(call install,the bot,$(LOCK))
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml $(DEV_LOCK)
	$(call install,the bot and its development tools,$(DEV_LOCK))
	touch $(STAMP) $(RUN_STAMP)

$(PROXY_STAMP): proxy/package-lock.json
	cd proxy && npm ci --no-audit --no-fund
	touch $(PROXY_STAMP)

run: $(RUN_STAMP)
	$(VENV)/bin/chaos-referee

# What `make run` installs, without starting the bot (a service's install, docs/hosting.md).
install: $(RUN_STAMP)

# The link that adds the bot to a server (docs/discord.md): DISCORD_TOKEN in .env first.
invite: $(RUN_STAMP)
	$(VENV)/bin/chaos-referee invite

test: lint types unit

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

types: $(STAMP)
	$(PY) -m mypy

unit: $(STAMP) $(PROXY_STAMP) chromium container-tools
	$(PY) -m pytest

# Installs Chromium with apt when it is missing and this is root on a Debian-like system. The
# browser tests fail (never skip) without it, with a sentence saying how to install it.
chromium:
	@if [ ! -x "$(CHROMIUM)" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Chromium for the browser tests (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi

# Installs what builds and runs the container image in tests/test_hosting.py (Podman with the
# runc runtime, and debootstrap for its local Debian base image) when one is missing, as root on
# a Debian-like system; the test fails, with a sentence saying what to install, without them.
container-tools:
	@if ! { command -v podman && command -v runc && command -v debootstrap; } >/dev/null \
		&& [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Podman, runc and debootstrap for the container test (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq podman runc debootstrap >/dev/null; \
	fi

bench: $(STAMP) chromium
	$(PY) bench/engine.py
	$(PY) bench/tables.py
	$(PY) bench/store.py
	$(PY) bench/discord_bench.py
	$(PY) bench/scale.py $(SCALE_ARGS)
	$(PY) bench/web.py
	$(PY) bench/hostile_text.py
	$(PY) bench/page_flood.py
	$(PY) bench/autocomplete.py
	$(PY) bench/hostile.py

# Exact versions and hashes for Python 3.11 and later on every platform: first the runtime with
# the dev tools, then the runtime alone, held to the same versions.
lock:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet '$(UV)'
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --generate-hashes --universal \
		--python-version 3.11 --custom-compile-command 'make lock' --quiet $(LOCK_FLAGS) \
		--output-file $(DEV_LOCK)
	$(VENV)/bin/uv pip compile pyproject.toml --constraint $(DEV_LOCK) --generate-hashes \
		--universal --python-version 3.11 --custom-compile-command 'make lock' --quiet \
		--output-file $(LOCK)

# One REST proxy for every bot process (docs/scaling.md), e.g. PROXY_ARGS='--port 8080'.
proxy: $(PROXY_STAMP)
	node proxy/server.mjs $(PROXY_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis proxy/node_modules
