"""The per-RPC policy: a declarative table, one row per RPC, fail-closed.

A row says which roles may call the method, whether it reads or writes, and where the
request names the tenant, channel or calendars it acts on. ``authorize`` checks a principal
against a row; a method without a row is denied.

Channels have two sources: a channel the request names (``channel="customer.channel"``,
checked here), and the channel of the stored conversation or outbox message the call reads or
writes (``stored_channel=True``): the use case that loads it checks it against the caller's
channels (``agenda_kit.auth.context.caller_channels``), so another channel's conversation is
NOT_FOUND like an absent one and another channel's outbox message is never streamed or acked.

Ids are read in their one spelling (``agenda_kit.ids``): a tenant that is not a canonical UUID
or a channel that is not a channel name is INVALID_ARGUMENT (naming the field) before any
scope is compared, so the policy and the handlers can never read one string as two ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from agenda_kit.auth.principals import Principal, Role
from agenda_kit.errors import RequestValidationError
from agenda_kit.ids import CHANNEL_RULE, is_channel, parse_uuid


class Access(StrEnum):
    READ = "read"
    WRITE = "write"


class Scope(StrEnum):
    """What a method acts on, and so what the principal's scope must cover."""

    PLATFORM = "platform"  # no tenant (create/list tenants): needs a platform-wide principal
    TENANT = "tenant"  # one tenant, named by ``tenant``
    CALENDARS = "calendars"  # the calendars named by ``calendars`` (a field or repeated field)
    NONE = "none"  # acts on no tenant or calendar (diagnostics): the role is enough


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """One row: who may call a method and how to find what it acts on in the request."""

    roles: frozenset[Role]
    access: Access
    scope: Scope
    tenant: str = ""  # dotted path of the tenant id field, e.g. "service.tenant_id"
    channel: str = ""  # dotted path of the channel field, checked when set
    stored_channel: bool = False  # the named conversation's / outbox message's channel
    calendars: str = ""  # dotted path of the calendar id field(s)


def rule(
    *roles: Role,
    access: Access,
    tenant: str = "",
    channel: str = "",
    stored_channel: bool = False,
    calendars: str = "",
    unscoped: bool = False,
) -> Rule:
    """A row, in one line: ``rule(GATEWAY, access=WRITE, tenant="tenant_id")``. With both a
    tenant and calendars, both are checked. Without either the method is platform-wide,
    unless ``unscoped`` (diagnostics)."""
    scope = Scope.TENANT if tenant else Scope.CALENDARS if calendars else Scope.PLATFORM
    if unscoped:
        scope = Scope.NONE
    return Rule(
        roles=frozenset(roles),
        access=access,
        scope=scope,
        tenant=tenant,
        channel=channel,
        stored_channel=stored_channel,
        calendars=calendars,
    )


@dataclass(frozen=True, slots=True)
class Denial:
    """Why a call is refused (always PERMISSION_DENIED to the caller): ``reason`` for the logs
    and the status message, ``code`` the stable ``ErrorInfo.reason``."""

    reason: str
    code: str = "METHOD_NOT_ALLOWED"


@dataclass(frozen=True, slots=True)
class PolicyTable:
    """The rows of one service, keyed by method name."""

    service: str
    rows: Mapping[str, Rule]

    def rule_for(self, method: str) -> Rule | None:
        return self.rows.get(method)


def authorize_method(rule_: Rule | None, principal: Principal) -> Denial | None:
    """None when a row exists and ``principal`` holds one of its roles, else why not."""
    if rule_ is None:
        return Denial("no policy allows this method")
    if not principal.roles & rule_.roles:
        return Denial(f"principal {principal.name!r} may not call this method")
    return None


def authorize(rule_: Rule | None, principal: Principal, request: Any) -> Denial | None:
    """None when ``principal`` may make this call, else why not; ``RequestValidationError``
    when a field the row scopes by is not in its one spelling."""
    denial = authorize_method(rule_, principal)
    if denial is not None or rule_ is None:
        return denial
    principal = principal.acting_as(rule_.roles)  # scoped by the roles that grant the call
    if rule_.scope is Scope.PLATFORM and not principal.platform_wide:
        return Denial("this method needs a platform-wide principal", "PLATFORM_SCOPE_REQUIRED")
    if rule_.scope is Scope.TENANT:
        tenant = str(field_value(request, rule_.tenant) or "")
        if tenant:  # empty: the handler rejects it
            try:
                tenant_id = parse_uuid(tenant)
            except ValueError:
                raise RequestValidationError(rule_.tenant, "not a UUID") from None
            if not principal.has_tenant(tenant_id):
                return Denial("tenant is outside the caller's scope", "TENANT_NOT_ALLOWED")
    if rule_.channel:
        channel = str(field_value(request, rule_.channel) or "")
        if channel and not is_channel(channel):
            raise RequestValidationError(rule_.channel, CHANNEL_RULE)
        if channel and not principal.has_channel(channel):
            return Denial("channel is outside the caller's scope", "CHANNEL_NOT_ALLOWED")
    if rule_.calendars:  # calendar RPCs, and catalog writes that assign a calendar
        write = rule_.access is Access.WRITE
        for calendar_id in _calendar_ids(field_value(request, rule_.calendars)):
            if calendar_id and principal.calendar_grant(calendar_id, write=write) is None:
                return Denial(
                    f"calendar {calendar_id!r} is outside the caller's grants",
                    "CALENDAR_NOT_GRANTED",
                )
    return None


def field_value(message: Any, path: str) -> Any:
    """The value at a dotted path of a protobuf message (empty when a holder is unset)."""
    value = message
    for name in path.split("."):
        value = getattr(value, name, None)
        if value is None:
            return None
    return value


def _calendar_ids(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        return (value,)
    return tuple(str(item) for item in value or ())


def scoped_tenant(rule_: Rule | None, request: Any) -> str:
    """The canonical id of the tenant a call acts on ("" when the row names none, or the
    request leaves it empty or misspelt — ``authorize`` refuses the latter)."""
    if rule_ is None or rule_.scope is not Scope.TENANT:
        return ""
    try:
        return str(parse_uuid(str(field_value(request, rule_.tenant) or "")))
    except ValueError:
        return ""
