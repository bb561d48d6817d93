"""What a reply may state in a turn that changed nothing (``application/statements``), as
properties over generated texts rather than quoted sentences.

* Random statements (no question) built from random words, claim-like words of every
  language's data, names and times the customer's real appointment has — with no tool result
  of this turn that tells them — are refused, whatever their words: they are never sent.
* Replies that tell what a tool of this turn returned (a listing, an FAQ answer), courtesy
  and questions are sent; the customer's real appointment told as recorded is sent, and the
  same sentence with another professional, service, day or time is refused.

``max_examples`` is small in ``make test`` and larger under ``RELIABILITY_SCALE=full``.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.grounding import Grounding
from agent_service.application.statements import Statements
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.statement_words import statement_rules
from agent_service.infrastructure.agent.told import told_words
from agent_service.infrastructure.language.rules import fact_reader, language_rules
from tests.scale import size

CODES = ("pt", "en", "es")
READER = fact_reader(CODES, "America/Sao_Paulo", ("BRL",))
RULES = statement_rules(CODES)
TODAY = date(2026, 11, 30)
WINDOW = (TODAY, TODAY + timedelta(days=60))
SERVICES = ("Corte feminino", "Barba", "Escova", "Manicure")
PROS = ("Ana Souza", "Bruno Lima", "Carla Dias", "Diego Reis")
WEEK = ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado")
FAQ = '{"answer": "Rua das Flores, 123."}'
CLAIM_WORDS = sorted(
    {
        w
        for code in CODES
        for kind in ("booked", "cancelled", "moved", "confirmed")
        for phrase in getattr(language_rules().claims(code), kind)
        for w in phrase.split()
    }
)
EXAMPLES = settings(max_examples=size(15, 300), deadline=None)


def _statements(this_turn: list[str], upcoming: list[str], asked: bool = True) -> Statements:
    records = [*this_turn, *upcoming, *SERVICES, *PROS]
    grounding = Grounding(READER, records, [], language_rules().common_words(), WINDOW, this_turn)
    said = told_words([ToolText("tool", text, True) for text in this_turn])
    return Statements(grounding, READER, RULES, upcoming, asked, (), said)


def _line(service: str, pro: str, start: datetime) -> str:
    return f"{service} com {pro} em {WEEK[start.weekday()]} {start:%d/%m/%Y %H:%M}"


starts = st.builds(
    lambda day, hour: datetime(2026, 12, 1, hour) + timedelta(days=day),
    st.integers(0, 40).filter(lambda d: (datetime(2026, 12, 1) + timedelta(days=d)).weekday() < 6),
    st.integers(9, 17),
)
appointment = st.tuples(st.sampled_from(SERVICES), st.sampled_from(PROS), starts)
word = st.one_of(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzáéíóúãç", min_size=2, max_size=9),
    st.sampled_from(CLAIM_WORDS),
    st.sampled_from([*SERVICES, *PROS, "amanhã", "tomorrow", "mañana", "agenda", "lista"]),
)


@EXAMPLES
@given(
    appointment=appointment,
    words=st.lists(word, min_size=2, max_size=12),
    own_fact=st.booleans(),
    end=st.sampled_from([".", "!", "", " ✅", "..."]),
)
def test_a_statement_no_tool_of_this_turn_tells_is_never_sent(
    appointment: tuple[str, str, datetime], words: list[str], own_fact: bool, end: str
) -> None:
    service, pro, start = appointment
    if own_fact:  # the customer's real appointment named beside an invented state
        words = [*words[:1], service, "com", pro, f"{start:%H:%M}", *words[1:]]
    text = " ".join(words) + end
    if RULES.courtesy(text, False):
        return  # only courtesy words: asserts nothing (checked by the next property)
    statements = _statements([FAQ], [_line(service, pro, start)])
    assert statements.refused(text), text


courtesy = st.sampled_from(
    ["Obrigado!", "Claro!", "Olá!", "De nada 😊", "Thanks!", "Sure!", "¡Gracias!", "Perfeito."]
)
questions = st.sampled_from(
    ["Qual prefere?", "Posso ajudar em algo mais?", "Which one?", "¿Cuál prefieres?", ""]
)


@EXAMPLES
@given(
    chosen=st.lists(st.sampled_from(SERVICES), min_size=1, max_size=4, unique=True),
    prices=st.lists(st.integers(10, 300), min_size=4, max_size=4),
    before=courtesy,
    after=questions,
)
def test_a_reply_telling_this_turns_tool_result_is_sent(
    chosen: list[str], prices: list[int], before: str, after: str
) -> None:
    listing = "\n".join(f"{s}: R$ {p},00" for s, p in zip(SERVICES, prices, strict=True))
    told = [f"{s} — R$ {prices[SERVICES.index(s)]},00" for s in chosen]
    text = "\n".join([before, "Nossos serviços:", *told, after]).strip()
    assert _unsent(_statements([listing], []), text) == [], text
    faq = f"{before} Fica na Rua das Flores, 123. {after}".strip()
    assert _unsent(_statements([FAQ], []), faq) == [], faq


def _unsent(statements: Statements, text: str) -> list[str]:
    """The refused sentences of ``text`` but its bare answers ("Claro!" to a question: left
    out, the rest is sent)."""
    refused = statements.refused(text)
    bare = statements.bare_answers(refused)
    return [u for u in refused if u not in bare]


@EXAMPLES
@given(real=appointment, other=appointment, field=st.sampled_from(["service", "pro", "start"]))
def test_the_customers_appointment_is_sent_as_recorded_and_refused_otherwise(
    real: tuple[str, str, datetime], other: tuple[str, str, datetime], field: str
) -> None:
    service, pro, start = real
    listed = _line(service, pro, start)
    tool = f'{{"appointments": [{{"service": "{service}", "professional": "{pro}"}}]}} {listed}'
    statements = _statements([tool], [listed])
    told = f"Você tem {service} com {pro} em {start:%d/%m} às {start:%H:%M}."
    assert statements.refused(told) == [], told
    changed = {
        "service": (other[0], pro, start),
        "pro": (service, other[1], start),
        "start": (service, pro, other[2]),
    }[field]
    if changed == real:
        return
    s, p, when = changed
    wrong = f"Você tem {s} com {p} em {when:%d/%m} às {when:%H:%M}."
    assert statements.refused(wrong), wrong
