"""The principal of the call being served, for handlers and use cases."""

from __future__ import annotations

from contextvars import ContextVar

from agenda_kit.auth.principals import Principal

_CURRENT: ContextVar[Principal | None] = ContextVar("agenda_principal", default=None)


class NoPrincipalError(RuntimeError):
    """A handler ran outside the authorization interceptor (a wiring bug)."""


def current_principal() -> Principal:
    principal = _CURRENT.get()
    if principal is None:
        raise NoPrincipalError("no authenticated principal in this call")
    return principal


def caller_channels() -> frozenset[str] | None:
    """The channels the current caller may act on (None: every channel). Use cases that
    load a conversation or outbox message check its channel against this (policy rows with
    ``stored_channel``); outside an authorized call it raises (fail closed)."""
    return current_principal().channels


def bind_principal(principal: Principal | None) -> object:
    """Set the call's principal; returns a token for ``unbind_principal``."""
    return _CURRENT.set(principal)


def unbind_principal(token: object) -> None:
    _CURRENT.reset(token)  # type: ignore[arg-type]
