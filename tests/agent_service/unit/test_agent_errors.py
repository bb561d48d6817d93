"""The agent error table and the storage edge: each failure reaches callers as one code."""

from __future__ import annotations

import grpc
import pydantic
import pytest
from pymongo.errors import DuplicateKeyError, ServerSelectionTimeoutError

from agenda_kit.calendar.errors import CalendarUnavailableError
from agent_service.domain.catalog import Service
from agent_service.domain.errors import (
    ConflictError,
    InvalidInputError,
    SlotUnavailableError,
    StorageUnavailableError,
)
from agent_service.infrastructure.grpc.errors import AGENT_ERRORS
from agent_service.infrastructure.mongo.errors import guarded


def _validation_error() -> pydantic.ValidationError:
    with pytest.raises(pydantic.ValidationError) as caught:
        Service.model_validate({"tenant_id": "x", "name": "Corte", "duration_minutes": 30})
    return caught.value


@pytest.mark.parametrize(
    ("error", "code", "message"),
    [
        (InvalidInputError("tenant_id", "not a UUID"), "INVALID_ARGUMENT", "tenant_id: not a UUID"),
        (_validation_error(), "INVALID_ARGUMENT", "tenant_id: Input should be a valid UUID"),
        (SlotUnavailableError("taken"), "FAILED_PRECONDITION", "taken"),
        (ConflictError("raced"), "ABORTED", "raced"),
        (StorageUnavailableError(), "UNAVAILABLE", "storage is temporarily unavailable"),
        (
            CalendarUnavailableError(),
            "UNAVAILABLE",
            "The calendar provider is temporarily unavailable; retry later.",
        ),
    ],
)
def test_error_table(error: BaseException, code: str, message: str) -> None:
    mapped = AGENT_ERRORS.lookup(error)
    assert mapped is not None
    assert mapped[0] is getattr(grpc.StatusCode, code)
    assert mapped[1].startswith(message)


async def test_unreachable_storage_is_a_domain_error_other_driver_errors_propagate() -> None:
    @guarded
    async def unreachable() -> None:
        raise ServerSelectionTimeoutError("no server")

    @guarded
    async def duplicate() -> None:
        raise DuplicateKeyError("E11000")

    with pytest.raises(StorageUnavailableError):
        await unreachable()
    with pytest.raises(DuplicateKeyError):
        await duplicate()
