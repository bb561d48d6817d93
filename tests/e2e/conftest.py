"""One pair of service processes with nothing configured, shared by the e2e tests that use
the zero-config set-up as a newcomer meets it (generated tokens and principals in ``.data/``):
the chat under a pseudo-terminal and the operations page's recipes. A directory like the
repository root holds their ``.data/`` and a link to the virtualenv, so the docs' relative
paths (``.venv/bin/grpcurl``, ``$(cat .data/tokens/...)``) work unchanged."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.agent_processes import Ports, ZeroConfig, running_services
from tests.e2e.processes import BIN


@pytest.fixture(scope="session")
def zero_config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ZeroConfig]:
    root = tmp_path_factory.mktemp("repository")
    (root / ".venv").symlink_to(BIN.parent, target_is_directory=True)
    ports = Ports.free()
    with running_services(root / ".data", ports) as services:
        yield ZeroConfig(root, ports, services)
