# Over 300 lines: one business's catalog, its calendar facts and its 72 conversations.
"""The seventeenth batch, blind: written from categories (never from a reported sentence, and
without reading the offline model's code, words, grammar or language data) and run before any
change for it (baseline: ``eval/baselines/whatsapp-batch17-before.md``), in Portuguese, English
and Spanish, on a business of another kind: a psychology and nutrition practice ("Consultório
Ipê — Psicologia e Nutrição": a first psychology consultation, a psychotherapy session, a
couples therapy session, a first nutrition consultation, a nutrition follow-up, a body
composition assessment by bioimpedance) that configured **no aliases**, so "terapia",
"therapy", "sesión de terapia", "terapia de pareja", "couples therapy", "primeira consulta com
a nutricionista", "nutritionist", "nutri", "retorno", "follow-up", "consulta de seguimiento",
"bioimpedância", "body composition scan", "bioimpedancia" must be understood from the
customer's own words or another language. Held out: its cases are played by
``python -m eval --suite whatsapp-batch17`` only, not by the default run.

Categories kept from :mod:`eval.whatsapp_batch16`, with new wording, three cases each (one per
language): booking with every detail in one message, the customer giving their name
(``one-message``); step by step, one detail a message (``step-by-step``); who does a service
(``who-does``: both people who do it); a price (``price``); whether someone works a given
weekday (``works-day``: they do not, and the reply names a day they do); a date ("dia 3",
"December 2nd", "el 1 de diciembre"; ``date``); cancelling or moving one appointment
(``appointments``); FAQ questions (``faq``); a "no" to a proposal (``declined``); a yes on a
condition that cannot hold (``conditional-yes``: a psychologist who is not in on Thursdays, a
health plan the FAQ says the practice does not take, a price below the service's): nothing
booked; a question right after a proposal, the conversation's last message
(``question-after-proposal``: not a yes, nothing booked); the first free start of a service
with no day named, then a yes (``earliest-free``: bioimpedance, Camila on Tuesday at 08:00; a
follow-up, Tiago today at 14:00; couples therapy, Luísa today at 10:00, the first start after
the hour's notice); a time and "any day but ..." (``except-day``: exactly one other day of the
week has that service at that time); a day and time "not with ..." when exactly two people do
the service then (``except-pro``: booked with the other one); a later or an earlier time asked
after a proposal when exactly one such start of that service is free that day
(``later-earlier``: three ``book_appointment`` calls: proposal, new proposal, confirmation); a
service right after one of the customer's appointments (``right-after``: booked at that
appointment's end with the one person who does the new service then; the appointments listed
first); a transcribed voice note with fillers and the hour said again (``voice-note``); a
cancellation called off at the proposal (``cancel-kept``: nothing cancelled); a request after a
story full of numbers that are not the day or the time (``long-story``); thanks after the
booking (``thanks-after``: still that one booking, and the thanks gets a reply of its own).

New categories:

- ``next-week``: a weekday of next week said as "quarta da semana que vem", "Thursday of next
  week", "el viernes de la semana que viene" (never a bare "next Wednesday", which said on a
  Monday may mean this week's or next week's), then a yes: booked on that day of the week of
  Monday 12/07 (Wednesday 12/09, Thursday 12/10, Friday 12/11).
- ``time-window``: a service "entre 11h e meio-dia", "sometime between 4 and 5pm", "entre las 8
  y las 9 de la noche" on a day when exactly one start of it fits in that window (whether the
  window bounds the start only or the whole session: the professional's day ends with the
  window), then a yes: booked at that start.
- ``yes-plus-info``: the yes to a proposal adds something unrelated to it ("sim, confirma! vou
  pagar no pix", "yes please, I'll bring my latest blood work", "sí, dale, voy en bici así que
  llego justo"): booked.
- ``misspelled-pro``: the professional named by another spelling or a diminutive ("Thiago" for
  Tiago, "Louisa" for Luísa, "la nutri Cami" for Camila) at a time when two people do the
  service: booked with the one named.

Every case also requires that no two consecutive replies are the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid), as in
batches 10 to 16: "hoje"/"today"/"hoy" is Monday 11/30 (nothing before 10:00), "amanhã"/
"tomorrow"/"mañana" Tuesday 12/01 ("el 1 de diciembre"), Wednesday 12/02 ("December 2nd"),
Thursday 12/03 ("dia 3"), Friday 12/04, Saturday 12/05, Sunday closed; next week's Monday is
12/07, Wednesday 12/09, Thursday 12/10, Friday 12/11. No case says a bare "segunda"/"Monday"/
"lunes" to book.

Luísa Andrade (psychologist: first psychology consultation, psychotherapy, couples therapy)
works Monday, Wednesday and Friday 08:00–14:00 and Saturday 08:00–12:00 (not Tuesday or
Thursday); Rodrigo Teles (psychologist: first psychology consultation, psychotherapy; no
couples therapy) works Tuesday and Thursday 08:00–12:00 and 16:00–21:00 and Monday, Wednesday
and Friday 13:00–20:00 (not Saturday); Camila Furtado (nutritionist: first nutrition
consultation, follow-up, bioimpedance) works Tuesday and Thursday 08:00–17:00 and Saturday
08:00–12:00 (not Monday, Wednesday or Friday); Tiago Barros (sports nutritionist: first
nutrition consultation, follow-up; no bioimpedance) works Monday, Wednesday and Friday
14:00–20:00 and Thursday 07:00–10:00 (not Tuesday or Saturday). Durations: first psychology
consultation and psychotherapy 50 minutes, couples therapy 80, first nutrition consultation
60, follow-up 30, bioimpedance 20. So: a first psychology consultation or a psychotherapy
session starts with Luísa from 08:00 to 13:00 on Monday, Wednesday and Friday and from 08:00 to
11:00 on Saturday, with Rodrigo from 08:00 to 11:00 and from 16:00 to 20:00 on Tuesday and
Thursday and from 13:00 to 19:00 on Monday, Wednesday and Friday (both only at 13:00 on Monday,
Wednesday and Friday); couples therapy only with Luísa, from 08:00 to 12:30 on Monday,
Wednesday and Friday and from 08:00 to 10:30 on Saturday; a first nutrition consultation with
Camila from 08:00 to 16:00 on Tuesday and Thursday and from 08:00 to 11:00 on Saturday, with
Tiago from 14:00 to 19:00 on Monday, Wednesday and Friday and from 07:00 to 09:00 on Thursday
(both on Thursday from 08:00 to 09:00); a follow-up with Camila from 08:00 to 16:30 on Tuesday
and Thursday and from 08:00 to 11:30 on Saturday, with Tiago from 14:00 to 19:30 on Monday,
Wednesday and Friday and from 07:00 to 09:30 on Thursday (both on Thursday from 08:00 to
09:30); a bioimpedance only with Camila, from 08:00 to 16:30 on Tuesday and Thursday and from
08:00 to 11:30 on Saturday. Prices: first psychology consultation R$ 200, psychotherapy R$ 180,
couples therapy R$ 300, first nutrition consultation R$ 250, follow-up R$ 150, bioimpedance
R$ 90. The FAQ (in Portuguese only) gives the address (Rua Itapicuru), the opening hours
(weekdays 7h–21h, Saturday 8h–12h), payment (Pix, cash, cards; packages of 4 psychotherapy
sessions with 10% off), health plans (none: a receipt for the plan's reimbursement), online
sessions (psychotherapy and couples therapy by video call on Google Meet; nutrition and
bioimpedance in person), preparing for the bioimpedance (4 hours' fasting, no coffee or hard
exercise in the 12 hours before), what to bring to the first nutrition consultation (blood
tests from the last 6 months, a list of medicines and supplements) and cancellation (free up to
24 hours before, then charged in full). The customer has, in the appointments, right-after and
cancel-kept cases, a follow-up with Camila on Tuesday at 10:00, a psychotherapy session with
Luísa on Wednesday at 09:00, a follow-up with Tiago on Thursday at 08:00 and couples therapy
with Luísa on Friday at 10:00; every target below is free and within the professional's hours.
"""

from __future__ import annotations

from datetime import date, time

from agent_service.domain.catalog import WorkingHours
from eval.dataset import BOOK, EvalCase
from eval.harness import SALONS, Booked, SalonSpec, local
from eval.salon_cases import SalonCases

SALON = "consultorio-ipe"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))
NEXT_WED, NEXT_THU, NEXT_FRI = (date(2026, 12, d) for d in (9, 10, 11))

SERVICES = {
    "psi_primeira": (
        "Primeira Consulta de Psicologia",
        50,
        20000,
        "Primeiro encontro com o psicólogo: escuta da queixa, história e combinados do processo.",
    ),
    "psicoterapia": (
        "Sessão de Psicoterapia",
        50,
        18000,
        "Sessão individual de psicoterapia para adultos e adolescentes.",
    ),
    "casal": (
        "Terapia de Casal",
        80,
        30000,
        "Sessão com os dois parceiros para trabalhar comunicação e conflitos.",
    ),
    "nutri_primeira": (
        "Primeira Consulta de Nutrição",
        60,
        25000,
        "Anamnese alimentar, medidas e plano alimentar individualizado.",
    ),
    "retorno": (
        "Retorno de Nutrição",
        30,
        15000,
        "Acompanhamento do plano alimentar, novas medidas e ajustes.",
    ),
    "bioimpedancia": (
        "Avaliação de Composição Corporal",
        20,
        9000,
        "Exame de bioimpedância: percentual de gordura, massa muscular e água corporal.",
    ),
}

PSICOLOGIA = ("psi_primeira", "psicoterapia")
NUTRICAO = ("nutri_primeira", "retorno")

IPE_PSI = SalonSpec(
    name="Consultório Ipê — Psicologia e Nutrição",
    services=SERVICES,
    # No aliases: the practice wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "luisa": ("Luísa Andrade", "Psicóloga", (*PSICOLOGIA, "casal")),
        "rodrigo": ("Rodrigo Teles", "Psicólogo", PSICOLOGIA),
        "camila": ("Camila Furtado", "Nutricionista", (*NUTRICAO, "bioimpedancia")),
        "tiago": ("Tiago Barros", "Nutricionista esportivo", NUTRICAO),
    },
    hours={
        "luisa": (
            *(WorkingHours(day_of_week=d, start=time(8), end=time(14)) for d in (1, 3, 5)),
            WorkingHours(day_of_week=6, start=time(8), end=time(12)),
        ),
        "rodrigo": (
            *(
                WorkingHours(day_of_week=d, start=start, end=end)
                for d in (2, 4)
                for start, end in ((time(8), time(12)), (time(16), time(21)))
            ),
            *(WorkingHours(day_of_week=d, start=time(13), end=time(20)) for d in (1, 3, 5)),
        ),
        "camila": (
            *(WorkingHours(day_of_week=d, start=time(8), end=time(17)) for d in (2, 4)),
            WorkingHours(day_of_week=6, start=time(8), end=time(12)),
        ),
        "tiago": (
            *(WorkingHours(day_of_week=d, start=time(14), end=time(20)) for d in (1, 3, 5)),
            WorkingHours(day_of_week=4, start=time(7), end=time(10)),
        ),
    },
    # Written in Portuguese only.
    faq={
        "address": (
            "Onde fica o consultório?",
            "Rua Itapicuru, 455, sala 12 — Perdizes, São Paulo (a 5 minutos a pé da PUC).",
            ("endereço", "localização"),
        ),
        "hours": (
            "Qual é o horário de atendimento?",
            "De segunda a sexta, das 7h às 21h; aos sábados, das 8h às 12h. Domingo fechado.",
            ("horário", "atendimento", "abre", "fecha"),
        ),
        "payment": (
            "Quais são as formas de pagamento?",
            "Pix, dinheiro ou cartão de débito e crédito. Pacotes de 4 sessões de psicoterapia "
            "têm 10% de desconto.",
            ("pagamento", "pix", "cartão", "pacote"),
        ),
        "health_plan": (
            "Vocês atendem convênio?",
            "Não atendemos por convênio: o atendimento é particular, e emitimos recibo com o "
            "registro do profissional (CRP ou CRN) para você pedir reembolso ao seu plano.",
            ("convênio", "plano de saúde", "reembolso", "recibo"),
        ),
        "online": (
            "Vocês fazem atendimento online?",
            "Sim: as sessões de psicoterapia e de terapia de casal podem ser online, por "
            "videochamada no Google Meet. As consultas de nutrição e a bioimpedância são "
            "sempre presenciais.",
            ("online", "on-line", "videochamada", "à distância", "remoto"),
        ),
        "preparation": (
            "Como me preparar para a bioimpedância?",
            "Venha em jejum de 4 horas, sem tomar café nem fazer exercício intenso nas 12 horas "
            "anteriores, e evite usar objetos de metal no dia.",
            ("bioimpedância", "preparo", "jejum", "preparar"),
        ),
        "what_to_bring": (
            "O que levar na primeira consulta de nutrição?",
            "Traga exames de sangue recentes (dos últimos 6 meses) e a lista dos medicamentos e "
            "suplementos que você usa.",
            ("levar", "trazer", "exames", "documentos"),
        ),
        "cancel": (
            "Qual é a política de cancelamento?",
            "Cancelamento ou remarcação sem custo até 24 horas antes do horário; faltas ou "
            "avisos com menos de 24 horas são cobrados integralmente.",
            ("cancelamento", "cancelar", "remarcar", "política", "falta"),
        ),
    },
    faq_facts={
        "address": ("Itapicuru",),
        "hours": ("21h", "9pm", "9 pm", "21:00"),
        "payment": ("10%", "pacote", "package", "paquete"),
        "health_plan": ("reembolso", "reimburse", "reimbursement", "recibo", "receipt"),
        "online": ("Google Meet", "videochamada", "video call", "videollamada"),
        "preparation": ("jejum", "4 horas", "4 hours", "four hours", "ayuno", "cuatro horas"),
        "what_to_bring": ("exames de sangue", "blood test", "análisis de sangre", "6 meses"),
        "cancel": ("24 horas", "24 hours", "twenty-four hours", "veinticuatro horas"),
    },
)
SALONS[SALON] = IPE_PSI

RETORNO_TUE = Booked("retorno", "camila", local(TUE, time(10)))
PSICO_WED = Booked("psicoterapia", "luisa", local(WED, time(9)))
RETORNO_THU = Booked("retorno", "tiago", local(THU, time(8)))
CASAL_FRI = Booked("casal", "luisa", local(FRI, time(10)))
EXISTING = (RETORNO_TUE, PSICO_WED, RETORNO_THU, CASAL_FRI)

# A proposal, a new proposal for the later/earlier time, then the confirmed write.
CHANGED = (BOOK, BOOK, BOOK)
WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")

_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip
booked_having, kept = _CASES.booked_having, _CASES.kept


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("ci-pt-tudo-numa-mensagem", "pt",
           ("oi, aqui é a Mariana Lopes. queria marcar uma primeira consulta com a "
            "nutricionista Camila na quinta às 14h, tem como?", "pode marcar, obrigada"),
           ("nutri_primeira", "camila", THU, time(14)), "one-message"),
    booked("ci-pt-passo-a-passo", "pt",
           ("olá, queria agendar uma bioimpedância", "no sábado", "10h", "sim"),
           ("bioimpedancia", "camila", SAT, time(10)), "step-by-step"),
    states("ci-pt-quem-faz-retorno", "pt", ("quem faz o retorno da nutri?",), "who-does",
           ("Camila",), ("Tiago",)),
    states("ci-pt-preco-casal", "pt", ("quanto é a terapia de casal?",), "price", ("300",)),
    states("ci-pt-camila-segunda", "pt", ("a Camila atende na segunda?",), "works-day",
           ("terça", "quinta", "sábado")),
    booked("ci-pt-dia-3", "pt", ("dia 3 às 16h tem retorno?", "pode marcar"),
           ("retorno", "camila", THU, time(16)), "date"),
    changed("ci-pt-desmarca-retorno", "pt",
            ("preciso desmarcar meu retorno de quinta", "isso, pode desmarcar"), RETORNO_THU),
    faq("ci-pt-online", "pt", ("vcs atendem online? moro em outra cidade",), "online"),
    nothing("ci-pt-vou-ver-agenda", "pt",
            ("retorno com a Camila quinta 15h", "não, melhor não, vou ver minha agenda antes"),
            "declined", (BOOK,)),
    nothing("ci-pt-desde-que-luisa", "pt",
            ("terapia quinta 18h", "pode ser, desde que seja a Luísa que me atenda"),
            "conditional-yes", (BOOK,)),
    nothing("ci-pt-presencial-ou-online", "pt",
            ("primeira consulta de psicologia com o Rodrigo sexta 14h",
             "é presencial ou online?"),
            "question-after-proposal", (BOOK,)),
    booked("ci-pt-primeiro-disponivel", "pt",
           ("quero fazer bioimpedância, pode ser no primeiro horário disponível", "sim"),
           ("bioimpedancia", "camila", TUE, time(8)), "earliest-free"),
    booked("ci-pt-menos-terca", "pt",
           ("queria bioimpedância às 16h30 essa semana, qualquer dia menos terça", "sim"),
           ("bioimpedancia", "camila", THU, time(16, 30)), "except-day"),
    booked("ci-pt-nao-com-tiago", "pt",
           ("retorno quinta às 9h, mas não com o Tiago", "sim"),
           ("retorno", "camila", THU, time(9)), "except-pro"),
    booked("ci-pt-mais-tarde", "pt",
           ("retorno sábado 11h", "tem mais tarde?", "pode ser, fechado"),
           ("retorno", "camila", SAT, time(11, 30)), "later-earlier", tools=CHANGED),
    booked_having("ci-pt-logo-depois", "pt",
                  ("dá pra marcar uma sessão de terapia logo depois do meu retorno de quinta?",
                   "sim"),
                  ("psicoterapia", "rodrigo", THU, time(8, 30)), "right-after"),
    booked("ci-pt-audio", "pt",
           ("oi tudo bom é então eu queria saber se dá pra marcar um retorno com a "
            "nutricionista no sábado de manhã tipo umas dez e meia dez e meia isso",
            "isso pode ser"),
           ("retorno", "camila", SAT, time(10, 30)), "voice-note"),
    kept("ci-pt-deixa-como-esta", "pt",
         ("quero desmarcar a terapia de casal de sexta",
          "não, pera, deixa como está, a gente vai sim")),
    booked("ci-pt-ansiedade", "pt",
           ("oi, tenho 28 anos e faz uns 3 meses que ando com crises de ansiedade, dormindo "
            "umas 4 horas por noite, já testei 2 apps de meditação e nada. queria marcar uma "
            "primeira consulta de psicologia na quarta às 15h", "sim"),
           ("psi_primeira", "rodrigo", WED, time(15)), "long-story"),
    booked("ci-pt-valeu", "pt",
           ("bioimpedância quinta 11h", "sim", "valeu, brigadão!"),
           ("bioimpedancia", "camila", THU, time(11)), "thanks-after"),
    booked("ci-pt-semana-que-vem", "pt",
           ("queria uma sessão de terapia com a Luísa na quarta da semana que vem às 11h",
            "sim"),
           ("psicoterapia", "luisa", NEXT_WED, time(11)), "next-week"),
    booked("ci-pt-entre-11-e-meio-dia", "pt",
           ("dá pra encaixar uma sessão de terapia no sábado entre 11h e meio-dia?", "sim"),
           ("psicoterapia", "luisa", SAT, time(11)), "time-window"),
    booked("ci-pt-sim-pix", "pt",
           ("terapia com o Rodrigo sexta 18h", "sim, confirma! vou pagar no pix"),
           ("psicoterapia", "rodrigo", FRI, time(18)), "yes-plus-info"),
    booked("ci-pt-thiago", "pt",
           ("quero um retorno com o Thiago quinta 8h30", "sim"),
           ("retorno", "tiago", THU, time(8, 30)), "misspelled-pro"),
    # -- English --------------------------------------------------------------------------------
    booked("ci-en-all-in-one", "en",
           ("Hi, this is Daniel Brooks. I'd like to book a couples therapy session with Luisa "
            "on Saturday at 9am.", "yes"),
           ("casal", "luisa", SAT, time(9)), "one-message"),
    booked("ci-en-step-by-step", "en",
           ("hello, I need a follow-up with the nutritionist", "Wednesday", "at 5pm", "yes"),
           ("retorno", "tiago", WED, time(17)), "step-by-step"),
    states("ci-en-who-for-therapy", "en", ("who can I see for therapy sessions?",), "who-does",
           ("Luísa",), ("Rodrigo",)),
    states("ci-en-follow-up-price", "en", ("what does a nutrition follow-up cost?",), "price",
           ("150",)),
    states("ci-en-rodrigo-saturdays", "en", ("Does Rodrigo work on Saturdays?",), "works-day",
           WEEKDAYS_EN),
    booked("ci-en-december-2nd", "en",
           ("any chance of a therapy session on December 2nd at 7pm?", "yes"),
           ("psicoterapia", "rodrigo", WED, time(19)), "date"),
    changed("ci-en-push-therapy", "en",
            ("could I push my therapy session on Wednesday to Friday at 9am?", "yes"),
            PSICO_WED, (FRI, time(9))),
    faq("ci-en-fasting", "en", ("do I have to fast before the body composition test?",),
        "preparation"),
    nothing("ci-en-forget-it", "en",
            ("couples therapy on Wednesday at 11am", "nah, forget it, thanks"), "declined",
            (BOOK,)),
    nothing("ci-en-if-insurance", "en",
            ("first nutrition appointment with Camila on Tuesday at 9am",
             "yes, if my health insurance covers it"),
            "conditional-yes", (BOOK,)),
    nothing("ci-en-blood-tests", "en",
            ("follow-up with Tiago on Wednesday at 3pm", "should I bring my blood tests?"),
            "question-after-proposal", (BOOK,)),
    booked("ci-en-soonest-follow-up", "en",
           ("I'd like a nutrition follow-up at the soonest slot you have", "sure, go ahead"),
           ("retorno", "tiago", MON, time(14)), "earliest-free"),
    booked("ci-en-except-tuesday", "en",
           ("a therapy session at 8pm this week, any day but Tuesday", "yes"),
           ("psicoterapia", "rodrigo", THU, time(20)), "except-day"),
    booked("ci-en-not-luisa", "en",
           ("therapy on Wednesday at 1pm, just not with Luisa please", "yes"),
           ("psicoterapia", "rodrigo", WED, time(13)), "except-pro"),
    booked("ci-en-later-that-day", "en",
           ("couples therapy on Friday at noon", "anything later that day?", "yes, book that"),
           ("casal", "luisa", FRI, time(12, 30)), "later-earlier", tools=CHANGED),
    booked_having("ci-en-right-after-follow-up", "en",
                  ("can I get a body composition scan right after my follow-up on Tuesday?",
                   "yes"),
                  ("bioimpedancia", "camila", TUE, time(10, 30)), "right-after"),
    booked("ci-en-voice-note", "en",
           ("hi yeah so um I wanted to see if I could get a first appointment with the "
            "psychologist on tuesday uh in the afternoon like four four pm yeah",
            "yeah sounds good"),
           ("psi_primeira", "rodrigo", TUE, time(16)), "voice-note"),
    kept("ci-en-leave-it", "en",
         ("cancel my follow-up on Tuesday", "hmm no actually, leave it as it is, I'll be there")),
    booked("ci-en-weight-story", "en",
           ("Hi! I lost 12 kg last year but put 5 back on in the last 2 months. I'm 41 and I "
            "run 3 times a week. I'd like a first consultation with a nutritionist on Friday at "
            "4pm.", "yes"),
           ("nutri_primeira", "tiago", FRI, time(16)), "long-story"),
    booked("ci-en-thank-you", "en",
           ("therapy with Rodrigo tomorrow at 10am", "yes", "thank you so much :)"),
           ("psicoterapia", "rodrigo", TUE, time(10)), "thanks-after"),
    booked("ci-en-thursday-next-week", "en",
           ("can I book a nutrition follow-up on Thursday of next week at 2pm?", "yes"),
           ("retorno", "camila", NEXT_THU, time(14)), "next-week"),
    booked("ci-en-between-4-and-5", "en",
           ("I'd like a first nutrition consultation on Tuesday, sometime between 4 and 5pm",
            "yes"),
           ("nutri_primeira", "camila", TUE, time(16)), "time-window"),
    booked("ci-en-yes-blood-work", "en",
           ("nutrition follow-up with Camila on Thursday at 10am",
            "yes please, I'll bring my latest blood work"),
           ("retorno", "camila", THU, time(10)), "yes-plus-info"),
    booked("ci-en-louisa", "en",
           ("therapy with Louisa on Friday at 1pm", "yes"),
           ("psicoterapia", "luisa", FRI, time(13)), "misspelled-pro"),
    # -- Spanish --------------------------------------------------------------------------------
    booked("ci-es-todo-en-un-mensaje", "es",
           ("Hola, me llamo Valentina Ruiz, quisiera una sesión de terapia con Rodrigo el "
            "jueves a las 17, ¿puede ser?", "sí"),
           ("psicoterapia", "rodrigo", THU, time(17)), "one-message"),
    booked("ci-es-paso-a-paso", "es",
           ("hola, quiero pedir una primera consulta de psicología", "el martes", "a las 9",
            "sí"),
           ("psi_primeira", "rodrigo", TUE, time(9)), "step-by-step"),
    states("ci-es-quien-primera-nutricion", "es",
           ("¿quién hace la primera consulta de nutrición?",), "who-does", ("Camila",),
           ("Tiago",)),
    states("ci-es-precio-bioimpedancia", "es", ("¿cuánto sale la bioimpedancia?",), "price",
           ("90",)),
    states("ci-es-tiago-martes", "es", ("¿Tiago atiende los martes?",), "works-day",
           ("lunes", "miércoles", "jueves", "viernes")),
    booked("ci-es-1-de-diciembre", "es",
           ("¿tienen primera consulta de nutrición el 1 de diciembre a las 11?", "sí"),
           ("nutri_primeira", "camila", TUE, time(11)), "date"),
    changed("ci-es-pareja-al-sabado", "es",
            ("¿me pasan la terapia de pareja del viernes al sábado a las 9?", "sí"),
            CASAL_FRI, (SAT, time(9))),
    faq("ci-es-obra-social", "es", ("¿trabajan con obra social o prepaga?",), "health_plan"),
    nothing("ci-es-dejalo-asi", "es",
            ("bioimpedancia el martes a las 15", "no, déjalo así, gracias"), "declined",
            (BOOK,)),
    nothing("ci-es-menos-de-200", "es",
            ("terapia de pareja el sábado a las 10", "sí, siempre que salga menos de 200 reales"),
            "conditional-yes", (BOOK,)),
    nothing("ci-es-cuanto-dura", "es",
            ("sesión de terapia con Luísa el viernes a las 12", "¿y cuánto dura la sesión?"),
            "question-after-proposal", (BOOK,)),
    booked("ci-es-lo-primero", "es",
           ("necesitamos terapia de pareja, dame lo primero que tengan disponible",
            "sí, perfecto"),
           ("casal", "luisa", MON, time(10)), "earliest-free"),
    booked("ci-es-menos-hoy-y-viernes", "es",
           ("primera consulta de nutrición a las 19, cualquier día menos hoy y el viernes",
            "sí"),
           ("nutri_primeira", "tiago", WED, time(19)), "except-day"),
    booked("ci-es-no-con-camila", "es",
           ("primera consulta de nutrición el jueves a las 8, pero no con Camila", "sí"),
           ("nutri_primeira", "tiago", THU, time(8)), "except-pro"),
    booked("ci-es-mas-temprano", "es",
           ("bioimpedancia el jueves a las 8:30", "¿no hay algo más temprano?", "sí, mejor"),
           ("bioimpedancia", "camila", THU, time(8)), "later-earlier", tools=CHANGED),
    booked_having("ci-es-justo-despues", "es",
                  ("¿me dan una sesión de terapia justo después de mi consulta de seguimiento "
                   "del martes?", "sí"),
                  ("psicoterapia", "rodrigo", TUE, time(10, 30)), "right-after"),
    booked("ci-es-audio", "es",
           ("hola buenas eh te quería consultar si hay lugar para una consulta de seguimiento "
            "con el nutricionista el miércoles a la tarde tipo las seis seis de la tarde "
            "digamos", "sí dale"),
           ("retorno", "tiago", WED, time(18)), "voice-note"),
    kept("ci-es-la-mantengo", "es",
         ("anulá mi sesión de terapia del miércoles", "ay no, olvidalo, la mantengo")),
    booked("ci-es-pareja-9-anos", "es",
           ("hola, llevamos 9 años casados, tenemos 2 hijos de 4 y 7 años y discutimos casi "
            "todos los días. ¿Nos pueden dar terapia de pareja el miércoles a las 10?", "sí"),
           ("casal", "luisa", WED, time(10)), "long-story"),
    booked("ci-es-mil-gracias", "es",
           ("seguimiento con Camila el sábado a las 9", "sí", "mil gracias, nos vemos!"),
           ("retorno", "camila", SAT, time(9)), "thanks-after"),
    booked("ci-es-semana-que-viene", "es",
           ("una primera consulta de nutrición con Tiago el viernes de la semana que viene a "
            "las 17", "sí"),
           ("nutri_primeira", "tiago", NEXT_FRI, time(17)), "next-week"),
    booked("ci-es-entre-8-y-9-noche", "es",
           ("quiero una sesión de terapia el martes entre las 8 y las 9 de la noche", "sí"),
           ("psicoterapia", "rodrigo", TUE, time(20)), "time-window"),
    booked("ci-es-si-en-bici", "es",
           ("bioimpedancia el sábado a las 8:30", "sí, dale, voy en bici así que llego justo"),
           ("bioimpedancia", "camila", SAT, time(8, 30)), "yes-plus-info"),
    booked("ci-es-nutri-cami", "es",
           ("una primera consulta con la nutri Cami el jueves a las 9", "sí"),
           ("nutri_primeira", "camila", THU, time(9)), "misspelled-pro"),
]  # fmt: skip
