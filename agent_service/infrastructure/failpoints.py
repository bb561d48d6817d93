"""Failpoints for crash tests: ``AGENDA_FAILPOINTS`` makes the agent process die mid-saga.

TEST ONLY, off by default. ``AGENDA_FAILPOINTS="after_event=kill"`` (comma-separated
``step=action`` pairs, steps from ``booking.FAILPOINT_STEPS``) makes the process SIGKILL itself
when a booking reaches that step — no cleanup, no flush, exactly like a crash. Unset or empty:
no failpoint at all (``BookAppointment`` keeps its no-op default).
"""

from __future__ import annotations

import os
import signal

import structlog

from agent_service.application.book_appointment import FAILPOINT_STEPS, Failpoint

ENV_VAR = "AGENDA_FAILPOINTS"
ACTIONS = ("kill",)
log = structlog.get_logger("agenda.failpoints")


def parse(spec: str) -> dict[str, str]:
    """``"after_event=kill,after_reserve=kill"`` → {step: action}; unknown names raise."""
    points: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        step, _, action = item.partition("=")
        if step not in FAILPOINT_STEPS or action not in ACTIONS:
            raise ValueError(
                f"{ENV_VAR}: {item!r} is not step=action with step in {FAILPOINT_STEPS} "
                f"and action in {ACTIONS}"
            )
        points[step] = action
    return points


def from_environment(environ: dict[str, str] | None = None) -> Failpoint | None:
    """The failpoint ``AGENDA_FAILPOINTS`` asks for, or None when it is unset or empty."""
    spec = (os.environ if environ is None else environ).get(ENV_VAR, "")
    points = parse(spec)
    if not points:
        return None
    log.warning("failpoints_enabled", failpoints=points)

    def failpoint(step: str) -> None:
        if points.get(step) == "kill":
            os.kill(os.getpid(), signal.SIGKILL)

    return failpoint
