"""The shared error table and bearer-token parsing."""

from __future__ import annotations

import grpc
import pytest

from agenda_kit.auth.config import PrincipalConfigError
from agenda_kit.auth.directory import MissingCredentialError
from agenda_kit.auth.jwt_tokens import InvalidCredentialError
from agenda_kit.auth.principals import Principal, Role
from agenda_kit.auth.setup import token_directory
from agenda_kit.calendar.errors import CalendarError, CalendarUnavailableError, EventNotFoundError
from agenda_kit.errors import ErrorRule, ErrorTable, RequestValidationError
from agenda_kit.grpc.auth import bearer_token
from calendar_service.domain.slots import InvalidSlotQueryError
from calendar_service.domain.validation import InvalidRequestError
from calendar_service.infrastructure.grpc.errors import CALENDAR_ERRORS


def test_most_specific_rule_wins_by_mro() -> None:
    table = ErrorTable(
        [
            ErrorRule(CalendarError, grpc.StatusCode.FAILED_PRECONDITION),
            ErrorRule(EventNotFoundError, grpc.StatusCode.NOT_FOUND),
        ]
    )
    assert table.lookup(EventNotFoundError("gone")) == (grpc.StatusCode.NOT_FOUND, "gone")
    assert table.lookup(CalendarUnavailableError())[0] == grpc.StatusCode.FAILED_PRECONDITION  # type: ignore[index]
    assert table.lookup(RuntimeError("boom")) is None


@pytest.mark.parametrize(
    ("error", "code", "text"),
    [
        (
            RequestValidationError("range", "start and end are required"),
            grpc.StatusCode.INVALID_ARGUMENT,
            "range: ",
        ),
        (
            InvalidRequestError("summary", "is required"),
            grpc.StatusCode.INVALID_ARGUMENT,
            "summary: ",
        ),
        (
            InvalidSlotQueryError("step_minutes", "must divide 1440"),
            grpc.StatusCode.INVALID_ARGUMENT,
            "step_minutes",
        ),
        (CalendarUnavailableError(), grpc.StatusCode.UNAVAILABLE, "temporarily unavailable"),
    ],
)
def test_calendar_table_names_the_field(error: Exception, code: grpc.StatusCode, text: str) -> None:
    mapped = CALENDAR_ERRORS.lookup(error)
    assert mapped is not None
    assert mapped[0] == code
    assert text in mapped[1]


@pytest.mark.parametrize(
    ("metadata", "token"),
    [
        ((("authorization", "Bearer abc"),), "abc"),
        ((("Authorization", "bearer  abc "),), "abc"),
        ((("authorization", "Basic abc"),), None),
        ((("authorization", "Bearer"),), None),
        ((), None),
        (None, None),
    ],
)
def test_bearer_token_parsing(
    metadata: tuple[tuple[str, str], ...] | None, token: str | None
) -> None:
    assert bearer_token(metadata) == token


async def test_directory_accepts_only_configured_tokens() -> None:
    principal = Principal(name="p", roles=frozenset({Role.OPERATOR}))
    directory = token_directory(principal, ["one", "two"])
    assert await directory.resolve("one", []) == principal
    assert await directory.resolve("two", []) == principal
    for wrong in ("three", ""):
        with pytest.raises(InvalidCredentialError):
            await directory.resolve(wrong, [])
    with pytest.raises(MissingCredentialError):
        await directory.resolve(None, [])
    with pytest.raises(PrincipalConfigError, match="no principals"):
        token_directory(principal, ["", ""])
