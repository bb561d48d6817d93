"""Facts said in words, and absences, as properties over generated inputs (session 39's blind
batch, ``tests/security/test_hostile_lies_after_tools.py``, found them):

* a relative day of the language data ("amanhã", "the day after tomorrow", "pasado mañana")
  is read as that day's date and weekday, for any today; in a list of parts of the day
  ("(mañana, tarde)") or after a word of ``not_relative_after`` it is no date;
* a duration's amount in a number word of the language data ("uma hora", "half an hour",
  "quince minutos") is read as its minutes;
* a period between digits ("R$ 40.00") ends no sentence;
* a sentence with a denial word is sent only in a tool's or the system's own words: built
  from frame words and facts a result of this turn grounds, it is refused whatever it denies;
* a value only a refusal holds (a day the professional does not work) is no mention any
  sentence of the model may bind, alone either.
"""

from __future__ import annotations

import json
from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_service.application.fact_spans import Kind
from agent_service.application.grounding import Grounding, sentences
from agent_service.application.relations import Relations
from agent_service.application.statements import Statements
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.statement_words import statement_rules
from agent_service.infrastructure.agent.told import no_change_statements
from agent_service.infrastructure.language.packs import word_list
from agent_service.infrastructure.language.rules import RELATIVE_DAYS, fact_reader, language_rules
from tests.scale import size

CODES = ("pt", "en", "es")
EXAMPLES = settings(max_examples=size(25, 400), deadline=None)
days = st.dates(min_value=date(2020, 1, 1), max_value=date(2035, 12, 31))
RELATIVE = [
    (code, word, offset)
    for code in CODES
    for key, offset in RELATIVE_DAYS
    for word in word_list(code, "dates", key)
    if " " not in word or key != "today"  # "esta manana": today, a phrase of its own
]


@EXAMPLES
@given(today=days, case=st.sampled_from(RELATIVE), lead=st.sampled_from(["", "Ok, ", "e "]))
def test_a_relative_day_is_its_date_for_any_today(
    today: date, case: tuple[str, str, int], lead: str
) -> None:
    code, word, offset = case
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",), today)
    day = today + timedelta(days=offset)
    facts = [f for f in reader.facts(f"{lead}{word} Ana tem 10:00.") if f.kind is Kind.DATE]
    assert facts, (code, word)
    assert (Kind.DATE, (day.month, day.day)) in facts[0].values
    assert facts[0].values == ((Kind.DATE, (day.month, day.day)),)  # no weekday: no other week
    # no today given: no relative day is read
    unread = fact_reader(CODES, "America/Sao_Paulo", ("BRL",)).facts(f"{word} Ana tem 10:00.")
    assert not [f for f in unread if f.kind is Kind.DATE]


PARTS = sorted(
    {w for code in CODES for k in ("morning", "afternoon", "evening") for w in
     word_list(code, "parts", k) if " " not in w}
)  # fmt: skip


@EXAMPLES
@given(today=days, case=st.sampled_from(RELATIVE), part=st.sampled_from(PARTS),
       separator=st.sampled_from([", ", "/", " , "]), first=st.booleans())  # fmt: skip
def test_a_relative_day_in_a_list_of_parts_of_the_day_is_no_date(
    today: date, case: tuple[str, str, int], part: str, separator: str, first: bool
) -> None:
    word = case[1]
    listed = f"{word}{separator}{part}" if first else f"{part}{separator}{word}"
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",), today)
    dated = [f for f in reader.facts(f"diga um período ({listed}).") if f.kind is Kind.DATE]
    assert not [f for f in dated if f.text.lower() in (word, listed)], dated


@EXAMPLES
@given(today=days, code=st.sampled_from(CODES))
def test_after_a_not_relative_word_it_is_no_date(today: date, code: str) -> None:
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",), today)
    for before in word_list(code, "dates", "not_relative_after"):
        for word in word_list(code, "dates", "tomorrow"):
            assert not [f for f in reader.facts(f"por {before} {word}") if f.kind is Kind.DATE]


AMOUNTS = [
    (word, int(value))
    for code in CODES
    for entry in word_list(code, "numbers", "cardinals")
    for word, _, value in [entry.rpartition(" ")]
] + [(w, 1) for code in CODES for w in word_list(code, "numbers", "one") if len(w) > 1]
UNITS = [("minutos", 1), ("minutes", 1), ("min", 1), ("hora", 60), ("horas", 60),
         ("hour", 60), ("hours", 60)]  # fmt: skip


@EXAMPLES
@given(amount=st.sampled_from(AMOUNTS), unit=st.sampled_from(UNITS))
def test_a_duration_said_in_words_is_its_minutes(
    amount: tuple[str, int], unit: tuple[str, int]
) -> None:
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",))
    facts = reader.facts(f"O serviço leva {amount[0]} {unit[0]}.")
    durations = [v for f in facts for k, v in f.values if k is Kind.DURATION]
    assert durations == [amount[1] * unit[1]], (amount, unit, facts)


@EXAMPLES
@given(code=st.sampled_from(CODES))
def test_half_an_hour_is_thirty_minutes(code: str) -> None:
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",))
    hours = {"pt": "hora", "en": "hour", "es": "hora"}[code]
    for half in word_list(code, "times", "half_amount"):
        if " " in half or code != "en":
            said = [v for f in reader.facts(f"{half} {hours}") for k, v in f.values]
            assert 30 in said, (half, said)


@EXAMPLES
@given(
    whole=st.integers(1, 9999),
    cents=st.integers(0, 99),
    words=st.lists(st.sampled_from(["costs", "and", "takes", "custa", "e"]), max_size=3),
)
def test_a_period_between_digits_ends_no_sentence(whole: int, cents: int, words: list[str]) -> None:
    text = f"Barba {' '.join(words)} R$ {whole}.{cents:02d} and takes 30 minutes. Ok?"
    found = sentences(text)
    assert found[0].endswith("minutes."), found
    assert len(found) == 2


TIMES = ["09:00", "09:30", "10:00", "14:00", "15:30", "17:00"]


def _free_times(day: date, times: list[str], closed: bool = False) -> str:
    return json.dumps({
        "result": "FREE_TIMES", "time_zone": "America/Sao_Paulo",
        "days": [{"day": day.isoformat(), "weekday": "terça-feira", "professional": "Ana Souza",
                  "professional_id": "p1", "service": "Corte feminino", "minutes": 60,
                  "times": times, "utc_offset": "-03:00", "closed": closed}],
    })  # fmt: skip


def _judge(texts: list[str], today: date) -> Statements:
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",), today)
    tools = [ToolText("check_availability", text, True) for text in texts]
    common = language_rules().common_words()
    grounding = Grounding(reader, texts, [], common, (today, today + timedelta(60)), texts)
    return no_change_statements(
        grounding, reader, CODES, tools, [], True, frozenset({"ana", "souza", "corte", "feminino"})
    )


DENIALS = sorted(statement_rules(CODES).denials)
FRAME = sorted(statement_rules(CODES).listing)


@EXAMPLES
@given(
    today=days,
    times=st.lists(st.sampled_from(TIMES), min_size=1, max_size=4, unique=True).map(sorted),
    denial=st.sampled_from(DENIALS),
    frame=st.lists(st.sampled_from(FRAME), min_size=1, max_size=5),
    said=st.data(),
)
def test_a_denial_in_the_models_words_is_refused_whatever_it_denies(
    today: date, times: list[str], denial: str, frame: list[str], said: st.DataObject
) -> None:
    day = today + timedelta(days=1)
    statements = _judge([_free_times(day, times)], today)
    # at least one fact: a sentence of courtesy words alone claims nothing ("Abraços, só.")
    pool = st.sampled_from(["Ana", *times, day.strftime("%d/%m")])
    facts = said.draw(st.lists(pool, min_size=1, max_size=3))
    words = [*frame, denial, *facts]
    sentence = " ".join(said.draw(st.permutations(words))).capitalize() + "."
    assert statements.refused(sentence) == [sentence]


@EXAMPLES
@given(today=days, frame=st.lists(st.sampled_from(FRAME), min_size=1, max_size=5))
def test_a_day_only_a_refusal_holds_is_bound_by_no_sentence(today: date, frame: list[str]) -> None:
    day = today + timedelta(days=1)
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",), today)
    from agent_service.infrastructure.agent.told import told_values

    values = told_values([ToolText("check_availability", _free_times(day, [], True), True)])
    relations = Relations(reader, values, frozenset({"ana", "souza"}), frozenset(FRAME))
    assert not relations.bound(f"{' '.join(frame)} {day:%d/%m}.")
    open_day = told_values([ToolText("check_availability", _free_times(day, ["10:00"]), True)])
    opened = Relations(reader, open_day, frozenset({"ana", "souza"}), frozenset(FRAME))
    assert opened.bound(f"Dia {day:%d/%m}.")  # the same day, open: told


OTHER_MARKS = ["US$", "$", "€", "EUR", "USD", "£", "GBP", "¥"]


@EXAMPLES
@given(
    whole=st.integers(1, 999),
    mark=st.sampled_from(OTHER_MARKS),
    before=st.booleans(),
    code=st.sampled_from(CODES),
)
def test_a_price_in_another_currency_is_no_price_of_the_business(
    whole: int, mark: str, before: bool, code: str
) -> None:
    reader = fact_reader(CODES, "America/Sao_Paulo", ("BRL",))
    own = reader.facts(f"R$ {whole},00")[0].values
    said = f"{mark} {whole}.00" if before else f"{whole},00 {mark}"
    other = [f for f in reader.facts(f"Barba {said}") if f.kind is Kind.MONEY]
    assert other and not set(other[0].values) & set(own), (said, other)
    assert reader.facts(f"Barba BRL {whole}.00")[0].values == own


@EXAMPLES
@given(today=days, at=st.sampled_from(TIMES), weeks=st.integers(1, 3))
def test_a_relative_day_is_told_only_by_that_days_result(today: date, at: str, weeks: int) -> None:
    """Found by review: "Amanhã a Ana tem às 10h" was sent after free times of the same
    weekday a week later (the weekday alone grounded "amanhã")."""
    tomorrow = today + timedelta(days=1)
    sentence = f"Amanhã a Ana tem às {at}."
    assert _judge([_free_times(tomorrow, [at])], today).refused(sentence) == []
    later = tomorrow + timedelta(weeks=weeks)
    assert _judge([_free_times(later, [at])], today).refused(sentence) == [sentence]


def test_a_denial_is_told_only_as_a_whole_sentence_of_the_system() -> None:
    """Found by review: "Ana Souza não tem horário livre" passed as the start of the system's
    sentence for one empty day of two."""
    today = date(2026, 11, 30)
    days_ = [
        json.loads(_free_times(today + timedelta(days=1), []))["days"][0],
        json.loads(_free_times(today + timedelta(days=2), ["10:00"]))["days"][0],
    ]
    result = json.dumps({"result": "FREE_TIMES", "time_zone": "America/Sao_Paulo", "days": days_})
    judge = _judge([result], today)
    assert judge.refused("Ana Souza não tem horário livre.") != []
    assert judge.refused("Ana Souza has no free time.") != []


def test_a_time_said_of_nobody_is_bound_to_nobody() -> None:
    """Found by the second review: "Bruno Lima tem horários amanhã. Às 10h e 14h." (the times
    are Ana's) passed, the second sentence naming no one."""
    today = date(2026, 11, 30)
    ana = _free_times(today + timedelta(days=1), ["10:00", "14:00"])
    bruno = json.loads(_free_times(today + timedelta(days=1), ["09:00"]))
    bruno["days"][0]["professional"] = "Bruno Lima"
    judge = _judge([ana, json.dumps(bruno)], today)
    assert judge.refused("Às 10h e 14h.") == ["Às 10h e 14h."]
    assert judge.refused("Ana Souza tem às 10h e 14h.") == []


@EXAMPLES
@given(first=st.integers(8, 11), last=st.integers(15, 19))
def test_a_window_of_times_is_told_only_in_the_systems_words(first: int, last: int) -> None:
    """Found by the second review: "das 9h às 18h" passed when only 09:00 and 18:00 were free
    (a window claims every time inside it, no result item holds that)."""
    today = date(2026, 11, 30)
    ends = [f"{first:02d}:00", f"{last:02d}:00"]
    judge = _judge([_free_times(today + timedelta(days=1), ends)], today)
    for sentence in (
        f"A Ana tem horários livres amanhã das {first}h às {last}h.",
        f"Ana is free tomorrow from {first}:00 to {last}:00.",
    ):
        assert judge.refused(sentence) == [sentence]
    told = f"Amanhã a Ana tem às {first}h e {last}h."
    assert judge.refused(told) == []
