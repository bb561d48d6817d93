# Over 300 lines: one business's catalog, its calendar facts and its 66 conversations.
"""The fourteenth batch, blind: written from categories (never from a reported sentence, and
without reading the offline model's code, words, grammar or language data) and run before any
change for it (baseline: ``eval/baselines/whatsapp-batch14-before.md``), in Portuguese, English
and Spanish, on a business of another kind: a bicycle workshop ("Oficina de Bicicletas Pedal
Livre": a full tune-up, a brake adjustment, an inner tube change for a flat, wheel truing, a
bike fit and an e-bike diagnostic) that configured **no aliases**, so "revisão geral",
"tune-up", "puesta a punto", "freio", "brakes", "frenos", "pneu furado", "flat", "pinchazo",
"roda empenada", "wheel truing", "centrar la rueda", "bike elétrica", "e-bike", "bici
eléctrica" must be understood from the customer's own words or another language. Held out: its
cases are played by ``python -m eval --suite whatsapp-batch14`` only, not by the default run.

Categories kept from :mod:`eval.whatsapp_batch13`, with new wording, three cases each (one per
language): booking with every detail in one message, the customer giving their name
(``one-message``); step by step, one detail a message (``step-by-step``); who does a service
(``who-does``); a price (``price``); whether a mechanic works a given weekday (``works-day``:
they do not, and the reply names a day they do); a date ("dia 3", "December 4th", "el 5 de
diciembre"; ``date``); a weekday and a time (``weekday-time``); cancelling one of two brake
adjustments, and moving one (``appointments``); FAQ questions (``faq``); a "no" to a proposal
(``declined``); a yes on a condition that cannot hold (``conditional-yes``: a mechanic who is
off that day, a price below the service's, keeping the bike longer than the FAQ allows for
free): nothing booked; a question right after a proposal, the conversation's last message
(``question-after-proposal``: not a yes, nothing booked).

New categories:

- ``change-question``: after a proposal the customer asks for a change as a question ("dá pra
  ser às 11?", "tem outra pessoa nesse horário?", "would 4pm be possible?", "nothing earlier
  that morning?", "¿y con Lúcia a las 17 se puede?", "¿y el sábado a la misma hora?"), then
  says yes. Each change has exactly one answer (the one other mechanic free then; the one
  earlier free start that morning, a slot made busy by the customer's own appointment): the
  yes books the changed terms, never the old ones (three ``book_appointment`` calls: proposal,
  new proposal, confirmation).
- ``relative-day``: a day said relative to today: "depois de amanhã" / "the day after
  tomorrow" / "pasado mañana" (Wednesday 12/02), "terça da semana que vem" (Tuesday 12/08),
  "this coming Friday" (12/04), "el próximo lunes" (said on a Monday: 12/07). Booked then.
- ``typo-corrected``: the customer misspells a mechanic's name or a service ("Tiagi", "bike
  fir", "la ruda") and corrects it in the next message the WhatsApp way ("*Tiago", "fit*
  sorry, autocorrect", "rueda* jaja"), then gives the day and time and says yes: booked with
  the corrected name or service (for "Tiagi" two mechanics can change a tube at that time, so
  only the corrected name tells them apart).
- ``pick-by-words``: the customer asks which times are free, then picks by a weekday
  abbreviation ("qui 14h", "Thu 4pm", "el mié a las 14") or an hour in words ("às dez",
  "eleven works", "a las ocho y media"), then says yes: booked at that choice.
- ``cancel-by-date``: the customer has two brake adjustments (Tuesday 12/01 and Thursday 12/03)
  and says which one to cancel by a date ("do dia 1º", "on December 3rd") or a relative day
  ("de mañana"): that one is cancelled, the other stays.
- ``price-then-book``: the customer asks a price, then books the same service without naming
  it again ("então marca pra quinta às 9h", "ok, then book it for tomorrow at 2pm", "entonces
  reservámelo para el jueves a las 13"), then says yes: booked.
- ``count``: how many free starts a mechanic has on a day for a service. The reply must state
  the true number (as a number, not an hour: "3", "três", "three"; see :class:`CountStated`):
  Lúcia's bike fits on Friday, 10; Caio's e-bike diagnostics on Saturday when the customer's
  own wheel truing holds his 09:00–10:00, 3; Tiago's tube changes on Saturday, 8. Batch 13
  judged a reply's content with its own evaluator too (``AnsweredThenBooked``); this one is
  reported under ``task_success`` in the same way (a case's own evaluators run first, so the
  dataset's ``TaskSuccess`` becomes ``task_success_2``, which no figure reads).

Every case also requires that no two consecutive replies are the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid), as in
batches 10 to 13: "hoje"/"hoy" is Monday 11/30 (nothing before 10:00), "amanhã"/"tomorrow"/
"mañana" Tuesday 12/01 ("dia 1º"), Wednesday 12/02, Thursday 12/03 ("dia 3", "December 3rd"),
Friday 12/04 ("December 4th"), Saturday 12/05 ("el 5 de diciembre"), Sunday closed; next week's
Monday is 12/07 and Tuesday 12/08. No case says a bare "segunda"/"Monday"/"lunes" to book.

Tiago Moreira (mechanic: tune-up, brakes, tube, wheel truing) works Monday to Thursday
08:00–13:00 and Saturday 08:00–12:00 (not Friday); Lúcia Prates (mechanic and bike fitter:
tune-up, brakes, bike fit) works Monday to Friday 13:00–19:00 (not Saturday); Caio Nakamura
(e-bikes and wheels: e-bike diagnostic, tube, wheel truing) works Tuesday and Thursday
10:00–18:00, Friday 08:00–13:00 and Saturday 09:00–12:00 (not Monday or Wednesday).
Durations: brakes and tube 30 minutes, wheel truing and e-bike diagnostic 60, tune-up and bike
fit 90. So: a tune-up or brake adjustment is Tiago's before 13:00 (Monday to Thursday and
Saturday) and Lúcia's from 13:00 (Monday to Friday): never both; on Friday only Lúcia's, on
Saturday only Tiago's. A bike fit is only Lúcia's (last start 17:30), an e-bike diagnostic only
Caio's. A tube or wheel truing is Tiago's alone on Monday and Wednesday, before 10:00 on Tuesday
and Thursday and at 08:00/08:30 on Saturday; Caio's alone on Friday and from 13:00 on Tuesday
and Thursday; both can take one on Tuesday and Thursday from 10:00 to 12:00/12:30 and on
Saturday from 09:00. Prices: tune-up R$ 180, brakes R$ 45, tube R$ 35, wheel truing R$ 60, bike
fit R$ 250, e-bike diagnostic R$ 120. The FAQ (in Portuguese only) gives the address (Rua
Fradique Coutinho), the opening hours (weekdays 8h–19h, Saturday 8h–12h), payment (Pix, cash,
cards; tune-up and bike fit in up to 3x interest-free), parking (none: Zona Azul on the street,
a covered bike rack), cancellation (free up to 12 hours before, then R$ 20), storage (the bike
stays free for up to 3 days after the service, then R$ 10 a day) and parts (the price is the
labour; parts are charged separately, the tube is included in a tube change). The customer
has, in the appointment, cancel-by-date, "nothing earlier" and Saturday count cases, two brake
adjustments (Tiago, Tuesday 09:00; Lúcia, Thursday 15:00), a tune-up with Tiago on Wednesday at
08:00 (until 09:30) and a wheel truing with Caio on Saturday at 09:00 (until 10:00); every move
target below is free and within the mechanic's hours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, time

from pydantic_evals import Case
from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext

from agent_service.domain.catalog import WorkingHours
from eval.dataset import BOOK, Conversation, EvalCase, Expected, Language
from eval.evaluators import TASK_SUCCESS, fold, task_problems
from eval.harness import SALONS, Booked, SalonSpec, Transcript, local
from eval.salon_cases import SalonCases, Visit

SALON = "pedal"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))
NEXT_MON, NEXT_TUE = date(2026, 12, 7), date(2026, 12, 8)

SERVICES = {
    "revisao": (
        "Revisão Completa",
        90,
        18000,
        "Limpeza, lubrificação, ajuste de câmbio e freios, aperto geral e checagem de rolamentos.",
    ),
    "freio": ("Regulagem de Freios", 30, 4500, "Ajuste de freios V-brake, cantilever ou a disco."),
    "camara": (
        "Troca de Câmara de Ar",
        30,
        3500,
        "Troca da câmara de ar de uma roda, câmara inclusa.",
    ),
    "roda": ("Centragem de Roda", 60, 6000, "Alinhamento do aro e tensão dos raios."),
    "bikefit": ("Bike Fit", 90, 25000, "Ajuste de selim, guidão e pedivela ao corpo do ciclista."),
    "ebike": (
        "Diagnóstico de E-bike",
        60,
        12000,
        "Leitura de erros, teste de bateria, motor e sensores.",
    ),
}

PEDAL = SalonSpec(
    name="Oficina de Bicicletas Pedal Livre",
    services=SERVICES,
    # No aliases: the workshop wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "tiago": ("Tiago Moreira", "Mecânico", ("revisao", "freio", "camara", "roda")),
        "lucia": ("Lúcia Prates", "Mecânica e bike fitter", ("revisao", "freio", "bikefit")),
        "caio": ("Caio Nakamura", "Técnico de e-bikes e rodas", ("ebike", "camara", "roda")),
    },
    hours={
        "tiago": (
            *(WorkingHours(day_of_week=d, start=time(8), end=time(13)) for d in range(1, 5)),
            WorkingHours(day_of_week=6, start=time(8), end=time(12)),
        ),
        "lucia": tuple(
            WorkingHours(day_of_week=d, start=time(13), end=time(19)) for d in range(1, 6)
        ),
        "caio": (
            *(WorkingHours(day_of_week=d, start=time(10), end=time(18)) for d in (2, 4)),
            WorkingHours(day_of_week=5, start=time(8), end=time(13)),
            WorkingHours(day_of_week=6, start=time(9), end=time(12)),
        ),
    },
    # Written in Portuguese only.
    faq={
        "address": (
            "Onde fica a oficina?",
            "Rua Fradique Coutinho, 1120 — Pinheiros, São Paulo (ao lado da padaria).",
            ("endereço", "localização"),
        ),
        "hours": (
            "Qual é o horário de funcionamento?",
            "De segunda a sexta, das 8h às 19h; aos sábados, das 8h às 12h. Domingo fechado.",
            ("horário", "funcionamento", "abre", "fecha"),
        ),
        "payment": (
            "Quais são as formas de pagamento?",
            "Pix, dinheiro ou cartão de débito e crédito; a revisão completa e o bike fit podem "
            "ser parcelados em até 3x sem juros.",
            ("pagamento", "pix", "cartão", "parcelar"),
        ),
        "parking": (
            "Tem estacionamento?",
            "Não temos estacionamento próprio; há vagas de Zona Azul na rua e um bicicletário "
            "coberto na frente da oficina.",
            ("estacionamento", "carro", "vaga"),
        ),
        "cancel": (
            "Qual é a política de cancelamento?",
            "Cancelamento ou remarcação sem custo até 12 horas antes do horário; depois disso "
            "cobramos uma taxa de R$ 20.",
            ("cancelamento", "cancelar", "remarcar", "política"),
        ),
        "storage": (
            "Posso deixar a bike e buscar depois?",
            "Sim: a bike fica guardada sem custo por até 3 dias depois do serviço; depois disso "
            "cobramos R$ 10 por dia.",
            ("deixar a bike", "buscar depois", "guardar", "retirar"),
        ),
        "parts": (
            "As peças estão incluídas no preço?",
            "O valor do serviço é a mão de obra; peças como pastilhas, cabos e correntes são "
            "cobradas à parte, com orçamento aprovado antes. Na troca de câmara, a câmara já "
            "está incluída.",
            ("peças", "orçamento", "pastilha"),
        ),
    },
    faq_facts={
        "address": ("Fradique",),
        "hours": ("19h", "7pm", "7 pm"),
        "payment": (
            "3x",
            "sem juros",
            "interest-free",
            "interest free",
            "sin interes",
            "3 cuotas",
            "tres cuotas",
        ),
        "parking": ("Zona Azul", "bicicletário", "bike rack"),
        "cancel": ("12 horas", "12 hours", "doze horas", "twelve hours", "doce horas"),
        "storage": ("3 dias", "3 days", "3 días", "três dias", "three days", "tres días"),
        "parts": ("à parte", "separately", "por separado", "mão de obra", "labour", "labor"),
    },
)
SALONS[SALON] = PEDAL

FREIO_TUE = Booked("freio", "tiago", local(TUE, time(9)))
FREIO_THU = Booked("freio", "lucia", local(THU, time(15)))
REVISAO_WED = Booked("revisao", "tiago", local(WED, time(8)))
RODA_SAT = Booked("roda", "caio", local(SAT, time(9)))
EXISTING = (FREIO_TUE, FREIO_THU, REVISAO_WED, RODA_SAT)

# A proposal, a new proposal for the change asked, then the confirmed write.
CHANGED = (BOOK, BOOK, BOOK)

_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip


@dataclass
class CountStated(Evaluator[Conversation, Transcript, Expected]):
    """Task success as :class:`eval.evaluators.TaskSuccess` judges it, and the last reply
    states ``count`` as a number (digits not part of an hour, a price or another number:
    not "10:00", "10h", "10am", "R$ 10", "110") or in one of ``words``. Reported under
    ``task_success`` (see the module docstring)."""

    count: int
    words: tuple[str, ...]

    def evaluate(
        self, ctx: EvaluatorContext[Conversation, Transcript, Expected]
    ) -> dict[str, EvaluationReason]:
        assert ctx.metadata is not None
        problems = task_problems(ctx.output, ctx.metadata, SALONS[ctx.inputs.salon])
        reply = ctx.output.turns[-1].reply if ctx.output.turns else ""
        if ctx.output.error is None and not self.stated(reply):
            problems.append(f"the count {self.count} is not stated: {reply[:160]!r}")
        reason = "; ".join(problems) if problems else f"{ctx.metadata.outcome} as expected"
        return {TASK_SUCCESS: EvaluationReason(value=not problems, reason=reason)}

    def stated(self, reply: str) -> bool:
        folded = fold(reply)
        digits = rf"(?<![\d:.,$])(?<!r\$ ){self.count}(?![\d:.,]\d|\d|h\b|h\d|\s?[ap]\.?m\b)"
        if re.search(digits, folded):
            return True
        return any(re.search(rf"\b{re.escape(fold(w))}\b", folded) for w in self.words)


def counted(
    name: str,
    language: Language,
    message: str,
    count: int,
    words: tuple[str, ...],
    existing: tuple[Booked, ...] = (),
) -> EvalCase:
    """How many free starts: the reply states ``count``; nothing booked or changed."""
    expected = Expected(
        category="count", language=language, outcome="info", tools=(), distinct_replies=True
    )
    return Case(
        name=name,
        inputs=Conversation((message,), existing, SALON),
        metadata=expected,
        evaluators=(CountStated(count, words),),
    )


def booked_around(
    name: str, language: Language, messages: tuple[str, ...], what: Visit, category: str
) -> EvalCase:
    """Booked ``what`` after a change asked as a question, while the customer's own
    appointments (``EXISTING``) hold some slots; none of them changes."""
    service, professional, day, at = what
    expected = Expected(
        category=category, language=language, outcome="booked", tools=CHANGED, service=service,
        professional=professional, start=local(day, at), distinct_replies=True,
    )  # fmt: skip
    return _CASES.case(name, messages, expected, EXISTING)


def cancel_by_date(
    name: str, language: Language, messages: tuple[str, ...], target: Booked
) -> EvalCase:
    """One of the two brake adjustments, named by a date, cancelled."""
    case = changed(name, language, messages, target)
    assert case.metadata is not None
    metadata = Expected(
        category="cancel-by-date", language=language, outcome="cancelled",
        tools=case.metadata.tools, service=target.service, target=target.start,
        distinct_replies=True,
    )  # fmt: skip
    return _CASES.case(name, messages, metadata, EXISTING)


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("pd-pt-tudo-numa-mensagem", "pt",
           ("bom dia! sou o Marcelo Antunes, queria deixar minha bike pra uma revisão geral com "
            "o Tiago na quarta às 10h, pode ser?", "sim"),
           ("revisao", "tiago", WED, time(10)), "one-message"),
    booked("pd-pt-passo-a-passo", "pt",
           ("oi, minha bike ta com o freio fraco, queria regular", "amanhã", "às 15h", "sim"),
           ("freio", "lucia", TUE, time(15)), "step-by-step"),
    states("pd-pt-quem-mexe-eletrica", "pt", ("quem mexe com bike elétrica aí?",), "who-does",
           ("Caio",)),
    states("pd-pt-pneu-furado-preco", "pt", ("quanto fica pra arrumar pneu furado?",), "price",
           ("35",)),
    states("pd-pt-tiago-sexta", "pt", ("o Tiago trabalha sexta?",), "works-day",
           ("segunda", "terça", "quarta", "quinta", "sábado")),
    booked("pd-pt-dia-3-bike-fit", "pt", ("dia 3 às 16h dá pra fazer bike fit?", "pode ser"),
           ("bikefit", "lucia", THU, time(16)), "date"),
    booked("pd-pt-sabado-as-8", "pt", ("sabado as 8 da pra trocar a camara do pneu?", "fechado"),
           ("camara", "tiago", SAT, time(8)), "weekday-time"),
    changed("pd-pt-desmarca-freio-quinta", "pt",
            ("vou ter que desmarcar a regulagem de freio de quinta", "pode"), FREIO_THU),
    faq("pd-pt-estacionamento", "pt",
        ("vcs tem estacionamento? vou levar a bike de carro",), "parking"),
    nothing("pd-pt-deixa-pra-la", "pt", ("revisão com a Lúcia sexta 14h", "deixa pra lá, obrigado"),
            "declined", (BOOK,)),
    nothing("pd-pt-sim-se-for-caio", "pt",
            ("centragem de roda quarta 10h", "sim, se for com o Caio"),
            "conditional-yes", (BOOK,)),
    nothing("pd-pt-aceita-cartao", "pt",
            ("troca de câmara com o Tiago quarta 11h", "aceita cartão?"),
            "question-after-proposal", (BOOK,)),
    booked("pd-pt-da-pra-ser-as-11", "pt",
           ("regulagem de freio com o Tiago quinta 10h", "dá pra ser às 11?", "sim"),
           ("freio", "tiago", THU, time(11)), "change-question", tools=CHANGED),
    booked("pd-pt-outra-pessoa", "pt",
           ("troca de câmara com o Tiago terça 11h", "tem outra pessoa nesse horário?",
            "pode ser"),
           ("camara", "caio", TUE, time(11)), "change-question", tools=CHANGED),
    booked("pd-pt-depois-de-amanha", "pt",
           ("depois de amanhã às 11h, regulagem de freio, tem?", "sim"),
           ("freio", "tiago", WED, time(11)), "relative-day"),
    booked("pd-pt-semana-que-vem", "pt",
           ("centragem de roda terça da semana que vem às 15h", "pode marcar"),
           ("roda", "caio", NEXT_TUE, time(15)), "relative-day"),
    booked("pd-pt-tiagi", "pt",
           ("queria trocar a câmara do pneu com o Tiagi", "*Tiago", "terça 11h", "isso"),
           ("camara", "tiago", TUE, time(11)), "typo-corrected"),
    booked("pd-pt-as-dez", "pt",
           ("que horários tem pra regulagem de freio quarta de manhã?", "às dez", "sim"),
           ("freio", "tiago", WED, time(10)), "pick-by-words"),
    booked("pd-pt-qui-14h", "pt",
           ("quais dias o Caio tem pra bike elétrica essa semana?", "qui 14h", "sim"),
           ("ebike", "caio", THU, time(14)), "pick-by-words"),
    cancel_by_date("pd-pt-cancela-dia-1", "pt",
                   ("cancela meu freio do dia 1º por favor", "sim"), FREIO_TUE),
    booked("pd-pt-preco-entao-marca", "pt",
           ("quanto é a centragem de roda?", "blz, então marca pra quinta às 9h", "sim"),
           ("roda", "tiago", THU, time(9)), "price-then-book"),
    counted("pd-pt-quantos-horarios-lucia", "pt",
            "quantos horários a Lúcia tem livres sexta pra bike fit?", 10, ("dez",)),
    # -- English --------------------------------------------------------------------------------
    booked("pd-en-all-in-one", "en",
           ("Hi there, this is Daniel Brooks. Could I book a wheel truing with Caio on "
            "Thursday, December 3rd at 2pm? Thanks!", "yes"),
           ("roda", "caio", THU, time(14)), "one-message"),
    booked("pd-en-step-by-step", "en", ("hey, my bike needs a tune-up", "Friday", "2pm", "yes"),
           ("revisao", "lucia", FRI, time(14)), "step-by-step"),
    states("pd-en-who-bike-fit", "en", ("who does bike fits here?",), "who-does", ("Lúcia",)),
    states("pd-en-brakes-price", "en", ("how much do you charge to fix the brakes?",), "price",
           ("45",)),
    states("pd-en-caio-wednesdays", "en", ("Is Caio in on Wednesdays?",), "works-day",
           ("Tuesday", "Thursday", "Friday", "Saturday")),
    booked("pd-en-december-4th", "en",
           ("can I bring my e-bike in on December 4th at 10am for a diagnostic?", "yes"),
           ("ebike", "caio", FRI, time(10)), "date"),
    booked("pd-en-saturday-11am", "en",
           ("do you have a brake adjustment slot Saturday at 11am?", "great, yes"),
           ("freio", "tiago", SAT, time(11)), "weekday-time"),
    changed("pd-en-push-brakes", "en",
            ("can I push my Tuesday brake adjustment to Thursday, same time?", "yes"), FREIO_TUE,
            (THU, time(9))),
    faq("pd-en-cancellation-policy", "en",
        ("what's your cancellation policy? something might come up on my end",), "cancel"),
    nothing("pd-en-never-mind", "en",
            ("bike fit with Lúcia on Wednesday at 1pm", "hmm no, never mind"), "declined",
            (BOOK,)),
    nothing("pd-en-under-100", "en",
            ("tune-up with Tiago on Saturday at 9am", "yes, as long as it's under 100 bucks"),
            "conditional-yes", (BOOK,)),
    nothing("pd-en-leave-the-bike", "en",
            ("flat tire fix with Caio on Friday at 9am",
             "can I leave the bike there and pick it up later?"),
            "question-after-proposal", (BOOK,)),
    booked("pd-en-would-4pm-work", "en",
           ("e-bike diagnostic on Thursday at 3pm", "would 4pm be possible?", "yes"),
           ("ebike", "caio", THU, time(16)), "change-question", tools=CHANGED),
    booked_around("pd-en-nothing-earlier", "en",
                  ("e-bike diagnostic with Caio on Saturday at 10:30am",
                   "nothing earlier that morning?", "yes"),
                  ("ebike", "caio", SAT, time(10)), "change-question"),
    booked("pd-en-day-after-tomorrow", "en",
           ("bike fit the day after tomorrow at 2pm?", "sure"),
           ("bikefit", "lucia", WED, time(14)), "relative-day"),
    booked("pd-en-this-coming-friday", "en",
           ("can I get a flat fixed this coming Friday at 9am?", "yes please"),
           ("camara", "caio", FRI, time(9)), "relative-day"),
    booked("pd-en-bike-fir", "en",
           ("I'd like a bike fir with Lúcia", "fit* sorry, autocorrect", "Wednesday at 3pm",
            "yes"),
           ("bikefit", "lucia", WED, time(15)), "typo-corrected"),
    booked("pd-en-eleven-works", "en",
           ("when can Caio look at my e-bike on Friday?", "eleven works", "yes"),
           ("ebike", "caio", FRI, time(11)), "pick-by-words"),
    booked("pd-en-thu-4pm", "en",
           ("what times does Lúcia have for a tune-up this week?", "Thu 4pm", "yes"),
           ("revisao", "lucia", THU, time(16)), "pick-by-words"),
    cancel_by_date("pd-en-cancel-december-3rd", "en",
                   ("please cancel my brake appointment on December 3rd", "yes"), FREIO_THU),
    booked("pd-en-price-then-book", "en",
           ("how much is a brake adjustment?", "ok, then book it for tomorrow at 2pm", "yes"),
           ("freio", "lucia", TUE, time(14)), "price-then-book"),
    counted("pd-en-how-many-caio-saturday", "en",
            "how many free slots does Caio have on Saturday for an e-bike diagnostic?", 3,
            ("three",), EXISTING),
    # -- Spanish --------------------------------------------------------------------------------
    booked("pd-es-todo-en-un-mensaje", "es",
           ("Hola, soy Valentina Ríos. Quiero reservar un bike fit con Lúcia el martes 1 de "
            "diciembre a las 15. ¿Se puede?", "sí"),
           ("bikefit", "lucia", TUE, time(15)), "one-message"),
    booked("pd-es-paso-a-paso", "es",
           ("hola, se me pinchó la rueda de la bici", "el jueves", "a las 16", "sí"),
           ("camara", "caio", THU, time(16)), "step-by-step"),
    states("pd-es-quien-centra-ruedas", "es", ("¿quién centra ruedas?",), "who-does",
           ("Tiago",), ("Caio",)),
    states("pd-es-puesta-a-punto-precio", "es", ("¿cuánto cuesta la puesta a punto de la bici?",),
           "price", ("180",)),
    states("pd-es-lucia-sabados", "es", ("¿Lúcia atiende los sábados?",), "works-day",
           ("lunes", "martes", "miércoles", "jueves", "viernes")),
    booked("pd-es-5-de-diciembre", "es",
           ("el 5 de diciembre a las 9, ¿pueden hacerme una puesta a punto?", "sí"),
           ("revisao", "tiago", SAT, time(9)), "date"),
    booked("pd-es-viernes-17-frenos", "es",
           ("¿el viernes a las 17 tienen lugar para ajustar los frenos?", "perfecto, sí"),
           ("freio", "lucia", FRI, time(17)), "weekday-time"),
    changed("pd-es-revision-al-jueves", "es",
            ("¿puedo cambiar la revisión del miércoles para el jueves a las 10?", "sí"),
            REVISAO_WED, (THU, time(10))),
    faq("pd-es-dejar-la-bici", "es",
        ("¿puedo dejar la bici y pasar a buscarla otro día?",), "storage"),
    nothing("pd-es-mejor-no", "es",
            ("cambio de cámara con Tiago hoy a las 11", "no, mejor no, gracias"), "declined",
            (BOOK,)),
    nothing("pd-es-si-la-guardan-una-semana", "es",
            ("diagnóstico de bici eléctrica el viernes a las 9",
             "sí, si me la guardan una semana sin cargo"),
            "conditional-yes", (BOOK,)),
    nothing("pd-es-cuanto-tarda", "es",
            ("centrar la rueda con Caio el martes a las 16", "¿cuánto tarda más o menos?"),
            "question-after-proposal", (BOOK,)),
    booked("pd-es-y-con-lucia-a-las-17", "es",
           ("ajuste de frenos con Tiago el jueves a las 9", "¿y con Lúcia a las 17 se puede?",
            "sí"),
           ("freio", "lucia", THU, time(17)), "change-question", tools=CHANGED),
    booked("pd-es-y-el-sabado", "es",
           ("cambio de cámara con Caio el viernes a las 10", "¿y el sábado a la misma hora?",
            "sí"),
           ("camara", "caio", SAT, time(10)), "change-question", tools=CHANGED),
    booked("pd-es-pasado-manana", "es", ("pasado mañana a las 10, ¿una puesta a punto?", "sí"),
           ("revisao", "tiago", WED, time(10)), "relative-day"),
    booked("pd-es-proximo-lunes", "es", ("el próximo lunes a las 15, bike fit", "sí"),
           ("bikefit", "lucia", NEXT_MON, time(15)), "relative-day"),
    booked("pd-es-la-ruda", "es",
           ("necesito centrar la ruda de la bici", "rueda* jaja", "el jueves a las 15", "sí"),
           ("roda", "caio", THU, time(15)), "typo-corrected"),
    booked("pd-es-ocho-y-media", "es",
           ("¿qué horarios hay el sábado para cambiar una cámara?", "a las ocho y media", "sí"),
           ("camara", "tiago", SAT, time(8, 30)), "pick-by-words"),
    booked("pd-es-el-mie", "es",
           ("¿qué días tiene Lúcia para bike fit esta semana?", "el mié a las 14", "sí"),
           ("bikefit", "lucia", WED, time(14)), "pick-by-words"),
    cancel_by_date("pd-es-cancelar-de-manana", "es",
                   ("quiero cancelar el ajuste de frenos de mañana", "sí"), FREIO_TUE),
    booked("pd-es-precio-y-reserva", "es",
           ("¿cuánto sale el bike fit?", "bueno, entonces reservámelo para el jueves a las 13",
            "sí"),
           ("bikefit", "lucia", THU, time(13)), "price-then-book"),
    counted("pd-es-cuantos-turnos-tiago", "es",
            "¿cuántos turnos libres tiene Tiago el sábado para cambiar una cámara?", 8,
            ("ocho",)),
]  # fmt: skip
