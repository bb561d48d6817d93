"""What a tool's structured result lets a no-change reply say (``outcome_text.told``, judged by
``application/statements``), as properties over generated results rather than quoted replies.

* The system's sentence for a refusal (every reason, with or without nearest times), for a
  professional who does not offer a service (from a generated catalog), for an empty list of
  appointments, and a short FAQ answer are sent when the turn holds that result — and refused
  when it does not: the same words for another reason, a pair the listing says is offered, a
  customer who has an appointment, an answer of an earlier turn.
* A tool return of this turn repeated as it stands (JSON included) is sent; random statements
  built from claim-like words and names this turn's listing grounds are refused even beside
  this turn's tool returns and outcome sentences, unless every other word presents a result.

``max_examples`` is small in ``make test`` and larger under ``RELIABILITY_SCALE=full``.
"""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from typing import get_args

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.grounding import Grounding
from agent_service.application.statements import Statements
from agent_service.application.text import normalize
from agent_service.infrastructure.agent import outcome_text
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.statement_words import statement_rules
from agent_service.infrastructure.agent.told import (
    no_change_statements,
    told_words,
)
from agent_service.infrastructure.agent.tools.results import (
    FaqAnswer,
    FaqItem,
    NotAvailable,
    ProfessionalItem,
    Professionals,
    Reason,
    Retry,
    ServiceItem,
    Services,
)
from agent_service.infrastructure.language.rules import fact_reader, language_rules
from tests.scale import size

CODES = ("pt", "en", "es")
READER = fact_reader(CODES, "America/Sao_Paulo", ("BRL",))
RULES = statement_rules(CODES)
TODAY = date(2026, 11, 30)
WINDOW = (TODAY, TODAY + timedelta(days=60))
REASONS: tuple[str, ...] = get_args(Reason)
SERVICES = ("Corte feminino", "Barba", "Escova", "Manicure", "Hidratação")
PROS = ("Ana Souza", "Bruno Lima", "Carla Dias", "Diego Reis")
UPCOMING = "Barba com Bruno Lima em terça-feira 01/12/2026 10:00"
EXAMPLES = settings(max_examples=size(25, 400), deadline=None)


def _statements(texts: list[ToolText], upcoming: list[str] = ()) -> Statements:  # type: ignore[assignment]
    this_turn = [t.text for t in texts if t.this_turn]
    records = [t.text for t in texts]
    grounding = Grounding(READER, records, [], language_rules().common_words(), WINDOW, this_turn)
    entities = frozenset(w for n in (*SERVICES, *PROS) for w in normalize(n).split())
    return no_change_statements(grounding, READER, CODES, texts, list(upcoming), False, entities)


def _json(result: object, tool: str = "book_appointment", this_turn: bool = True) -> ToolText:
    assert hasattr(result, "model_dump_json")
    return ToolText(tool, result.model_dump_json(), this_turn)


times = st.lists(
    st.sampled_from(["09:00", "09:30", "10:00", "13:00", "15:30", "17:00"]),
    max_size=5,
    unique=True,
).map(sorted)
refusals = st.builds(
    lambda reason, nearest, more, horizon, others: NotAvailable(
        reason=reason,
        asked="2026-12-03T12:00:00-03:00",
        service="Barba",
        professional="Bruno Lima",
        nearest=nearest,
        more=more,
        horizon_days=horizon,
        working_that_day=others,
    ),
    st.sampled_from(REASONS),
    times,
    st.integers(0, 3),
    st.sampled_from([None, 30, 60]),
    st.lists(st.sampled_from(PROS), max_size=2, unique=True),
)


@EXAMPLES
@given(refused=refusals, other=st.sampled_from(REASONS), language=st.sampled_from(CODES))
def test_a_refusal_is_told_only_when_a_tool_of_this_turn_returned_it(
    refused: NotAvailable, other: str, language: str
) -> None:
    sentence = outcome_text.refusal(refused, None, language)
    assert sentence is not None
    assert _statements([_json(refused)]).refused(sentence) == [], sentence
    # The same words with no such result, or from an earlier turn, or for another reason.
    assert _statements([]).refused(sentence), sentence
    assert _statements([_json(refused, this_turn=False)]).refused(sentence), sentence
    # Another reason's result does not tell these words — unless they carry a fact that
    # result grounds (the horizon's "60 days": statements' rule 2 tells a sentence by a fact).
    if other != refused.reason and not READER.facts(sentence):
        changed = refused.model_copy(update={"reason": other})
        assert _statements([_json(changed)]).refused(sentence), (sentence, other)


@EXAMPLES
@given(reason=st.sampled_from(sorted(outcome_text.RETRY_REASONS)), language=st.sampled_from(CODES))
def test_a_tools_structured_retry_tells_its_refusal(reason: str, language: str) -> None:
    retry = Retry(reason=reason, note="2026-11-20 is in the past", horizon_days=60)
    sentence = outcome_text.refusal(None, retry, language)
    assert sentence is not None
    wrapped = ToolText("check_availability", json.dumps({"error": retry.message()}), True)
    for held in (ToolText("check_availability", retry.message(), True), wrapped):
        assert _statements([held]).refused(sentence) == [], (sentence, held)
    assert _statements([]).refused(sentence), sentence


catalogs = st.lists(
    st.lists(st.sampled_from(SERVICES), min_size=1, max_size=3, unique=True),
    min_size=len(PROS),
    max_size=len(PROS),
)


def _listings(offers: list[list[str]], this_turn: bool) -> list[ToolText]:
    services = Services(
        services=[
            ServiceItem(id=f"s{i}", name=name, minutes=30, price="R$ 40,00")
            for i, name in enumerate(SERVICES)
        ]
    )
    team = Professionals(
        professionals=[
            ProfessionalItem(id=f"p{i}", name=name, specialty="", services=offered)
            for i, (name, offered) in enumerate(zip(PROS, offers, strict=True))
        ]
    )
    return [
        _json(services, "list_services", this_turn),
        _json(team, "list_professionals", this_turn),
    ]


@EXAMPLES
@given(
    offers=catalogs,
    person=st.sampled_from(range(len(PROS))),
    service=st.sampled_from(SERVICES),
    this_turn=st.booleans(),
    language=st.sampled_from(CODES),
)
def test_who_does_not_offer_a_service_is_told_as_the_listing_says(
    offers: list[list[str]], person: int, service: str, this_turn: bool, language: str
) -> None:
    offering = [p for p, offered in zip(PROS, offers, strict=True) if service in offered]
    sentence = outcome_text.not_offered(PROS[person], service, offering, language)
    statements = _statements(_listings(offers, this_turn))
    refused = statements.refused(sentence)
    if service not in offers[person]:
        assert refused == [], sentence
    if service in offers[person]:
        assert refused, sentence  # the listing says they do offer it
    else:
        # Another list of who does is not what the listing says.
        wrong = [p for p in PROS if p not in offering][:1]
        if wrong:
            lie = outcome_text.not_offered(PROS[person], service, wrong, language)
            assert statements.refused(lie), lie


@EXAMPLES
@given(language=st.sampled_from(CODES), has=st.booleans())
def test_no_appointments_is_told_only_to_a_customer_who_has_none(language: str, has: bool) -> None:
    sentence = outcome_text.say("no_appointments", language)
    refused = _statements([], [UPCOMING] if has else []).refused(sentence)
    assert bool(refused) == has, sentence


@EXAMPLES
@given(
    answer=st.sampled_from(
        ["No pets.", "Aceitamos Pix.", "Rua das Flores, 123 — Vila Mariana.", "Pix."]
    ),
    this_turn=st.booleans(),
)
def test_an_faq_answer_is_told_in_the_turn_it_was_found(answer: str, this_turn: bool) -> None:
    found = FaqAnswer(entries=[FaqItem(id="f1", question="?", answer=answer)])
    statements = _statements([_json(found, "search_faq", this_turn)])
    assert (statements.refused(answer) == []) == this_turn, answer


CLAIM_WORDS = sorted(
    {
        w
        for code in CODES
        for kind in ("booked", "cancelled", "moved", "confirmed")
        for phrase in getattr(language_rules().claims(code), kind)
        for w in phrase.split()
    }
)
word = st.one_of(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzáéíóúãç", min_size=2, max_size=9),
    st.sampled_from(CLAIM_WORDS),
    st.sampled_from([*SERVICES, *PROS, "amanhã", "tomorrow", "agenda", "lista", "horário"]),
)
PRESENTING = RULES.frame | RULES.listing
_WORDS = re.compile(r"[^\W\d_]+")


@EXAMPLES
@given(
    words=st.lists(word, min_size=2, max_size=12),
    refused=refusals,
    offers=catalogs,
    end=st.sampled_from([".", "!", "", " ✅"]),
)
def test_random_statements_are_refused_beside_this_turns_results(
    words: list[str], refused: NotAvailable, offers: list[list[str]], end: str
) -> None:
    text = " ".join(words) + end
    held = [*_listings(offers, True), _json(refused)]
    said = {w for w in _WORDS.findall(normalize(text))} - PRESENTING - told_words(held)
    if RULES.courtesy(text, False) or not said:
        return  # only courtesy words, or names and words presenting them: asserts no state
    assert _statements(held, [UPCOMING]).refused(text), text


@EXAMPLES
@given(offers=catalogs, refused=refusals)
def test_a_tool_return_of_this_turn_repeated_as_it_stands_is_sent(
    offers: list[list[str]], refused: NotAvailable
) -> None:
    held = [*_listings(offers, True), _json(refused)]
    echoed = "\n".join(t.text for t in held)
    assert _statements(held, [UPCOMING]).refused(echoed) == [], echoed
