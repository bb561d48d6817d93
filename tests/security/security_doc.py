"""The generated part of docs/security.md: the per-RPC policy table, from the servers' policy
tables (the figures blocks are rendered by ``python -m tests.figures``).

``python -m tests.security.security_doc`` rewrites them; ``test_security_doc`` checks them.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from agenda_kit.auth.policy import PolicyTable, Rule, Scope
from agent_service.infrastructure.grpc.policy import AGENT_POLICY, CATALOG_POLICY
from calendar_service.infrastructure.grpc.policy import CALENDAR_POLICY

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "security.md"
TABLES = (AGENT_POLICY, CATALOG_POLICY, CALENDAR_POLICY)
ROLE_ORDER = ("gateway", "backoffice", "operator", "calendar-client")


def _scope(row: Rule) -> str:
    if row.scope is Scope.PLATFORM:
        return "platform-wide principals only"
    if row.scope is Scope.CALENDARS:
        return f"calendar grants (`{row.calendars}`)"
    channel = f" + channel (`{row.channel}`)" if row.channel else ""
    if row.stored_channel:
        channel += " + channel of the stored conversation/outbox message"
    calendars = f" + calendar grants (`{row.calendars}`)" if row.calendars else ""
    return f"tenant (`{row.tenant}`){channel}{calendars}"


def policy_table(tables: tuple[PolicyTable, ...] = TABLES) -> str:
    lines = [
        "| service | RPC | roles | access | scope checked |",
        "| --- | --- | --- | --- | --- |",
    ]
    for table in tables:
        service = table.service.rsplit(".", 1)[-1]
        for method, row in table.rows.items():
            roles = ", ".join(f"`{r}`" for r in ROLE_ORDER if r in {x.value for x in row.roles})
            lines.append(
                f"| {service} | `{method}` | {roles} | {row.access.value} | {_scope(row)} |"
            )
    return "\n".join(lines)


def _block(name: str, body: str) -> str:
    begin = f"<!-- BEGIN {name} (generated: python -m tests.security.security_doc) -->"
    return f"{begin}\n{body}\n<!-- END {name} -->"


def rendered(text: str) -> str:
    """``text`` with its generated policy block brought up to date."""
    for name, body in (("policy", policy_table()),):
        pattern = re.compile(rf"<!-- BEGIN {name} .*?<!-- END {name} -->", re.DOTALL)
        assert pattern.search(text), f"docs/security.md has no {name} block"
        text = pattern.sub(_block(name, body).replace("\\", "\\\\"), text)
    return text


def main() -> int:
    DOC.write_text(rendered(DOC.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
