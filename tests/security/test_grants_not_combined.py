"""Permissions of different grants are never combined (session 43's adversarial review: a
principal with ``{shared-*, all_owners}`` read-only and ``{shared-m*, write}`` for its own
events could update, move and cancel another product's events on ``shared-m1``). Property over
drawn grants: a principal may act on another owner's event of a calendar for writing iff one
single grant covers that calendar with both ``write`` and ``all_owners``; for reading iff one
covers it with ``all_owners``."""

from __future__ import annotations

import fnmatch

from hypothesis import given, settings
from hypothesis import strategies as st

from agenda_kit.auth.principals import CalendarGrant, Principal, Role

PATTERNS = ["shared-*", "shared-m*", "shared-m1", "crm-*", "*"]
CALENDARS = ["shared-m1", "shared-x", "crm-1", "other"]
grants = st.lists(
    st.builds(
        CalendarGrant,
        pattern=st.sampled_from(PATTERNS),
        write=st.booleans(),
        all_owners=st.booleans(),
    ),
    max_size=4,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(grants, st.sampled_from(CALENDARS), st.booleans())
def test_one_grant_must_hold_every_permission_an_action_needs(
    drawn: list[CalendarGrant], calendar: str, write: bool
) -> None:
    principal = Principal(name="p", roles=frozenset({Role.CALENDAR_CLIENT}), calendars=tuple(drawn))
    one = any(
        fnmatch.fnmatchcase(calendar, g.pattern) and g.all_owners and (g.write or not write)
        for g in drawn
    )
    assert principal.sees_all_owners(calendar, write=write) is one


def test_the_reviewers_principal_cannot_write_others_events() -> None:
    mixed = Principal(
        name="mixed",
        roles=frozenset({Role.CALENDAR_CLIENT}),
        calendars=(
            CalendarGrant(pattern="shared-*", all_owners=True),
            CalendarGrant(pattern="shared-m*", write=True),
        ),
    )
    assert mixed.sees_all_owners("shared-m1", write=False)
    assert not mixed.sees_all_owners("shared-m1", write=True)
