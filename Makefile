SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
.DEFAULT_GOAL := help
MAKEFLAGS += --warn-undefined-variables --no-builtin-rules

PYTHON_SYSTEM ?= python3.11
UV_VERSION := 0.13.9
TOOLS := .tools
UV := $(TOOLS)/bin/uv
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
PROTOS := $(shell find protos -name '*.proto')
GEN_DIR := libs
GEN_STAMP := libs/agenda/.generated
export UV_PROJECT_ENVIRONMENT := $(VENV)
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: help setup proto proto-check lint fmt test test-unit test-integration test-e2e \
        serve-calendar serve-agent run bench clean

help: ## Show this help
	@grep -hE '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | \
	  awk 'BEGIN {FS = ":.*?## "}; {printf "  \033[36m%-18s\033[0m %s\n", $$1, $$2}'

$(UV):
	$(PYTHON_SYSTEM) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

$(VENV)/.synced: $(UV) pyproject.toml uv.lock
	$(UV) sync --locked --python $(PYTHON_SYSTEM) --quiet
	@touch $@

$(GEN_STAMP): $(VENV)/.synced $(PROTOS)
	@rm -rf libs/agenda
	$(PY) -m grpc_tools.protoc -I protos \
	  --plugin=protoc-gen-mypy=$(BIN)/protoc-gen-mypy \
	  --plugin=protoc-gen-mypy_grpc=$(BIN)/protoc-gen-mypy_grpc \
	  --python_out=$(GEN_DIR) --mypy_out=$(GEN_DIR) \
	  --grpc_python_out=$(GEN_DIR) --mypy_grpc_out=$(GEN_DIR) $(PROTOS)
	@find libs/agenda -type d -exec touch {}/__init__.py \;
	@touch $@

setup: $(GEN_STAMP) ## Create .venv, install locked dependencies, generate protobuf code

proto: ## Regenerate protobuf/gRPC stubs into libs/agenda (not committed)
	@rm -f $(GEN_STAMP)
	@$(MAKE) --no-print-directory $(GEN_STAMP)

proto-check: setup ## Check that regenerating the stubs changes nothing
	@tmp=$$(mktemp -d); cp -r libs/agenda $$tmp/before; $(MAKE) --no-print-directory proto >/dev/null; \
	  diff -r -x __pycache__ $$tmp/before libs/agenda >/dev/null || { echo "generated code drifted"; exit 1; }; rm -rf $$tmp

fmt: setup ## Format the code
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

lint: setup ## ruff, mypy, buf lint, import-linter layer contracts
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/buf lint
	$(BIN)/lint-imports

test: setup lint ## Set up, lint, and run every test
	$(BIN)/pytest -q -p no:cacheprovider

test-unit: setup ## Unit tests only
	$(BIN)/pytest -q tests -m "not slow" -k "unit"

serve-calendar: setup ## Run the calendar service on CALENDAR_GRPC_PORT (50051)
	$(PY) -m calendar_service

run: setup ## Start everything on embedded defaults and open a chat (scripted without a terminal)
	$(PY) -m agent_service run

serve-agent: setup ## Run the agent service on AGENT_GRPC_PORT (50052)
	$(PY) -m agent_service

bench: setup ## Run the benchmarks; results in bench/results/
	$(PY) -m bench

clean: ## Remove the virtualenvs and generated code (keeps .data/)
	rm -rf $(VENV) $(TOOLS) libs/agenda .mypy_cache .ruff_cache .pytest_cache
