"""The demo tenant: a salon with 3 services, 2 professionals and a few FAQ entries, created
through ``CatalogService`` with idempotency keys (running it again changes nothing)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import grpc

from agenda.agent.v1 import catalog_service_pb2 as pb
from agenda.agent.v1 import catalog_service_pb2_grpc as pb_grpc
from agenda_kit.auth.devtokens import write_dev_principals
from agenda_kit.grpc.limits import MESSAGE_SIZE_OPTIONS
from agent_service.application.catalog import tenant_id_for
from agent_service.cli.clients import agent_address, agent_metadata, data_dir, demo_tenant_file

SERVICES = [
    ("Corte feminino", "Corte com lavagem e finalização", 45, 8000),
    ("Corte masculino", "Corte na tesoura ou máquina", 30, 5000),
    ("Manicure", "Cutilagem e esmaltação", 40, 3500),
]
# What customers call the services, per language (matched folding accents/case). A word that
# fits both cuts ("haircut", "corte de cabelo") is no alias: the assistant asks which one.
SERVICE_ALIASES = {
    "Corte feminino": {
        "pt": ["corte de cabelo feminino", "corte de mulher"],
        "en": ["women's haircut", "ladies haircut"],
    },
    "Corte masculino": {
        "pt": ["corte de cabelo masculino", "corte de homem"],
        "en": ["men's haircut", "men's cut"],
    },
    "Manicure": {"pt": ["unha", "unhas", "fazer a mão"], "en": ["nails", "mani"]},
}
PROFESSIONAL_ALIASES = {"Ana Souza": {"pt": ["Aninha"]}}
FAQ = [
    (
        "Qual é o endereço do salão?",
        "Rua das Flores, 123 — Vila Mariana, São Paulo.",
        ["endereço", "onde", "localização", "address"],
        ("What is the salon's address?", "Rua das Flores, 123 — Vila Mariana, São Paulo."),
    ),
    (
        "Quais formas de pagamento vocês aceitam?",
        "Pix, cartão de crédito e débito e dinheiro.",
        ["pagamento", "pix", "cartão", "payment"],
        ("Which payment methods do you accept?", "Pix, credit and debit cards, and cash."),
    ),
    (
        "Tem estacionamento?",
        "Sim, estacionamento conveniado na Rua das Flores, 130.",
        ["estacionamento", "parking", "carro"],
        ("Is there parking?", "Yes, there is a partner car park at Rua das Flores, 130."),
    ),
    (
        "Posso cancelar um horário?",
        "Sim, até 2 horas antes, sem custo, aqui pelo chat.",
        ["cancelar", "cancelamento", "política", "cancel"],
        (
            "Can I cancel an appointment?",
            "Yes, up to 2 hours before, free of charge, right here in the chat.",
        ),
    ),
]
"""Question, answer and tags in Portuguese, then the same question and answer in English."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--address", default=None, help="agent service address")
    parser.add_argument(
        "--operator-token-file", type=Path, default=None,
        help="credential that creates the tenant (an operator's token or JWT); default: "
        "AGENT_AUTH_TOKENS, else the generated operator token in .data/tokens/",
    )  # fmt: skip
    parser.add_argument(
        "--office-token-file", type=Path, default=None,
        help="credential that fills the catalog (a back office of every tenant, or of the "
        "demo tenant id printed by an earlier run); default: as for the operator",
    )  # fmt: skip


def _credentials(path: Path | None, principal: str) -> Metadata:
    """``Bearer <the file's token>``, else the development credential of ``principal``."""
    if path is None:
        return agent_metadata(principal)
    return (("authorization", f"Bearer {path.read_text().strip()}"),)


def _hours(days: range, windows: list[tuple[str, str]]) -> list[pb.WorkingHours]:
    return [
        pb.WorkingHours(day_of_week=day, start_time=start, end_time=end)
        for day in days
        for start, end in windows
    ]


Metadata = tuple[tuple[str, str], ...]
DEMO_KEY = "demo-salon"


async def seed(
    stub: pb_grpc.CatalogServiceAsyncStub, metadata: Metadata, backoffice: Metadata | None = None
) -> str:
    """Create the demo tenant with ``metadata`` (an operator's) and its catalog with
    ``backoffice`` (default: the same credentials)."""
    tenant = await stub.CreateTenant(
        pb.CreateTenantRequest(
            tenant=pb.Tenant(
                name="Salão Bela Vista",
                time_zone="America/Sao_Paulo",
                locale="pt-BR",
                policy=pb.BookingPolicy(
                    minimum_notice_minutes=60,
                    booking_horizon_days=60,
                    cancellation_window_minutes=120,
                    slot_step_minutes=15,
                ),
            ),
            idempotency_key=DEMO_KEY,
        ),
        metadata=metadata,
    )
    tenant_id = tenant.tenant.id
    metadata = backoffice or metadata
    ids = []
    for name, description, minutes, price in SERVICES:
        created = await stub.CreateService(
            pb.CreateServiceRequest(
                service=pb.Service(
                    tenant_id=tenant_id,
                    name=name,
                    description=description,
                    duration_minutes=minutes,
                    price_minor=price,
                    currency="BRL",
                    localized_aliases=_localized(SERVICE_ALIASES.get(name, {})),
                ),
                idempotency_key=f"demo-service-{name}",
            ),
            metadata=metadata,
        )
        ids.append(created.service.id)
    professionals = [
        (
            "Ana Souza",
            "Cabeleireira",
            "demo-ana",
            _hours(range(1, 7), [("09:00", "12:00"), ("13:00", "18:00")]),
            ids[:2],
        ),
        (
            "Bruno Lima",
            "Barbeiro e manicure",
            "demo-bruno",
            _hours(range(2, 7), [("10:00", "19:00")]),
            ids[1:],
        ),
    ]
    for name, specialty, calendar, hours, offered in professionals:
        await stub.CreateProfessional(
            pb.CreateProfessionalRequest(
                professional=pb.Professional(
                    tenant_id=tenant_id,
                    name=name,
                    specialty=specialty,
                    calendar_id=calendar,
                    weekly_hours=hours,
                    service_ids=offered,
                    localized_aliases=_localized(PROFESSIONAL_ALIASES.get(name, {})),
                ),
                idempotency_key=f"demo-professional-{calendar}",
            ),
            metadata=metadata,
        )
    for question, answer, tags, (question_en, answer_en) in FAQ:
        english = pb.LocalizedFaq(language="en", question=question_en, answer=answer_en)
        await stub.CreateFaqEntry(
            pb.CreateFaqEntryRequest(
                entry=pb.FaqEntry(
                    tenant_id=tenant_id,
                    question=question,
                    answer=answer,
                    tags=tags,
                    localized=[english],
                ),
                idempotency_key=f"demo-faq-{question}",
            ),
            metadata=metadata,
        )
    return tenant_id


def demo_tenant_id() -> str:
    """The demo tenant's id when the generated operator creates it (keys are per principal)."""
    return str(tenant_id_for("operator", DEMO_KEY))


def scope_dev_principals() -> None:
    """With the generated development principals in use, scope the gateway and back office
    to the demo tenant (the servers reload the file)."""
    if not os.environ.get("AGENT_AUTH_TOKENS") and not os.environ.get("AGENDA_PRINCIPALS_FILE"):
        write_dev_principals(data_dir(), demo_tenant_id())


async def main(args: argparse.Namespace) -> int:
    operator = getattr(args, "operator_token_file", None)
    office = getattr(args, "office_token_file", None)
    if operator is None and office is None:  # the development credentials: scope them
        scope_dev_principals()
    async with grpc.aio.insecure_channel(
        args.address or agent_address(), options=MESSAGE_SIZE_OPTIONS
    ) as channel:
        tenant_id = await seed(
            pb_grpc.CatalogServiceStub(channel),
            _credentials(operator, "operator"),
            _credentials(office or operator, "backoffice"),
        )
    demo_file = demo_tenant_file()
    demo_file.parent.mkdir(parents=True, exist_ok=True)
    demo_file.write_text(tenant_id + "\n")
    print(f"demo tenant: {tenant_id}")
    return 0


def _localized(words: dict[str, list[str]]) -> list[pb.LocalizedAliases]:
    return [pb.LocalizedAliases(language=lang, aliases=said) for lang, said in words.items()]
