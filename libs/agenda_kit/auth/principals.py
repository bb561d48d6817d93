"""Principals: a credential resolves to a name, roles and a scope (tenants, channels,
calendars). Pure values; nothing here reads files or the network."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, replace
from enum import StrEnum
from uuid import UUID


class Role(StrEnum):
    """What a caller is for (docs/security.md has the table of who may do what)."""

    GATEWAY = "gateway"
    BACKOFFICE = "backoffice"
    OPERATOR = "operator"
    CALENDAR_CLIENT = "calendar-client"


@dataclass(frozen=True, slots=True, kw_only=True)
class CalendarGrant:
    """Calendars matching ``pattern`` (an exact id, or a glob such as ``salon-*``).

    ``write`` allows creating and cancelling events; ``all_owners`` allows reading and (with
    ``write``) cancelling events other principals wrote. Without it a principal sees only its
    own events (busy time of every event still counts for slots and free/busy).
    """

    pattern: str
    write: bool = False
    all_owners: bool = False

    def matches(self, calendar_id: str) -> bool:
        return bool(calendar_id) and fnmatch.fnmatchcase(calendar_id, self.pattern)


OPERATOR_CALENDARS = CalendarGrant(pattern="*", write=False, all_owners=True)
"""An operator reads every calendar and every event, and writes none."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Principal:
    """One caller. ``tenants``/``channels`` of ``None`` mean all of them; tenants are
    canonical UUID strings (``agenda_kit.ids``), as the policy compares them."""

    name: str
    roles: frozenset[Role]
    tenants: frozenset[str] | None = frozenset()
    channels: frozenset[str] | None = None
    calendars: tuple[CalendarGrant, ...] = ()

    @property
    def platform_wide(self) -> bool:
        """May act across tenants: its tenants are all of them, or it is an operator with no
        tenant list of its own (a stated list bounds every role, the operator's too)."""
        return self.tenants is None or (Role.OPERATOR in self.roles and not self.tenants)

    def acting_as(self, roles: frozenset[Role]) -> Principal:
        """This principal with only ``roles`` of its own: what a call that those roles grant
        is scoped by (roles are never combined: the operator's reach across tenants counts
        only for the calls the operator role itself may make)."""
        return replace(self, roles=self.roles & roles)

    def has_tenant(self, tenant_id: UUID) -> bool:
        if self.platform_wide:
            return True
        return str(tenant_id) in (self.tenants or ())

    def has_channel(self, channel: str) -> bool:
        """Whether the principal may act on ``channel`` (a request's, or a stored
        conversation's or outbox message's)."""
        return self.channels is None or channel in self.channels

    def _grants(self) -> tuple[CalendarGrant, ...]:
        if Role.OPERATOR in self.roles:
            return (*self.calendars, OPERATOR_CALENDARS)
        return self.calendars

    def calendar_grant(self, calendar_id: str, *, write: bool) -> CalendarGrant | None:
        """The first grant covering ``calendar_id`` with the needed access, if any."""
        for grant in self._grants():
            if grant.matches(calendar_id) and (grant.write or not write):
                return grant
        return None

    def sees_all_owners(self, calendar_id: str, *, write: bool = False) -> bool:
        """Whether this principal may see (``write``: also change and cancel) events of other
        owners on ``calendar_id``: one grant must say all of it, grants are never combined
        (a read-only ``all_owners`` grant and a ``write`` grant for one's own events do not
        make a grant to write others' events)."""
        return any(
            g.all_owners and g.matches(calendar_id) and (g.write or not write)
            for g in self._grants()
        )
