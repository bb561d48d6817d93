"""Admission at the edge: what one caller may hold open at a time, counted in this process.

Rules (``EdgeAdmission``), applied after authentication and authorization and before any
handler — a refused call costs no storage round trip and no model call:

- **Open streams per principal** (``streams_per_principal``): server-streaming calls
  (``StreamOutbox`` long polls, ``StreamMessage``) one principal holds open at once.
- **Calls per principal** (``calls_per_principal``): calls of one principal in flight at once,
  whatever they name (a service without tenants: the calendar service, whose callers are
  products sharing one pool of provider connections; one product's flood is refused here
  while the others keep their share).
- **Calls per principal and tenant** (``calls_per_tenant``): calls of one principal naming one
  tenant in flight at once (unary and streaming). One tenant's flood is refused here, in
  memory, while the storage and health probes keep answering for everyone else; another
  principal of the same tenant (its back office) has its own budget.

A refusal is RESOURCE_EXHAUSTED (``TOO_MANY_STREAMS`` / ``TOO_MANY_CALLS``) with a retry hint
(``RetryInfo`` and the ``grpc-retry-pushback-ms`` trailer). 0 means no limit. Counting needs
no lock: one event loop, and nothing awaits between the check and the increment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from agenda_kit.errors import TooManyCallsError


@dataclass(frozen=True, slots=True)
class AdmissionLimits:
    streams_per_principal: int = 0
    calls_per_tenant: int = 0
    calls_per_principal: int = 0
    retry_after_seconds: float = 1.0

    def __post_init__(self) -> None:
        limits = (self.streams_per_principal, self.calls_per_tenant, self.calls_per_principal)
        if min(limits) < 0:
            raise ValueError("admission limits are >= 0 (0: no limit)")


Key = tuple[str, str, str]
"""``("streams", principal, "")``, ``("calls", principal, tenant)`` or ``("all", principal,
"")``."""


@dataclass
class EdgeAdmission:
    """Counts what each principal holds open (see the module's rules)."""

    limits: AdmissionLimits
    _open: Counter[Key] = field(default_factory=Counter, init=False)

    @contextmanager
    def hold(self, principal: str, tenant: str, *, streaming: bool) -> Iterator[None]:
        """Hold one place for the block; ``TooManyCallsError`` when none is free."""
        keys = [
            key
            for key, counted in (
                (("streams", principal, ""), streaming),
                (("calls", principal, tenant), bool(tenant)),
                (("all", principal, ""), self.limits.calls_per_principal > 0),
            )
            if counted
        ]
        for key in keys:
            self._refuse_if_full(key)
        for key in keys:
            self._open[key] += 1
        try:
            yield
        finally:
            for key in keys:
                self._open[key] -= 1
                if self._open[key] <= 0:
                    del self._open[key]

    def open_streams(self, principal: str) -> int:
        return self._open[("streams", principal, "")]

    def open_calls(self, principal: str) -> int:
        """Calls of ``principal`` in flight, counted when ``calls_per_principal`` is set."""
        return self._open[("all", principal, "")]

    def _refuse_if_full(self, key: Key) -> None:
        limits = self.limits
        if key[0] == "streams" and 0 < limits.streams_per_principal <= self._open[key]:
            raise TooManyCallsError(
                "TOO_MANY_STREAMS",
                f"too many open streams for this caller (limit {limits.streams_per_principal})",
                retry_after_seconds=limits.retry_after_seconds,
            )
        if key[0] == "all" and limits.calls_per_principal <= self._open[key]:
            raise TooManyCallsError(
                "TOO_MANY_CALLS",
                f"too many calls in flight for this caller "
                f"(limit {limits.calls_per_principal}); retry shortly",
                retry_after_seconds=limits.retry_after_seconds,
            )
        if key[0] == "calls" and 0 < limits.calls_per_tenant <= self._open[key]:
            raise TooManyCallsError(
                "TOO_MANY_CALLS",
                f"too many calls in flight for this caller and business "
                f"(limit {limits.calls_per_tenant}); retry shortly",
                retry_after_seconds=limits.retry_after_seconds,
            )
