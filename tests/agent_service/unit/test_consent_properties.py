# Over 300 lines: every consent, handoff, grounding and idempotency rule as a generated property.
"""Issue 21, the rules as properties over generated inputs (not the quoted sentences).

* Consent by allowlist: a yes phrase of any language's data plus ANY token that is no
  consent word (a digit of any script included) never confirms; any mix of yes, filler, yes
  emoji and punctuation does; a question never does.
* A structured decision confirms only the current id before it expires: a drawn foreign id,
  or any id after the time to live, never confirms.
* Concurrent confirmations of one pending action run it once; every other one restates the
  first one's outcome.
* Handoff in code only on a request phrase: a person word inside another clause is none.
* Grounding: a money amount, clock time or link a record does not hold is ungrounded; one it
  holds is grounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import re
import string
from datetime import UTC, date, datetime, timedelta
from uuid import uuid4

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agent_service.application.consent_policy import (
    Answer,
    Outcome,
    PendingView,
    StructuredDecision,
    decide,
    only_words_of,
    read_answer,
)
from agent_service.application.grounding import Grounding
from agent_service.application.handoff_policy import asks_for_person
from agent_service.application.pending_executions import InProcessExecutions, OnceOnly
from agent_service.application.text import normalize
from agent_service.domain.conversations import ActionKind, ReplyChoice, TurnAction
from agent_service.infrastructure.language.rules import fact_reader, language_rules

LANGUAGES = ("pt", "en", "es")
RULES = language_rules()
VOCABULARIES = tuple(RULES.consent(code) for code in LANGUAGES)
IN_PLAY = {code: RULES.consent_in(code) for code in LANGUAGES}
"""The vocabularies a conversation in each language reads answers with (its own first)."""
HANDOFF = tuple(RULES.handoff(code) for code in LANGUAGES)
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
TTL = 900.0
FULL = os.environ.get("RELIABILITY_SCALE", "").lower() == "full"
EXAMPLES = settings(max_examples=2000 if FULL else 60, deadline=None)
_TOKEN = re.compile(r"[^\W_]+")
LOWER = string.ascii_lowercase + "áéíóúâêôãõçñü"
_REPEATS = re.compile(r"(.)\1{2,}")


def _consent_words() -> frozenset[str]:
    """Every word of any consent phrase, in any language, with its kinds' yes words."""
    words: set[str] = set()
    for v in VOCABULARIES:
        for phrase in (*v.yes, *v.no, *v.filler, *(w for _, ws in v.yes_by_kind for w in ws)):
            words.update(_TOKEN.findall(phrase))
    return frozenset(words)


CONSENT_WORDS = _consent_words()
YES = sorted({p for v in VOCABULARIES for p in v.yes})


def _no_consent_word(token: str) -> bool:
    """No word of ``token`` is a consent word, nor one slipped in chat ("siim", "confrima")."""
    folded = normalize(token)
    words = _TOKEN.findall(folded)
    return bool(words) and all(
        w not in CONSENT_WORDS
        and _REPEATS.sub(r"\1", w) not in CONSENT_WORDS
        and not only_words_of(w, VOCABULARIES)
        for w in words
    )


# a condition, a change, a name, a time, a service, a number: anything that is no consent word
OTHER_TOKEN = st.one_of(
    st.text(st.characters(categories=("L", "Nd")), min_size=1, max_size=10),
    st.sampled_from(["Bruno", "Ana", "14h", "14:30", "barba", "amanhã", "tomorrow", "mañana"]),
    st.integers(0, 99).map(str),
).filter(_no_consent_word)
SEPARATOR = st.sampled_from([" ", ", ", "! ", ". ", " - ", "\n", "... "])


@EXAMPLES
@given(
    language=st.sampled_from(LANGUAGES),
    yes=st.sampled_from(YES),
    other=OTHER_TOKEN,
    before=st.booleans(),
    separator=SEPARATOR,
    kind=st.sampled_from(["book", "cancel", "reschedule"]),
)
def test_a_yes_with_any_other_token_never_confirms(
    language: str, yes: str, other: str, before: bool, separator: str, kind: str
) -> None:
    text = f"{other}{separator}{yes}" if before else f"{yes}{separator}{other}"
    reading = read_answer(text, IN_PLAY[language], kind)
    assert reading.answer is Answer.OTHER, (text, reading)
    pending = PendingView(uuid4().hex, NOW, kind)
    assert decide(pending, reading, None, NOW, TTL) is not Outcome.CONFIRMED, text


def _own_parts(code: str) -> st.SearchStrategy[list[tuple[str, str]]]:
    v = RULES.consent(code)
    # courtesy fillers: a lead-in or a hesitation after the answer leaves more to come
    # ("sim, e", "yes and um": test_consent_more_to_come)
    unfinished = {*v.lead_in, *v.lead_in_trailing, *v.hesitation}
    courtesy = sorted(set(v.filler) - unfinished)
    part = st.one_of(
        st.sampled_from(sorted(v.yes)).map(lambda p: ("yes", p)),
        st.sampled_from(courtesy).map(lambda p: ("filler", p)),
        st.sampled_from(sorted(v.yes_emoji)).map(lambda p: ("emoji", p)),
    )
    return st.lists(part, min_size=1, max_size=4).filter(
        lambda ps: any(k != "filler" for k, _ in ps)
    )


@EXAMPLES
@given(
    drawn=st.sampled_from(LANGUAGES).flatmap(lambda c: st.tuples(st.just(c), _own_parts(c))),
    punctuation=st.sampled_from(["", "!", ".", "!!", "..."]),
    upper=st.booleans(),
)
def test_plain_yes_forms_confirm(
    drawn: tuple[str, list[tuple[str, str]]], punctuation: str, upper: bool
) -> None:
    language, parts = drawn
    assume(not (punctuation == "..." and parts[-1][0] == "filler"))  # trailing off: more to come
    leading = {*RULES.consent(language).lead_in, *RULES.consent(language).lead_in_trailing}
    assume(not (punctuation == "..." and parts[-1][1] in leading))  # "bueno...": a "well"
    said = [p for kind, p in parts if kind == "yes"]
    assume(not any(_said_again(a, b) for a, b in itertools.pairwise(said)))
    text = ", ".join(p for _, p in parts) + punctuation
    text = text.upper() if upper else text
    reading = read_answer(text, IN_PLAY[language], "book")
    assert reading.answer is Answer.YES, (text, reading)
    pending = PendingView(uuid4().hex, NOW, "book")
    assert decide(pending, reading, None, NOW + timedelta(seconds=TTL), TTL) is Outcome.CONFIRMED


@EXAMPLES
@given(yes=st.sampled_from(YES), mark=st.sampled_from(["?", " ?", "??", "¿", "?!"]))
def test_a_question_never_confirms(yes: str, mark: str) -> None:
    text = f"¿{yes}?" if mark == "¿" else f"{yes}{mark}"
    for vocabularies in IN_PLAY.values():
        assert read_answer(text, vocabularies, "book").answer is Answer.OTHER, text


_FOREIGN_DIGITS = st.characters(categories=["Nd"]).filter(lambda c: not c.isascii())


@EXAMPLES
@given(yes=st.sampled_from(YES), digit=_FOREIGN_DIGITS, after=st.booleans())
def test_a_digit_of_any_script_never_confirms(yes: str, digit: str, after: bool) -> None:
    """A digit is no consent word in any script: "sim ٣" is not a yes, as "sim 3" is not
    (folding drops a digit it cannot write in ASCII; the rule must not)."""
    text = f"{yes} {digit}" if after else f"{digit} {yes}"
    assert read_answer(text, VOCABULARIES).answer is not Answer.YES, text


@EXAMPLES
@given(
    pending_id=st.uuids().map(lambda u: u.hex),
    sent=st.text(min_size=1, max_size=64),
    late=st.floats(min_value=0.001, max_value=10**7),
    choice=st.sampled_from(list(ReplyChoice)),
)
def test_a_structured_decision_confirms_only_the_current_id_in_time(
    pending_id: str, sent: str, late: float, choice: ReplyChoice
) -> None:
    pending = PendingView(pending_id, NOW, "book")
    if sent != pending_id:
        outcome = decide(pending, None, StructuredDecision(choice, sent), NOW, TTL)
        assert outcome is Outcome.NOT_PENDING
    # the right id, too late: nothing runs
    later = NOW + timedelta(seconds=TTL + late)
    confirm = StructuredDecision(ReplyChoice.CONFIRM, pending_id)
    assert decide(pending, None, confirm, later, TTL) is Outcome.EXPIRED
    # proposed "in the future" (a clock skew) or at an unknown instant: never alive
    ahead = PendingView(pending_id, NOW + timedelta(seconds=late), "book")
    assert decide(ahead, None, confirm, NOW, TTL) is Outcome.EXPIRED
    naive = PendingView(pending_id, NOW.replace(tzinfo=None), "book")
    assert decide(naive, None, confirm, NOW, TTL) is Outcome.EXPIRED
    assert decide(None, None, confirm, NOW, TTL) is Outcome.NOT_PENDING
    assert decide(pending, None, confirm, NOW, TTL) is Outcome.CONFIRMED


async def _confirm_together(count: int) -> None:
    runs = 0
    started, gate = asyncio.Event(), asyncio.Event()
    receipt = (TurnAction(kind=ActionKind.APPOINTMENT_BOOKED, detail="Corte 11:00"),)

    async def work() -> tuple[TurnAction, ...]:
        nonlocal runs
        runs += 1
        started.set()
        await gate.wait()  # everyone else arrives while the first one runs
        return receipt

    once = OnceOnly(InProcessExecutions(lambda: NOW), poll_seconds=0.001)
    tenant, key = uuid4(), f"conversation:{uuid4().hex}"
    tasks = [asyncio.create_task(once.run(tenant, key, work)) for _ in range(count)]
    await started.wait()
    gate.set()
    executions = await asyncio.gather(*tasks)
    assert runs == 1
    assert sum(e.first for e in executions) == 1
    assert all(e.actions == receipt and e.settled for e in executions)


async def test_concurrent_confirmations_run_once_and_all_tell_the_same_outcome() -> None:
    for count in (2, 4, 16):
        await _confirm_together(count)


async def test_a_failed_first_run_releases_its_claim_for_the_next_confirmation() -> None:
    once = OnceOnly(InProcessExecutions(lambda: NOW), poll_seconds=0.001)
    tenant, key = uuid4(), "k"

    async def broken() -> tuple[TurnAction, ...]:
        raise RuntimeError("calendar down")

    async def works() -> tuple[TurnAction, ...]:
        return (TurnAction(kind=ActionKind.APPOINTMENT_BOOKED, detail="x"),)

    with contextlib.suppress(RuntimeError):
        await once.run(tenant, key, broken)
    again = await once.run(tenant, key, works)
    assert again.first and again.actions
    third = await once.run(tenant, key, works)
    assert not third.first and third.actions == again.actions


FOLDED_PERSONS = sorted({p for h in HANDOFF for p in h.person})
FOLDED_TALK = sorted({p for h in HANDOFF for p in h.talk})
FOLDED_BETWEEN = sorted({p for h in HANDOFF for p in h.between})
HANDOFF_WORDS = frozenset(
    w
    for h in HANDOFF
    for group in (h.talk, h.want, h.person, h.between, h.filler)
    for p in group
    for w in _TOKEN.findall(p)
)
PRODUCT_WORD = st.text(st.sampled_from(LOWER), min_size=3, max_size=9).filter(
    lambda w: normalize(w) not in HANDOFF_WORDS and normalize(w) not in CONSENT_WORDS
)


@EXAMPLES
@given(
    opening=st.sampled_from(["Vocês fazem", "Do you have", "¿Hacen", "Tem", "Is there a"]),
    product=st.lists(PRODUCT_WORD, min_size=1, max_size=3),
    person=st.sampled_from(FOLDED_PERSONS),
    after=st.lists(PRODUCT_WORD, min_size=1, max_size=2),
)
def test_a_person_word_inside_a_product_question_is_no_handoff(
    opening: str, product: list[str], person: str, after: list[str]
) -> None:
    text = f"{opening} {' '.join(product)} {person} {' '.join(after)}?"
    assert not asks_for_person(text, HANDOFF), text


@EXAMPLES
@given(
    talk=st.sampled_from(FOLDED_TALK),
    between=st.lists(st.sampled_from(FOLDED_BETWEEN), max_size=2),
    person=st.sampled_from(FOLDED_PERSONS),
    tail=st.sampled_from(["", "?", " por favor", ", please", "!", ". obrigado"]),
)
def test_asking_to_talk_to_a_person_hands_off(
    talk: str, between: list[str], person: str, tail: str
) -> None:
    text = f"{talk} {' '.join(between)} {person}{tail}"
    assert asks_for_person(text, HANDOFF), text


READER = fact_reader(LANGUAGES, "America/Sao_Paulo", ("BRL",))
WINDOW = (date(2026, 11, 30), date(2027, 1, 30))


@EXAMPLES
@given(
    price=st.integers(1, 999),
    said=st.integers(1, 999),
    hour=st.integers(0, 23),
    told_hour=st.integers(0, 23),
    path=st.text(st.sampled_from(string.ascii_lowercase), min_size=3, max_size=8),
)
def test_facts_are_grounded_only_by_records(
    price: int, said: int, hour: int, told_hour: int, path: str
) -> None:
    records = [f"Corte feminino | R$ {price},00 | free at {hour:02d}:00 | https://salon.example/a"]
    grounding = Grounding(READER, records, ["quanto custa?"], window=WINDOW)
    assert not grounding.ungrounded(f"O corte custa R$ {price},00.")
    assert not grounding.ungrounded(f"Tenho às {hour:02d}:00.")
    assert not grounding.ungrounded("Veja https://salon.example/a")
    if said != price:
        assert grounding.ungrounded(f"O corte custa R$ {said},00."), (said, price)
    if told_hour != hour:
        assert grounding.ungrounded(f"Tenho às {told_hour:02d}:00."), (told_hour, hour)
    assert grounding.ungrounded(f"Veja https://maps.example/{path}")
    invented = str(uuid4())
    assert grounding.ungrounded(f"Seu código é {invented}.")


def _said_again(first: str, second: str) -> bool:
    """The second phrase says the first again, or starts with its last word ("tá, tá bom")."""
    return first == second or second.split()[0] == first.split()[-1]


def test_any_two_yes_phrases_of_a_language_in_a_row_confirm() -> None:
    """Every pair of the language's own yes phrases, one after the other, is a plain yes —
    whichever phrase a longer one would start with ("yes, that works for me": "yes that
    works" is a phrase too, and must not leave "for me" behind) — unless the pair is itself
    an idiom of doubt of the language's ``unsure`` words ("yeah, right": sarcasm)."""
    refused = []
    for code in LANGUAGES:
        phrases = sorted(RULES.consent(code).yes)
        doubts = set(RULES.consent(code).unsure)
        for first in phrases:
            for second in phrases:
                if f"{first} {second}" in doubts or _said_again(first, second):
                    continue  # a yes said over again is asked again: test_consent_said_twice
                text = f"{first}, {second}"
                if read_answer(text, IN_PLAY[code], "book").answer is not Answer.YES:
                    refused.append((code, text))
    assert refused == [], refused[:10]
