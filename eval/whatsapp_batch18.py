# Over 300 lines: one business's catalog, its calendar facts and its 81 conversations.
"""The eighteenth batch, blind: written from categories (never from a reported sentence, and
without reading the offline model's code, words, grammar or language data) and run before any
change for it (baseline: ``eval/baselines/whatsapp-batch18-before.md``), in Portuguese, English
and Spanish, on a business of another kind: an optometry and hearing clinic ("Clínica Mirante —
Visão e Audição": an optometric assessment, a contact lens fitting, a children's vision
assessment, an audiometry, a hearing aid adjustment, a hearing aid trial) that configured **no
aliases**, so "exame de vista", "eye exam", "examen de la vista", "lente de contato", "contact
lens fitting", "lentes de contacto", "children's eye exam", "evaluación visual infantil",
"hearing test", "audiometría", "regulagem", "hearing aid adjustment", "regulación del
audífono", "hearing aid trial", "prueba de audífono" must be understood from the customer's
own words or another language. Held out: its cases are played by
``python -m eval --suite whatsapp-batch18`` only, not by the default run.

Categories kept from :mod:`eval.whatsapp_batch17`, with new wording, three cases each (one per
language): booking with every detail in one message, the customer giving their name
(``one-message``); step by step, one detail a message (``step-by-step``); who does a service
(``who-does``: both people who do it); a price (``price``); whether someone works a given
weekday (``works-day``: they do not, and the reply names a day they do); a date ("dia 4", "the
3rd of December", "el 2 de diciembre"; ``date``); cancelling or moving one appointment
(``appointments``); FAQ questions (``faq``); a "no" to a proposal (``declined``); a yes on a
condition that cannot hold (``conditional-yes``: a hearing specialist who is not in on
Thursday mornings, being out by 10:30 from a 60-minute fitting that starts at 10:00, paying by
cheque, which the FAQ says the clinic does not take): nothing booked; a question right after a
proposal, the conversation's last message (``question-after-proposal``: not a yes, nothing
booked); the first free start of a service with no day named, then a yes (``earliest-free``: a
hearing aid trial, Graziela on Tuesday at 08:00; a children's eye exam, Joana today at 13:00;
an audiometry, Heitor today at 11:00); a time and "any day but ..." (``except-day``: exactly one
other day of the week has that service at that time); a day and time "not with ..." when
exactly two people do the service then (``except-pro``: booked with the other one); a later
or an earlier time asked after a proposal when exactly one such start of that service is free
that day (``later-earlier``: three ``book_appointment`` calls: proposal, new proposal,
confirmation); a service right after one of the customer's appointments (``right-after``:
booked at that appointment's end with the one person who does the new service then; the
appointments listed first); a transcribed voice note with fillers and the hour said again
(``voice-note``); a cancellation called off at the proposal (``cancel-kept``: nothing
cancelled); a request after a story full of numbers that are not the day or the time
(``long-story``); thanks after the booking (``thanks-after``: still that one booking, and the
thanks gets a reply of its own); a weekday of next week, said otherwise than in batch 17
("sexta-feira da próxima semana", "Tuesday next week", "el miércoles de la próxima semana";
``next-week``); a time window with exactly one start that fits, the professional's day ending
with the window (``time-window``); a yes that adds unrelated information (``yes-plus-info``); a
professional misspelled or by a diminutive ("a Grazi" for Graziela, "Hector" for Heitor,
"Juana" for Joana) when two people do the service then (``misspelled-pro``).

New categories:

- ``same-day-as``: the day named only through one of the customer's appointments ("no mesmo
  dia da minha adaptação de lentes", "on the same day as my hearing test", "el mismo día de mi
  regulación del audífono"), with a time, then a yes: booked that day at that time with the one
  person who does the new service then (the appointments listed first).
- ``done-by``: a day and the time by which the customer must leave ("preciso sair daí até
  9h30", "I need to be done by 9", "a las 12 ya me tengo que ir") when exactly one start of the
  service that day ends by then, then a yes: booked at that start (a hearing aid trial at 08:00
  on Saturday, a contact lens fitting at 08:00 on Tuesday, an audiometry at 11:00 on Friday;
  reading the time as the start books another, free, time).
- ``by-purpose``: the service named only by what the customer needs it for (a hearing aid
  that whistles and sounds muffled: the adjustment; giving up glasses for contacts: the contact
  lens fitting; not hearing the TV well: the audiometry), then a yes: booked.

Every case also requires that no two consecutive replies are the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid), as in
batches 10 to 17: "hoje"/"today"/"hoy" is Monday 11/30 (nothing before 10:00), "amanhã"/
"tomorrow"/"mañana" Tuesday 12/01, Wednesday 12/02 ("el 2 de diciembre"), Thursday 12/03 ("the
3rd of December"), Friday 12/04 ("dia 4"), Saturday 12/05, Sunday closed; next week's Tuesday
is 12/08, Wednesday 12/09, Friday 12/11. No case says a bare "segunda"/"Monday"/"lunes" to
book.

Joana Pires (optometrist: optometric assessment, contact lens fitting, children's vision
assessment) works Monday, Wednesday and Friday 13:00–19:00 and Saturday 08:00–12:00 (not
Tuesday or Thursday); Ítalo Brandão (optometrist: optometric assessment, contact lens fitting;
no children's assessment) works Monday, Wednesday and Friday 08:00–14:00 and Tuesday and
Thursday 08:00–18:00 (not Saturday); Graziela Moura (audiologist: audiometry, hearing aid
adjustment, hearing aid trial) works Tuesday and Thursday 08:00–17:00 and Saturday 08:00–12:00
(not Monday, Wednesday or Friday); Heitor Valadares (audiologist: audiometry, hearing aid
adjustment; no trial) works Monday, Wednesday and Friday 11:00–19:00 and Thursday 16:00–20:00
(not Tuesday or Saturday). Durations: optometric assessment 40 minutes, contact lens fitting
60, children's assessment 30, audiometry 60, hearing aid adjustment 20, hearing aid trial 90.
So: an optometric assessment starts with Joana from 13:00 to 18:00 on Monday, Wednesday and
Friday and from 08:00 to 11:00 on Saturday, with Ítalo from 08:00 to 13:00 on Monday, Wednesday
and Friday and from 08:00 to 17:00 on Tuesday and Thursday (both only at 13:00 on Monday,
Wednesday and Friday); a contact lens fitting likewise (the same starts); a children's
assessment only with Joana, from 13:00 to 18:30 on Monday, Wednesday and Friday and from 08:00
to 11:30 on Saturday; an audiometry with Graziela from 08:00 to 16:00 on Tuesday and Thursday
and from 08:00 to 11:00 on Saturday, with Heitor from 11:00 to 18:00 on Monday, Wednesday and
Friday and from 16:00 to 19:00 on Thursday (both only at 16:00 on Thursday); a hearing aid
adjustment with Graziela from 08:00 to 16:30 on Tuesday and Thursday and from 08:00 to 11:30 on
Saturday, with Heitor from 11:00 to 18:30 on Monday, Wednesday and Friday and from 16:00 to
19:30 on Thursday (both at 16:00 and 16:30 on Thursday); a hearing aid trial only with
Graziela, from 08:00 to 15:30 on Tuesday and Thursday and from 08:00 to 10:30 on Saturday.
Today nothing starts before 10:00. Prices: optometric assessment R$ 180, contact lens fitting
R$ 260, children's assessment R$ 150, audiometry R$ 220, hearing aid adjustment R$ 90, hearing
aid trial R$ 350. The FAQ (in Portuguese only) gives the address (Rua Cardeal Arcoverde), the
opening hours (weekdays 8h–20h, Saturday 8h–12h), payment (Pix, cash, cards; hearing aids in
up to 10x interest-free; no cheques), health plans (none: an invoice for the plan's
reimbursement), dilation (the optometric assessment uses no dilating drops), preparing for the
audiometry (14 hours' auditory rest), what to bring to the eye exam (current glasses and the
last prescription), whether the fitting includes the lenses (no: trial lenses only) and
cancellation (free up to 12 hours before, then 50% charged). The customer has, in the
appointments, right-after, same-day-as and cancel-kept cases, an audiometry with Graziela on
Tuesday at 10:00, an optometric assessment with Ítalo on Wednesday at 09:00, a hearing aid
adjustment with Heitor on Thursday at 17:00 and a contact lens fitting with Joana on Friday at
15:00; every target below is free and within the professional's hours.
"""

from __future__ import annotations

from datetime import date, time

from agent_service.domain.catalog import WorkingHours
from eval.dataset import BOOK, EvalCase
from eval.harness import SALONS, Booked, SalonSpec, local
from eval.salon_cases import SalonCases

SALON = "mirante"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))
NEXT_TUE, NEXT_WED, NEXT_FRI = (date(2026, 12, d) for d in (8, 9, 11))

SERVICES = {
    "exame": (
        "Avaliação Optométrica",
        40,
        18000,
        "Exame de vista completo: medida do grau para óculos, acuidade visual e pressão ocular.",
    ),
    "lentes": (
        "Adaptação de Lentes de Contato",
        60,
        26000,
        "Escolha e teste das lentes de contato ideais, com treino para colocar e tirar.",
    ),
    "infantil": (
        "Avaliação Visual Infantil",
        30,
        15000,
        "Avaliação da visão de crianças de 3 a 12 anos, com testes lúdicos.",
    ),
    "audiometria": (
        "Audiometria Tonal e Vocal",
        60,
        22000,
        "Exame da audição em cabine acústica, com laudo.",
    ),
    "regulagem": (
        "Regulagem de Aparelho Auditivo",
        20,
        9000,
        "Ajuste da programação, limpeza e troca de filtros do seu aparelho auditivo.",
    ),
    "teste": (
        "Teste de Aparelho Auditivo",
        90,
        35000,
        "Experimente um aparelho auditivo: escolha do modelo, adaptação e orientações de uso.",
    ),
}

VISAO = ("exame", "lentes")
AUDICAO = ("audiometria", "regulagem")

MIRANTE = SalonSpec(
    name="Clínica Mirante — Visão e Audição",
    services=SERVICES,
    # No aliases: the clinic wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "joana": ("Joana Pires", "Optometrista", (*VISAO, "infantil")),
        "italo": ("Ítalo Brandão", "Optometrista", VISAO),
        "graziela": ("Graziela Moura", "Fonoaudióloga", (*AUDICAO, "teste")),
        "heitor": ("Heitor Valadares", "Fonoaudiólogo", AUDICAO),
    },
    hours={
        "joana": (
            *(WorkingHours(day_of_week=d, start=time(13), end=time(19)) for d in (1, 3, 5)),
            WorkingHours(day_of_week=6, start=time(8), end=time(12)),
        ),
        "italo": (
            *(WorkingHours(day_of_week=d, start=time(8), end=time(14)) for d in (1, 3, 5)),
            *(WorkingHours(day_of_week=d, start=time(8), end=time(18)) for d in (2, 4)),
        ),
        "graziela": (
            *(WorkingHours(day_of_week=d, start=time(8), end=time(17)) for d in (2, 4)),
            WorkingHours(day_of_week=6, start=time(8), end=time(12)),
        ),
        "heitor": (
            *(WorkingHours(day_of_week=d, start=time(11), end=time(19)) for d in (1, 3, 5)),
            WorkingHours(day_of_week=4, start=time(16), end=time(20)),
        ),
    },
    # Written in Portuguese only.
    faq={
        "address": (
            "Onde fica a clínica?",
            "Rua Cardeal Arcoverde, 1200, 2º andar — Pinheiros, São Paulo (perto do metrô "
            "Fradique Coutinho).",
            ("endereço", "localização"),
        ),
        "hours": (
            "Qual é o horário de funcionamento?",
            "De segunda a sexta, das 8h às 20h; aos sábados, das 8h às 12h. Domingo fechado.",
            ("horário", "funcionamento", "abre", "fecha"),
        ),
        "payment": (
            "Quais são as formas de pagamento?",
            "Pix, dinheiro ou cartão de débito e crédito; aparelhos auditivos em até 10x sem "
            "juros no cartão. Não aceitamos cheque.",
            ("pagamento", "pix", "cartão", "parcelamento", "cheque"),
        ),
        "health_plan": (
            "Vocês atendem convênio?",
            "Não atendemos convênios: o atendimento é particular, e emitimos nota fiscal para "
            "você pedir reembolso ao seu plano.",
            ("convênio", "plano de saúde", "reembolso"),
        ),
        "dilation": (
            "O exame de vista dilata a pupila?",
            "Não: a avaliação optométrica não usa colírio para dilatar a pupila, e você pode "
            "dirigir normalmente depois.",
            ("dilatar", "pupila", "colírio", "dirigir"),
        ),
        "audio_prep": (
            "Como me preparar para a audiometria?",
            "Faça repouso auditivo de 14 horas antes do exame: evite fones de ouvido, shows e "
            "lugares barulhentos, e não venha gripado.",
            ("audiometria", "preparo", "preparar", "repouso auditivo", "barulho"),
        ),
        "what_to_bring": (
            "O que levar no exame de vista?",
            "Traga seus óculos atuais e a última receita, se tiver. Quem usa lentes de contato "
            "deve vir sem elas.",
            ("levar", "trazer", "óculos", "receita"),
        ),
        "lenses_included": (
            "A adaptação de lentes inclui as lentes?",
            "Não: a adaptação inclui o teste com lentes de prova e o treino; as lentes de "
            "contato são compradas à parte.",
            ("lentes", "inclui", "incluso", "valor"),
        ),
        "cancel": (
            "Qual é a política de cancelamento?",
            "Cancelamento ou remarcação sem custo até 12 horas antes do horário; depois disso, "
            "cobramos 50% do valor.",
            ("cancelamento", "cancelar", "remarcar", "política", "falta"),
        ),
    },
    faq_facts={
        "address": ("Cardeal Arcoverde",),
        "hours": ("20h", "8pm", "8 pm", "20:00"),
        "payment": ("10x", "10 vezes", "10 installments", "10 cuotas", "diez cuotas"),
        "health_plan": ("reembolso", "reimburse", "reimbursement", "nota fiscal", "invoice"),
        "dilation": ("colírio", "eye drops", "gotas"),
        "audio_prep": ("14 horas", "14 hours", "fourteen hours", "catorce horas"),
        "what_to_bring": (
            "óculos atuais",
            "última receita",
            "current glasses",
            "last prescription",
            "gafas actuales",
            "anteojos actuales",
            "última receta",
        ),
        "lenses_included": ("lentes de prova", "trial lenses", "lentes de prueba", "à parte"),
        "cancel": ("12 horas", "12 hours", "twelve hours", "doce horas"),
    },
)
SALONS[SALON] = MIRANTE

AUDIO_TUE = Booked("audiometria", "graziela", local(TUE, time(10)))
EXAME_WED = Booked("exame", "italo", local(WED, time(9)))
REGULAGEM_THU = Booked("regulagem", "heitor", local(THU, time(17)))
LENTES_FRI = Booked("lentes", "joana", local(FRI, time(15)))
EXISTING = (AUDIO_TUE, EXAME_WED, REGULAGEM_THU, LENTES_FRI)

# A proposal, a new proposal for the later/earlier time, then the confirmed write.
CHANGED = (BOOK, BOOK, BOOK)

_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip
booked_having, kept = _CASES.booked_having, _CASES.kept


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("cm-pt-tudo-de-uma-vez", "pt",
           ("Bom dia! Meu nome é Cláudia Matos e eu gostaria de agendar um exame de vista "
            "com o Ítalo na terça às 15h", "pode confirmar, por favor"),
           ("exame", "italo", TUE, time(15)), "one-message"),
    booked("cm-pt-aos-poucos", "pt",
           ("oi, preciso fazer uma audiometria", "sexta", "às 14h", "pode ser"),
           ("audiometria", "heitor", FRI, time(14)), "step-by-step"),
    states("cm-pt-quem-exame-vista", "pt", ("com quem eu consigo fazer exame de vista aí?",),
           "who-does", ("Joana",), ("Ítalo",)),
    states("cm-pt-valor-audiometria", "pt", ("qual o valor da audiometria?",), "price",
           ("220",)),
    states("cm-pt-heitor-sabado", "pt", ("o Heitor trabalha sábado?",), "works-day",
           ("segunda", "quarta", "quinta", "sexta")),
    booked("cm-pt-dia-4", "pt", ("consigo um exame de vista no dia 4 às 17h?", "ok, marca"),
           ("exame", "joana", FRI, time(17)), "date"),
    changed("cm-pt-cancela-regulagem", "pt",
            ("vou precisar cancelar a regulagem do aparelho de quinta", "sim, cancela"),
            REGULAGEM_THU),
    faq("cm-pt-preparo-audiometria", "pt",
        ("tem algum preparo pra audiometria? trabalho numa obra com muito barulho",),
        "audio_prep"),
    nothing("cm-pt-depois-eu-vejo", "pt",
            ("exame de vista sexta 16h", "ah não, deixa pra lá, depois eu vejo isso"),
            "declined", (BOOK,)),
    nothing("cm-pt-so-com-heitor", "pt",
            ("audiometria quinta às 11h", "fechado, mas só se for com o Heitor"),
            "conditional-yes", (BOOK,)),
    nothing("cm-pt-lentes-inclusas", "pt",
            ("adaptação de lente de contato com a Joana sábado 9h",
             "o valor já inclui as lentes?"),
            "question-after-proposal", (BOOK,)),
    booked("cm-pt-mais-cedo-possivel", "pt",
           ("queria testar um aparelho auditivo, me coloca no horário mais cedo que tiver",
            "sim"),
           ("teste", "graziela", TUE, time(8)), "earliest-free"),
    booked("cm-pt-terca-nao-da", "pt",
           ("teste de aparelho auditivo às 15h, pode ser qualquer dia dessa semana, só terça "
            "que não dá", "sim"),
           ("teste", "graziela", THU, time(15)), "except-day"),
    booked("cm-pt-menos-italo", "pt",
           ("exame de vista hoje às 13h, com qualquer um menos o Ítalo", "sim"),
           ("exame", "joana", MON, time(13)), "except-pro"),
    booked("cm-pt-antes-disso", "pt",
           ("exame de vista terça 8h30", "não tem antes disso?", "ótimo, pode ser esse"),
           ("exame", "italo", TUE, time(8)), "later-earlier", tools=CHANGED),
    booked_having("cm-pt-emenda-depois", "pt",
                  ("consigo emendar uma audiometria logo depois da minha adaptação de lentes "
                   "de sexta?", "sim"),
                  ("audiometria", "heitor", FRI, time(16)), "right-after"),
    booked("cm-pt-audio", "pt",
           ("oi bom dia então é queria ver se tem como marcar uma audiometria na sexta de "
            "tarde umas três horas três da tarde isso", "beleza pode ser"),
           ("audiometria", "heitor", FRI, time(15)), "voice-note"),
    kept("cm-pt-me-enganei", "pt",
         ("quero cancelar meu exame de vista de quarta",
          "opa, não! me enganei, mantém ele por favor")),
    booked("cm-pt-tv-no-40", "pt",
           ("oi! tenho 67 anos, uso aparelho faz 5 anos e nos últimos 2 meses parece que "
            "piorou, minha neta de 9 anos diz que eu deixo a TV no volume 40. queria uma "
            "audiometria na quarta às 17h", "sim"),
           ("audiometria", "heitor", WED, time(17)), "long-story"),
    booked("cm-pt-show-obrigado", "pt",
           ("lente de contato com a Joana quarta 15h", "sim", "show, muito obrigado!"),
           ("lentes", "joana", WED, time(15)), "thanks-after"),
    booked("cm-pt-proxima-semana", "pt",
           ("queria um exame de vista com a Joana na sexta-feira da próxima semana às 14h",
            "sim"),
           ("exame", "joana", NEXT_FRI, time(14)), "next-week"),
    booked("cm-pt-entre-17-e-18", "pt",
           ("dá pra fazer a adaptação de lentes na terça entre 17h e 18h?", "sim"),
           ("lentes", "italo", TUE, time(17)), "time-window"),
    booked("cm-pt-sim-carregador", "pt",
           ("regulagem com o Heitor quarta 18h",
            "sim, pode marcar! vou levar o carregador do aparelho também"),
           ("regulagem", "heitor", WED, time(18)), "yes-plus-info"),
    booked("cm-pt-grazi", "pt",
           ("quero uma regulagem com a Grazi quinta 16h30", "sim"),
           ("regulagem", "graziela", THU, time(16, 30)), "misspelled-pro"),
    booked_having("cm-pt-mesmo-dia-lentes", "pt",
                  ("queria fazer uma regulagem do aparelho no mesmo dia da minha adaptação de "
                   "lentes, às 17h", "sim"),
                  ("regulagem", "heitor", FRI, time(17)), "same-day-as"),
    booked("cm-pt-sair-ate-9h30", "pt",
           ("queria um teste de aparelho auditivo no sábado, mas preciso sair daí até 9h30",
            "sim"),
           ("teste", "graziela", SAT, time(8)), "done-by"),
    booked("cm-pt-aparelho-apitando", "pt",
           ("meu aparelho auditivo tá apitando e com o som abafado, queria que alguém desse uma "
            "olhada nele na sexta às 11h", "sim"),
           ("regulagem", "heitor", FRI, time(11)), "by-purpose"),
    # -- English --------------------------------------------------------------------------------
    booked("cm-en-all-at-once", "en",
           ("Hey there, Michael Grant here. I'd like to book a hearing aid trial with Graziela "
            "on Thursday at 1pm.", "go ahead"),
           ("teste", "graziela", THU, time(13)), "one-message"),
    booked("cm-en-bit-by-bit", "en",
           ("hi, I need an eye exam", "Thursday", "11am", "yes"),
           ("exame", "italo", THU, time(11)), "step-by-step"),
    states("cm-en-who-hearing-tests", "en", ("who does the hearing tests over there?",),
           "who-does", ("Graziela",), ("Heitor",)),
    states("cm-en-kids-exam-price", "en", ("what's the price of an eye test for kids?",),
           "price", ("150",)),
    states("cm-en-joana-tuesdays", "en", ("Is Joana in on Tuesdays?",), "works-day",
           ("Monday", "Wednesday", "Friday", "Saturday")),
    booked("cm-en-3rd-of-december", "en",
           ("is there room for a hearing test on the 3rd of December, 9am?", "yes"),
           ("audiometria", "graziela", THU, time(9)), "date"),
    changed("cm-en-move-eye-exam", "en",
            ("I can't make my eye exam on Wednesday, could we do Thursday at 10 instead?", "yes"),
            EXAME_WED, (THU, time(10))),
    faq("cm-en-old-glasses", "en", ("should I bring my current glasses to the eye exam?",),
        "what_to_bring"),
    nothing("cm-en-pass-for-now", "en",
            ("hearing aid adjustment on Wednesday at 2pm", "no thanks, I'll pass for now"),
            "declined", (BOOK,)),
    nothing("cm-en-out-by-1030", "en",
            ("contact lens fitting with Italo on Tuesday at 10am",
             "ok, as long as I'm out of there by 10:30"),
            "conditional-yes", (BOOK,)),
    nothing("cm-en-dilate", "en",
            ("eye exam with Italo on Thursday at 2pm", "will you dilate my pupils?"),
            "question-after-proposal", (BOOK,)),
    booked("cm-en-next-free-kids", "en",
           ("my daughter needs a children's eye exam, whatever the next free slot is",
            "great, yes"),
           ("infantil", "joana", MON, time(13)), "earliest-free"),
    booked("cm-en-not-tue-or-sat", "en",
           ("a hearing test at 10am this week, any day that isn't Tuesday or Saturday", "yes"),
           ("audiometria", "graziela", THU, time(10)), "except-day"),
    booked("cm-en-rather-not-heitor", "en",
           ("hearing test on Thursday at 4pm, I'd rather not see Heitor though", "yes"),
           ("audiometria", "graziela", THU, time(16)), "except-pro"),
    booked("cm-en-bit-later", "en",
           ("children's eye exam on Saturday at 11am", "is there something a little later?",
            "perfect, lock it in"),
           ("infantil", "joana", SAT, time(11, 30)), "later-earlier", tools=CHANGED),
    booked_having("cm-en-adjust-after-test", "en",
                  ("could I get my hearing aid adjusted straight after my hearing test on "
                   "Tuesday?", "yes"),
                  ("regulagem", "graziela", TUE, time(11)), "right-after"),
    booked("cm-en-voice-note", "en",
           ("ok so uh basically I'd need an eye test on wednesday morning ehm like half past "
            "nine nine thirty yeah", "yep that works"),
           ("exame", "italo", WED, time(9, 30)), "voice-note"),
    kept("cm-en-can-make-it", "en",
         ("I need to cancel my hearing test on Tuesday",
          "wait, no, don't cancel it, I can make it after all")),
    booked("cm-en-screens-story", "en",
           ("Hi, I've worn glasses for 15 years, my prescription is -2.5 in both eyes, I spend "
            "about 10 hours a day on screens and my last exam was 3 years ago. Can I book an "
            "eye exam on Friday at 10am?", "yes"),
           ("exame", "italo", FRI, time(10)), "long-story"),
    booked("cm-en-thanks-a-lot", "en",
           ("hearing aid adjustment with Heitor today at 5pm", "yes", "great, thanks a lot!"),
           ("regulagem", "heitor", MON, time(17)), "thanks-after"),
    booked("cm-en-tuesday-next-week", "en",
           ("can I book a hearing aid trial for Tuesday next week at 9am?", "yes"),
           ("teste", "graziela", NEXT_TUE, time(9)), "next-week"),
    booked("cm-en-6-to-7", "en",
           ("I need a hearing test on Friday, anywhere from 6 to 7 in the evening", "yes"),
           ("audiometria", "heitor", FRI, time(18)), "time-window"),
    booked("cm-en-yes-bus", "en",
           ("eye exam with Joana on Saturday at 8:30am",
            "yes perfect, I'm taking the bus so I might be a few minutes early"),
           ("exame", "joana", SAT, time(8, 30)), "yes-plus-info"),
    booked("cm-en-hector", "en",
           ("hearing aid adjustment with Hector on Thursday at 4pm", "yes"),
           ("regulagem", "heitor", THU, time(16)), "misspelled-pro"),
    booked_having("cm-en-same-day-as-hearing", "en",
                  ("can I also get an eye exam on the same day as my hearing test, at 3pm?",
                   "yes"),
                  ("exame", "italo", TUE, time(15)), "same-day-as"),
    booked("cm-en-done-by-9", "en",
           ("contact lens fitting on Tuesday morning please, I need to be done by 9 to get to "
            "work", "yes"),
           ("lentes", "italo", TUE, time(8)), "done-by"),
    booked("cm-en-try-contacts", "en",
           ("I'm tired of wearing glasses and want to start using contacts, can I come in on "
            "Thursday at 9am for that?", "yes"),
           ("lentes", "italo", THU, time(9)), "by-purpose"),
    # -- Spanish --------------------------------------------------------------------------------
    booked("cm-es-todo-junto", "es",
           ("Buenas, soy Inés Aranda. Quería reservar una adaptación de lentes de contacto "
            "con Joana el sábado a las 10.", "perfecto, sí"),
           ("lentes", "joana", SAT, time(10)), "one-message"),
    booked("cm-es-de-a-poco", "es",
           ("hola, quería turno para una regulación del audífono", "el sábado",
            "a las 9 y media", "sí"),
           ("regulagem", "graziela", SAT, time(9, 30)), "step-by-step"),
    states("cm-es-quien-lentes", "es",
           ("¿quiénes hacen adaptación de lentes de contacto?",), "who-does", ("Joana",),
           ("Ítalo",)),
    states("cm-es-precio-regulacion", "es", ("¿qué precio tiene la regulación del audífono?",),
           "price", ("90",)),
    states("cm-es-graziela-lunes", "es", ("¿Graziela trabaja los lunes?",), "works-day",
           ("martes", "jueves", "sábado")),
    booked("cm-es-2-de-diciembre", "es",
           ("¿hay lugar para regulación del audífono el 2 de diciembre a las 12?", "sí"),
           ("regulagem", "heitor", WED, time(12)), "date"),
    changed("cm-es-lentes-al-miercoles", "es",
            ("¿se puede cambiar mi adaptación de lentes del viernes para el miércoles a la 1 de "
             "la tarde?", "sí"),
            LENTES_FRI, (WED, time(13))),
    faq("cm-es-cuotas", "es", ("¿se puede pagar el audífono en cuotas?",), "payment"),
    nothing("cm-es-gracias-igual", "es",
            ("audiometría el jueves a las 10", "no, mejor no, gracias igual"), "declined",
            (BOOK,)),
    nothing("cm-es-con-cheque", "es",
            ("examen de la vista el miércoles a las 10",
             "sí, siempre y cuando pueda pagar con cheque"),
            "conditional-yes", (BOOK,)),
    nothing("cm-es-estudio-previo", "es",
            ("prueba de audífono con Graziela el martes a las 14",
             "¿tengo que llevar algún estudio previo?"),
            "question-after-proposal", (BOOK,)),
    booked("cm-es-lo-antes-posible", "es",
           ("quiero hacerme una audiometría lo antes posible", "sí, agendámela"),
           ("audiometria", "heitor", MON, time(11)), "earliest-free"),
    booked("cm-es-ni-hoy-ni-miercoles", "es",
           ("examen de la vista a las 18, esta semana, que no sea hoy ni el miércoles", "sí"),
           ("exame", "joana", FRI, time(18)), "except-day"),
    booked("cm-es-con-joana-no", "es",
           ("lentes de contacto el miércoles a la 1 de la tarde, con Joana no", "sí"),
           ("lentes", "italo", WED, time(13)), "except-pro"),
    booked("cm-es-despues-de-esa-hora", "es",
           ("audiometría el jueves a las 18:30", "¿y algo después de esa hora?", "sí, esa"),
           ("audiometria", "heitor", THU, time(19)), "later-earlier", tools=CHANGED),
    booked_having("cm-es-seguido-de-audiometria", "es",
                  ("¿me pueden hacer un examen de la vista justo después de mi audiometría del "
                   "martes?", "sí"),
                  ("exame", "italo", TUE, time(11)), "right-after"),
    booked("cm-es-audio", "es",
           ("hola qué tal eh mirá te quería preguntar si puedo llevar el audífono a la "
            "regulación el martes a eso de las once once de la mañana", "dale sí"),
           ("regulagem", "graziela", TUE, time(11)), "voice-note"),
    kept("cm-es-ahi-voy-a-estar", "es",
         ("cancelame la regulación del audífono del jueves",
          "uy no, pará, mejor no la canceles, ahí voy a estar")),
    booked("cm-es-dos-pares", "es",
           ("Hola, mi hija tiene 8 años, usa anteojos desde los 5 y este año ya rompió 2 "
            "pares. Quería una evaluación visual infantil el sábado a las 10.", "sí"),
           ("infantil", "joana", SAT, time(10)), "long-story"),
    booked("cm-es-buenisimo", "es",
           ("audiometría con Graziela el martes a las 13", "sí", "buenísimo, gracias!!"),
           ("audiometria", "graziela", TUE, time(13)), "thanks-after"),
    booked("cm-es-proxima-semana", "es",
           ("una audiometría el miércoles de la próxima semana a las 16", "sí"),
           ("audiometria", "heitor", NEXT_WED, time(16)), "next-week"),
    booked("cm-es-entre-11-y-12", "es",
           ("examen de la vista el sábado entre las 11 y las 12", "sí"),
           ("exame", "joana", SAT, time(11)), "time-window"),
    booked("cm-es-si-tarjeta", "es",
           ("adaptación de lentes con Ítalo el jueves a las 12",
            "sí, confirmame, voy a pagar con tarjeta"),
           ("lentes", "italo", THU, time(12)), "yes-plus-info"),
    booked("cm-es-juana", "es",
           ("examen de la vista con Juana el viernes a las 13", "sí"),
           ("exame", "joana", FRI, time(13)), "misspelled-pro"),
    booked_having("cm-es-mismo-dia-regulacion", "es",
                  ("quiero una audiometría el mismo día de mi regulación del audífono, a las 9",
                   "sí"),
                  ("audiometria", "graziela", THU, time(9)), "same-day-as"),
    booked("cm-es-a-las-12-me-voy", "es",
           ("una audiometría el viernes, pero a las 12 ya me tengo que ir", "sí"),
           ("audiometria", "heitor", FRI, time(11)), "done-by"),
    booked("cm-es-no-escucho-bien", "es",
           ("últimamente no escucho bien la tele y mi familia dice que hablo muy fuerte, "
            "quiero que me revisen la audición el sábado a las 9", "sí"),
           ("audiometria", "graziela", SAT, time(9)), "by-purpose"),
]  # fmt: skip
