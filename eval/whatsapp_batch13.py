# Over 300 lines: one business's catalog, its calendar facts and its 64 conversations.
"""The thirteenth batch, blind: written from categories (never from a reported sentence, and
without reading the offline model's code, words, grammar or language data) and run before any
change for it (baseline: ``eval/baselines/whatsapp-batch13-before.md``), in Portuguese, English
and Spanish, on a business of another kind: a music school ("Escola de Música Sabiá": a trial
class, guitar, piano, singing and drum lessons, and music theory) that configured **no
aliases**, so "guitar", "guitarra", "violao", "singing", "canto", "drums", "batería", "trial
lesson", "teoría" must be understood from the customer's own words or another language. Held
out: its cases are played by ``python -m eval --suite whatsapp-batch13`` only, not by the
default run.

Categories kept from :mod:`eval.whatsapp_batch12`, with new wording, two or three cases each:
booking with every detail in one message, the customer giving their name (``one-message``);
step by step, one detail a message (``step-by-step``); which teacher gives a lesson
(``who-does``); a price (``price``); whether a teacher works a given weekday (``works-day``:
they do not, and the reply names a day they do); a date ("dia 4", "el 2 de diciembre";
``date``); a weekday and a time (``weekday-time``); cancelling one of two lessons of the same
kind, and moving one (``appointments``); FAQ questions (``faq``); a "no" to a proposal
(``declined``); a yes on a condition that cannot hold (``conditional-yes``: a teacher who does
not work that day, a price below the lesson's, taking home an instrument the FAQ says is lent
only in class): nothing booked; a question right after a proposal, the conversation's last
message (``question-after-proposal``: not a yes, nothing booked).

New categories:

- ``ordinary-words``: ordinary words that partly look like a lesson or a teacher ("em teoria"
  / Teoria Musical, "bateria do celular" and "batería del celu" / Aula de Bateria, "canto en un
  coro" / Aula de Canto, "graças a Deus" and "Grace here" / Graça, "will you be open" / Will),
  while the customer asks for something else: their own schedule (``list_my_appointments``,
  the reply states the lesson's time), opening hours or the address (the FAQ), a price. Nothing
  is booked.
- ``pick-from-list``: the customer asks which times are free, then picks only by position ("o
  mais tarde", "the later one", "la primera", "la segunda") or by a bare number or time ("11",
  "3pm works"), then says yes: booked at that choice. Position is read in time order, the order
  any list of times is read in; "the later one"/"o mais tarde"/"la segunda" are asked only
  where the day has exactly two free starts, so the list cannot be cut short.
- ``time-window``: a window instead of a time ("a partir das 16h", "entre 11h e meio dia",
  "7pm or later", "between 8 and 9pm", "antes de las 9", "de las 19 en adelante"): each window
  holds exactly one free start, whether the window is read as bounding the start or the whole
  lesson (a closed window ends when the teacher's day ends, an open one begins at the day's
  last start, and Graça's 08:30 is Friday's only theory start before 9), so the proposal is
  forced; then a yes books it.
- ``correction``: one detail changed after the proposal ("nao, quinta", "opa, melhor as 15h",
  "actually, make it piano", "sorry, 3pm instead", "mejor con la otra profe", "no, perdón, el
  viernes"): a new proposal with the corrected detail (three ``book_appointment`` calls:
  proposal, corrected proposal, confirmation), booked with it only, nothing with the old one.
- ``emoji-and-short``: the reply to a proposal is only an emoji or a WhatsApp token. What a
  demanding customer expects: "ss" (sim sim), "blz" (beleza: fine, go ahead), "👍", "ok!",
  "sip" and "✅" each answer a yes/no question with a yes as plainly as "sim" does (a customer
  who sent 👍 to "Confirma?" and then found nothing booked would complain), so they book; "🤔"
  (thinking) is not a yes, and nothing may be booked on it (exactly one ``book_appointment``
  call, the proposal). "dale" is left out (batch 12 used it).
- ``question-after-proposal-answered``: after a proposal the customer asks a FAQ question
  (make-up classes, lending instruments, the minimum age) or how long the lesson is, and says
  yes only in the next message. The question's reply must answer it (state the FAQ fact, or the
  lesson's duration), not only repeat the proposal, and the booking is made after the yes (a FAQ
  question is looked up with ``search_faq``). The evaluators judge a booking's replies only by
  language, so these cases carry their own evaluator, :class:`AnsweredThenBooked`: it is the
  task-success judgement of :func:`eval.evaluators.task_problems` plus "the reply to turn N
  states one of these spellings", and it reports under the same ``task_success`` name. A case's
  own evaluators run before the dataset's and pydantic-evals keeps the first result of a name
  under that name (the dataset's ``TaskSuccess`` becomes ``task_success_2``, which no figure
  reads), so the figures and the report count this stricter judgement.

Every case also requires that no two consecutive replies are the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid), as in
batches 10 to 12: "hoje"/"hoy" is Monday 11/30 (nothing before 10:00), "amanhã"/"tomorrow"/
"mañana" Tuesday 12/01 ("December 1st"), Wednesday 12/02 ("el 2 de diciembre"), Thursday 12/03,
Friday 12/04 ("dia 4"), Saturday 12/05, Sunday closed. No case says a bare
"segunda"/"Monday"/"lunes" to book.

Graça Lopes (piano and theory: trial class, piano, music theory) works Monday and Wednesday
08:00–14:00 and Friday 08:30–14:00; Will Ferraz (guitar: trial class, guitar, music theory)
works Tuesday and Thursday 13:00–21:00, Friday 14:00–20:00 and Saturday 08:00–12:00; Marisol
Ortega (singing and piano: singing, piano) works Monday to Thursday 12:00–20:00 and Saturday
09:00–10:30 (not Friday); Davi Rocha (drums and guitar: drums, guitar) works Monday to Friday
09:00–17:00 and Saturday 10:00–11:30. Durations: trial class and music theory 30 minutes,
guitar and singing 45, piano and drums 60. So: singing is only Marisol's, drums only Davi's; a
trial class or theory is Graça's on Monday, Wednesday and Friday before 14:00 and Will's on
Tuesday, Thursday, Friday from 14:00 and Saturday (nobody else's: their days and hours never
overlap); piano is Graça's before 12:00 on Monday and Wednesday and all of Friday, Marisol's
from 13:30 on Monday and Wednesday and all of Tuesday, Thursday and Saturday, and both can start
one at 12:00, 12:30 or 13:00 on Monday and Wednesday; guitar is Davi's on Monday and Wednesday
and before 13:00 on Tuesday and Thursday (before 14:00 on Friday), both can start one from then
to 16:00, after that it is Will's; on Saturday Will's from 08:00 to 11:00 (Davi's 10:00 and
10:30 too). The day's last starts: drums 16:00 (Davi), singing 19:00, piano 19:00 (Marisol),
guitar 20:00 on Tuesday and Thursday (Will). Saturday has exactly two starts for drums (Davi 10:00,
10:30), piano and singing (Marisol 09:00, 09:30); Friday's earliest theory is 08:30 (Graça,
ending 09:00). Prices: trial class R$ 40, guitar R$ 110, piano R$ 150, singing R$ 120, drums
R$ 140, theory R$ 70. The FAQ (in Portuguese only) gives the address (Rua Aspicuelta), the
opening hours (weekdays 8h–21h, Saturday 8h–13h), instruments (violão, teclado and bateria in
class; only a violão goes home, for up to 15 days), make-up classes (one a month, with 24 hours'
notice), the monthly plan (15% off), the minimum age (6; drums and singing from 8), payment
(Pix, card, boleto) and 10 minutes' tolerance for lateness. The customer has, in the
appointment and own-schedule cases, two guitar lessons (Will, Tuesday 15:00; Davi, Thursday
10:00), a singing lesson with Marisol on Wednesday at 18:00 and a piano lesson with Graça on
Friday at 10:00; every move target below is free and within the teacher's hours.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time

from pydantic_evals import Case
from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext

from agent_service.domain.catalog import WorkingHours
from eval.dataset import (
    BOOK,
    LIST_MINE,
    SEARCH,
    Conversation,
    EvalCase,
    Expected,
    Language,
)
from eval.evaluators import TASK_SUCCESS, states_one, task_problems
from eval.harness import SALONS, Booked, SalonSpec, Transcript, local
from eval.salon_cases import SalonCases, Visit

SALON = "sabia"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))

SERVICES = {
    "experimental": (
        "Aula Experimental",
        30,
        4000,
        "Primeira aula para conhecer a escola e o professor; o valor é descontado na matrícula.",
    ),
    "violao": ("Aula de Violão", 45, 11000, "Aula individual de violão popular ou clássico."),
    "piano": ("Aula de Piano", 60, 15000, "Aula individual de piano, do iniciante ao avançado."),
    "canto": ("Aula de Canto", 45, 12000, "Técnica vocal, respiração e repertório."),
    "bateria": ("Aula de Bateria", 60, 14000, "Aula individual em sala com isolamento acústico."),
    "teoria": ("Teoria Musical", 30, 7000, "Leitura de partitura, ritmo, escalas e harmonia."),
}

SABIA = SalonSpec(
    name="Escola de Música Sabiá",
    services=SERVICES,
    # No aliases: the school wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "graca": (
            "Graça Lopes",
            "Professora de piano e teoria",
            ("experimental", "piano", "teoria"),
        ),
        "will": (
            "Will Ferraz",
            "Professor de violão e guitarra",
            ("experimental", "violao", "teoria"),
        ),
        "marisol": ("Marisol Ortega", "Professora de canto e piano", ("canto", "piano")),
        "davi": ("Davi Rocha", "Professor de bateria e violão", ("bateria", "violao")),
    },
    hours={
        "graca": (
            *(WorkingHours(day_of_week=d, start=time(8), end=time(14)) for d in (1, 3)),
            WorkingHours(day_of_week=5, start=time(8, 30), end=time(14)),
        ),
        "will": (
            *(WorkingHours(day_of_week=d, start=time(13), end=time(21)) for d in (2, 4)),
            WorkingHours(day_of_week=5, start=time(14), end=time(20)),
            WorkingHours(day_of_week=6, start=time(8), end=time(12)),
        ),
        "marisol": (
            *(WorkingHours(day_of_week=d, start=time(12), end=time(20)) for d in range(1, 5)),
            WorkingHours(day_of_week=6, start=time(9), end=time(10, 30)),
        ),
        "davi": (
            *(WorkingHours(day_of_week=d, start=time(9), end=time(17)) for d in range(1, 6)),
            WorkingHours(day_of_week=6, start=time(10), end=time(11, 30)),
        ),
    },
    # Written in Portuguese only.
    faq={
        "address": (
            "Onde fica a escola?",
            "Rua Aspicuelta, 318 — Vila Madalena, São Paulo (portão azul, interfone 2).",
            ("endereço", "localização"),
        ),
        "hours": (
            "Qual é o horário de funcionamento?",
            "De segunda a sexta, das 8h às 21h; aos sábados, das 8h às 13h. Domingo fechado.",
            ("horário", "funcionamento", "abre", "fecha"),
        ),
        "loan": (
            "Vocês emprestam instrumento?",
            "Na aula a escola fornece violão, teclado e bateria. Para estudar em casa, "
            "emprestamos só violão, por até 15 dias.",
            ("emprestar", "empréstimo", "instrumento", "levar instrumento"),
        ),
        "makeup": (
            "Se eu faltar, tenho aula de reposição?",
            "Sim: uma reposição por mês, se você avisar com pelo menos 24 horas de antecedência. "
            "Falta sem aviso não tem reposição.",
            ("reposição", "faltar", "falta", "recuperar aula"),
        ),
        "packages": (
            "Tem pacote ou mensalidade?",
            "Tem o plano mensal: uma aula por semana no mesmo dia e horário, com 15% de desconto "
            "sobre o valor da aula avulsa, pago até o dia 10.",
            ("mensalidade", "pacote", "plano", "desconto"),
        ),
        "age": (
            "Qual é a idade mínima?",
            "Aceitamos alunos a partir de 6 anos; bateria e canto a partir de 8 anos.",
            ("idade", "criança", "infantil"),
        ),
        "payment": (
            "Quais são as formas de pagamento?",
            "Pix, cartão de débito ou crédito, ou boleto para o plano mensal.",
            ("pagamento", "pix", "cartão", "boleto"),
        ),
        "late": (
            "E se eu chegar atrasado?",
            "Há tolerância de 10 minutos; depois disso a aula acontece no tempo que sobrar, sem "
            "reposição do atraso.",
            ("atraso", "atrasado", "tolerância"),
        ),
    },
    faq_facts={
        "address": ("Aspicuelta",),
        # Not "21:00"/"13:00": a teacher's hours are written so (Will's are 13:00 to 21:00).
        "hours": ("21h", "9pm", "9 pm", "13h", "1pm", "1 pm"),
        "loan": ("15 dias", "15 days", "15 días", "quinze dias", "fifteen days", "quince días"),
        "makeup": (
            "24 horas",
            "24 hours",
            "24 h",
            "24h",
            "vinte e quatro horas",
            "twenty-four hours",
            "veinticuatro horas",
        ),
        "packages": ("15%", "15 %"),
        "age": ("6 anos", "6 years", "6 años", "seis anos", "six years", "seis años"),
        "payment": ("boleto",),
        "late": ("10 minutos", "10 minutes", "dez minutos", "ten minutes", "diez minutos"),
    },
)
SALONS[SALON] = SABIA

VIOLAO_TUE = Booked("violao", "will", local(TUE, time(15)))
VIOLAO_THU = Booked("violao", "davi", local(THU, time(10)))
CANTO_WED = Booked("canto", "marisol", local(WED, time(18)))
PIANO_FRI = Booked("piano", "graca", local(FRI, time(10)))
EXISTING = (VIOLAO_TUE, VIOLAO_THU, CANTO_WED, PIANO_FRI)

# A proposal, a corrected proposal, then the confirmed write.
CORRECTED = (BOOK, BOOK, BOOK)
# A proposal, an FAQ question looked up, then the confirmed write.
ASKED_FAQ = (BOOK, SEARCH, BOOK)
# How long a lesson is, as a reply may say it.
MIN_45 = (
    "45 min",
    "45 minutes",
    "45 minutos",
    "quarenta e cinco",
    "forty-five",
    "cuarenta y cinco",
)
MIN_60 = ("60 min", "60 minutes", "60 minutos", "1 hora", "uma hora", "1 hour", "one hour", "1h")

_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip


@dataclass
class AnsweredThenBooked(Evaluator[Conversation, Transcript, Expected]):
    """Task success as :class:`eval.evaluators.TaskSuccess` judges it, and the reply to turn
    ``turn`` (from 0: the customer's question after the proposal) states one of ``spellings``.
    Reported under ``task_success``: a case's own evaluators run before the dataset's, so this
    result keeps that name (see the module docstring)."""

    turn: int
    spellings: tuple[str, ...]

    def evaluate(
        self, ctx: EvaluatorContext[Conversation, Transcript, Expected]
    ) -> dict[str, EvaluationReason]:
        assert ctx.metadata is not None
        problems = task_problems(ctx.output, ctx.metadata, SALONS[ctx.inputs.salon])
        turns = ctx.output.turns
        reply = turns[self.turn].reply if len(turns) > self.turn else ""
        if ctx.output.error is None and not states_one(reply, self.spellings):
            problems.append(
                f"the question (turn {self.turn + 1}) was not answered, none of "
                f"{list(self.spellings)} in {reply[:160]!r}"
            )
        reason = "; ".join(problems) if problems else f"{ctx.metadata.outcome} as expected"
        return {TASK_SUCCESS: EvaluationReason(value=not problems, reason=reason)}


def answered(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    what: Visit,
    answer: tuple[str, ...],
    tools: tuple[str, ...] = (BOOK, BOOK),
) -> EvalCase:
    """Proposal, a question (message 2), a yes: the question's reply states one of ``answer``,
    and ``what`` is booked after the yes."""
    service, professional, day, at = what
    expected = Expected(
        category="question-after-proposal-answered", language=language, outcome="booked",
        tools=tools, service=service, professional=professional, start=local(day, at),
        distinct_replies=True,
    )  # fmt: skip
    return Case(
        name=name,
        inputs=Conversation(messages, (), SALON),
        metadata=expected,
        evaluators=(AnsweredThenBooked(1, answer),),
    )


def own_schedule(
    name: str, language: Language, messages: tuple[str, ...], *facts: tuple[str, ...]
) -> EvalCase:
    """Ordinary words asking for one's own schedule: listed (the reply states ``facts``),
    nothing booked or changed."""
    expected = Expected(
        category="ordinary-words", language=language, outcome="info", tools=(LIST_MINE,),
        facts=facts, distinct_replies=True,
    )  # fmt: skip
    return _CASES.case(name, messages, expected, EXISTING)


def ordinary_faq(name: str, language: Language, messages: tuple[str, ...], entry: str) -> EvalCase:
    """Ordinary words asking a FAQ question: answered from ``entry``, nothing booked."""
    return nothing(name, language, messages, "ordinary-words", (SEARCH,), outcome="faq", faq=entry)


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("em-pt-tudo-numa-mensagem", "pt",
           ("boa tarde! aqui é a Fernanda Queiroz, mae do Pedro. queria agendar uma aula de "
            "bateria pra ele com o Davi quarta as 15h, da certo?", "sim"),
           ("bateria", "davi", WED, time(15)), "one-message"),
    booked("em-pt-passo-a-passo", "pt",
           ("oi, quero fazer aula de violao", "com o will", "quinta", "19h", "sim"),
           ("violao", "will", THU, time(19)), "step-by-step"),
    states("em-pt-quem-da-bateria", "pt", ("quem da aula de bateria ai?",), "who-does",
           ("Davi",)),
    states("em-pt-valor-experimental", "pt", ("qual o valor da aula experimental?",), "price",
           ("40",)),
    booked("em-pt-dia-4-piano", "pt", ("dia 4 as 11h tem aula de piano?", "pode ser"),
           ("piano", "graca", FRI, time(11)), "date"),
    booked("em-pt-teoria-sexta", "pt", ("tem teoria musical sexta as 16h?", "pode marcar"),
           ("teoria", "will", FRI, time(16)), "weekday-time"),
    changed("em-pt-cancela-violao-quinta", "pt",
            ("preciso cancelar a aula de violao de quinta, vou viajar", "isso"), VIOLAO_THU),
    nothing("em-pt-sim-se-for-marisol", "pt", ("piano sexta 10h", "sim, se for com a marisol"),
            "conditional-yes", (BOOK,)),
    nothing("em-pt-levar-violao", "pt", ("violao com o davi terca 11h", "precisa levar o violao?"),
            "question-after-proposal", (BOOK,)),
    own_schedule("em-pt-em-teoria-quarta", "pt",
                 ("em teoria minha aula de canto é quarta ne? confere pra mim pfv",),
                 ("18:00", "18h")),
    ordinary_faq("em-pt-bateria-celular", "pt",
                 ("gracas a deus alguem respondeu kkk to com 3% de bateria, ate q horas vcs "
                  "ficam abertos hj?",), "hours"),
    booked("em-pt-o-mais-tarde", "pt",
           ("quais horarios tem pra bateria no sabado?", "o mais tarde", "sim"),
           ("bateria", "davi", SAT, time(10, 30)), "pick-from-list"),
    booked("em-pt-numero-11", "pt",
           ("quais horarios o davi tem terca de manha pra bateria?", "11", "sim"),
           ("bateria", "davi", TUE, time(11)), "pick-from-list"),
    booked("em-pt-a-partir-das-16", "pt", ("aula de bateria quinta a partir das 16h", "sim"),
           ("bateria", "davi", THU, time(16)), "time-window"),
    booked("em-pt-entre-11-e-meio-dia", "pt",
           ("violao sabado entre 11h e meio dia", "pode ser"),
           ("violao", "will", SAT, time(11)), "time-window"),
    booked("em-pt-nao-quinta", "pt", ("violao com o will terca 16h", "nao, quinta", "sim"),
           ("violao", "will", THU, time(16)), "correction", tools=CORRECTED),
    booked("em-pt-melhor-15h", "pt", ("canto quarta 14h", "opa, melhor as 15h", "isso"),
           ("canto", "marisol", WED, time(15)), "correction", tools=CORRECTED),
    booked("em-pt-ss", "pt", ("bateria com o davi sexta 9h", "ss"),
           ("bateria", "davi", FRI, time(9)), "emoji-and-short"),
    booked("em-pt-blz", "pt", ("aula experimental de piano quarta 11h", "blz"),
           ("experimental", "graca", WED, time(11)), "emoji-and-short"),
    nothing("em-pt-pensativo", "pt", ("canto com a marisol quinta 13h", "🤔"), "emoji-and-short",
            (BOOK,)),
    answered("em-pt-quanto-dura", "pt",
             ("piano com a graca quarta 10h", "quanto tempo dura a aula?",
              "fechou, pode marcar"),
             ("piano", "graca", WED, time(10)), MIN_60),
    answered("em-pt-reposicao", "pt",
             ("canto com a marisol terca 17h", "se eu faltar tem reposicao?", "show, confirma"),
             ("canto", "marisol", TUE, time(17)), SABIA.faq_facts["makeup"], tools=ASKED_FAQ),
    # -- English --------------------------------------------------------------------------------
    booked("em-en-all-in-one", "en",
           ("Hello! My name is Oliver Grant. I'd like to book a piano lesson with Marisol on "
            "Tuesday, December 1st at 6pm. Cheers", "yes"),
           ("piano", "marisol", TUE, time(18)), "one-message"),
    states("em-en-drum-price", "en", ("how much is a drum lesson?",), "price", ("140",)),
    states("em-en-marisol-fridays", "en", ("does Marisol teach on Fridays?",), "works-day",
           ("Monday", "Tuesday", "Wednesday", "Thursday", "Saturday")),
    booked("em-en-trial-saturday", "en", ("can I get a trial lesson on Saturday at 9am?", "yes"),
           ("experimental", "will", SAT, time(9)), "weekday-time"),
    changed("em-en-move-singing", "en",
            ("can I move my Wednesday singing lesson to Thursday at 5pm?", "yes"), CANTO_WED,
            (THU, time(17))),
    faq("em-en-minimum-age", "en",
        ("what's the minimum age to start? my daughter just turned 5",), "age"),
    nothing("em-en-forget-it", "en",
            ("drum lesson with Davi tomorrow at 11am", "no thanks, forget it"), "declined",
            (BOOK,)),
    nothing("em-en-yes-if-under-100", "en",
            ("singing lesson with Marisol Tuesday at 4pm", "yes, if it's under 100"),
            "conditional-yes", (BOOK,)),
    nothing("em-en-first-lesson-free", "en",
            ("piano with Graça on Wednesday at 9am", "is the first lesson free?"),
            "question-after-proposal", (BOOK,)),
    own_schedule("em-en-will-i-have-piano", "en",
                 ("will I have my piano lesson on Friday? just checking my schedule",),
                 ("10:00", "10am", "10 am")),
    ordinary_faq("em-en-grace-here", "en",
                 ("Hi, Grace here 🙂 will you guys be open on Saturday morning?",), "hours"),
    booked("em-en-the-later-one", "en",
           ("what times do you have for piano on Saturday?", "the later one", "yes"),
           ("piano", "marisol", SAT, time(9, 30)), "pick-from-list"),
    booked("em-en-3pm-works", "en",
           ("which times are free for a trial lesson on Friday afternoon?", "3pm works", "yes"),
           ("experimental", "will", FRI, time(15)), "pick-from-list"),
    booked("em-en-7pm-or-later", "en", ("singing lesson on Wednesday, 7pm or later", "yes"),
           ("canto", "marisol", WED, time(19)), "time-window"),
    booked("em-en-between-8-and-9pm", "en",
           ("guitar lesson on Tuesday, sometime between 8 and 9pm", "yes"),
           ("violao", "will", TUE, time(20)), "time-window"),
    booked("em-en-make-it-piano", "en",
           ("guitar lesson on Friday at 10am", "actually, make it piano", "yes"),
           ("piano", "graca", FRI, time(10)), "correction", tools=CORRECTED),
    booked("em-en-3pm-instead", "en",
           ("drum lesson tomorrow at 2pm", "sorry, 3pm instead", "yes"),
           ("bateria", "davi", TUE, time(15)), "correction", tools=CORRECTED),
    booked("em-en-thumbs-up", "en", ("trial lesson with Will on Thursday at 5pm", "👍"),
           ("experimental", "will", THU, time(17)), "emoji-and-short"),
    booked("em-en-ok", "en", ("music theory with Graça on Wednesday at 1pm", "ok!"),
           ("teoria", "graca", WED, time(13)), "emoji-and-short"),
    answered("em-en-how-long", "en",
             ("guitar lesson with Will on Thursday at 6pm", "how long is each lesson?",
              "great, yes please"),
             ("violao", "will", THU, time(18)), MIN_45),
    answered("em-en-lend-instruments", "en",
             ("trial lesson with Graça on Friday at 11am",
              "do you lend instruments? I don't have a keyboard at home", "perfect, book it"),
             ("experimental", "graca", FRI, time(11)), SABIA.faq_facts["loan"], tools=ASKED_FAQ),
    # -- Spanish --------------------------------------------------------------------------------
    booked("em-es-paso-a-paso", "es",
           ("hola, quiero tomar clases de canto", "el miércoles", "a las 13", "sí"),
           ("canto", "marisol", WED, time(13)), "step-by-step"),
    states("em-es-quien-da-piano", "es", ("¿quién da clases de piano?",), "who-does",
           ("Graça",), ("Marisol",)),
    states("em-es-graca-martes", "es", ("¿Graça da clases los martes?",), "works-day",
           ("lunes", "miércoles", "viernes")),
    booked("em-es-2-de-diciembre", "es", ("el 2 de diciembre a las 16, una clase de batería", "sí"),
           ("bateria", "davi", WED, time(16)), "date"),
    changed("em-es-guitarra-al-viernes", "es",
            ("¿puedo pasar la clase de guitarra del martes al viernes, a la misma hora?", "sí"),
            VIOLAO_TUE, (FRI, time(15))),
    faq("em-es-plan-mensual", "es",
        ("¿tienen plan mensual o paquete de clases? ¿sale más barato?",), "packages"),
    nothing("em-es-al-final-no", "es",
            ("clase de piano con Marisol el martes a las 13", "no, gracias, al final no"),
            "declined", (BOOK,)),
    nothing("em-es-si-me-prestan-bateria", "es",
            ("clase de batería con Davi el jueves a las 10",
             "sí, si me prestan la batería para practicar en casa"),
            "conditional-yes", (BOOK, SEARCH)),
    nothing("em-es-cuanto-dura", "es",
            ("clase de canto con Marisol el jueves a las 17", "¿cuánto dura la clase?"),
            "question-after-proposal", (BOOK,)),
    states("em-es-canto-en-un-coro", "es",
           ("canto en un coro hace años y quiero sumar piano, ¿cuánto sale la clase de piano?",),
           "ordinary-words", ("150",)),
    ordinary_faq("em-es-bateria-del-celu", "es",
                 ("se me está por morir la batería del celu, ¿me pasás la dirección rápido?",),
                 "address"),
    booked("em-es-la-primera", "es",
           ("¿qué horarios hay para teoría musical el miércoles a la mañana?", "la primera", "sí"),
           ("teoria", "graca", WED, time(8)), "pick-from-list"),
    booked("em-es-la-segunda", "es",
           ("¿qué horarios tiene Marisol el sábado para canto?", "la segunda", "sí"),
           ("canto", "marisol", SAT, time(9, 30)), "pick-from-list"),
    booked("em-es-antes-de-las-9", "es",
           ("una clase de teoría el viernes antes de las 9, que después entro a trabajar", "sí"),
           ("teoria", "graca", FRI, time(8, 30)), "time-window"),
    booked("em-es-de-las-19-en-adelante", "es", ("piano hoy, de las 19 en adelante", "sí"),
           ("piano", "marisol", MON, time(19)), "time-window"),
    booked("em-es-la-otra-profe", "es",
           ("clase de piano con Graça el miércoles a las 12", "mejor con la otra profe", "sí"),
           ("piano", "marisol", WED, time(12)), "correction", tools=CORRECTED),
    booked("em-es-mejor-el-viernes", "es",
           ("teoría musical el jueves a las 15", "no, perdón, el viernes", "sí"),
           ("teoria", "will", FRI, time(15)), "correction", tools=CORRECTED),
    booked("em-es-sip", "es", ("clase de guitarra con Will el sábado a las 10", "sip"),
           ("violao", "will", SAT, time(10)), "emoji-and-short"),
    booked("em-es-check", "es", ("clase de batería mañana a las 12", "✅"),
           ("bateria", "davi", TUE, time(12)), "emoji-and-short"),
    answered("em-es-desde-que-edad", "es",
             ("clase de batería con Davi el miércoles a las 11",
              "¿desde qué edad aceptan alumnos? es para mi hijo de 10", "sí, reservala"),
             ("bateria", "davi", WED, time(11)), SABIA.faq_facts["age"],
             tools=ASKED_FAQ),
    answered("em-es-y-cuanto-dura", "es",
             ("clase de canto con Marisol el jueves a las 14", "¿y cuánto dura?", "perfecto, sí"),
             ("canto", "marisol", THU, time(14)), MIN_45),
]  # fmt: skip
