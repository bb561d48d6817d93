"""Issue 12's building blocks: refusal reasons, nearest options, the conversation's language,
FAQ ranking (BM25, stemming, threshold), alias matching and the eval's reply hygiene."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from uuid import uuid4
from zoneinfo import ZoneInfo

import pytest

from agent_service.application.faq_ranking import rank
from agent_service.domain.catalog import BookingPolicy, FaqEntry, Professional, WorkingHours
from agent_service.infrastructure.agent.offline.context import ToolResult, is_plain_no
from agent_service.infrastructure.agent.offline.matching import best_match_group
from agent_service.infrastructure.agent.offline.refusals import refusal_text
from agent_service.infrastructure.agent.offline.text import conversation_language
from agent_service.infrastructure.agent.tools.refusals import nearest, refusal_reason
from agent_service.infrastructure.agent.tools.results import Failed, Retry
from eval.evaluators import reply_problems
from tests.agent_service.offline_results import refused

ZONE = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)  # Monday 09:00 in São Paulo
POLICY = BookingPolicy(minimum_notice_minutes=60, slot_step_minutes=30, booking_horizon_days=60)
SPLIT = Professional(
    tenant_id=uuid4(),
    name="Paulo Reis",
    calendar_id="paulo",
    weekly_hours=tuple(
        WorkingHours(day_of_week=d, start=start, end=end)
        for d in range(1, 7)
        for start, end in ((time(9), time(12)), (time(13), time(18)))
    ),
)


def _at(day: int, hour: int, minute: int = 0) -> tuple[datetime, datetime]:
    start = datetime(2026, 12, day, hour, minute, tzinfo=ZONE) if day else None
    assert start is not None
    return start, start + timedelta(minutes=30)


@pytest.mark.parametrize(
    ("span", "reason"),
    [
        ((datetime(2026, 11, 30, 8, tzinfo=ZONE), datetime(2026, 11, 30, 8, 30, tzinfo=ZONE)),
         "past"),
        ((datetime(2026, 11, 30, 9, 30, tzinfo=ZONE), datetime(2026, 11, 30, 10, tzinfo=ZONE)),
         "notice"),
        ((datetime(2027, 3, 15, 10, tzinfo=ZONE), datetime(2027, 3, 15, 10, 30, tzinfo=ZONE)),
         "beyond_horizon"),
        (_at(6, 10), "closed_day"),  # Sunday
        (_at(1, 12), "break"),
        (_at(1, 11, 45), "break"),  # runs into the break
        (_at(1, 19), "outside_hours"),
        (_at(1, 8), "outside_hours"),
        (_at(1, 10, 10), "off_grid"),
        (_at(1, 10), "taken"),  # free by the rules: only a booking can hold it
    ],
)  # fmt: skip
def test_every_refusal_names_its_reason(span: tuple[datetime, datetime], reason: str) -> None:
    assert refusal_reason(POLICY, SPLIT, ZONE, span, NOW) == reason


def test_nearest_offers_the_closest_free_times_in_order() -> None:
    starts = [datetime(2026, 12, 1, h, m, tzinfo=ZONE) for h in range(9, 18) for m in (0, 30)]
    wanted = datetime(2026, 12, 1, 12, 10, tzinfo=ZONE)
    assert [f"{s:%H:%M}" for s in nearest(starts, wanted)] == [
        "11:00", "11:30", "12:00", "12:30", "13:00",
    ]  # fmt: skip


def test_refusals_are_said_in_the_conversation_language_with_options() -> None:
    result = refused("break", ("11:30", "13:00"), more=4)
    pt = refusal_text(result, "pt")
    en = refusal_text(result, "en")
    assert pt is not None and "intervalo" in pt and "11:30, 13:00" in pt and "período" in pt
    assert en is not None and "break" in en and "not free" not in en
    failed = Failed(result="NOT_BOOKED", reason="not_possible", note="NOT BOOKED: x")
    assert refusal_text(ToolResult("book_appointment", "", data=failed), "pt") is None


@pytest.mark.parametrize(
    ("text", "settled", "expected"),
    [
        ("no", "en", ("en", True)),  # a short answer never flips the conversation
        ("ok", "pt", ("pt", True)),
        ("Marina", None, ("pt", False)),  # no evidence: not settled yet, the salon's default
        ("I want a haircut tomorrow", None, ("en", True)),
        ("na verdade eu quero marcar para quinta", "en", ("pt", True)),  # a clear switch
        ("what about the", "pt", ("en", True)),
    ],
)
def test_one_language_per_conversation(
    text: str, settled: str | None, expected: tuple[str, bool]
) -> None:
    assert conversation_language(text, settled, "pt") == expected


def test_a_plain_no_ends_a_proposal_but_a_correction_does_not() -> None:
    assert is_plain_no("não") and is_plain_no("no thanks")
    assert not is_plain_no("não, melhor às 15h")


FAQ = [
    ("Qual é o horário de funcionamento?", "Abrimos de segunda a sábado, das 9h às 18h.",
     ("horário", "funcionamento", "hours", "open", "abre", "fecha")),
    ("Qual é a política de cancelamento?", "Cancelamentos sem custo até 2 horas antes.",
     ("cancelamento", "cancellation", "policy")),
    ("Qual é o endereço?", "Rua dos Ipês, 45.", ("endereço", "address", "where", "location")),
]  # fmt: skip


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("que horas vocês abrem e fecham?", "Qual é o horário de funcionamento?"),
        ("qual o horário de funcionamento?", "Qual é o horário de funcionamento?"),
        ("What are your opening hours?", "Qual é o horário de funcionamento?"),
        ("Where are you located?", "Qual é o endereço?"),
        ("Antes, qual é o endereço?", "Qual é o endereço?"),  # "antes" is only in an answer
        ("Posso levar meu cachorro?", None),  # under the threshold: honest "not found"
    ],
)
def test_faq_ranking_is_bm25_with_stemming_and_a_threshold(
    question: str, answer: str | None
) -> None:
    tenant = uuid4()
    entries = [FaqEntry(tenant_id=tenant, question=q, answer=a, tags=t) for q, a, t in FAQ]
    found = rank(question, entries, 1)
    assert [e.question for e in found] == ([answer] if answer else [])


def test_aliases_match_folding_accents_and_case() -> None:
    groups = [
        ("Corte e escova", "corte feminino", "haircut"),
        ("Cuidado das unhas", "manicure", "unha"),
        ("Hidratação capilar", "hair treatment"),
    ]
    assert best_match_group("I'd like a HAIRCUT", groups) == 0
    assert best_match_group("quero fazer a unha", groups) == 1
    assert best_match_group("hidratacao amanha", groups) == 2
    assert best_match_group("barba", groups) is None


def test_eval_hygiene_catches_tags_ids_and_the_other_language() -> None:
    assert reply_problems("Ficamos na Rua X. [faq:6ac954ba-1111-2222-3333-444455556666]", "pt")
    assert reply_problems("Booked, id=6ac954ba-1111-2222-3333-444455556666", "en")
    assert reply_problems("Não foi possível: it is not free for the time you want.", "pt")
    assert reply_problems("Sorry. Não encontrei essa informação nas nossas perguntas.", "en")
    assert reply_problems("Pronto! Seu horário está confirmado.", "pt") == []


def test_every_locale_file_has_every_sentence_of_the_others() -> None:
    from agent_service.infrastructure.agent.messages import LOCALE_FILES

    assert {"pt", "en"} <= set(LOCALE_FILES)
    for part in ("system", "offline"):
        keys = [set(data[part]) for data in LOCALE_FILES.values()]
        assert all(k == keys[0] for k in keys), part


def test_aliases_are_bounded_trimmed_and_deduplicated() -> None:
    from pydantic import ValidationError

    from agent_service.domain.catalog import MAX_ALIASES, Service

    tenant = uuid4()
    service = Service(
        tenant_id=tenant, name="Manicure", duration_minutes=45, aliases=(" unha ", "Unha", "nails")
    )
    assert service.aliases == ("unha", "nails")
    with pytest.raises(ValidationError):
        Service(tenant_id=tenant, name="x", duration_minutes=30, aliases=("a",) * (MAX_ALIASES + 1))
    with pytest.raises(ValidationError):
        Service(tenant_id=tenant, name="x", duration_minutes=30, aliases=("x" * 101,))
    with pytest.raises(ValidationError):
        Service(tenant_id=tenant, name="x", duration_minutes=30, aliases=("  ",))


@pytest.mark.parametrize("days", [14, 30, 90])
def test_the_horizon_refusal_states_the_tenants_own_horizon(days: int) -> None:
    message = Retry(reason="beyond_horizon", note="2027-03-15 is beyond", horizon_days=days)
    retry = ToolResult("book_appointment", message.message(), is_retry=True, retry=message)
    tool = refused("beyond_horizon", horizon_days=days)
    for result in (retry, tool):
        pt, en = refusal_text(result, "pt"), refusal_text(result, "en")
        assert pt is not None and f"até {days} dias" in pt and "60" not in pt.replace(str(days), "")
        assert en is not None and f"up to {days} days" in en
    unstated = refusal_text(refused("beyond_horizon"), "pt")
    assert unstated is not None and "{days}" not in unstated and "dias" not in unstated
