# Over 300 lines: one business's catalog, its calendar facts and its 64 conversations.
"""The eleventh batch, blind: written from categories (never from a reported sentence, and
without reading the offline model's words, grammar or language data) and run before any change
for it (baseline: ``eval/baselines/whatsapp-batch11-before.md``), in Portuguese, English and
Spanish, on a business of another kind: a tattoo and piercing studio ("Mandacaru Tattoo &
Piercing": a design-and-quote consultation, a small tattoo, a 3-hour tattoo session, a touch-up,
a piercing and a laser removal session) that configured **no aliases**, so "tattoo",
"tatuaje", "orçamento", "presupuesto", "touch-up", "septum", "laser removal", "quitar un
tatuaje" must be understood from the customer's own words or another language. Held out: its
cases are played by ``python -m eval --suite whatsapp-batch11`` only, not by the default run.

Categories kept from :mod:`eval.whatsapp_batch10`, with new wording: booking with every detail
in one message, the customer giving their name (``one-message``); step by step, one detail a
message (``step-by-step``); which professional does a service (``who-does``); a price
(``price``); whether a professional works a given weekday (``works-day``: they do not, and the
reply names a day they do); the latest time of a day, booked (``latest``); "semana que vem" /
"next week" / "la semana que viene" (``next-week``); cancelling one of two appointments of the
same service and moving one (``appointments``); FAQ questions (``faq``: a minor's age, aftercare,
instalments); a yes on a condition that cannot hold (``conditional-yes``: the other artist, who
is not in that day; a price below the service's; more instalments than the FAQ allows): nothing
booked.

New categories: a day said relative to today ("depois de amanhã", "daqui a 3 dias", "the day
after tomorrow", "this coming Friday", "pasado mañana", "dentro de 4 días";
``relative-day``); a time said in words ("meio dia", "meio dia e meia", "half past two",
"noon", "a las once y media", "a las tres y media"; ``clock-words``), and two vague ones ("3 e
pouco", "a eso de las tres y pico") that must get a question or a listing, not a proposal at a
guessed time: the customer then picks 15:30 and says yes, so exactly two ``book_appointment``
calls (the proposal of the picked time and its confirmation); the customer does not mind who
("tanto faz", "qualquer um", "any artist is fine", "whoever's free", "con quien sea", "con
cualquiera"; ``any-professional``): the one artist of the service who is in at that time is
booked; a "no" to a proposal with "I'll think about it / come back later"
(``decline-and-leave``: nothing booked and no new proposal, so exactly one
``book_appointment`` call); a question after a proposal (price, duration, address, needles,
card) and a yes only in the next message (``question-then-yes``: the proposed slot booked once;
an FAQ question is looked up with ``search_faq``). Quarter hours ("quarter to five", "a las
once y cuarto") are left out: they are off the 30-minute grid, so no booking could be
expected; so is "el próximo jueves", which said on a Monday means this week's or next week's
Thursday depending on the speaker. Every case also requires that no two consecutive replies are
the same text.

The clock is Monday 2026-11-30 09:00 in São Paulo (60 minutes' notice, 30-minute grid), as in
batch 10: "hoje"/"today" is Monday 11/30 (nothing before 10:00), "amanhã"/"tomorrow" Tuesday
12/01, "depois de amanhã"/"the day after tomorrow"/"pasado mañana" Wednesday 12/02, "daqui a 3
dias" Thursday 12/03 ("December 3rd"), "this coming Friday"/"dentro de 4 días" Friday 12/04
("el viernes 4 de diciembre"), Saturday 12/05, Sunday closed; next week's Monday is 12/07
("segunda que vem"), Wednesday 12/09, Friday 12/11. No case says a bare "Monday"/"segunda"/
"lunes" to book.

Rafaela Duarte (tattoo artist: consultation, small tattoo, session, touch-up) works Tuesday to
Friday 13:00–21:00 and Saturday 10:00–16:00; Caio Menezes (tattoo artist and laser: consultation,
session, touch-up, laser removal) works Monday, Wednesday and Friday 09:00–18:00; Lívia Sato
(piercer: piercing, small tattoo) works Monday to Thursday 10:00–19:00 and Saturday
10:00–14:00 (not Friday). So piercings are only Lívia's (none on Friday), laser only Caio's
(only Monday, Wednesday, Friday); a small tattoo before 13:00 on Monday to Thursday is only
Lívia's, on Friday only Rafaela's, on Saturday after 14:00 only Rafaela's; a consultation,
session or touch-up before 13:00 is only Caio's (Monday, Wednesday, Friday), on Tuesday,
Thursday and Saturday only Rafaela's, and after 18:00 only Rafaela's. Durations: consultation
and piercing 30 minutes, small tattoo and touch-up 60, laser 90, session 180. So Saturday's
latest piercing is 13:30, Friday's latest session 18:00 (Rafaela; Caio's last is 15:00),
Tuesday's latest small tattoo 20:00 (Rafaela; Lívia's last is 18:00), Wednesday's 09:00
session is Caio's and Friday's 16:00 laser ends at 17:30. Prices: consultation R$ 60, small
tattoo R$ 350, session R$ 900, touch-up R$ 150, piercing R$ 140, laser R$ 450. The FAQ (in
Portuguese only, with no entry about opening hours) says tattoos are for 18 and over (piercings
from 12 with a guardian), cards are split in up to 4 instalments from R$ 300, sessions take a
R$ 100 deposit, aftercare means no sun, pool or sea for 30 days, needles are disposable, and
changes are free up to 48 hours before. The customer has, in the appointment cases, two laser
sessions with Caio (Wednesday 10:00 and Friday 15:00), a piercing with Lívia on Tuesday at 11:00
and a session with Rafaela on Saturday at 10:00.
"""

from __future__ import annotations

from datetime import date, time

from agent_service.domain.catalog import WorkingHours
from eval.dataset import BOOK, SEARCH, EvalCase
from eval.harness import SALONS, Booked, SalonSpec, local
from eval.salon_cases import SalonCases

SALON = "mandacaru"
MON, TUE, WED, THU, FRI, SAT = (date(2026, 11, 30), *(date(2026, 12, d) for d in range(1, 6)))
NEXT_MON, NEXT_WED, NEXT_FRI = (date(2026, 12, d) for d in (7, 9, 11))

SERVICES = {
    "orcamento": (
        "Consulta de Criação e Orçamento",
        30,
        6000,
        "Conversa sobre a ideia, esboço do desenho, tamanho e local do corpo; sai com o "
        "orçamento fechado.",
    ),
    "pequena": (
        "Tatuagem Pequena",
        60,
        35000,
        "Desenho de até 8 cm: traço fino, lettering ou um flash do estúdio.",
    ),
    "sessao": (
        "Sessão de Tatuagem",
        180,
        90000,
        "Sessão de 3 horas para peças médias e grandes (braço, costas, perna).",
    ),
    "retoque": ("Retoque", 60, 15000, "Reforço de traço e cor em tatuagem já cicatrizada."),
    "piercing": (
        "Aplicação de Piercing",
        30,
        14000,
        "Perfuração com agulha descartável; joia de titânio inclusa.",
    ),
    "laser": (
        "Remoção a Laser",
        90,
        45000,
        "Sessão de clareamento ou remoção de tatuagem, com anestésico tópico.",
    ),
}

MANDACARU = SalonSpec(
    name="Mandacaru Tattoo & Piercing",
    services=SERVICES,
    # No aliases: the studio wrote its catalog and nothing else.
    service_aliases={key: () for key in SERVICES},
    professionals={
        "rafaela": (
            "Rafaela Duarte",
            "Tatuadora (traço fino e aquarela)",
            ("orcamento", "pequena", "sessao", "retoque"),
        ),
        "caio": (
            "Caio Menezes",
            "Tatuador (blackwork) e remoção a laser",
            ("orcamento", "sessao", "retoque", "laser"),
        ),
        "livia": ("Lívia Sato", "Body piercer e tatuadora de flash", ("piercing", "pequena")),
    },
    hours={
        "rafaela": (
            *(WorkingHours(day_of_week=d, start=time(13), end=time(21)) for d in range(2, 6)),
            WorkingHours(day_of_week=6, start=time(10), end=time(16)),
        ),
        "caio": tuple(WorkingHours(day_of_week=d, start=time(9), end=time(18)) for d in (1, 3, 5)),
        "livia": (
            *(WorkingHours(day_of_week=d, start=time(10), end=time(19)) for d in range(1, 5)),
            WorkingHours(day_of_week=6, start=time(10), end=time(14)),
        ),
    },
    # Written in Portuguese only, and with no entry about opening hours.
    faq={
        "address": (
            "Onde fica o estúdio?",
            "Rua Barão de Jaguara, 910, sobreloja — Centro, Campinas.",
            ("endereço", "localização"),
        ),
        "age": (
            "Menor de idade pode tatuar?",
            "Tatuagem só para maiores de 18 anos, com documento com foto. Piercing a partir de 12 "
            "anos, com pai, mãe ou responsável presente e documento dos dois.",
            ("idade", "menor", "documento"),
        ),
        "payment": (
            "Quais são as formas de pagamento?",
            "Pix, dinheiro ou cartão; acima de R$ 300 dá para parcelar em até 4x sem juros no "
            "cartão de crédito.",
            ("pagamento", "parcelar", "cartão", "pix"),
        ),
        "deposit": (
            "Precisa pagar sinal?",
            "Para sessões de tatuagem pedimos um sinal de R$ 100 no Pix para reservar o horário; "
            "o valor é descontado no dia.",
            ("sinal", "reserva", "adiantado"),
        ),
        "aftercare": (
            "Quais são os cuidados depois de tatuar?",
            "Lavar com sabonete neutro, passar a pomada indicada e evitar sol, piscina e mar por "
            "30 dias.",
            ("cuidados", "cicatrização", "praia", "piscina"),
        ),
        "hygiene": (
            "O material é descartável?",
            "Sim: agulhas, biqueiras e luvas são descartáveis e abertas na sua frente; o resto "
            "passa por autoclave.",
            ("higiene", "agulha", "descartável"),
        ),
        "cancellation": (
            "Qual é a política de cancelamento?",
            "Remarcações e cancelamentos com até 48 horas de antecedência são gratuitos; depois "
            "disso o sinal não é devolvido.",
            ("cancelamento", "remarcar", "desmarcar"),
        ),
    },
    faq_facts={
        "address": ("Jaguara",),
        "age": ("18 anos", "18 years", "18 años", "dezoito", "eighteen", "dieciocho"),
        "payment": (
            "4x",
            "4 vezes",
            "quatro vezes",
            "4 instalments",
            "4 installments",
            "four instalments",
            "four installments",
            "4 cuotas",
            "cuatro cuotas",
        ),
        "deposit": ("R$ 100", "100 reais"),
        "aftercare": ("30 dias", "30 days", "30 días", "trinta dias", "thirty days"),
        "hygiene": ("descartáv", "disposable", "desechable"),
        "cancellation": ("48 horas", "48 hours", "48 h"),
    },
)
SALONS[SALON] = MANDACARU

LASER_WED = Booked("laser", "caio", local(WED, time(10)))
LASER_FRI = Booked("laser", "caio", local(FRI, time(15)))
PIERCING_TUE = Booked("piercing", "livia", local(TUE, time(11)))
SESSAO_SAT = Booked("sessao", "rafaela", local(SAT, time(10)))
EXISTING = (LASER_WED, LASER_FRI, PIERCING_TUE, SESSAO_SAT)

# A proposal, an FAQ question looked up, then the confirmed write.
ASKED_FAQ = (BOOK, SEARCH, BOOK)
_CASES = SalonCases(SALON, EXISTING)
booked, changed, nothing, faq, states = (
    _CASES.booked, _CASES.changed, _CASES.nothing, _CASES.faq, _CASES.states,
)  # fmt: skip


CASES: list[EvalCase] = [
    # -- Portuguese -----------------------------------------------------------------------------
    booked("t-pt-tudo-numa-mensagem", "pt",
           ("oii boa noite! aqui é a Bruna Castilho, queria fazer uma tattoo pequena (um raminho "
            "de lavanda no pulso) com a Rafaela sexta as 18h, tem como?", "sim"),
           ("pequena", "rafaela", FRI, time(18)), "one-message"),
    booked("t-pt-passo-a-passo", "pt",
           ("oi queria fazer um piercing", "com a livia", "sabado", "as 13h", "sim"),
           ("piercing", "livia", SAT, time(13)), "step-by-step"),
    states("t-pt-quem-faz-remocao", "pt", ("quem faz remocao de tatuagem ai?",), "who-does",
           ("Caio",)),
    states("t-pt-preco-sessao", "pt", ("qto custa uma sessao de 3 horas?",), "price", ("900",)),
    states("t-pt-livia-sexta", "pt", ("a livia atende sexta?",), "works-day",
           ("segunda", "terça", "quarta", "quinta", "sábado")),
    booked("t-pt-ultimo-piercing-sabado", "pt",
           ("qual o ultimo horario pra piercing no sabado? pode marcar nele", "sim"),
           ("piercing", "livia", SAT, time(13, 30)), "latest"),
    booked("t-pt-segunda-que-vem", "pt",
           ("quero fazer um orçamento com o caio segunda que vem as 14h", "sim"),
           ("orcamento", "caio", NEXT_MON, time(14)), "next-week"),
    changed("t-pt-desmarca-laser-de-sexta", "pt",
            ("preciso desmarcar o laser de sexta, surgiu um imprevisto", "isso"), LASER_FRI),
    changed("t-pt-laser-de-quarta-pra-segunda", "pt",
            ("da pra passar o laser de quarta pra segunda que vem no mesmo horario?", "sim"),
            LASER_WED, (NEXT_MON, time(10))),
    faq("t-pt-filha-16-anos", "pt", ("minha filha tem 16, ela pode fazer tatuagem ai?",), "age"),
    nothing("t-pt-sim-se-for-com-o-caio", "pt",
            ("retoque quinta 14h", "sim, se for com o caio"), "conditional-yes", (BOOK,)),
    booked("t-pt-depois-de-amanha", "pt",
           ("depois de amanha vc tem piercing as 11h com a livia?", "pode ser"),
           ("piercing", "livia", WED, time(11)), "relative-day"),
    booked("t-pt-daqui-a-3-dias", "pt",
           ("daqui a 3 dias da pra fazer um retoque com a rafaela as 15h?", "sim"),
           ("retoque", "rafaela", THU, time(15)), "relative-day"),
    booked("t-pt-meio-dia", "pt", ("piercing amanha ao meio dia com a livia", "sim"),
           ("piercing", "livia", TUE, time(12)), "clock-words"),
    booked("t-pt-meio-dia-e-meia", "pt", ("tatuagem pequena quinta meio dia e meia", "pode ser"),
           ("pequena", "livia", THU, time(12, 30)), "clock-words"),
    booked("t-pt-3-e-pouco", "pt",
           ("tem horario pra piercing amanha 3 e pouco?", "15h30 ta otimo", "pode marcar"),
           ("piercing", "livia", TUE, time(15, 30)), "clock-words"),
    booked("t-pt-tanto-faz", "pt",
           ("quero uma tatuagem pequena quarta as 11h, tanto faz com quem", "sim"),
           ("pequena", "livia", WED, time(11)), "any-professional"),
    booked("t-pt-qualquer-um", "pt",
           ("queria uma tatuagem pequena", "qualquer um, so precisa ser sabado as 15h", "sim"),
           ("pequena", "rafaela", SAT, time(15)), "any-professional"),
    nothing("t-pt-vou-pensar", "pt",
            ("piercing com a livia amanha as 15h", "nao, obrigado, vou pensar"),
            "decline-and-leave", (BOOK,)),
    nothing("t-pt-vejo-e-te-falo", "pt",
            ("orçamento com o caio quarta 14h",
             "hmm nao, deixa eu ver minha agenda e te falo depois"),
            "decline-and-leave", (BOOK,)),
    booked("t-pt-quanto-fica", "pt",
           ("piercing com a livia quinta 16h", "quanto fica?", "blz, pode marcar"),
           ("piercing", "livia", THU, time(16)), "question-then-yes"),
    booked("t-pt-onde-fica", "pt",
           ("laser com o caio quarta as 15h", "onde fica o estudio?", "show, confirma entao"),
           ("laser", "caio", WED, time(15)), "question-then-yes", tools=ASKED_FAQ),
    # -- English --------------------------------------------------------------------------------
    booked("t-en-all-in-one", "en",
           ("Hey! I'm Jordan Miles. I'd like to get my septum pierced with Lívia on Thursday, "
            "December 3rd at 11am. Thanks!", "yes"),
           ("piercing", "livia", THU, time(11)), "one-message"),
    booked("t-en-step-by-step", "en",
           ("hi, I need a touch-up on an old tattoo", "with Caio", "Wednesday", "5pm", "yes"),
           ("retoque", "caio", WED, time(17)), "step-by-step"),
    states("t-en-who-does-piercings", "en", ("who does piercings?",), "who-does", ("Lívia",)),
    states("t-en-nose-piercing-price", "en", ("how much for a nose piercing?",), "price",
           ("140",)),
    states("t-en-caio-tuesdays", "en", ("does Caio work on Tuesdays?",), "works-day",
           ("Monday", "Wednesday", "Friday")),
    booked("t-en-latest-session-friday", "en",
           ("what's the latest you can fit a 3-hour session on Friday? I'll take it", "yes"),
           ("sessao", "rafaela", FRI, time(18)), "latest"),
    booked("t-en-next-week-wednesday", "en",
           ("piercing with Lívia next week on Wednesday at 5pm", "yes"),
           ("piercing", "livia", NEXT_WED, time(17)), "next-week"),
    changed("t-en-cancel-tuesday-piercing", "en",
            ("please cancel my piercing on Tuesday", "yes"), PIERCING_TUE),
    changed("t-en-friday-laser-to-10am", "en",
            ("can I move my Friday laser session to the morning, 10am?", "yes"), LASER_FRI,
            (FRI, time(10))),
    faq("t-en-beach-after-tattoo", "en",
        ("how long do I have to stay away from the beach after getting a tattoo?",), "aftercare"),
    nothing("t-en-yes-if-under-200", "en",
            ("small tattoo with Lívia Wednesday at 3pm", "yes, if it's under 200"),
            "conditional-yes", (BOOK,)),
    booked("t-en-day-after-tomorrow", "en",
           ("can I get a small tattoo the day after tomorrow at 10am?", "yes"),
           ("pequena", "livia", WED, time(10)), "relative-day"),
    booked("t-en-this-coming-friday", "en",
           ("laser removal this coming Friday at 4pm please", "yes"),
           ("laser", "caio", FRI, time(16)), "relative-day"),
    booked("t-en-half-past-two", "en",
           ("touch-up with Rafaela on Thursday at half past two", "yes"),
           ("retoque", "rafaela", THU, time(14, 30)), "clock-words"),
    booked("t-en-noon", "en", ("laser removal on Friday at noon", "yes"),
           ("laser", "caio", FRI, time(12)), "clock-words"),
    booked("t-en-any-artist", "en",
           ("I'd like a 3-hour tattoo session on Wednesday at 9am, any artist is fine", "yes"),
           ("sessao", "caio", WED, time(9)), "any-professional"),
    booked("t-en-whoever-is-free", "en", ("touch-up on Friday at 7pm, whoever's free", "yes"),
           ("retoque", "rafaela", FRI, time(19)), "any-professional"),
    nothing("t-en-check-my-schedule", "en",
            ("laser removal with Caio on Friday at 10am",
             "no thanks, I'll check my schedule and get back to you"),
            "decline-and-leave", (BOOK,)),
    nothing("t-en-think-about-it", "en",
            ("small tattoo with Rafaela Thursday 5pm", "nah, let me think about it first. thanks!"),
            "decline-and-leave", (BOOK,)),
    booked("t-en-how-long", "en",
           ("touch-up with Caio Wednesday at 4pm", "how long will it take?", "great, book it"),
           ("retoque", "caio", WED, time(16)), "question-then-yes"),
    booked("t-en-needles", "en",
           ("small tattoo with Lívia tomorrow at 2pm", "are the needles disposable?",
            "perfect, yes please"),
           ("pequena", "livia", TUE, time(14)), "question-then-yes", tools=ASKED_FAQ),
    # -- Spanish --------------------------------------------------------------------------------
    booked("t-es-todo-en-uno", "es",
           ("¡Buenas! Soy Martina Gómez, quiero sacarme un tatuaje viejo con láser. ¿Me das "
            "turno con Caio el viernes 4 de diciembre a las 9 de la mañana?", "sí"),
           ("laser", "caio", FRI, time(9)), "one-message"),
    booked("t-es-paso-a-paso", "es",
           ("hola, quería una sesión de tatuaje", "con Rafaela", "el martes", "a las 14", "sí"),
           ("sessao", "rafaela", TUE, time(14)), "step-by-step"),
    states("t-es-quien-hace-retoques", "es", ("¿quién hace los retoques?",), "who-does",
           ("Rafaela",), ("Caio",)),
    states("t-es-precio-presupuesto", "es", ("¿cuánto sale la consulta de presupuesto?",),
           "price", ("60",)),
    states("t-es-rafaela-lunes", "es", ("¿Rafaela trabaja los lunes?",), "works-day",
           ("martes", "miércoles", "jueves", "viernes", "sábado")),
    booked("t-es-ultimo-turno-martes", "es",
           ("el último turno del martes para un tatuaje pequeño, por favor", "sí"),
           ("pequena", "rafaela", TUE, time(20)), "latest"),
    booked("t-es-semana-que-viene", "es",
           ("la semana que viene, el viernes a las 16, un retoque con Rafaela", "sí"),
           ("retoque", "rafaela", NEXT_FRI, time(16)), "next-week"),
    changed("t-es-cancelar-sesion-sabado", "es",
            ("quiero cancelar la sesión del sábado", "sí"), SESSAO_SAT),
    changed("t-es-piercing-al-jueves", "es",
            ("¿puedo pasar el piercing del martes al jueves a la misma hora?", "sí"),
            PIERCING_TUE, (THU, time(11))),
    faq("t-es-cuotas", "es", ("¿se puede pagar en cuotas?",), "payment"),
    nothing("t-es-si-10-cuotas", "es",
            ("piercing con Lívia el jueves a las 17", "sí, si lo puedo pagar en 10 cuotas"),
            "conditional-yes", (BOOK, SEARCH)),
    booked("t-es-pasado-manana", "es",
           ("pasado mañana a las 2 de la tarde, un retoque con Caio", "sí"),
           ("retoque", "caio", WED, time(14)), "relative-day"),
    booked("t-es-dentro-de-4-dias", "es",
           ("una consulta de presupuesto dentro de 4 días a las 10 de la mañana", "sí"),
           ("orcamento", "caio", FRI, time(10)), "relative-day"),
    booked("t-es-once-y-media", "es", ("un piercing el miércoles a las once y media", "sí"),
           ("piercing", "livia", WED, time(11, 30)), "clock-words"),
    booked("t-es-tres-y-pico", "es",
           ("¿tenés turno para un retoque con Caio el viernes a eso de las tres y pico?",
            "a las tres y media", "sí"),
           ("retoque", "caio", FRI, time(15, 30)), "clock-words"),
    booked("t-es-con-quien-sea", "es",
           ("una consulta de presupuesto el miércoles a las 10, con quien sea", "sí"),
           ("orcamento", "caio", WED, time(10)), "any-professional"),
    booked("t-es-con-cualquiera", "es",
           ("quiero una sesión de tatuaje de 3 horas",
            "con cualquiera, el viernes a las 6 de la tarde", "sí"),
           ("sessao", "rafaela", FRI, time(18)), "any-professional"),
    nothing("t-es-lo-pienso", "es",
            ("retoque con Caio el miércoles a las 11", "no gracias, lo pienso y después te aviso"),
            "decline-and-leave", (BOOK,)),
    nothing("t-es-lo-hablo-con-mi-novio", "es",
            ("sesión con Rafaela el sábado a las 10",
             "mmm no, por ahora no. lo hablo con mi novio y vuelvo a escribir"),
            "decline-and-leave", (BOOK,)),
    booked("t-es-cuanto-cuesta", "es",
           ("consulta de presupuesto con Rafaela el jueves a las 18", "¿cuánto cuesta?",
            "dale, confirmame"),
           ("orcamento", "rafaela", THU, time(18)), "question-then-yes"),
    booked("t-es-aceptan-tarjeta", "es",
           ("piercing con Lívia el sábado a las 11", "¿aceptan tarjeta?", "sí, agendalo"),
           ("piercing", "livia", SAT, time(11)), "question-then-yes", tools=ASKED_FAQ),
]  # fmt: skip
