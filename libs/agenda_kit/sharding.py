"""Shard keys: how each service's collections are split across a sharded MongoDB cluster.

Each service states one ``ShardKey`` per collection (or ``UNSHARDED``) next to its documents;
``tests/deploy/test_sharding.py`` reads the real index definitions (created by the services'
own start-up code on a real server) and checks that every unique index is prefixed by its
collection's shard key — MongoDB cannot enforce any other unique index across shards. The
operator's commands (``sh.shardCollection``) come from ``shard_collection_command``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ShardKey:
    """A shard key: its fields, the first one hashed (even spread of tenants / calendars,
    every query of ours is an equality on it) or ranged."""

    fields: tuple[str, ...]
    hashed: bool = True
    why: str = ""

    def pattern(self) -> dict[str, Any]:
        """The key pattern for ``shardCollection``."""
        first, *rest = self.fields
        return {first: "hashed" if self.hashed else 1, **dict.fromkeys(rest, 1)}

    def prefixes(self, index_fields: tuple[str, ...]) -> bool:
        """Whether an index on ``index_fields`` starts with this key's fields (MongoDB compares
        field names: a hashed ``tenant_id`` key is a prefix of an ascending
        ``(tenant_id, ...)`` unique index)."""
        return index_fields[: len(self.fields)] == self.fields


UNSHARDED = None
"""A collection that stays on its database's primary shard (small, read by ``_id``)."""


def shard_collection_command(database: str, collection: str, key: ShardKey) -> dict[str, Any]:
    """The admin command an operator runs once per collection (``sh.shardCollection``)."""
    return {"shardCollection": f"{database}.{collection}", "key": key.pattern()}
