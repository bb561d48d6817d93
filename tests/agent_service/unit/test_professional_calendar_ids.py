"""A professional is saved only with a calendar id the calendar service accepts (its own
rule, ``agenda_kit.calendar.validation``): otherwise the customer would later read the
calendar's refusal. Checked over generated ids, for create and update."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agenda_kit.calendar.validation import calendar_id_problem
from agent_service.application.catalog import ProfessionalCatalog
from agent_service.domain.catalog import Professional
from agent_service.domain.errors import InvalidInputError
from tests.agent_service.conversation_fixtures import Salon, seed_salon
from tests.fakes.agent_repositories import in_memory_repositories
from tests.reliability.scale import size


async def update(professionals: ProfessionalCatalog, changed: Professional) -> Professional:
    """Update to ``changed`` (the whole entity: what an update without a mask writes)."""
    return await professionals.update(changed.tenant_id, changed.id, lambda _: changed)


async def catalog() -> tuple[ProfessionalCatalog, Salon]:
    repos = in_memory_repositories()
    salon = await seed_salon(repos)
    return ProfessionalCatalog(repos.tenants, repos.services, repos.professionals), salon


@pytest.mark.parametrize("bad", ["ana\x00", "ana\n", " ana", "a\u200bna", "x" * 1025, ""])
async def test_a_calendar_id_the_calendar_refuses_is_never_saved(bad: str) -> None:
    professionals, salon = await catalog()
    ana = salon.ana
    with pytest.raises(InvalidInputError) as refused:
        await update(professionals, ana.model_copy(update={"calendar_id": bad}))
    assert refused.value.field == "professional.calendar_id"
    new = ana.model_copy(update={"calendar_id": bad, "name": "Other"})
    with pytest.raises(InvalidInputError):
        await professionals.create(new.model_copy(update={"id": new.id}), "key-1")


@settings(max_examples=size(25, 300), deadline=None, derandomize=True)
@given(st.text(min_size=1, max_size=30))
async def test_the_agent_accepts_exactly_what_the_calendar_accepts(calendar_id: str) -> None:
    professionals, salon = await catalog()
    ana = salon.ana
    changed = ana.model_copy(update={"calendar_id": calendar_id})
    if calendar_id_problem(calendar_id) is None:
        assert (await update(professionals, changed)).calendar_id == calendar_id
    else:
        with pytest.raises(InvalidInputError):
            await update(professionals, changed)
