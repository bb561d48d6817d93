"""A message that keeps or refuses one appointment and asks to cancel or move another (batch
15: "o banho não, esse fica. cancela a vacina de quinta" was asked "which one?" again): the
clauses that refuse or keep describe the appointments to leave alone
(``appointments_flow.acted_on``). Generated over each language's cancel and move verbs, its
keep words (``[consent].no_cancel``/``no_reschedule``) and a no word after the service, both
orders and three clause marks; never over the batch's sentences."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from agent_service.infrastructure.agent.offline import catalog
from agent_service.infrastructure.agent.offline.appointments_flow import (
    _CANCEL,
    _MOVE,
    acted_on,
    choose,
)
from agent_service.infrastructure.language.packs import word_list
from tests.agent_service.unit.test_restating_yes import EXAMPLES

ZONE = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 11, 30, 9, tzinfo=ZONE)
SERVICES = ("Hidratação de Pelagem", "Microchipagem", "Consulta Veterinária")
ACT = {
    "cancel": {"pt": ["cancela", "desmarca", "pode cancelar"], "en": ["cancel", "please cancel"],
               "es": ["cancela", "anula", "borra"]},
    "move": {"pt": ["remarca", "passa"], "en": ["move", "reschedule"],
             "es": ["cambia", "mueve"]},
}  # fmt: skip
NO = {"pt": "não", "en": "not", "es": "no"}
ARTICLE = {"pt": "a", "en": "the", "es": "la"}


def _appointment(n: int, service: str) -> catalog.AppointmentInfo:
    start = datetime(2026, 12, 1 + n, 10, tzinfo=ZONE)
    return catalog.AppointmentInfo(
        service, "Helena Duarte", start.isoformat(), "confirmed", f"id{n}", "p1", f"s{n}",
        start=start.isoformat(),
    )  # fmt: skip


@EXAMPLES
@given(language=st.sampled_from(["pt", "en", "es"]), kind=st.sampled_from(["cancel", "move"]),
       pair=st.permutations(SERVICES), keep=st.data(), mark=st.sampled_from([",", ".", ";"]),
       acting_first=st.booleans(), verb=st.data())  # fmt: skip
def test_the_kept_one_is_left_out_and_the_other_is_chosen(
    language: str,
    kind: str,
    pair: list[str],
    keep: st.DataObject,
    mark: str,
    acting_first: bool,
    verb: st.DataObject,
) -> None:
    kept, wanted = pair[0], pair[1]
    appointments = [_appointment(n, s) for n, s in enumerate(SERVICES)]
    keeping = word_list(language, "consent", f"no_{'cancel' if kind == 'cancel' else 'reschedule'}")
    refusal = keep.draw(
        st.sampled_from(
            [f"{ARTICLE[language]} {kept.lower()} {NO[language]}"]
            + [f"{word} {ARTICLE[language]} {kept.lower()}" for word in keeping if " " not in word]
        )
    )
    acting = f"{verb.draw(st.sampled_from(ACT[kind][language]))} {ARTICLE[language]} {wanted}"
    text = f"{acting}{mark} {refusal}" if acting_first else f"{refusal}{mark} {acting}"
    said = acted_on(text, _CANCEL if kind == "cancel" else _MOVE)
    assert kept.lower() not in said.lower(), (text, said)
    chosen = choose([said], appointments, NOW, language=language)
    assert chosen is not None and chosen.service == wanted, (text, said, chosen)


@given(language=st.sampled_from(["pt", "en", "es"]), service=st.sampled_from(SERVICES),
       mark=st.sampled_from([",", ".", ";"]))  # fmt: skip
def test_with_nothing_refused_the_whole_message_describes_it(
    language: str, service: str, mark: str
) -> None:
    """ "a vacina, cancela essa": no clause refuses, so every clause still describes."""
    text = f"{ARTICLE[language]} {service}{mark} {ACT['cancel'][language][0]}"
    assert acted_on(text, _CANCEL) == text


@EXAMPLES
@given(language=st.sampled_from(["pt", "en", "es"]), pair=st.permutations(SERVICES),
       negation=st.data(), mark=st.sampled_from([",", ";"]),
       refused_first=st.booleans())  # fmt: skip
def test_a_negated_clause_does_not_describe_the_one_chosen(
    language: str, pair: list[str], negation: st.DataObject, mark: str, refused_first: bool
) -> None:
    """The whole message reaches ``choose`` (blind batch 17's "not the vaccine, … cancel the
    Friday check-up" named two appointments once "vaccine" was read as "Vacinação"): a clause
    the language's negation opens says which one is not meant."""
    refused, wanted = pair[0], pair[1]
    appointments = [_appointment(n, s) for n, s in enumerate(SERVICES)]
    words = [w for w in word_list(language, "corrections", "negation") if "'" not in w]
    no = negation.draw(st.sampled_from(words))
    refusal = f"{no} {ARTICLE[language]} {refused.lower()}"
    acting = f"{ACT['cancel'][language][0]} {ARTICLE[language]} {wanted}"
    text = f"{refusal}{mark} {acting}" if refused_first else f"{acting}{mark} {refusal}"
    chosen = choose([text], appointments, NOW, language=language)
    assert chosen is not None and chosen.service == wanted, (text, chosen)
