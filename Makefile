# The two README commands: `make build` and `make test`. Both bootstrap .venv on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test bench lint clean chromium serve

# The lock is the whole resolved set (`pip check` passes on it): installed as it is, with no
# dependency resolution (--no-deps), and no bytecode compiled ahead for its ~5,000 files
# (--no-compile): Python compiles a module the first time it is imported, a fraction of them.
$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-compile -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/regles build

# The site's browser tests drive Debian's Chromium through Playwright, and the search box's script
# runs under Debian's Node.js for its unit test (`playwright install` is
# never used: it would download a browser). Installed here when missing; without it (no apt,
# not root) those tests skip and say why.
chromium:
	@command -v chromium >/dev/null 2>&1 || { echo "installing Debian's chromium for the browser tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
		|| echo "chromium could not be installed: the browser tests will be skipped"; }
	@command -v node >/dev/null 2>&1 || { echo "installing Debian's nodejs for the search box's parity test"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null) \
		|| echo "nodejs could not be installed: the box's parity is checked by the browser test only"; }

# The suite runs on the machine's two cores (pytest-xdist; a worker out of tests takes some of the other's); `pytest -m "not corpus and not browser"`
# is the unit tier alone.
test: $(STAMP) chromium
	$(BIN)/python -m pytest -q -n 2 --dist worksteal

bench: $(STAMP)
	$(BIN)/python -m tools.bench

serve: $(STAMP)
	$(BIN)/regles serve

lint: $(STAMP)
	$(BIN)/ruff check extract tests tools examples conftest.py

clean:
	rm -rf build
