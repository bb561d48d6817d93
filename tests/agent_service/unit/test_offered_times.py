"""A question that offers a time is a claim that it is free (review 16, P-1): "Quer marcar com
a Ana na terça às 10h?" was sent word for word when this turn's free times had no 10:00 on
Ana's Tuesday, because 10:00 was the customer's own appointment (a record grounds it), another
professional's or another day's free time, or a day the result does not have at all; the same
content as a statement was refused.

Properties over generated free times (one to three professionals, one to three days each),
the customer's own appointments, and questions from templates of every language with the time
formats the grammar reads ("10h", "às 10:00", "10am", "at 3pm", "a las 10", "a las 3 de la
tarde") and the day as a weekday or as "amanhã"/"tomorrow"/"mañana":

* a question offering one or two times with a professional and a day is sent exactly when
  every time it offers is free with that professional on that day in this turn's result;
* one day of one professional holds the offer, not three items a pair each (Ana's Wednesday,
  Bruno's Tuesday, Ana's Tuesday for "Ana, terça, 10h"), in a statement too ("A Ana Souza tem
  horário livre na terça às 10h.": a sent statement is true);
* after a time refused with the free times near it, only those are offered, on that day;
* in a turn whose results tell no times, a question offers only a time the customer said;
  a length said in hours ("o Corte feminino de 1h") offers no time;
* a question with no time ("Prefere de manhã ou à tarde?", "Quer marcar com a Ana na
  quarta?") is judged as before: sent;
* a question about the customer's own appointment names its day and time as recorded ("Quer
  remarcar o seu horário de terça às 10h?"): that is no offer, and it is sent.

``max_examples`` grows under ``RELIABILITY_SCALE=full``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from agent_service.application.grounding import Grounding
from agent_service.application.text import normalize
from agent_service.infrastructure.agent.deps import ToolText
from agent_service.infrastructure.agent.told import no_change_statements
from agent_service.infrastructure.agent.tools.formatting import weekday_name
from agent_service.infrastructure.agent.tools.results import (
    DayTimes,
    FreeTimes,
    NotAvailable,
    ServiceItem,
    Services,
)
from agent_service.infrastructure.language.rules import fact_reader, language_rules
from tests.scale import size

CODES = ("pt", "en", "es")
TODAY = date(2026, 11, 30)  # a Monday: "amanhã" is Tuesday 2026-12-01
READER = fact_reader(CODES, "America/Sao_Paulo", ("BRL",), TODAY)
WINDOW = (TODAY, TODAY + timedelta(days=60))
PROS = ("Ana Souza", "Bruno Lima", "Carla Dias")
SERVICE = "Corte feminino"
DAYS = tuple(TODAY + timedelta(days=n) for n in range(1, 5))  # Tuesday to Friday
GRID = tuple(f"{h:02d}:{m:02d}" for h in range(9, 18) for m in (0, 30))
ENTITIES = frozenset(w for n in (*PROS, SERVICE) for w in normalize(n).split())
EXAMPLES = settings(max_examples=size(150, 1500), deadline=None)


def _hour(at: str) -> tuple[int, int]:
    hour, minute = at.split(":")
    return int(hour), int(minute)


def _time_pt(at: str, form: int) -> str:
    hour, minute = _hour(at)
    if form == 0:
        return f"às {hour}h" if not minute else f"às {hour}h{minute:02d}"
    if form == 1:
        return f"às {at}"
    if hour > 12 and not minute:
        return f"às {hour - 12} da tarde"
    return f"às {hour}h{minute:02d}"


def _time_en(at: str, form: int) -> str:
    hour, minute = _hour(at)
    twelve, half = (hour - 12 if hour > 12 else hour), ("pm" if hour >= 12 else "am")
    if form == 0:
        return f"at {twelve}{half}" if not minute else f"at {twelve}:{minute:02d}{half}"
    if form == 1:
        return f"at {at}"
    return f"at {twelve}:{minute:02d} {half}"


def _time_es(at: str, form: int) -> str:
    hour, minute = _hour(at)
    if form == 0:
        return f"a las {hour}" if not minute else f"a las {hour}:{minute:02d}"
    if form == 1:
        return f"a las {at}"
    if hour > 12 and not minute:
        return f"a las {hour - 12} de la tarde"
    return f"a las {at}"


TIME_FORMS = {"pt": _time_pt, "en": _time_en, "es": _time_es}
OR = {"pt": "ou", "en": "or", "es": "o"}


def _day(day: date, language: str, relative: bool) -> str:
    if relative and day == TODAY + timedelta(days=1):
        return {"pt": "amanhã", "en": "tomorrow", "es": "mañana"}[language]
    name = weekday_name(day, language).split("-")[0]
    return {"pt": f"na {name}", "en": f"on {name}", "es": f"el {name}"}[language]


QUESTIONS = {
    "pt": (
        "Quer marcar com {p} {d} {t}?",
        "Prefere {d} {t} com {p}?",
        "Pode ser com {p} {d} {t}?",
        "Fica bom {d} {t} com {p}?",
    ),
    "en": (
        "Would you like {p} {d} {t}?",
        "Does {d} {t} with {p} work for you?",
        "Would {d} {t} with {p} suit you?",
        "How about {p} {d} {t}?",
    ),
    "es": (
        "¿Quieres con {p} {d} {t}?",
        "¿Te va bien {d} {t} con {p}?",
        "¿Prefieres {d} {t} con {p}?",
        "¿Te viene bien con {p} {d} {t}?",
    ),
}
STATEMENTS = {
    "pt": ("{p} tem horário livre {d} {t}.",),
    "en": ("{p} is free {d} {t}.",),
    "es": ("{p} tiene libre {d} {t}.",),
}


@dataclass(frozen=True)
class Week:
    """This turn's free times, by professional and day, and the customer's appointments."""

    free: dict[tuple[str, date], tuple[str, ...]]
    upcoming: tuple[str, ...]
    language: str

    def result(self) -> FreeTimes:
        days = [
            DayTimes(
                day=day.isoformat(),
                weekday=weekday_name(day, self.language),
                professional=pro,
                professional_id=f"p{PROS.index(pro)}",
                service=SERVICE,
                minutes=30,
                times=list(times),
                utc_offset="-03:00",
            )
            for (pro, day), times in self.free.items()
        ]
        return FreeTimes(time_zone="America/Sao_Paulo", days=days)

    def sent(self, reply: str, customer: tuple[str, ...] = ()) -> bool:
        return _sent([self.result()], self.upcoming, reply, customer)


def _sent(
    results: Sequence[BaseModel], upcoming: Sequence[str], reply: str, customer: Sequence[str] = ()
) -> bool:
    """Whether the truth check lets ``reply`` go after this turn's ``results``: every fact
    grounded (by the results, the customer's appointments or, in a question, the customer's
    words), and no sentence refused (``statements``)."""
    texts = [ToolText("tool", result.model_dump_json(), True) for result in results]
    this_turn = [t.text for t in texts]
    records = [*this_turn, *upcoming, SERVICE, *PROS]
    grounding = Grounding(
        READER, records, list(customer), language_rules().common_words(), WINDOW, this_turn
    )
    statements = no_change_statements(grounding, READER, CODES, texts, upcoming, False, ENTITIES)
    return not grounding.ungrounded(reply) and not statements.refused(reply)


@st.composite
def weeks(draw: st.DrawFn) -> Week:
    language = draw(st.sampled_from(CODES))
    pros = draw(st.lists(st.sampled_from(PROS), min_size=1, max_size=3, unique=True))
    free = {}
    for pro in pros:
        for day in draw(st.lists(st.sampled_from(DAYS[:3]), min_size=1, max_size=3, unique=True)):
            times = draw(st.lists(st.sampled_from(GRID), min_size=1, max_size=8, unique=True))
            free[(pro, day)] = tuple(sorted(times))
    # the customer's own appointments: their times ground a time as records do, free or not
    upcoming = tuple(
        f"{SERVICE} com {draw(st.sampled_from(PROS))} em {weekday_name(day, 'pt')} "
        f"{day:%d/%m/%Y} {draw(st.sampled_from(GRID))}"
        for day in draw(st.lists(st.sampled_from(DAYS), max_size=2))
    )
    return Week(free, upcoming, language)


@dataclass(frozen=True)
class Offer:
    pro: str
    day: date
    times: tuple[str, ...]

    def true_of(self, week: Week) -> bool:
        return all(t in week.free.get((self.pro, self.day), ()) for t in self.times)


@st.composite
def offers(draw: st.DrawFn, week: Week) -> Offer:
    """A professional, a day and one or two times: mostly ones the result or the customer's
    appointments have (a free time, another's or another day's, the customer's own), some
    from anywhere."""
    pro = draw(st.sampled_from(sorted({p for p, _ in week.free} | {PROS[0]})))
    day = draw(st.sampled_from([d for _, d in week.free] + [DAYS[3]]))
    known = sorted({t for times in week.free.values() for t in times})
    known += [line[-5:] for line in week.upcoming]
    times = draw(
        st.lists(
            st.one_of(st.sampled_from(known), st.sampled_from(GRID)),
            min_size=1,
            max_size=2,
            unique=True,
        )
    )
    return Offer(pro, day, tuple(sorted(times)))


def _said(offer: Offer, language: str, form: int, relative: bool) -> tuple[str, str]:
    """The offer's day and times as ``language`` says them."""
    said = [TIME_FORMS[language](t, form) for t in offer.times]
    return _day(offer.day, language, relative), f" {OR[language]} ".join(said)


@EXAMPLES
@given(week=weeks(), data=st.data())
def test_a_question_offering_times_is_sent_only_when_they_are_free_that_day_with_that_professional(
    week: Week, data: st.DataObject
) -> None:
    offer = data.draw(offers(week))
    language = week.language
    template = data.draw(st.sampled_from(QUESTIONS[language]))
    day, at = _said(offer, language, data.draw(st.integers(0, 2)), data.draw(st.booleans()))
    question = template.format(p=offer.pro.split()[0], d=day, t=at)
    assert week.sent(question) == offer.true_of(week), (question, week.free, week.upcoming)


@EXAMPLES
@given(week=weeks(), data=st.data())
def test_asking_back_the_customers_time_does_not_offer_a_time_the_result_has_not_free(
    week: Week, data: st.DataObject
) -> None:
    """The customer's own words ground a time in a question ("asking back"), but not as free
    when this turn's free times are read: it is offered only if the result has it."""
    offer = data.draw(offers(week))
    language = week.language
    day, at = _said(offer, language, 1, False)
    asked = {"pt": "tem {t} {d}?", "en": "anything {t} {d}?", "es": "¿hay algo {t} {d}?"}
    customer = asked[language].format(t=at, d=day)
    question = QUESTIONS[language][0].format(p=offer.pro.split()[0], d=day, t=at)
    assert week.sent(question, (customer,)) == offer.true_of(week), (question, week.free)


@EXAMPLES
@given(week=weeks(), data=st.data())
def test_a_statement_of_free_times_is_told_by_one_day_of_one_professional(
    week: Week, data: st.DataObject
) -> None:
    offer = data.draw(offers(week))
    language = week.language
    day, at = _said(offer, language, data.draw(st.integers(0, 2)), data.draw(st.booleans()))
    template = data.draw(st.sampled_from(STATEMENTS[language]))
    statement = template.format(p=offer.pro, d=day, t=at)
    if week.sent(statement):  # sound, not complete: a true statement may be refused
        assert offer.true_of(week), (statement, week.free)


NO_TIME = {
    "pt": ("Prefere de manhã ou à tarde?", "Quer marcar com {p} {d}?", "Qual horário prefere?"),
    "en": ("Do you prefer morning or afternoon?", "Would you like {p} {d}?", "Which time works?"),
    "es": ("¿Prefieres por la mañana o por la tarde?", "¿Quieres con {p} {d}?", "¿Qué hora?"),
}


@EXAMPLES
@given(week=weeks(), data=st.data())
def test_a_question_with_no_time_is_sent_as_before(week: Week, data: st.DataObject) -> None:
    offer = data.draw(offers(week))
    language = week.language
    template = data.draw(st.sampled_from(NO_TIME[language]))
    question = template.format(p=offer.pro.split()[0], d=_day(offer.day, language, False))
    assert week.sent(question), (question, week.free)


@EXAMPLES
@given(week=weeks(), data=st.data())
def test_a_question_about_the_customers_own_appointment_names_it_as_recorded(
    week: Week, data: st.DataObject
) -> None:
    day = data.draw(st.sampled_from(DAYS))
    at = data.draw(st.sampled_from(GRID))
    own = f"{SERVICE} com {PROS[0]} em {weekday_name(day, 'pt')} {day:%d/%m/%Y} {at}"
    mine = Week(week.free, (own,), week.language)
    said = _day(day, "pt", False)
    question = f"Quer remarcar o seu horário {said} {_time_pt(at, 1)}?"
    assert mine.sent(question), (question, week.free)


@EXAMPLES
@given(
    language=st.sampled_from(CODES),
    times=st.lists(st.sampled_from(GRID), min_size=2, max_size=2, unique=True),
    form=st.integers(0, 2),
    relative=st.booleans(),
    question=st.booleans(),
)
def test_one_day_of_one_professional_holds_the_offer_not_three_items_a_pair_each(
    language: str, times: list[str], form: int, relative: bool, question: bool
) -> None:
    """Ana's Tuesday, Bruno's Tuesday and Ana's Wednesday each hold one pair of "Ana, Tuesday,
    t" when only the last two have t: no item tells the three together."""
    ana, bruno = PROS[0], PROS[1]
    tuesday, wednesday = DAYS[0], DAYS[1]
    first, shared = times
    free: dict[tuple[str, date], tuple[str, ...]] = {
        (ana, tuesday): (first,),
        (bruno, tuesday): (shared,),
        (ana, wednesday): (shared,),
    }
    week = Week(free, (), language)
    template = QUESTIONS[language][0] if question else STATEMENTS[language][0]
    for at in (shared, first):
        day, said = _said(Offer(ana, tuesday, (at,)), language, form, relative)
        reply = template.format(p=ana, d=day, t=said)
        sent = week.sent(reply)
        # a statement is sound, not complete ("às 1 da tarde": "tarde" is told by no result)
        assert sent == (at == first) if question else not sent or at == first, (reply, free)


@EXAMPLES
@given(
    language=st.sampled_from(CODES),
    asked=st.sampled_from(GRID),
    nearest=st.lists(st.sampled_from(GRID), min_size=1, max_size=3, unique=True),
    form=st.integers(0, 2),
    data=st.data(),
)
def test_after_a_time_refused_only_the_free_times_near_it_are_offered_that_day(
    language: str, asked: str, nearest: list[str], form: int, data: st.DataObject
) -> None:
    """A refusal's asked time is not free; its day is the day of the free times it lists."""
    if asked in nearest:
        return
    day = DAYS[0]
    refused = NotAvailable(
        reason="taken",
        asked=f"{weekday_name(day, language)} {day:%d/%m/%Y} {asked}",
        service=SERVICE,
        professional=PROS[0],
        nearest=sorted(nearest),
    )
    at = data.draw(st.sampled_from([asked, *nearest]))
    template = data.draw(st.sampled_from(QUESTIONS[language]))
    said_day, said = _said(Offer(PROS[0], day, (at,)), language, form, False)
    question = template.format(p=PROS[0].split()[0], d=said_day, t=said)
    assert _sent([refused], (), question) == (at in nearest), question
    other_day, _ = _said(Offer(PROS[0], DAYS[1], (at,)), language, form, False)
    assert not _sent([refused], (), template.format(p=PROS[0].split()[0], d=other_day, t=said))


@EXAMPLES
@given(week=weeks(), data=st.data(), heard=st.booleans())
def test_with_no_times_told_this_turn_a_question_offers_only_the_customers_own_time(
    week: Week, data: st.DataObject, heard: bool
) -> None:
    """A turn whose results tell no times (the services listed): a time offered is the
    customer's own, asked back; a record's (their appointment's, an earlier listing's) is no
    free time."""
    offer = data.draw(offers(week))
    language = week.language
    day, at = _said(offer, language, data.draw(st.integers(0, 2)), False)
    question = data.draw(st.sampled_from(QUESTIONS[language])).format(
        p=offer.pro.split()[0], d=day, t=at
    )
    customer = {"pt": "quero {d} {t}", "en": "I'd like {d} {t}", "es": "quiero {d} {t}"}
    said = (customer[language].format(d=day, t=at),) if heard else ()
    services = Services(services=[ServiceItem(id="s", name=SERVICE, minutes=30, price="R$ 80,00")])
    listed = [line[-5:] for line in week.upcoming]  # the appointments' times ground them
    if not heard and not all(t in listed for t in offer.times):
        return  # ungrounded as before: refused by the grounding check whatever this rule says
    assert _sent([services], week.upcoming, question, said) == heard, (question, said)


LENGTHS = {
    "pt": "Quer marcar o {s} de {h}h?",
    "en": "Would you like the {h}h {s}?",
    "es": "¿Quieres el {s} de {h}h?",
}


@EXAMPLES
@given(language=st.sampled_from(CODES), hours=st.integers(1, 3), other=st.integers(1, 3))
def test_a_length_said_in_hours_is_no_time_offered(language: str, hours: int, other: int) -> None:
    """ "de 1h" reads as 01:00 too: it is the service's length when a result holds it as one,
    and no time the question offers; a length the service does not have is refused as before."""
    listed = Services(
        services=[ServiceItem(id="s", name=SERVICE, minutes=hours * 60, price="R$ 80,00")]
    )
    question = LENGTHS[language].format(s=SERVICE, h=other)
    assert _sent([listed], (), question) == (other == hours), question
