"""The per-test process cluster shared by the reliability tests that start real services."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agenda_kit.mongo import EmbeddedMongo
from tests.reliability.processes import Cluster


@pytest.fixture
def cluster(embedded_mongo: EmbeddedMongo, tmp_path: Path) -> Iterator[Cluster]:
    """MongoDB settings, databases and ports for one test; every process stopped after it."""
    cluster = Cluster(embedded_mongo.uri, tmp_path)
    try:
        yield cluster
    finally:
        cluster.stop_all()
