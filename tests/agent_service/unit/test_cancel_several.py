"""Cancelling several appointments at once (batch 15: "cancela todos os meus horários", "please
cancel everything I have booked", "cancela todas mis citas" listed them twice and cancelled
nothing, 0/3): ``cancel_appointment`` takes the further ids in ``also``; one proposal names
them all, one yes cancels each, and each is told. Generated over every ``[appointments]``
all word and both word of each language, never over the batch's sentences:

* an all word in the clause that cancels proposes every appointment (or every one of the
  service it names), a both word the two there are; one yes cancels them all;
* an all or both word in another clause ("tudo bem? cancela ...") or a both word beside three
  appointments names no several.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID
from zoneinfo import ZoneInfo

import pytest

from agent_service.domain.conversations import ActionKind
from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.appointments_flow import every_one
from agent_service.infrastructure.language.packs import word_list
from tests.agent_service.conversation_fixtures import Assistant, seed_salon
from tests.security.test_hours_after_markers import _words

BOOKINGS = (
    "Quero agendar um corte feminino com a Ana amanhã às 10h",
    "Quero agendar uma barba com o Bruno quinta às 15h",
    "Quero agendar um corte feminino com a Ana sexta às 11h",
)
CANCEL = {"pt": "cancela", "en": "please cancel", "es": "cancela"}
MINE = {"pt": "os meus horários", "en": "my appointments", "es": "mis citas"}
ZONE = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 11, 30, 9, tzinfo=ZONE)


async def _booked(assistant: Assistant, count: int) -> UUID:
    salon = await seed_salon(assistant.repos)
    for text in BOOKINGS[:count]:
        await assistant.say(salon.tenant.id, text)
        done = await assistant.say(salon.tenant.id, "sim")
        assert done.result.actions, done.result.reply
    return salon.tenant.id


CASES = [
    (code, kind, word)
    for code in ("pt", "en", "es")
    for kind in ("all_words", "both_words")
    for word in word_list(code, "appointments", kind)
]


PLAYED = [
    (code, kind, word_list(code, "appointments", kind)[0])
    for code in ("pt", "en", "es")
    for kind in ("all_words", "both_words")
]
"""Played: each language's first all and both word (every word is read by ``every_one`` in
the pure tests below)."""


@pytest.mark.parametrize(("code", "kind", "word"), PLAYED)
async def test_one_yes_cancels_every_one_named(code: str, kind: str, word: str) -> None:
    assistant = Assistant()
    count = 2
    tenant = await _booked(assistant, count)
    asked = await assistant.say(tenant, f"{CANCEL[code]} {word} {MINE[code]}")
    assert asked.result.pending is not None, asked.result.reply
    done = await assistant.say(tenant, {"pt": "sim", "en": "yes", "es": "sí"}[code])
    kinds = [a.kind for a in done.result.actions]
    assert kinds == [ActionKind.APPOINTMENT_CANCELLED] * count, done.result.reply
    live = [e for e in assistant.calendar.events.values() if e.status != "cancelled"]
    assert live == [], done.result.reply


async def test_every_one_of_a_service_named_is_cancelled_and_the_other_stays() -> None:
    assistant = Assistant()
    tenant = await _booked(assistant, 3)
    asked = await assistant.say(tenant, "cancela todos os cortes")
    assert asked.result.pending is not None, asked.result.reply
    assert "Barba" not in asked.result.reply, asked.result.reply
    done = await assistant.say(tenant, "sim")
    assert len(done.result.actions) == 2, done.result.reply
    live = [e for e in assistant.calendar.events.values() if e.status != "cancelled"]
    assert len(live) == 1, done.result.reply


def _appointments(count: int) -> list[catalog.AppointmentInfo]:
    services = ("Corte feminino", "Barba", "Escova")
    return [
        catalog.AppointmentInfo(
            services[n],
            "Ana Souza",
            "x",
            "confirmed",
            f"id{n}",
            "p",
            f"s{n}",
            start=datetime(2026, 12, 1 + n, 10, tzinfo=ZONE).isoformat(),
        )
        for n in range(count)
    ]


@pytest.mark.parametrize(("code", "kind", "word"), CASES)
def test_a_word_of_several_elsewhere_or_beside_another_number_names_none(
    code: str, kind: str, word: str
) -> None:
    three = _appointments(3)
    said = f"{CANCEL[code]} {word} {MINE[code]}"
    named = three if kind == "all_words" else three[:2]
    assert every_one(said, named, NOW) == named, said
    elsewhere = f"{word}? {CANCEL[code]} {three[1].service}"
    assert every_one(elsewhere, three, NOW) is None, elsewhere
    if kind == "both_words":
        beside_three = f"{CANCEL[code]} {word}"
        assert every_one(beside_three, three, NOW) is None, beside_three
        assert every_one(beside_three, _appointments(2), NOW) is not None, beside_three


async def test_one_of_several_not_cancelled_is_told_beside_the_others() -> None:
    """The first appointment (tomorrow 10:00) falls inside a two-day cancellation window set
    after the bookings: the second is cancelled, the first is told as not done, no event of
    it is touched."""
    assistant = Assistant()
    tenant_id = await _booked(assistant, 2)
    tenant = await assistant.repos.tenants.get(tenant_id)
    policy = tenant.policy.model_copy(update={"cancellation_window_minutes": 2 * 24 * 60})
    await assistant.repos.tenants.update(tenant.model_copy(update={"policy": policy}))
    asked = await assistant.say(tenant_id, "cancela todos os meus horários")
    assert asked.result.pending is not None, asked.result.reply
    done = await assistant.say(tenant_id, "sim")
    kinds = [a.kind for a in done.result.actions]
    assert kinds == [ActionKind.CHANGE_FAILED, ActionKind.APPOINTMENT_CANCELLED], done.result.reply
    assert "Corte feminino" in done.result.reply and "Barba" in done.result.reply
    live = [e for e in assistant.calendar.events.values() if e.status != "cancelled"]
    assert len(live) == 1, done.result.reply


YES_ALL = {"pt": "sim", "en": "yes", "es": "sí"}


@pytest.mark.parametrize(("code", "kind", "word"), PLAYED)
async def test_a_yes_with_all_or_both_confirms_several_and_never_one(
    code: str, kind: str, word: str
) -> None:
    """Review 14: "sí, las dos" / "yes, both please" to a proposal of several were asked
    again. A both or all word says a proposal of several back (``restating._quantifiers``);
    to a proposal of one it is no yes."""
    assistant = Assistant()
    tenant = await _booked(assistant, 2)
    await assistant.say(tenant, f"{CANCEL[code]} {word} {MINE[code]}")
    done = await assistant.say(tenant, f"{YES_ALL[code]}, {word}")
    assert len(done.result.actions) == 2, done.result.reply
    one = Assistant()
    tenant = await _booked(one, 1)
    await one.say(
        tenant, CANCEL[code] + {"pt": " meu corte", "en": " my haircut", "es": " mi corte"}[code]
    )
    answer = await one.say(tenant, f"{YES_ALL[code]}, {word}")
    assert not answer.result.actions, answer.result.reply


@pytest.mark.parametrize("code", ["pt", "en", "es"])
async def test_a_yes_with_all_of_their_number_confirms_that_many_only(code: str) -> None:
    """Review 14: "sim, os três" to a visit of three was asked again. An all-of word and the
    number of the proposal's appointments ([appointments].all_of) say it back; another number
    does not."""
    lead = word_list(code, "appointments", "all_of")[0]
    every = word_list(code, "appointments", "all_words")[0]
    for booked, said in ((3, 3), (3, 2)):
        assistant = Assistant()
        tenant = await _booked(assistant, booked)
        await assistant.say(tenant, f"{CANCEL[code]} {every} {MINE[code]}")
        done = await assistant.say(tenant, f"{YES_ALL[code]}, {lead} {_words(code)[said]}")
        assert (len(done.result.actions) == booked) is (said == booked), done.result.reply
