# Two commands for a fresh clone: `make build` renders the bundled archive, `make test` runs every test.
# Each creates .venv from requirements.lock when it is missing, then hands over to invoke (tasks.py).

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-from-lock
CHROMIUM ?= /usr/bin/chromium
# The release tag of reports that carry none (the bundled archive has one such report).
RELEASE_TAG ?= v3.1.0

.PHONY: build test serve livereload clean chromium

build: $(STAMP)
	$(BIN)/invoke build --release-tag $(RELEASE_TAG)

test: $(STAMP) chromium
	$(BIN)/invoke test

serve: $(STAMP)
	$(BIN)/invoke serve --release-tag $(RELEASE_TAG)

livereload: $(STAMP)
	$(BIN)/invoke livereload --release-tag $(RELEASE_TAG)

clean: $(STAMP)
	$(BIN)/invoke clean

$(STAMP): requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements.lock
	# The project's own packages, the plugin (plugins/) and the site's tooling (leaderboard_tools/),
	# import in the environment like installed ones.
	printf '%s\n' "$(CURDIR)" "$(CURDIR)/plugins" > "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/openmed-leaderboard.pth"
	touch $(STAMP)

# The browser tests drive Debian's Chromium; install it when it is missing.
chromium:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core; }
