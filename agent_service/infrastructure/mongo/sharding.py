"""The agent service's shard keys (see ``agenda_kit.sharding`` and docs/deployment.md)."""

from __future__ import annotations

from agenda_kit.sharding import UNSHARDED, ShardKey

_TENANT = ShardKey(("tenant_id",), why="tenant data: every query names its tenant")

SHARD_KEYS: dict[str, ShardKey | None] = {
    "tenants": UNSHARDED,  # one small document per business, read by _id
    "services": _TENANT,
    "professionals": _TENANT,
    "faq_entries": _TENANT,
    "customers": _TENANT,
    "conversations": _TENANT,
    "processed_turns": _TENANT,
    "appointments": _TENANT,
    "outbox": _TENANT,
    "pending_executions": _TENANT,  # a confirmed pending action runs once: (tenant, key)
    "tenant_message_rate": ShardKey(("_id",), why="the _id is the tenant id"),
}
