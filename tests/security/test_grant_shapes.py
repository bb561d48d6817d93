"""Issue 24 item 2, property: grants have one strict shape, the same in a principals file and
in a JWT.

Drawn grants (patterns or tables with any JSON value under ``pattern``, ``write``,
``all_owners`` and extra keys), tenant lists and channel lists are judged against an
independent statement of the schema: a boolean is ``true``/``false`` only, a table has no key
but those three, a pattern is non-blank text without NUL, a tenant a UUID in its one spelling
(or ``*``), a channel a channel name. A shape outside it is refused — by the file parser, by
the JWT parser (a refused credential: UNAUTHENTICATED) — and a shape inside it gives exactly
the grant it says, in both. Through a real calendar server, a token's ``CreateEvent`` is
allowed iff one of its grants covers the calendar with ``write = true`` (on main 6d0b5e0,
``{"write": "false"}`` was ``bool("false")``: a write grant).
"""

from __future__ import annotations

import fnmatch
import json
import re
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import timestamp_pb2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agenda.calendar.v1 import calendar_service_pb2 as pb
from agenda.calendar.v1 import calendar_service_pb2_grpc as pb_grpc
from agenda_kit.auth.config import PrincipalConfigError, parse_claims, parse_entry
from agenda_kit.auth.principals import CalendarGrant, Principal
from agenda_kit.settings import SharedSettings
from calendar_service.bootstrap import bootstrap
from calendar_service.infrastructure.settings import CalendarSettings
from tests.fakes.in_memory_calendar import InMemoryCalendar
from tests.fakes.in_memory_holds import InMemoryHolds
from tests.security.conftest import scaled
from tests.security.principals import AUDIENCE, ISSUER, IdentityProvider, bearer, claims

KEYS = ("pattern", "write", "all_owners")
CALENDAR = "jwt-cal-1"
HYPOTHESIS = settings(
    derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)
UUID_TEXT = re.compile(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
CHANNEL_TEXT = re.compile(r"[a-z0-9_-]{1,32}")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 2)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["true", "false", "yes", "0", "1", ""]),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner, max_size=2)
    ),
    max_leaves=4,
)
patterns = st.sampled_from(["jwt-*", CALENDAR, "other-*", "*", "jwt-cal-?", "", " ", "a\x00b"])
grant_tables = st.dictionaries(
    st.sampled_from([*KEYS, "writes", "owner", "Write"]),
    st.one_of(json_values, st.booleans(), patterns),
    max_size=4,
)
grants = st.one_of(patterns, grant_tables, json_values)


def _pattern_ok(value: object) -> bool:
    return (
        isinstance(value, str) and bool(value.strip()) and "\x00" not in value and len(value) <= 256
    )


def expected_grant(item: object) -> CalendarGrant | None:
    """The grant ``item`` means under the schema, or None when it is refused."""
    if isinstance(item, str):
        return CalendarGrant(pattern=item) if _pattern_ok(item) else None
    if not isinstance(item, dict) or set(item) - set(KEYS) or not _pattern_ok(item.get("pattern")):
        return None
    flags = {key: item.get(key, False) for key in ("write", "all_owners")}
    if any(type(value) is not bool for value in flags.values()):
        return None
    return CalendarGrant(pattern=item["pattern"], **flags)


def _both(scope: dict[str, Any]) -> tuple[object, object]:
    """The outcome of one scope in a file table and in a JWT's claims."""
    outcomes: list[object] = []

    def from_file() -> Principal:
        return parse_entry({"name": "p", **scope}).principal

    def from_jwt() -> Principal:
        return parse_claims({f"agenda_{key}": value for key, value in scope.items()}, "p")

    for parse in (from_file, from_jwt):
        try:
            principal = parse()
        except PrincipalConfigError:
            outcomes.append("refused")
            continue
        outcomes.append((principal.tenants, principal.channels, principal.calendars))
    return outcomes[0], outcomes[1]


@given(items=st.lists(grants, max_size=3))
@settings(HYPOTHESIS, max_examples=scaled(300, 3000))
def test_grant_shapes_mean_what_the_schema_says_in_file_and_jwt(items: list[object]) -> None:
    from_file, from_jwt = _both({"roles": ["calendar-client"], "calendars": items})
    assert from_file == from_jwt
    wanted = [expected_grant(item) for item in items]
    if any(grant is None for grant in wanted):
        assert from_file == "refused", items
    else:
        assert from_file == (frozenset(), None, tuple(wanted)), items


def _spellings() -> st.SearchStrategy[str]:
    u = str(uuid.UUID(int=0x3F0C5A9E2B1E4D8E9A571C3F0B7E5A11))
    return st.sampled_from(
        [u, u.upper(), f"{{{u}}}", u.replace("-", ""), f"{u}\n", f" {u}", u.replace("3", "٣"), "*"]
    )


@given(
    tenants=st.one_of(st.just("*"), st.lists(_spellings(), max_size=3), json_values),
    channels=st.one_of(
        st.just("*"),
        st.lists(
            st.sampled_from(["whatsapp", "webchat", "WhatsApp", "whatsapp\n", "", "*"]), max_size=3
        ),
        json_values,
    ),
)
@settings(HYPOTHESIS, max_examples=scaled(200, 2000))
def test_tenant_and_channel_shapes(tenants: object, channels: object) -> None:
    from_file, from_jwt = _both({"roles": ["gateway"], "tenants": tenants, "channels": channels})
    assert from_file == from_jwt

    def ok(value: object, rule: re.Pattern[str]) -> bool:
        return value == "*" or (
            isinstance(value, list)
            and all(isinstance(v, str) and (v == "*" or rule.fullmatch(v)) for v in value)
        )

    if not (ok(tenants, UUID_TEXT) and ok(channels, CHANNEL_TEXT)):
        assert from_file == "refused", (tenants, channels)
        return
    assert isinstance(from_file, tuple), (tenants, channels)
    got_tenants, got_channels, _ = from_file
    assert isinstance(tenants, str | list) and isinstance(channels, str | list)
    if tenants == "*" or "*" in tenants:
        assert got_tenants is None
    else:
        assert got_tenants == {str(uuid.UUID(t)) for t in tenants}
    if channels == "*" or "*" in channels:
        assert got_channels is None
    else:
        assert got_channels == set(channels)


@pytest.fixture
async def calendar(
    tmp_path: Path,
) -> AsyncIterator[tuple[pb_grpc.CalendarServiceAsyncStub, IdentityProvider]]:
    idp = IdentityProvider()
    (tmp_path / "jwks.json").write_text(json.dumps(idp.jwks()))
    principals = tmp_path / "principals.toml"
    principals.write_text(
        f'[jwt]\nissuer = "{ISSUER}"\naudience = "{AUDIENCE}"\njwks_file = "jwks.json"\n'
    )
    app = await bootstrap(
        CalendarSettings(grpc_port=0, metrics_port=0),
        SharedSettings(AGENDA_DATA_DIR=tmp_path, AGENDA_PRINCIPALS_FILE=principals),
        backend=InMemoryCalendar(),
        holds=InMemoryHolds(),
    )
    await app.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            yield pb_grpc.CalendarServiceStub(channel), idp
    finally:
        await app.stop(0)


def _create() -> pb.CreateEventRequest:
    start = timestamp_pb2.Timestamp(seconds=4_000_000_000)
    end = timestamp_pb2.Timestamp(seconds=4_000_001_800)
    return pb.CreateEventRequest(
        calendar_id=CALENDAR,
        summary="grant shapes",
        time=pb.TimeRange(start=start, end=end),
        idempotency_key=uuid.uuid4().hex,
    )


@given(items=st.lists(grants, min_size=1, max_size=2))
@settings(HYPOTHESIS, max_examples=scaled(25, 200))
async def test_a_token_writes_iff_its_grant_says_write_true(
    calendar: tuple[pb_grpc.CalendarServiceAsyncStub, IdentityProvider], items: list[object]
) -> None:
    stub, idp = calendar
    token = idp.token(claims(agenda_roles=["calendar-client"], agenda_calendars=items))
    wanted = [expected_grant(item) for item in items]
    if any(grant is None for grant in wanted):
        want = "UNAUTHENTICATED"
    elif any(g and g.write and fnmatch.fnmatchcase(CALENDAR, g.pattern) for g in wanted):
        want = "OK"
    else:
        want = "PERMISSION_DENIED"
    try:
        await stub.CreateEvent(_create(), metadata=bearer(token), timeout=10)
        got = "OK"
    except grpc.aio.AioRpcError as error:
        got = error.code().name
    assert got == want, items
