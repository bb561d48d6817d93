"""Start-up migrations on the embedded MongoDB: holds keyed by calendar (issue 11 §7)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import pytest
from pymongo import ASCENDING, AsyncMongoClient

from agent_service.domain.appointments import Appointment
from agent_service.domain.errors import SlotUnavailableError
from agent_service.infrastructure.mongo import init_agent_storage

pytest_plugins = ["tests.kit.mongo_fixtures"]
UNIT = datetime(2031, 3, 10, 13, tzinfo=UTC)


async def test_legacy_holds_get_their_calendar_and_the_index_moves(
    mongo_client: AsyncMongoClient[Any], database_name: str
) -> None:
    db = mongo_client[database_name]
    holds = db["slot_holds"]
    await holds.create_index(
        [("tenant_id", ASCENDING), ("professional_id", ASCENDING), ("unit_start", ASCENDING)],
        name="one_hold_per_unit",
        unique=True,
    )
    tenant, professional, appointment_id = uuid4(), uuid4(), uuid4()
    await db["appointments"].insert_one(
        {"_id": appointment_id, "tenant_id": tenant, "calendar_id": "room-1"}
    )
    await holds.insert_many(
        [
            {
                "tenant_id": tenant,
                "professional_id": professional,
                "unit_start": UNIT + timedelta(minutes=5 * n),
                "appointment_id": appointment_id,
            }
            for n in range(3)
        ]
        + [  # a hold whose appointment is gone holds nothing
            {
                "tenant_id": tenant,
                "professional_id": professional,
                "unit_start": UNIT + timedelta(hours=2),
                "appointment_id": uuid4(),
            }
        ]
    )
    repos = await init_agent_storage(mongo_client, database_name)
    stored = await holds.find({}).to_list(None)
    assert [h["calendar_id"] for h in stored] == ["room-1"] * 3
    indexes = await holds.index_information()
    assert "one_hold_per_unit" not in indexes and indexes["one_hold_per_calendar_unit"]["unique"]
    other_professional_same_room = Appointment(
        tenant_id=uuid4(),
        customer_id=uuid4(),
        professional_id=uuid4(),
        service_id=uuid4(),
        calendar_id="room-1",
        start=UNIT + timedelta(minutes=5),
        end=UNIT + timedelta(minutes=35),
    )
    with pytest.raises(SlotUnavailableError):
        await repos.appointments.reserve(other_professional_same_room)
    await init_agent_storage(mongo_client, database_name)  # idempotent
