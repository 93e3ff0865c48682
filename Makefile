# Two commands for a fresh clone: `make build` renders the bundled archive, `make test` runs every test.
# Each creates .venv when it is missing, installs what it needs, then hands over to invoke (tasks.py):
# `make build` installs requirements.lock alone (what building needs), `make test` adds
# requirements-test.lock (the tests' and the benchmark's packages) and Debian's Chromium.

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
BUILD_STAMP := $(VENV)/.installed-build-lock
TEST_STAMP := $(VENV)/.installed-test-lock
PIP_INSTALL := $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps
CHROMIUM ?= /usr/bin/chromium
# The release tag of the bundled archive (content/benchmarks/), for its reports that carry none:
# there is no default release tag, so a build of that archive must be given one.
RELEASE_TAG ?= v3.1.0

.PHONY: build test serve livereload clean chromium release-tag

build: $(BUILD_STAMP)
	$(BIN)/invoke build --release-tag $(RELEASE_TAG)

test: $(TEST_STAMP) chromium
	$(BIN)/invoke test

serve: $(BUILD_STAMP)
	$(BIN)/invoke serve --release-tag $(RELEASE_TAG)

livereload: $(BUILD_STAMP)
	$(BIN)/invoke livereload --release-tag $(RELEASE_TAG)

clean: $(BUILD_STAMP)
	$(BIN)/invoke clean

# The tag above, for scripts (the Pages workflow renders master with it).
release-tag:
	@echo $(RELEASE_TAG)

$(BUILD_STAMP): requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) -r requirements.lock
	# The project's own packages, the plugin (plugins/), the site's tooling (leaderboard_tools/) and
	# benchmarks/, import in the environment like installed ones, and before them: a test
	# dependency (pysbd) installs a top-level package named benchmarks too.
	$(BIN)/python -c 'import os, sys, sysconfig; paths = [os.getcwd(), os.path.join(os.getcwd(), "plugins")]; open(os.path.join(sysconfig.get_path("purelib"), "openmed-leaderboard.pth"), "w").write(f"import sys; sys.path[:0] = {paths!r}\n")'
	touch $@

$(TEST_STAMP): $(BUILD_STAMP) requirements-test.lock
	$(PIP_INSTALL) -r requirements-test.lock
	touch $@

# The browser tests drive Debian's Chromium; install it when it is missing.
chromium:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core; }
