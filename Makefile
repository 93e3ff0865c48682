# Two commands for a fresh clone: `make build` renders the bundled archive, `make test` runs every test.
# Each creates .venv when it is missing, installs what it needs, then hands over to invoke (tasks.py):
# `make build` installs requirements.lock alone (what building needs), `make test` adds
# requirements-test.lock (the tests' and the benchmark's packages), the Nu HTML Checker and Debian's Chromium.

# The Python that makes .venv: the first of python3, python3.13, python3.12 and python3.11 on the
# PATH that runs and is 3.11 or newer (the supported versions: 3.11, 3.12, 3.13); PYTHON=... overrides it.
PYTHON ?= $(shell for candidate in python3 python3.13 python3.12 python3.11; do \
	$$candidate -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && { echo $$candidate; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
BUILD_STAMP := $(VENV)/.installed-build-lock
TEST_STAMP := $(VENV)/.installed-test-lock
PIP_INSTALL := $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps
CHROMIUM ?= /usr/bin/chromium
# The Nu HTML Checker (the W3C validator's engine, run with Java), from npm at this exact version,
# into .node/ (not part of the project); the tests run it on every kind of page the site writes.
VNU_VERSION := 26.9.27
VNU_JAR := .node/node_modules/vnu-jar/build/dist/vnu.jar
VNU_STAMP := .node/.installed-vnu-$(VNU_VERSION)
# The release tag of the bundled archive (content/benchmarks/), for its reports that carry none:
# there is no default release tag, so a build of that archive must be given one.
RELEASE_TAG ?= v3.1.0

# The project's own packages, the plugin (plugins/), the site's tooling (leaderboard_tools/) and
# benchmarks/, import in the environment like installed ones, and before them: a test dependency
# (pysbd) installs a top-level package named benchmarks too. The path file is written after pip
# has run and removed before it runs again: with the project's folder first on the path, a package
# that pip builds from its source (jieba, in the test lock) fails to build.
PATHS_FILE = $(BIN)/python -c 'import os, sysconfig; print(os.path.join(sysconfig.get_path("purelib"), "openmed-leaderboard.pth"))'
UNLINK_PATHS = rm -f "$$($(PATHS_FILE))"
LINK_PATHS = $(BIN)/python -c 'import os, sysconfig; paths = [os.getcwd(), os.path.join(os.getcwd(), "plugins")]; open(os.path.join(sysconfig.get_path("purelib"), "openmed-leaderboard.pth"), "w").write(f"import sys; sys.path[:0] = {paths!r}\n")'
# .venv/bin/invoke (and inv) run the project's invoke program (leaderboard_tools/program.py), written
# over the scripts pip made once the paths are linked: a command line that cannot be read (an unknown
# task or flag, a missing argument) exits 2 with one line, as unusable input does, never 1.
INSTALL_PROGRAM = $(BIN)/python -m leaderboard_tools.program install $(BIN)

.PHONY: build test serve livereload clean chromium release-tag link-paths

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

# The project's folders on the path of an environment made without make (the Pages workflow installs
# requirements.lock with pip itself, then links them): without them tasks.py cannot import the plugin.
link-paths:
	$(LINK_PATHS)

# The tag above, for scripts (the Pages workflow renders master with it).
release-tag:
	@echo $(RELEASE_TAG)

$(BUILD_STAMP): requirements.lock leaderboard_tools/program.py
	test -x $(BIN)/python || { test -n "$(PYTHON)" || { echo "make: no Python 3.11 or newer on the PATH; name one with PYTHON=..." >&2; exit 2; }; \
		$(PYTHON) -m venv $(VENV); }
	$(UNLINK_PATHS)
	$(PIP_INSTALL) -r requirements.lock
	$(LINK_PATHS)
	$(INSTALL_PROGRAM)
	touch $@

$(TEST_STAMP): $(BUILD_STAMP) requirements-test.lock $(VNU_STAMP)
	$(UNLINK_PATHS)
	$(PIP_INSTALL) -r requirements-test.lock
	$(LINK_PATHS)
	$(INSTALL_PROGRAM)
	touch $@

# The jar alone: its install script (which would fetch a Java runtime) is not run; Java 17 runs it.
# The stamp names the version, so that a new VNU_VERSION installs again.
$(VNU_STAMP):
	npm install --prefix .node --ignore-scripts --no-save --no-package-lock --no-audit --no-fund vnu-jar@$(VNU_VERSION)
	test -f $(VNU_JAR)
	rm -f .node/.installed-vnu-*
	touch $@

# The browser tests drive Debian's Chromium; install it when it is missing.
chromium:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core; }
