# Set-up, code generation, tests and tools for partida.
# Every target installs what it needs first, so `make run` / `make test` work on a fresh clone.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Marks a finished `pip install -e '.[dev]'`; lives inside the venv so it goes away with it.
STAMP  := $(VENV)/.installed

PROTOS := $(shell find protos -name '*.proto' 2>/dev/null)
PB2    := $(PROTOS:protos/%.proto=services/%_pb2.py)

.DEFAULT_GOAL := test
.PHONY: venv proto system-deps test run lint bench soak clean stack stack-down

venv: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
	touch $@

# One protoc call per .proto file writes all of its outputs (e.g. protos/partida/v1/common.proto
# -> services/partida/v1/common_pb2.py, common_pb2_grpc.py, common_pb2.pyi).
# protoc-gen-mypy (from mypy-protobuf) is found on PATH in the venv's bin.
services/%_pb2.py services/%_pb2_grpc.py services/%_pb2.pyi: protos/%.proto $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m grpc_tools.protoc -I protos \
		--python_out=services --grpc_python_out=services --mypy_out=services $<

# Also gives every generated package dir an empty __init__.py, never touching existing ones.
proto: $(PB2)
	@for d in $(patsubst %/,%,$(sort $(dir $(PB2)))); do \
		while [ "$$d" != services ] && [ "$$d" != . ]; do \
			[ -e "$$d/__init__.py" ] || { touch "$$d/__init__.py"; echo "created $$d/__init__.py"; }; \
			d=$$(dirname "$$d"); \
		done; \
	done

# redis-server and PostgreSQL, which integration tests start for real (apt-get if missing).
system-deps:
	deploy/local/install-system-deps.sh
	deploy/local/install-deploy-tools.sh

test: venv proto system-deps
	$(BIN)/pytest -n auto $(PYTEST_ARGS)

# The whole server in one process (in-process state, SQLite in partida.db, bots on threads);
# it prints where it listens and how to connect. Ctrl-C stops it.
run: venv proto
	$(BIN)/partida serve

# The multi-process stack in the background: Redis, PostgreSQL, four services, a worker.
stack: venv proto system-deps
	$(BIN)/partida stack up

stack-down: venv
	$(BIN)/partida stack down

# buf (protobuf lint and breaking-change check) comes from the npm registry.
BUF := .tools/node_modules/.bin/buf
$(BUF):
	npm install --silent --prefix .tools @bufbuild/buf@1.75.0

# Runs every tool and fails if any fails. The breaking check compares with branch main.
lint: venv proto $(BUF)
	@rc=0; \
	$(BIN)/ruff check $(wildcard services tests) || rc=1; \
	$(BIN)/mypy services || rc=1; \
	$(BUF) lint || rc=1; \
	if git rev-parse --verify -q main >/dev/null; then \
		$(BUF) breaking --against '.git#branch=main' || rc=1; fi; \
	exit $$rc

bench: venv proto
	$(BIN)/python tests/bench/run.py

# Ten minutes of play on the multi-process stack while processes are killed and Redis is
# flushed, then an audit of every match and acknowledged action (tests/soak/run.py).
soak: venv proto system-deps
	$(BIN)/python tests/soak/run.py $(SOAK_ARGS)

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .mypy_cache .hypothesis
	rm -rf services/*.egg-info
	find services \( -name '*_pb2.py' -o -name '*_pb2_grpc.py' \
		-o -name '*_pb2.pyi' -o -name '*_pb2_grpc.pyi' \) -delete
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
