# Over 300 lines: one business's catalog, its calendar facts and its 63 conversations.
"""The twelfth batch, blind: written from categories (never from a reported sentence, and
without reading the offline model's code, words, grammar or language data) and run before any
change for it (baseline: ``eval/baselines/whatsapp-batch12-before.md``), in Portuguese, English
and Spanish, on a business of another kind: a car wash and detailing shop ("Tamanduá Estética
Automotiva": a quick exterior wash, a full wash, a motorcycle wash, headlight restoration, an
interior deep clean and a paint polish). This time the shop **configured aliases**, in
Portuguese only (its own everyday words: "lavagem rápida", "ducha", "completa", "lavar moto",
"farol amarelado", "higienizar", "limpeza de banco", "tirar risco"...), so the batch measures
conversation behaviour more than vocabulary; English and Spanish customers still use their own
words ("full wash", "interior deep clean", "polish", "lavado completo", "limpieza del
tapizado", "pulido", "faros"). Held out: its cases are played by ``python -m eval --suite
whatsapp-batch12`` only, not by the default run.

Categories kept from :mod:`eval.whatsapp_batch11` / :mod:`eval.whatsapp_batch10`, with new
wording, two or three cases each: booking with every detail in one message, the customer giving
their name (``one-message``); step by step, one detail a message (``step-by-step``); which
professional does a service (``who-does``); a price (``price``); whether a professional works a
given weekday (``works-day``: they do not, and the reply names a day they do); a date ("dia 3",
"el 5 de diciembre"; ``date``); a weekday and a time (``weekday-time``); cancelling one of two
appointments of the same service, and moving one (``appointments``); FAQ questions (``faq``);
a "no" to a proposal (``declined``); a yes on a condition that cannot hold
(``conditional-yes``: a professional who is not in that day, a price below the service's, more
instalments than the FAQ allows): nothing booked; a question right after a proposal, the
conversation's last message (``question-after-proposal``: not a yes, nothing booked).

New categories, six cases each (two per language):

- ``burst``: the booking split over two or three messages sent one right after the other
  ("oi" / "queria marcar uma lavagem completa" / "amanha 10h"), then a yes. The harness cannot
  send a burst: :meth:`eval.harness.Harness.play` awaits each message's turn before sending the
  next, so every message gets its own reply (production answers a burst in one turn). These
  cases are therefore consecutive messages; what is judged is the booking after the yes, and
  that no reply repeats the one before it.
- ``move-relative``: moving one of the customer's appointments by a relative amount or to a
  relative slot ("empurra 1 hora", "30 min earlier", "same time next week", "atrasar una hora
  y media", "adelantar una hora", "pra quinta no mesmo horario"): listed, proposed, confirmed
  (``list_my_appointments``, then ``reschedule_appointment`` twice), at the computed time.
- ``typos``: days, times and names misspelled ("sexat", "10hrs", "rodirgo", "qinta", "3 da
  tard", "tuesdy", "Evreton", "thrusday", "restoraton", "miercole", "Pricsila", "jeuves").
- ``part-time``: a time with a part of the day ("10 da manha", "7 da noite", "2 in the
  afternoon", "8 in the morning", "a las 10 de la mañana", "a las 6 de la tarde"): booked at
  exactly that time.
- ``earliest-anyone``: "the first free time with anyone" today or tomorrow, the customer saying
  they will take it, then a yes: the earliest start any professional of the service has
  (today's notice included) is proposed and booked.
- ``two-people``: two services for two people at the same time ("eu e minha irma", "me and my
  son", "para mí y mi hermana"). What a demanding customer expects: every detail is given and
  both can be done at that time, so after ONE yes both are booked at that same start, each with
  the one professional who can take it (at every such time the assignment is forced: see the
  calendar below). The booking tool books one service, or several one after another, per call,
  so two appointments at the same start are two proposals and two confirmations: exactly four
  ``book_appointment`` calls. A question instead of the proposal fails the case (nothing in
  these messages is missing or ambiguous).

Every case also requires that no two consecutive replies are the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid), as in
batches 10 and 11: "hoje"/"today"/"hoy" is Monday 11/30 (nothing before 10:00),
"amanhã"/"tomorrow"/"mañana" Tuesday 12/01, Wednesday 12/02, Thursday 12/03 ("dia 3"), Friday
12/04, Saturday 12/05 ("el 5 de diciembre"), Sunday closed; next week's Wednesday is 12/09 and
Friday 12/11. No case says a bare "segunda"/"Monday"/"lunes" to book.

Everton Souza (washer: quick wash, full wash, motorcycle wash) works Monday to Saturday
08:00–14:00; Rodrigo Takeda (washer and interior cleaner: quick wash, full wash, interior deep
clean) works Monday to Friday 12:00–20:00; Priscila Nogueira (polisher and detailer: interior
deep clean, polish, headlights) works Tuesday, Wednesday and Thursday 09:00–18:00 and Saturday
08:00–13:00 (not Monday or Friday). Durations: quick wash and motorcycle wash 30 minutes, full
wash 60, headlights 90, interior deep clean 180, polish 240. So: a quick or full wash before
12:00, or on Saturday, is only Everton's, from 12:00 to 13:00 (13:30 for a quick wash) both
can start one, after that only Rodrigo (latest full wash 19:00); motorcycles only Everton's
(last start 13:30); headlights and polish only Priscila's (latest polish 14:00 on Tuesday to
Thursday, 09:00 on Saturday); an interior deep clean on Monday or Friday is only Rodrigo's
(12:00 to 17:00), before 12:00 on Tuesday to Thursday only Priscila's, after 15:00 only
Rodrigo's, on Saturday only Priscila's (08:00 to 10:00). The earliest today (Monday): a quick
or full wash 10:00 (Everton; notice), an interior deep clean 12:00 (Rodrigo); tomorrow
(Tuesday): a quick or full wash 08:00 (Everton), an interior deep clean 09:00 (Priscila).
Prices: quick wash R$ 50, full wash R$ 90, motorcycle R$ 40, headlights R$ 150, interior deep
clean R$ 380, polish R$ 700. The FAQ (in Portuguese only) says a rewash is free if it rains
within 24 hours, pick-up and delivery is free within 5 km, polish and deep clean can be split in
up to 3 instalments, SUVs and pick-ups pay 20% more, there is a waiting room with coffee and
wi-fi, products are biodegradable, and changes are free up to 3 hours before. The customer has,
in the appointment and move cases, two full washes (Everton, Tuesday 10:00; Rodrigo, Thursday
15:00), an interior deep clean with Priscila on Wednesday at 09:00 (until 12:00), a polish with
Priscila on Saturday at 08:00 and a motorcycle wash with Everton on Friday at 11:00; every move
target below is free and within the professional's hours.
"""

from __future__ import annotations

from datetime import date, time

from agent_service.domain.catalog import WorkingHours
from eval.dataset import BOOK, LIST_MINE, RESCHEDULE, SEARCH, EvalCase, Expected, Language
from eval.harness import SALONS, Booked, SalonSpec, local
from eval.salon_cases import SalonCases

SALON = "tamandua"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))
NEXT_WED, NEXT_FRI = date(2026, 12, 9), date(2026, 12, 11)

SERVICES = {
    "simples": (
        "Lavagem Simples",
        30,
        5000,
        "Lavagem externa com shampoo neutro, secagem e pretinho nos pneus.",
    ),
    "completa": (
        "Lavagem Completa",
        60,
        9000,
        "Por fora e por dentro: aspiração, painel, vidros, tapetes e caixas de roda.",
    ),
    "moto": ("Lavagem de Moto", 30, 4000, "Lavagem da moto com desengraxe da corrente."),
    "farois": (
        "Revitalização de Faróis",
        90,
        15000,
        "Lixamento e polimento dos faróis amarelados, com verniz de proteção UV.",
    ),
    "higienizacao": (
        "Higienização Interna",
        180,
        38000,
        "Bancos, carpete e teto com extratora; tira manchas, cheiro e pelo de pet.",
    ),
    "polimento": (
        "Polimento Técnico",
        240,
        70000,
        "Correção de riscos leves e polimento da pintura em três etapas, com cera no fim.",
    ),
}

TAMANDUA = SalonSpec(
    name="Tamanduá Estética Automotiva",
    services=SERVICES,
    # The owner's own words, in Portuguese only.
    service_aliases={
        "simples": ("lavagem simples", "lavagem rápida", "lavagem por fora", "ducha"),
        "completa": ("lavagem completa", "completa", "lavagem por dentro e por fora"),
        "moto": ("moto", "lavar moto", "lavagem da moto"),
        "farois": ("farol", "faróis", "polimento de farol", "farol amarelado"),
        "higienizacao": (
            "higienização",
            "higienizar",
            "limpeza de banco",
            "lavagem de banco",
            "limpeza interna",
        ),
        "polimento": ("polimento", "polir", "tirar risco", "espelhamento"),
    },
    professionals={
        "everton": ("Everton Souza", "Lavador (carros e motos)", ("simples", "completa", "moto")),
        "rodrigo": (
            "Rodrigo Takeda",
            "Lavador e higienizador",
            ("simples", "completa", "higienizacao"),
        ),
        "priscila": (
            "Priscila Nogueira",
            "Polidora e detalhista",
            ("higienizacao", "polimento", "farois"),
        ),
    },
    hours={
        "everton": tuple(
            WorkingHours(day_of_week=d, start=time(8), end=time(14)) for d in range(1, 7)
        ),
        "rodrigo": tuple(
            WorkingHours(day_of_week=d, start=time(12), end=time(20)) for d in range(1, 6)
        ),
        "priscila": (
            *(WorkingHours(day_of_week=d, start=time(9), end=time(18)) for d in (2, 3, 4)),
            WorkingHours(day_of_week=6, start=time(8), end=time(13)),
        ),
    },
    # Written in Portuguese only.
    faq={
        "address": (
            "Onde vocês ficam?",
            "Av. Sete de Setembro, 4120 — Batel, Curitiba (entrada pela rua de trás).",
            ("endereço", "localização"),
        ),
        "rain": (
            "Se chover depois da lavagem, vocês lavam de novo?",
            "Sim: se chover em até 24 horas depois de uma lavagem simples ou completa, a gente "
            "refaz a parte de fora sem custo, é só mostrar o comprovante.",
            ("chuva", "choveu", "garantia"),
        ),
        "pickup": (
            "Vocês buscam e entregam o carro?",
            "Sim, o leva e traz é grátis até 5 km do lava-jato; acima disso cobramos R$ 20.",
            ("leva e traz", "buscar", "entregar"),
        ),
        "payment": (
            "Quais são as formas de pagamento?",
            "Pix, dinheiro, débito ou crédito; polimento e higienização podem ser parcelados em "
            "até 3x sem juros no cartão.",
            ("pagamento", "parcelar", "cartão", "pix"),
        ),
        "suv": (
            "SUV e caminhonete pagam mais?",
            "Sim: SUVs, caminhonetes e vans têm acréscimo de 20% sobre o preço da tabela.",
            ("suv", "caminhonete", "picape", "van", "tamanho do carro"),
        ),
        "waiting": (
            "Posso esperar no local?",
            "Pode sim: temos sala de espera com ar-condicionado, café e wi-fi.",
            ("esperar", "sala de espera", "wi-fi"),
        ),
        "products": (
            "Quais produtos vocês usam?",
            "Só produtos biodegradáveis e água de reúso; a cera do polimento é de carnaúba.",
            ("produto", "ecológico", "água"),
        ),
        "cancellation": (
            "Qual é a política de cancelamento?",
            "Remarcar ou cancelar é grátis até 3 horas antes; depois disso, no polimento e na "
            "higienização cobramos R$ 50.",
            ("cancelamento", "remarcar", "desmarcar"),
        ),
    },
    faq_facts={
        "address": ("Sete de Setembro",),
        "rain": ("24 horas", "24 hours", "24 h", "vinte e quatro"),
        "pickup": ("5 km", "5km", "cinco km"),
        "payment": (
            "3x",
            "3 vezes",
            "três vezes",
            "3 instalments",
            "3 installments",
            "three instalments",
            "three installments",
            "3 cuotas",
            "tres cuotas",
        ),
        "suv": ("20%", "20 %"),
        "waiting": ("wi-fi", "wifi", "café", "coffee"),
        "products": ("biodegrad",),
        "cancellation": ("3 horas", "3 hours", "tres horas", "três horas"),
    },
)
SALONS[SALON] = TAMANDUA

COMPLETA_TUE = Booked("completa", "everton", local(TUE, time(10)))
COMPLETA_THU = Booked("completa", "rodrigo", local(THU, time(15)))
HIGIENIZACAO_WED = Booked("higienizacao", "priscila", local(WED, time(9)))
POLIMENTO_SAT = Booked("polimento", "priscila", local(SAT, time(8)))
MOTO_FRI = Booked("moto", "everton", local(FRI, time(11)))
EXISTING = (COMPLETA_TUE, COMPLETA_THU, HIGIENIZACAO_WED, POLIMENTO_SAT, MOTO_FRI)

# Two people at the same start: two proposals, then both confirmed after one yes.
TWO = (BOOK, BOOK, BOOK, BOOK)
_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip


def moved(
    name: str,
    language: Language,
    messages: tuple[str, ...],
    target: Booked,
    to: tuple[date, time],
) -> EvalCase:
    """``target`` (one of ``EXISTING``) moved by a relative amount or to a relative slot."""
    expected = Expected(
        category="move-relative", language=language, outcome="rescheduled",
        tools=(LIST_MINE, RESCHEDULE, RESCHEDULE), service=target.service, start=local(*to),
        target=target.start, distinct_replies=True,
    )  # fmt: skip
    return _CASES.case(name, messages, expected, EXISTING)


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("lj-pt-tudo-numa-mensagem", "pt",
           ("bom dia! aqui e o Marcos Vinicius, queria deixar meu carro pra fazer um polimento "
            "com a priscila quarta as 9h, tem vaga?", "sim"),
           ("polimento", "priscila", WED, time(9)), "one-message"),
    states("lj-pt-quem-higieniza", "pt", ("quem faz a higienizacao dos bancos ai?",),
           "who-does", ("Rodrigo",), ("Priscila",)),
    states("lj-pt-preco-polimento", "pt", ("qnto ta o polimento?",), "price", ("700",)),
    booked("lj-pt-dia-3", "pt", ("dia 3 as 16h da pra fazer uma lavagem completa?", "pode ser"),
           ("completa", "rodrigo", THU, time(16)), "date"),
    booked("lj-pt-moto-terca", "pt", ("tem lavagem de moto terca as 13h?", "pode marcar"),
           ("moto", "everton", TUE, time(13)), "weekday-time"),
    changed("lj-pt-cancela-lavagem-quinta", "pt",
            ("cancela a lavagem de quinta pfv, nao vou conseguir levar o carro", "isso"),
            COMPLETA_THU),
    faq("lj-pt-chuva", "pt", ("se chover depois q eu lavar o carro vcs lavam de novo?",), "rain"),
    nothing("lj-pt-sim-se-for-priscila", "pt",
            ("higienizacao sexta 14h", "sim, se for com a priscila"), "conditional-yes", (BOOK,)),
    nothing("lj-pt-demora-quanto", "pt",
            ("polimento com a priscila sabado 8h", "demora qto tempo?"),
            "question-after-proposal", (BOOK,)),
    booked("lj-pt-burst-oi", "pt",
           ("oi", "queria marcar uma lavagem completa", "amanha 10h", "sim"),
           ("completa", "everton", TUE, time(10)), "burst"),
    booked("lj-pt-burst-polimento-sabado", "pt",
           ("bom diaa", "vcs tem horario pra polimento sabado?", "8h", "fechado"),
           ("polimento", "priscila", SAT, time(8)), "burst"),
    moved("lj-pt-empurra-1-hora", "pt",
          ("empurra minha lavagem de terça 1 hora pfv", "sim"), COMPLETA_TUE, (TUE, time(11))),
    moved("lj-pt-quinta-mesmo-horario", "pt",
          ("a higienizacao de quarta passa pra quinta no mesmo horario?", "pode ser"),
          HIGIENIZACAO_WED, (THU, time(9))),
    booked("lj-pt-sexat-10hrs", "pt", ("lavagem completa sexat as 10hrs", "sim"),
           ("completa", "everton", FRI, time(10)), "typos"),
    booked("lj-pt-rodirgo-qinta", "pt",
           ("higienizacao com o rodirgo qinta as 3 da tard", "isso"),
           ("higienizacao", "rodrigo", THU, time(15)), "typos"),
    booked("lj-pt-10-da-manha", "pt", ("lavagem simples amanha 10 da manha", "sim"),
           ("simples", "everton", TUE, time(10)), "part-time"),
    booked("lj-pt-7-da-noite", "pt", ("da pra fazer uma completa quarta 7 da noite?", "sim"),
           ("completa", "rodrigo", WED, time(19)), "part-time"),
    booked("lj-pt-primeiro-hoje", "pt",
           ("qual o primeiro horario livre hj pra lavagem completa? com qualquer um, ja marca",
            "sim"),
           ("completa", "everton", MON, time(10)), "earliest-anyone"),
    booked("lj-pt-primeiro-amanha", "pt",
           ("amanha qual o primeiro horario q vcs tem pra higienizacao? tanto faz quem faz, "
            "quero o mais cedo", "pode ser"),
           ("higienizacao", "priscila", TUE, time(9)), "earliest-anyone"),
    booked("lj-pt-eu-e-minha-irma", "pt",
           ("eu e minha irma queremos lavar os 2 carros amanha meio dia, lavagem completa nos "
            "dois, ao mesmo tempo", "sim"),
           ("completa", "everton", TUE, time(12)), "two-people",
           (("completa", "rodrigo", TUE, time(12)),), tools=TWO),
    booked("lj-pt-eu-e-meu-pai", "pt",
           ("quarta 10h vamos eu e meu pai: eu quero higienizacao no meu carro e ele uma "
            "lavagem simples no dele, os dois no mesmo horario", "pode marcar"),
           ("higienizacao", "priscila", WED, time(10)), "two-people",
           (("simples", "everton", WED, time(10)),), tools=TWO),
    # -- English --------------------------------------------------------------------------------
    booked("lj-en-all-in-one", "en",
           ("Hi, this is Sarah Collins. I'd like to get the foggy headlights on my Civic restored "
            "by Priscila on Saturday, December 5th at 10am. Thanks!", "yes"),
           ("farois", "priscila", SAT, time(10)), "one-message"),
    booked("lj-en-step-by-step", "en",
           ("hi, I want to book an interior deep clean", "Rodrigo", "Friday", "4pm", "yes"),
           ("higienizacao", "rodrigo", FRI, time(16)), "step-by-step"),
    states("lj-en-deep-clean-price", "en", ("how much is an interior deep clean?",), "price",
           ("380",)),
    states("lj-en-priscila-mondays", "en", ("does Priscila work Mondays?",), "works-day",
           ("Tuesday", "Wednesday", "Thursday", "Saturday")),
    booked("lj-en-headlights-wednesday", "en",
           ("can I get my headlights done on Wednesday at 4pm?", "yes"),
           ("farois", "priscila", WED, time(16)), "weekday-time"),
    changed("lj-en-move-saturday-polish", "en",
            ("can you move my Saturday polish to Thursday at 10am?", "yes"), POLIMENTO_SAT,
            (THU, time(10))),
    nothing("lj-en-never-mind", "en",
            ("full wash with Everton tomorrow at 9am", "no, never mind"), "declined", (BOOK,)),
    nothing("lj-en-yes-if-under-400", "en",
            ("polish with Priscila on Thursday at 9am", "yes, if it's under 400"),
            "conditional-yes", (BOOK,)),
    nothing("lj-en-wait-there", "en",
            ("full wash with Rodrigo Friday at 5pm", "can I wait there while you do it?"),
            "question-after-proposal", (BOOK,)),
    booked("lj-en-burst-full-wash", "en",
           ("hi there", "I'd like to book a full wash for my car", "Friday at 3pm", "yes"),
           ("completa", "rodrigo", FRI, time(15)), "burst"),
    booked("lj-en-burst-headlights", "en",
           ("hey, quick one", "can you restore my foggy headlights?", "wednesday 2pm is good",
            "yep"),
           ("farois", "priscila", WED, time(14)), "burst"),
    moved("lj-en-30-min-earlier", "en",
          ("can we do my Thursday car wash 30 min earlier?", "yes"), COMPLETA_THU,
          (THU, time(14, 30))),
    moved("lj-en-same-time-next-week", "en",
          ("could you push my interior cleaning to the same time next week?", "yes please"),
          HIGIENIZACAO_WED, (NEXT_WED, time(9))),
    booked("lj-en-evreton-tuesdy", "en",
           ("can i book a full wash with Evreton on tuesdy at 11am?", "yes"),
           ("completa", "everton", TUE, time(11)), "typos"),
    booked("lj-en-thrusday", "en", ("headlight restoraton on thrusday at 10am", "sure"),
           ("farois", "priscila", THU, time(10)), "typos"),
    booked("lj-en-2-in-the-afternoon", "en",
           ("full wash on Thursday at 2 in the afternoon", "yes"),
           ("completa", "rodrigo", THU, time(14)), "part-time"),
    booked("lj-en-8-in-the-morning", "en",
           ("motorcycle wash tomorrow at 8 in the morning", "yes"),
           ("moto", "everton", TUE, time(8)), "part-time"),
    booked("lj-en-first-slot-tomorrow", "en",
           ("what's the first slot anyone has tomorrow for a quick exterior wash? I'll take it",
            "yes"),
           ("simples", "everton", TUE, time(8)), "earliest-anyone"),
    booked("lj-en-earliest-today", "en",
           ("earliest interior cleaning you can do today, with whoever's available? book it",
            "sounds good"),
           ("higienizacao", "rodrigo", MON, time(12)), "earliest-anyone"),
    booked("lj-en-me-and-my-son", "en",
           ("Me and my son are coming Tuesday at 12:30 — a full wash for my car and a wash for "
            "his motorbike, both at the same time", "yes"),
           ("completa", "rodrigo", TUE, time(12, 30)), "two-people",
           (("moto", "everton", TUE, time(12, 30)),), tools=TWO),
    booked("lj-en-my-wife-and-i", "en",
           ("my wife and I both want our cars' interiors deep cleaned, Thursday at 1pm, at the "
            "same time please", "yes"),
           ("higienizacao", "rodrigo", THU, time(13)), "two-people",
           (("higienizacao", "priscila", THU, time(13)),), tools=TWO),
    # -- Spanish --------------------------------------------------------------------------------
    booked("lj-es-paso-a-paso", "es",
           ("hola, quiero turno para lavar la moto", "el jueves", "a las 11", "sí"),
           ("moto", "everton", THU, time(11)), "step-by-step"),
    states("lj-es-quien-lava-motos", "es", ("¿quién lava motos ahí?",), "who-does",
           ("Everton",)),
    states("lj-es-rodrigo-sabados", "es", ("¿Rodrigo trabaja los sábados?",), "works-day",
           ("lunes", "martes", "miércoles", "jueves", "viernes")),
    booked("lj-es-5-de-diciembre", "es",
           ("el 5 de diciembre a las 8, un lavado simple por fuera nomás", "sí"),
           ("simples", "everton", SAT, time(8)), "date"),
    changed("lj-es-cancelar-lavado-martes", "es",
            ("quiero cancelar el lavado del martes", "sí"), COMPLETA_TUE),
    faq("lj-es-camioneta", "es", ("mi auto es una camioneta grande, ¿cobran más?",), "suv"),
    nothing("lj-es-mejor-no", "es",
            ("pulido con Priscila el jueves a las 10", "no, mejor no, gracias"), "declined",
            (BOOK,)),
    nothing("lj-es-si-6-cuotas", "es",
            ("limpieza de tapizado con Rodrigo el martes a las 15",
             "sí, si lo puedo pagar en 6 cuotas"),
            "conditional-yes", (BOOK, SEARCH)),
    nothing("lj-es-cuanto-sale", "es",
            ("lavado de moto con Everton el sábado a las 11", "¿y cuánto sale?"),
            "question-after-proposal", (BOOK,)),
    booked("lj-es-burst-moto", "es", ("hola!", "quiero lavar la moto", "el sábado a las 9", "sí"),
           ("moto", "everton", SAT, time(9)), "burst"),
    booked("lj-es-burst-tapizado", "es",
           ("buenas", "necesito una limpieza del tapizado del auto", "el martes a las 10",
            "sí, dale"),
           ("higienizacao", "priscila", TUE, time(10)), "burst"),
    moved("lj-es-atrasar-hora-y-media", "es",
          ("¿me atrasás una hora y media el lavado del jueves?", "sí"), COMPLETA_THU,
          (THU, time(16, 30))),
    moved("lj-es-adelantar-una-hora", "es",
          ("lo de la moto del viernes, ¿lo podemos adelantar una hora?", "sí"), MOTO_FRI,
          (FRI, time(10))),
    booked("lj-es-miercole", "es", ("lavado de moto el miercole a las 10", "sí"),
           ("moto", "everton", WED, time(10)), "typos"),
    booked("lj-es-pricsila-jeuves", "es", ("pulido con Pricsila el jeuves a las 9", "sí"),
           ("polimento", "priscila", THU, time(9)), "typos"),
    booked("lj-es-10-de-la-manana", "es",
           ("un pulido el miércoles a las 10 de la mañana", "perfecto, sí"),
           ("polimento", "priscila", WED, time(10)), "part-time"),
    booked("lj-es-6-de-la-tarde", "es", ("lavado completo el viernes a las 6 de la tarde", "sí"),
           ("completa", "rodrigo", FRI, time(18)), "part-time"),
    booked("lj-es-primero-manana", "es",
           ("¿cuál es el primer horario libre mañana para un lavado completo? con cualquiera, "
            "me lo reservás", "sí"),
           ("completa", "everton", TUE, time(8)), "earliest-anyone"),
    booked("lj-es-lo-antes-posible-hoy", "es",
           ("hoy lo antes posible, un lavado simple con el que esté libre", "dale, sí"),
           ("simples", "everton", MON, time(10)), "earliest-anyone"),
    booked("lj-es-para-mi-y-mi-esposo", "es",
           ("para mí y mi esposo: dos lavados completos el viernes a las 12:30, uno para cada "
            "auto, a la misma hora", "sí"),
           ("completa", "everton", FRI, time(12, 30)), "two-people",
           (("completa", "rodrigo", FRI, time(12, 30)),), tools=TWO),
    booked("lj-es-mi-hermana-y-yo", "es",
           ("mi hermana y yo: yo quiero un pulido y ella la limpieza del tapizado de su auto, "
            "los dos el miércoles a las 12", "sí"),
           ("polimento", "priscila", WED, time(12)), "two-people",
           (("higienizacao", "rodrigo", WED, time(12)),), tools=TWO),
]  # fmt: skip
