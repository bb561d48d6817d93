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


def bind_principal(principal: Principal | None) -> object:
    """Set the call's principal; returns a token for ``unbind_principal``."""
    return _CURRENT.set(principal)


def unbind_principal(token: object) -> None:
    _CURRENT.reset(token)  # type: ignore[arg-type]
