# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Both install exactly what requirements.lock lists, checked against its hashes; `make lock`
# refreshes the lock after pyproject.toml changes (LOCK_FLAGS=--upgrade: every package to the
# newest version pyproject.toml allows).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
LOCK   := requirements.lock
UV     := uv==0.13.9
LOCK_FLAGS ?=
# bench/scale.py's options, e.g. SCALE_ARGS=--quick (it needs the PostgreSQL server the tests use).
SCALE_ARGS ?=
# The REST proxy (@discordjs/proxy, from npm) the tests put between the bot and the fake Discord.
PROXY_STAMP := proxy/node_modules/.installed
# Debian's Chromium, for the live page's browser tests (Playwright drives it; it downloads none).
CHROMIUM ?= /usr/bin/chromium
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: run test lint types unit bench lock proxy clean chromium

$(STAMP): pyproject.toml $(LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps -e .
	@# Fails when pyproject.toml asks for something the lock lacks: run `make lock`.
	$(PY) -m pip check
	touch $(STAMP)

$(PROXY_STAMP): proxy/package-lock.json
	cd proxy && npm ci --no-audit --no-fund
	touch $(PROXY_STAMP)

run: $(STAMP)
	$(VENV)/bin/chaos-referee

test: lint types unit

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

types: $(STAMP)
	$(PY) -m mypy

unit: $(STAMP) $(PROXY_STAMP) chromium
	$(PY) -m pytest

# Installs Chromium with apt when it is missing and this is root on a Debian-like system. The
# browser tests fail (never skip) without it, with a sentence saying how to install it.
chromium:
	@if [ ! -x "$(CHROMIUM)" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Chromium for the browser tests (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq chromium chromium-driver >/dev/null; \
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

# Exact versions and hashes for Python 3.11 and later on every platform, runtime and dev tools.
lock:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet '$(UV)'
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --generate-hashes --universal \
		--python-version 3.11 --custom-compile-command 'make lock' --quiet $(LOCK_FLAGS) \
		--output-file $(LOCK)

# One REST proxy for every bot process (docs/scaling.md), e.g. PROXY_ARGS='--port 8080'.
proxy: $(PROXY_STAMP)
	node proxy/server.mjs $(PROXY_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis proxy/node_modules
