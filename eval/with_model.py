"""A local GGUF model served for the agent: ``python -m eval.with_model CMD...`` starts
``eval/real_model.py`` in the real-model environment (``REAL_MODEL_PYTHON``, default
``.tools/real-model/bin/python``; the model file is ``MODEL``, default SmolLM2-135M), runs
``CMD`` with ``AGENT_MODEL=openai-chat:local`` and ``OPENAI_BASE_URL`` pointing at it, and
stops the server when ``CMD`` ends (``make run MODEL=path/to.gguf``)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCAL_MODEL = "openai-chat:local"


@contextmanager
def served() -> Iterator[str]:
    """The ``/v1`` address of the model server, for as long as the block runs."""
    python = os.environ.get("REAL_MODEL_PYTHON", ".tools/real-model/bin/python")
    command = [python, str(Path(__file__).with_name("real_model.py"))]
    if os.environ.get("MODEL"):
        command.append(os.environ["MODEL"])
    # S603: this repository's script under the configured interpreter.
    with subprocess.Popen(  # noqa: S603
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as server:
        assert server.stdout is not None and server.stdin is not None
        line = server.stdout.readline().strip()
        try:
            if not line.startswith("OPENAI_BASE_URL="):
                raise SystemExit(f"the model server did not start: {line!r}")
            yield line.removeprefix("OPENAI_BASE_URL=")
        finally:
            server.stdin.close()  # the server's signal to stop
            server.wait(timeout=60)


def main(argv: list[str]) -> int:
    if not argv:
        raise SystemExit("usage: python -m eval.with_model CMD...")
    with served() as base_url:
        env = {
            **os.environ,
            "AGENT_MODEL": LOCAL_MODEL,
            "OPENAI_BASE_URL": base_url,
            "OPENAI_API_KEY": os.environ.get("OPENAI_API_KEY", "none"),
        }
        return subprocess.call(argv, env=env)  # noqa: S603 (the caller's own command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
