PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLOTS := $(VENV)/.plots
# pytest processes (pytest-xdist); 1 runs the suite in one process, as plain pytest does
JOBS ?= 2

.PHONY: demo test test-fast bench coverage coverage-kernel install clean browser

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,openspiel,gym,cluster,paper]'
	touch $(STAMP)

$(PLOTS): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,plots]'
	touch $(PLOTS)

# The environment, then every numba kernel family compiled once, in parallel, one line per
# family (python -m onirim.precompile): afterwards the first use of every command only loads
# the kernels.  With warm caches the precompile step only loads them (a few seconds).
install: $(STAMP)
	$(BIN)/python -m onirim.precompile --jobs $(JOBS)

# The main job on a small default: clairvoyant win rate of deals 0..99 (after the same
# precompile step, so that this is the only compile a new user sees).
demo: install
	$(BIN)/onirim demo

# Compile the numba kernels into numba's cache first, one family per process (with warm
# caches this only loads them: a few seconds), then the test suite in $(JOBS) processes, the
# longest tests first and handed out one at a time (tests/conftest.py, start_order).  The
# suite includes the smoke run of the benchmark harness (`onirim bench --quick`, no timings
# asserted: it must run and write valid JSON; tests/benchmarks/test_bench.py).
test: $(STAMP)
	$(BIN)/python -m onirim.precompile --jobs $(JOBS)
	$(BIN)/python -m pytest -n $(JOBS) --maxschedchunk 1

# The fast tier: every test not marked slow (the slow ones are listed, as measured, in
# tests/conftest.py), after the same precompile step as `make test`; its time target is the
# one README.md states ("Tests").  `make test` runs everything.
test-fast: $(STAMP)
	$(BIN)/python -m onirim.precompile --jobs $(JOBS)
	$(BIN)/python -m pytest -n $(JOBS) --maxschedchunk 1 -m "not slow"

# Debian's chromium for the browser tests of `onirim serve` (tests/web, driven by the test
# extra's playwright; never `playwright install`).  Needs root and apt-get; elsewhere it says
# so and those tests skip with the same words.  CI (.ci/run) runs it before `make test`.
browser:
	@if [ -x /usr/bin/chromium ]; then /usr/bin/chromium --version; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	else echo "make browser: needs root and apt-get for Debian's chromium;" \
	  "the browser tests will skip"; fi

# The full benchmark, with the optional plots (installs matplotlib).
bench: $(PLOTS)
	$(BIN)/onirim bench

# Line coverage of the Python code by the test suite (the numba kernels show as uncovered:
# they run compiled; subprocess tests of the command line are not counted).  About 20 min.
coverage: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,coverage]'
	$(BIN)/python -m coverage run --data-file=.coverage --source=engine,onirim,solver \
	  -m pytest -q -p no:cacheprovider
	$(BIN)/python -m coverage report --data-file=.coverage

# Line coverage of the expectimax kernel itself, run uncompiled (NUMBA_DISABLE_JIT=1), by the
# tests that compare it with the brute force.  About 2 min.
coverage-kernel: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,coverage]'
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m coverage run --data-file=.coverage-kernel \
	  --source=solver -m pytest -q -p no:cacheprovider -W ignore::RuntimeWarning \
	  tests/solver/expectimax/test_expectimax_agreement.py
	$(BIN)/python -m coverage report --data-file=.coverage-kernel \
	  --include='solver/expectimax/*.py'

clean:
	rm -rf $(VENV) build *.egg-info .bench-smoke .bench-results .coverage .coverage-kernel

# The paper: first the whole check (every record recomputed from the stored results and
# per-deal rows, compared with the committed records, numbers, tables, figure data and the
# README's generated blocks; it fails on any difference), then the build: figures and
# papers/onirim/onirim.pdf (typst, no TeX).  After a new result is stored, bring the
# generated files up to date with `python -m papers.build --no-pdf` and commit them.
# Installs the optional extra 'paper' (typst, matplotlib).
.PHONY: paper
paper: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,paper]'
	$(BIN)/python -m papers.check
	$(BIN)/python -m papers.build
