"""A write of one customer field never erases another written meanwhile (session 44, blind
attacker review, MED: an UpsertCustomer with a phone and an email raced a turn in which the
customer said their name, and 4 of 12 runs lost the phone and email: the turn wrote back its
own copy of the customer, read before the upsert, whole). Both stores: the turn names the
customer through the same merge an upsert does, and a merge writes only the fields it
changes."""

from __future__ import annotations

import asyncio

from agent_service.application.engine import TurnOutput
from agent_service.application.repositories import Repositories
from agent_service.application.turn_persistence import remember_name
from agent_service.domain.catalog import Customer, Tenant
from tests.agent_service.integration.repository_fixtures import repos

pytest_plugins = ["tests.kit.mongo_fixtures"]
__all__ = ["repos"]


async def _customer(repos: Repositories) -> Customer:
    tenant = await repos.tenants.add(Tenant(name="Salão", time_zone="America/Sao_Paulo"))
    customer, _ = await repos.customers.upsert(
        Customer(tenant_id=tenant.id, channel="whatsapp", external_id="5511")
    )
    return customer


async def test_a_name_learned_in_a_turn_keeps_fields_written_since_it_read(
    repos: Repositories,
) -> None:
    read_by_the_turn = await _customer(repos)
    await repos.customers.upsert(
        read_by_the_turn.model_copy(update={"phone": "+5511999990000", "email": "a@b.co"})
    )
    await remember_name(
        repos, read_by_the_turn, TurnOutput(reply="", specialist="", customer_name="Ana")
    )
    stored = await repos.customers.get(read_by_the_turn.tenant_id, read_by_the_turn.id)
    assert (stored.name, stored.phone, stored.email) == ("Ana", "+5511999990000", "a@b.co")


async def test_concurrent_upserts_of_different_fields_keep_all_of_them(
    repos: Repositories,
) -> None:
    customer = await _customer(repos)
    for round_ in range(10):
        identity = Customer(
            tenant_id=customer.tenant_id, channel=customer.channel, external_id="5511"
        )
        fields = {"name": f"Ana {round_}", "phone": f"+55{round_}", "email": f"a{round_}@b.co"}
        await asyncio.gather(
            *(repos.customers.upsert(identity.model_copy(update={k: v})) for k, v in fields.items())
        )
        stored = await repos.customers.get(customer.tenant_id, customer.id)
        assert (stored.name, stored.phone, stored.email) == tuple(fields.values()), round_
