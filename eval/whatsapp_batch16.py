# Over 300 lines: one business's catalog, its calendar facts and its 66 conversations.
"""The sixteenth batch, blind: written from categories (never from a reported sentence, and
without reading the offline model's code, words, grammar or language data) and run before any
change for it (baseline: ``eval/baselines/whatsapp-batch16-before.md``), in Portuguese, English
and Spanish, on a business of another kind: a physiotherapy and pilates clinic ("Clínica
Jacarandá — Fisioterapia e Pilates": a physiotherapy assessment, a physiotherapy session, a
pilates class, a global postural re-education (RPG) session, dry needling, a lymphatic
drainage massage) that configured **no aliases**, so "fisio", "physio", "initial assessment",
"evaluación", "aula de pilates", "postural", "agulhamento", "dry needling", "punción seca",
"drenagem", "lymphatic drainage", "drenaje linfático" must be understood from the customer's
own words or another language. Held out: its cases are played by
``python -m eval --suite whatsapp-batch16`` only, not by the default run.

Categories kept from :mod:`eval.whatsapp_batch15`, with new wording, three cases each (one per
language): booking with every detail in one message, the customer giving their name
(``one-message``); step by step, one detail a message (``step-by-step``); who does a service
(``who-does``: both people who do it); a price (``price``); whether someone works a given
weekday (``works-day``: they do not, and the reply names a day they do); a date ("dia 2",
"December 4th", "el 5 de diciembre"; ``date``); cancelling or moving one appointment
(``appointments``); FAQ questions (``faq``); a "no" to a proposal (``declined``); a yes on a
condition that cannot hold (``conditional-yes``: a physiotherapist who is not in on Friday
afternoons, a price below the service's, free grip socks the FAQ says cost R$ 25): nothing
booked; a question right after a proposal, the conversation's last message
(``question-after-proposal``: not a yes, nothing booked).

New categories:

- ``earliest-free``: the customer asks to book the first free start of a service without
  naming a day ("no primeiro horário livre que vocês tiverem", "the earliest ... you have",
  "el primer turno libre que tengan"), then says yes: booked at the service's earliest start
  from now on, whoever does it (drainage: Diego today at 15:00; RPG: Henrique today at 12:00;
  assessment: Marta today at 10:00, the first start after the hour's notice).
- ``except-day``: a time and "any day but ..." ("qualquer dia menos terça", "any day except
  Thursday", "cualquier día menos hoy y el miércoles"): exactly one other day of the week has
  that service at that time, and it is booked.
- ``except-pro``: a day and time with "not with ..." ("só não quero com o Diego", "anyone but
  Henrique", "pero no con Marta") when exactly two people do the service then: booked with the
  other one.
- ``later-earlier``: after a proposal the customer asks for a later or an earlier time ("tem
  mais tarde?", "anything earlier?", "¿no tienen algo un poco más tarde?") when exactly one
  start of that service is later (earlier) that day, then says yes: booked at that start (three
  ``book_appointment`` calls: proposal, new proposal, confirmation).
- ``same-pro-as``: the professional is named only through one of the customer's appointments
  ("com a mesma profissional do meu RPG de terça", "the same physio I'm seeing on Wednesday",
  "la misma fisio que me atiende el jueves") when two people do the service at the time asked:
  booked with the one of that appointment (the appointments listed first).
- ``right-after``: a service booked right after one of the customer's appointments ("logo
  depois da minha sessão de quarta", "right after my RPG on Tuesday", "justo después del
  drenaje del viernes"): booked at that appointment's end with the one person who does the new
  service then (the appointments listed first).
- ``voice-note``: a voice message transcribed to text, without punctuation, with fillers and
  the hour in words, said again ("lá pelas nove horas nove da manhã isso", "around six six pm
  yeah", "tipo a las cinco de la tarde más o menos"), then a yes: booked.
- ``cancel-kept``: the customer asks to cancel one appointment, then, at the proposal, changes
  their mind and keeps it ("pensando bem não, deixa marcado", "actually no, keep it", "no no,
  mejor lo dejo"): nothing cancelled (the appointments listed, one cancellation proposed).
- ``long-story``: the request comes after a story full of numbers that are not the day or the
  time (weeks since an injury, a count of sessions, an age, hours a day at a desk), then a
  yes: booked at the day and time asked.
- ``price-total``: the total of several services ("a avaliação mais 4 aulas de pilates", "3
  physio sessions in total", "una evaluación y una punción seca"): the reply states the sum.
- ``thanks-after``: booked, then the customer thanks ("obrigadaa 🙏", "cheers, thanks!",
  "genial, muchas gracias!!"): still exactly that one booking, and the thanks gets a reply of
  its own (not the confirmation again).

Every case also requires that no two consecutive replies are the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid), as in
batches 10 to 15: "hoje"/"today"/"hoy" is Monday 11/30 (nothing before 10:00), "amanhã"/
"tomorrow"/"mañana" Tuesday 12/01, Wednesday 12/02 ("dia 2"), Thursday 12/03, Friday 12/04
("December 4th"), Saturday 12/05 ("el 5 de diciembre"), Sunday closed. No case says a bare
"segunda"/"Monday"/"lunes" to book.

Marta Siqueira (physiotherapist: assessment, session, dry needling) works Monday to Friday
07:00–13:00 (not Saturday); Henrique Lobo (physiotherapist: assessment, session, RPG, dry
needling) works Monday, Wednesday and Friday 12:00–20:00 and Saturday 08:00–12:00 (not Tuesday
or Thursday); Paula Rezende (physiotherapist and pilates instructor: pilates, RPG) works
Tuesday and Thursday 07:00–11:00 and 17:00–20:00 and Saturday 08:00–12:00 (not Monday,
Wednesday or Friday); Diego Amaral (pilates instructor and massage therapist: pilates,
lymphatic drainage) works Monday to Friday 15:00–21:00 (not Saturday). Durations: assessment
90 minutes, dry needling 30, every other service 60. So: an assessment is Marta's on weekdays
from 07:00 to 11:30 and Henrique's from 12:00 to 18:30 on Monday, Wednesday and Friday and from
08:00 to 10:30 on Saturday (never both; nobody's on Tuesday or Thursday afternoon); a session
is Marta's on weekdays until 12:00 and Henrique's from 12:00 (both at 12:00 on Monday,
Wednesday and Friday) and on Saturday; dry needling likewise (both at 12:00 and 12:30 on
Monday, Wednesday and Friday); RPG is Paula's on Tuesday and Thursday (07:00–10:00, 17:00–19:00)
and Henrique's on Monday, Wednesday and Friday from 12:00 (both on Saturday); pilates is
Paula's on Tuesday and Thursday mornings (07:00–10:00) and on Saturday (08:00–11:00), Diego's
on weekdays from 15:00 to 20:00 (both on Tuesday and Thursday from 17:00 to 19:00); a drainage
is only Diego's. Prices: assessment R$ 180, session R$ 150, pilates R$ 90, RPG R$ 160, dry
needling R$ 120, drainage R$ 130. The FAQ (in Portuguese only) gives the address (Rua Tuim),
the opening hours (weekdays 7h–21h, Saturday 8h–12h), payment (Pix, cash, cards; up to 3x
interest-free on a credit card), health plans (none: a receipt for the plan's reimbursement),
what to wear (comfortable clothes; grip socks required for pilates, sold at the desk for
R$ 25), a doctor's referral (not needed; bring scans or reports), parking (4 free spaces in
front) and cancellation (free up to 12 hours before, then charged in full). The customer has,
in the appointments, same-pro-as, right-after and cancel-kept cases, an RPG session with Paula
on Tuesday at 08:00, a physiotherapy session with Henrique on Wednesday at 15:00, dry needling
with Marta on Thursday at 10:00 and a drainage with Diego on Friday at 16:00; every target
below is free and within the professional's hours.
"""

from __future__ import annotations

from datetime import date, time

from agent_service.domain.catalog import WorkingHours
from eval.dataset import BOOK, EvalCase
from eval.harness import SALONS, Booked, SalonSpec, local
from eval.salon_cases import SalonCases

SALON = "jacaranda"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))

SERVICES = {
    "avaliacao": (
        "Avaliação Fisioterapêutica",
        90,
        18000,
        "Anamnese, testes de força, amplitude de movimento e postura, e plano de tratamento.",
    ),
    "sessao": (
        "Sessão de Fisioterapia",
        60,
        15000,
        "Atendimento individual com exercícios terapêuticos, terapia manual e eletroterapia.",
    ),
    "pilates": ("Aula de Pilates", 60, 9000, "Aula em aparelhos (reformer, cadillac e chair)."),
    "rpg": (
        "Reeducação Postural Global",
        60,
        16000,
        "Posturas de alongamento ativo para corrigir desvios e aliviar dores na coluna.",
    ),
    "agulhamento": (
        "Agulhamento a Seco",
        30,
        12000,
        "Agulhas finas nos pontos-gatilho para aliviar dor e tensão muscular.",
    ),
    "drenagem": (
        "Drenagem Linfática",
        60,
        13000,
        "Massagem manual suave para reduzir inchaço e retenção de líquidos.",
    ),
}

JACARANDA = SalonSpec(
    name="Clínica Jacarandá — Fisioterapia e Pilates",
    services=SERVICES,
    # No aliases: the clinic wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "marta": ("Marta Siqueira", "Fisioterapeuta", ("avaliacao", "sessao", "agulhamento")),
        "henrique": (
            "Henrique Lobo",
            "Fisioterapeuta",
            ("avaliacao", "sessao", "rpg", "agulhamento"),
        ),
        "paula": ("Paula Rezende", "Fisioterapeuta e instrutora de pilates", ("pilates", "rpg")),
        "diego": (
            "Diego Amaral",
            "Instrutor de pilates e massoterapeuta",
            ("pilates", "drenagem"),
        ),
    },
    hours={
        "marta": tuple(
            WorkingHours(day_of_week=d, start=time(7), end=time(13)) for d in range(1, 6)
        ),
        "henrique": (
            *(WorkingHours(day_of_week=d, start=time(12), end=time(20)) for d in (1, 3, 5)),
            WorkingHours(day_of_week=6, start=time(8), end=time(12)),
        ),
        "paula": (
            *(
                WorkingHours(day_of_week=d, start=start, end=end)
                for d in (2, 4)
                for start, end in ((time(7), time(11)), (time(17), time(20)))
            ),
            WorkingHours(day_of_week=6, start=time(8), end=time(12)),
        ),
        "diego": tuple(
            WorkingHours(day_of_week=d, start=time(15), end=time(21)) for d in range(1, 6)
        ),
    },
    # Written in Portuguese only.
    faq={
        "address": (
            "Onde fica a clínica?",
            "Rua Tuim, 215 — Moema, São Paulo (a duas quadras do Parque Ibirapuera).",
            ("endereço", "localização"),
        ),
        "hours": (
            "Qual é o horário de funcionamento?",
            "De segunda a sexta, das 7h às 21h; aos sábados, das 8h às 12h. Domingo fechado.",
            ("horário", "funcionamento", "abre", "fecha"),
        ),
        "payment": (
            "Quais são as formas de pagamento?",
            "Pix, dinheiro ou cartão de débito e crédito; no crédito parcelamos em até 3x sem "
            "juros.",
            ("pagamento", "pix", "cartão", "parcelar"),
        ),
        "health_plan": (
            "Vocês atendem convênio?",
            "Não atendemos por convênio: o atendimento é particular, mas emitimos recibo com os "
            "dados do fisioterapeuta para você pedir reembolso ao seu plano de saúde.",
            ("convênio", "plano de saúde", "reembolso"),
        ),
        "clothes": (
            "O que vestir para o pilates?",
            "Venha com roupa confortável que permita movimento (legging, bermuda, camiseta). No "
            "pilates é obrigatório o uso de meias antiderrapantes; se não tiver, vendemos na "
            "recepção por R$ 25.",
            ("roupa", "vestir", "meia", "meias", "antiderrapante"),
        ),
        "referral": (
            "Preciso de pedido médico?",
            "Não é preciso pedido médico para a avaliação nem para as sessões; se tiver exames "
            "de imagem ou laudos, traga no dia da avaliação.",
            ("pedido médico", "encaminhamento", "receita", "exames"),
        ),
        "parking": (
            "Vocês têm estacionamento?",
            "Sim: temos 4 vagas gratuitas para pacientes em frente à clínica; se estiverem "
            "ocupadas, há Zona Azul na rua.",
            ("estacionamento", "vaga", "carro"),
        ),
        "cancel": (
            "Qual é a política de cancelamento?",
            "Cancelamento ou remarcação sem custo até 12 horas antes do horário; depois disso a "
            "sessão é cobrada integralmente.",
            ("cancelamento", "cancelar", "remarcar", "política"),
        ),
    },
    faq_facts={
        "address": ("Tuim",),
        "hours": ("21h", "9pm", "9 pm", "21:00"),
        "payment": (
            "3x",
            "sem juros",
            "interest-free",
            "interest free",
            "sin interes",
            "3 cuotas",
            "tres cuotas",
        ),
        "health_plan": ("reembolso", "reimburse", "recibo", "receipt"),
        "clothes": ("antiderrapante", "non-slip", "grip", "antideslizante"),
        "referral": ("exames", "laudo", "exams", "scans", "imaging", "estudios", "informes"),
        "parking": ("4 vagas", "vagas", "Zona Azul", "parking spaces", "4 spaces", "plazas"),
        "cancel": ("12 horas", "12 hours", "doce horas", "twelve hours"),
    },
)
SALONS[SALON] = JACARANDA

RPG_TUE = Booked("rpg", "paula", local(TUE, time(8)))
SESSAO_WED = Booked("sessao", "henrique", local(WED, time(15)))
AGULHAMENTO_THU = Booked("agulhamento", "marta", local(THU, time(10)))
DRENAGEM_FRI = Booked("drenagem", "diego", local(FRI, time(16)))
EXISTING = (RPG_TUE, SESSAO_WED, AGULHAMENTO_THU, DRENAGEM_FRI)

# A proposal, a new proposal for the later/earlier time, then the confirmed write.
CHANGED = (BOOK, BOOK, BOOK)
WEEKDAYS_PT = ("segunda", "terça", "quarta", "quinta", "sexta")
WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")

_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip
booked_having, kept = _CASES.booked_having, _CASES.kept


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("cj-pt-tudo-numa-mensagem", "pt",
           ("bom dia! meu nome é Renata Alves, gostaria de agendar uma avaliação com a Marta na "
            "quarta às 8h, pode ser?", "sim"),
           ("avaliacao", "marta", WED, time(8)), "one-message"),
    booked("cj-pt-passo-a-passo", "pt", ("oi, quero fazer pilates", "quinta", "às 8h", "sim"),
           ("pilates", "paula", THU, time(8)), "step-by-step"),
    states("cj-pt-quem-faz-rpg", "pt", ("quem faz RPG aí?",), "who-does", ("Henrique",),
           ("Paula",)),
    states("cj-pt-preco-drenagem", "pt", ("qto custa a drenagem?",), "price", ("130",)),
    states("cj-pt-diego-sabado", "pt", ("o Diego trabalha sábado?",), "works-day", WEEKDAYS_PT),
    booked("cj-pt-dia-2", "pt", ("dia 2 às 17h tem drenagem?", "pode marcar"),
           ("drenagem", "diego", WED, time(17)), "date"),
    changed("cj-pt-cancela-drenagem", "pt",
            ("preciso cancelar minha drenagem de sexta", "pode cancelar"), DRENAGEM_FRI),
    faq("cj-pt-convenio", "pt", ("vcs atendem convênio?",), "health_plan"),
    nothing("cj-pt-deixa-quieto", "pt", ("RPG quarta 14h", "não, deixa quieto, obrigado"),
            "declined", (BOOK,)),
    nothing("cj-pt-se-for-marta", "pt", ("avaliação sexta 15h", "sim, se for com a Marta"),
            "conditional-yes", (BOOK,)),
    nothing("cj-pt-estacionamento", "pt",
            ("sessão de fisio com o Henrique quarta 18h", "tem estacionamento aí?"),
            "question-after-proposal", (BOOK,)),
    booked("cj-pt-primeiro-livre", "pt",
           ("quero marcar uma drenagem no primeiro horário livre que vocês tiverem", "sim"),
           ("drenagem", "diego", MON, time(15)), "earliest-free"),
    booked("cj-pt-menos-terca", "pt",
           ("queria uma aula de pilates às 7h da manhã essa semana, qualquer dia menos terça",
            "sim"),
           ("pilates", "paula", THU, time(7)), "except-day"),
    booked("cj-pt-nao-com-diego", "pt",
           ("pilates quinta às 18h, só não quero com o Diego", "sim"),
           ("pilates", "paula", THU, time(18)), "except-pro"),
    booked("cj-pt-mais-tarde", "pt",
           ("drenagem quarta 19h30", "tem mais tarde?", "fechado, pode ser"),
           ("drenagem", "diego", WED, time(20)), "later-earlier", tools=CHANGED),
    booked_having("cj-pt-mesma-do-rpg", "pt",
                  ("quero marcar uma aula de pilates quinta às 17h com a mesma profissional do "
                   "meu RPG de terça", "sim"),
                  ("pilates", "paula", THU, time(17)), "same-pro-as"),
    booked_having("cj-pt-logo-depois", "pt",
                  ("consegue encaixar uma drenagem logo depois da minha sessão de quarta?",
                   "sim"),
                  ("drenagem", "diego", WED, time(16)), "right-after"),
    booked("cj-pt-audio", "pt",
           ("oi bom dia tudo bem então é eu queria ver se tem como marcar uma sessão de "
            "fisioterapia pra sexta feira de manhã lá pelas nove horas nove da manhã isso",
            "sim pode ser"),
           ("sessao", "marta", FRI, time(9)), "voice-note"),
    kept("cj-pt-deixa-marcado", "pt",
         ("quero cancelar o agulhamento de quinta", "pensando bem não, deixa marcado, eu vou")),
    booked("cj-pt-tornozelo", "pt",
           ("oi! torci o tornozelo faz 2 semanas jogando vôlei e o ortopedista pediu 10 sessões "
            "de fisio, 2x por semana. queria começar pela avaliação, pode ser terça às 10h?",
            "sim"),
           ("avaliacao", "marta", TUE, time(10)), "long-story"),
    states("cj-pt-avaliacao-mais-4-aulas", "pt",
           ("quanto fica no total a avaliação mais 4 aulas de pilates?",), "price-total",
           ("540",)),
    booked("cj-pt-obrigadaa", "pt",
           ("agulhamento com a Marta amanhã às 11h", "sim", "obrigadaa 🙏"),
           ("agulhamento", "marta", TUE, time(11)), "thanks-after"),
    # -- English --------------------------------------------------------------------------------
    booked("cj-en-all-in-one", "en",
           ("Hello, Mark Evans here. Could I get a physio session with Henrique this Friday at "
            "6pm?", "yes"),
           ("sessao", "henrique", FRI, time(18)), "one-message"),
    booked("cj-en-step-by-step", "en",
           ("hi, I'd like to book dry needling", "Saturday", "10am", "yes"),
           ("agulhamento", "henrique", SAT, time(10)), "step-by-step"),
    states("cj-en-who-teaches-pilates", "en", ("who teaches the pilates classes?",), "who-does",
           ("Paula",), ("Diego",)),
    states("cj-en-assessment-price", "en", ("how much is the initial assessment?",), "price",
           ("180",)),
    states("cj-en-marta-saturdays", "en", ("Is Marta in on Saturdays?",), "works-day",
           WEEKDAYS_EN),
    booked("cj-en-december-4th", "en",
           ("do you have an assessment on December 4th at 9am?", "yes"),
           ("avaliacao", "marta", FRI, time(9)), "date"),
    changed("cj-en-move-session", "en",
            ("can I move my physio session on Wednesday to Friday at 2pm?", "yes"), SESSAO_WED,
            (FRI, time(14))),
    faq("cj-en-what-to-wear", "en",
        ("what should I wear for pilates? do I need special socks?",), "clothes"),
    nothing("cj-en-next-month", "en",
            ("pilates Friday 7pm", "no thanks, maybe next month"), "declined", (BOOK,)),
    nothing("cj-en-under-100", "en",
            ("dry needling with Marta tomorrow at 9am", "yes, as long as it's under 100 reais"),
            "conditional-yes", (BOOK,)),
    nothing("cj-en-is-it-painful", "en",
            ("lymphatic drainage with Diego on Tuesday at 5pm", "is it painful?"),
            "question-after-proposal", (BOOK,)),
    booked("cj-en-earliest-rpg", "en", ("book me the earliest RPG session you have", "yes please"),
           ("rpg", "henrique", MON, time(12)), "earliest-free"),
    booked("cj-en-except-thursday", "en",
           ("I need an RPG session at 7am this week, any day except Thursday", "yes"),
           ("rpg", "paula", TUE, time(7)), "except-day"),
    booked("cj-en-anyone-but-henrique", "en",
           ("dry needling on Wednesday at 12:30, anyone but Henrique please", "yes"),
           ("agulhamento", "marta", WED, time(12, 30)), "except-pro"),
    booked("cj-en-anything-earlier", "en",
           ("pilates on Saturday at 8:30am", "anything earlier?", "yes, that works"),
           ("pilates", "paula", SAT, time(8)), "later-earlier", tools=CHANGED),
    booked_having("cj-en-same-physio", "en",
                  ("can I book a physio session on Friday at noon with the same physio I'm "
                   "seeing on Wednesday?", "yes"),
                  ("sessao", "henrique", FRI, time(12)), "same-pro-as"),
    booked_having("cj-en-right-after-rpg", "en",
                  ("could I add dry needling right after my RPG on Tuesday?", "yes"),
                  ("agulhamento", "marta", TUE, time(9)), "right-after"),
    booked("cj-en-voice-note", "en",
           ("hey um so I was wondering if I could uh book a pilates class on wednesday evening "
            "around six six pm yeah", "yeah that's fine"),
           ("pilates", "diego", WED, time(18)), "voice-note"),
    kept("cj-en-keep-it", "en",
         ("please cancel my lymphatic drainage on Friday", "actually no, wait, keep it. I'll "
          "make it")),
    booked("cj-en-back-pain", "en",
           ("Hi, I'm 34 and I've had lower back pain for about 3 months from sitting 8 hours a "
            "day at my desk. My doctor said RPG could help. Can I book an RPG session on "
            "Wednesday at 4pm?", "yes"),
           ("rpg", "henrique", WED, time(16)), "long-story"),
    states("cj-en-three-sessions", "en",
           ("how much would 3 physio sessions cost in total?",), "price-total", ("450",)),
    booked("cj-en-cheers", "en",
           ("RPG with Paula on Thursday at 5pm", "yes", "cheers, thanks!"),
           ("rpg", "paula", THU, time(17)), "thanks-after"),
    # -- Spanish --------------------------------------------------------------------------------
    booked("cj-es-todo-en-un-mensaje", "es",
           ("Buenas, soy Sofía Herrera. Quiero reservar un drenaje linfático con Diego el martes "
            "a las 18, ¿se puede?", "sí"),
           ("drenagem", "diego", TUE, time(18)), "one-message"),
    booked("cj-es-paso-a-paso", "es",
           ("hola, necesito una sesión de fisioterapia", "el miércoles", "a las 17", "sí"),
           ("sessao", "henrique", WED, time(17)), "step-by-step"),
    states("cj-es-quien-puncion-seca", "es", ("¿quién hace la punción seca?",), "who-does",
           ("Marta",), ("Henrique",)),
    states("cj-es-precio-pilates", "es", ("¿qué precio tiene la clase de pilates?",), "price",
           ("90",)),
    states("cj-es-paula-miercoles", "es", ("¿Paula trabaja los miércoles?",), "works-day",
           ("martes", "jueves", "sábado")),
    booked("cj-es-5-de-diciembre", "es", ("¿el 5 de diciembre a las 9 hay pilates?", "sí"),
           ("pilates", "paula", SAT, time(9)), "date"),
    changed("cj-es-puncion-al-viernes", "es",
            ("¿puedo pasar la punción seca del jueves al viernes a las 11?", "sí"),
            AGULHAMENTO_THU, (FRI, time(11))),
    faq("cj-es-orden-medica", "es", ("¿hace falta orden médica para la evaluación?",),
        "referral"),
    nothing("cj-es-mejor-no", "es",
            ("drenaje linfático el jueves a las 16", "no, mejor no, gracias"), "declined",
            (BOOK,)),
    nothing("cj-es-medias-gratis", "es",
            ("pilates con Paula el sábado a las 10",
             "sí, si las medias antideslizantes me las dan gratis"),
            "conditional-yes", (BOOK,)),
    nothing("cj-es-cuanto-dura", "es", ("RPG con Henrique el viernes a las 13", "¿cuánto dura?"),
            "question-after-proposal", (BOOK,)),
    booked("cj-es-primer-turno", "es",
           ("dame el primer turno libre que tengan para una evaluación", "dale, sí"),
           ("avaliacao", "marta", MON, time(10)), "earliest-free"),
    booked("cj-es-menos-hoy-y-miercoles", "es",
           ("una sesión de fisio con Henrique a las 19, cualquier día menos hoy y el miércoles",
            "sí"),
           ("sessao", "henrique", FRI, time(19)), "except-day"),
    booked("cj-es-no-con-marta", "es",
           ("sesión de fisio el viernes a las 12, pero no con Marta", "sí"),
           ("sessao", "henrique", FRI, time(12)), "except-pro"),
    booked("cj-es-mas-tarde", "es",
           ("evaluación el jueves a las 11", "¿no tienen algo un poco más tarde?", "sí, perfecto"),
           ("avaliacao", "marta", THU, time(11, 30)), "later-earlier", tools=CHANGED),
    booked_having("cj-es-misma-fisio", "es",
                  ("quiero hacer punción seca el miércoles a las 12:30 con la misma fisio que "
                   "me atiende el jueves", "sí"),
                  ("agulhamento", "marta", WED, time(12, 30)), "same-pro-as"),
    booked_having("cj-es-justo-despues", "es",
                  ("¿me pueden dar una clase de pilates justo después del drenaje del viernes?",
                   "sí"),
                  ("pilates", "diego", FRI, time(17)), "right-after"),
    booked("cj-es-audio", "es",
           ("hola qué tal mira quería saber si me pueden dar un turno para drenaje linfático el "
            "jueves a la tarde tipo a las cinco de la tarde más o menos", "sí dale"),
           ("drenagem", "diego", THU, time(17)), "voice-note"),
    kept("cj-es-lo-dejo", "es", ("cancelame el RPG del martes", "no no, mejor lo dejo, perdón")),
    booked("cj-es-rodilla", "es",
           ("hola, tengo 61 años y me operaron la rodilla hace 6 semanas, el traumatólogo me "
            "recomendó 20 sesiones. ¿Me reservan una sesión de fisio el martes a las 11?", "sí"),
           ("sessao", "marta", TUE, time(11)), "long-story"),
    states("cj-es-evaluacion-y-puncion", "es",
           ("¿cuánto me sale en total una evaluación y una punción seca?",),
           "price-total", ("300",)),
    booked("cj-es-muchas-gracias", "es",
           ("pilates con Diego hoy a las 20", "sí", "genial, muchas gracias!!"),
           ("pilates", "diego", MON, time(20)), "thanks-after"),
]  # fmt: skip
