"""The WhatsApp-style set's sixth batch, measured before any fix for it (baseline:
``eval/baselines/whatsapp-batch6-before.md``): English customers (British and American
phrasing, "arvo", "first thing", "half four", "the 3rd of December", an ambiguous "12/3"),
Portuguese slang and run-on voice-to-text messages, numbers in words, a customer giving their
name, a price question then a booking, asking after a professional who is off that day, "same
time next week", "the last one I booked", negations, a service changed mid-flow, a refused
proposal followed by a new time, and messages that must not write anything. Clock and salons:
:mod:`eval.whatsapp`, :mod:`eval.whatsapp_lirio`."""

from __future__ import annotations

from datetime import date, time

from eval import whatsapp as wa
from eval import whatsapp_lirio as wl
from eval.dataset import BOOK, EvalCase
from eval.whatsapp import FRI, SAT, THU, TUE, WED

# "bem cedinho", "first thing": the day's earliest time is proposed at once (session 41), so
# the customer's "9h" restates the question (asked again), then the yes books.
EARLIEST = (BOOK, BOOK, BOOK)

FIX = (BOOK, BOOK, BOOK)
NEXT_TUE, NEXT_WED = date(2026, 12, 8), date(2026, 12, 9)

CASES: list[EvalCase] = [
    # -- English --------------------------------------------------------------------------------
    wa.booked("we-en-arvo-4ish", "en",
              ("can I book a beard trim with Pedro tomorrow arvo, around 4ish?", "yes"),
              ("barba", "pedro", TUE, time(16)), "wa-times"),
    wa.booked("we-en-first-thing", "en",
              ("haircut with Lucas first thing in the morning on Thursday", "9am", "yes"),
              ("corte", "lucas", THU, time(9)), "wa-times", EARLIEST),
    wl.booked("we-en-after-lunch", "en",
              ("brows with Juliana on Wednesday after lunch", "2pm", "yes"),
              ("brow", "juliana", WED, time(14)), "wa-times"),
    wl.booked("we-en-3rd-of-december", "en",
              ("I'd like to book a massage with Rodrigo on the 3rd of December at 11am", "yes"),
              ("massage", "rodrigo", THU, time(11)), "wa-dates"),
    wa.nothing("we-en-12-3-ambiguous", "en", ("gel nails with Fernanda 12/3 at 10am", "yes"),
               "wa-ask"),
    wa.booked("we-en-gives-name", "en",
              ("Hi, this is Sarah. Could I get a haircut with Pedro on Friday at 3pm?",
               "yes please"),
              ("corte", "pedro", FRI, time(15)), "wa-multi"),
    wa.booked("we-en-price-then-book", "en",
              ("how much is a beard trim?", "ok book me one with Lucas on Saturday at 10am",
               "yes"),
              ("barba", "lucas", SAT, time(10)), "wa-multi"),
    wa.nothing("we-en-lucas-off-monday", "en",
               ("is Lucas available today at 2pm for a haircut?", "yes"), "wa-ask", (BOOK,)),
    wa.changed("we-en-same-time-next-week", "en",
               ("can you move my haircut to the same time next week?", "yes"),
               (wa.CUT_TUE, wa.BEARD_FRI), wa.CUT_TUE, (NEXT_TUE, time(10))),
    wa.changed("we-en-cancel-last-booked", "en", ("cancel the last one I booked", "yes"),
               (wa.BEARD_FRI,), wa.BEARD_FRI),
    wa.nothing("we-en-never-mind", "en", ("haircut with Pedro tomorrow at 11am", "never mind"),
               "wa-ask", (BOOK,)),
    wa.booked("we-en-change-service", "en",
              ("beard trim with Lucas Friday at 2pm", "actually make that a cut and beard",
               "yes"),
              ("combo", "lucas", FRI, time(14)), "wa-corrections", FIX),
    wa.booked("we-en-refuse-new-time", "en",
              ("mani pedi with Fernanda Thursday 10am",
               "hmm no, that doesn't work for me. how about 1pm?", "yes"),
              ("pemao", "fernanda", THU, time(13)), "wa-corrections", FIX),
    wl.booked("we-en-book-and-address", "en",
              ("book me nails with Patricia on Saturday at 10am, and what's your address?",
               "yes"),
              ("mani", "patricia", SAT, time(10)), "wa-multi"),
    wa.booked("we-en-half-four", "en",
              ("Can I book a haircut with Lucas on Saturday at half four?", "yes"),
              ("corte", "lucas", SAT, time(16, 30)), "wa-times"),
    wl.booked("we-en-us-pm", "en",
              ("Could I schedule a massage w/ Rodrigo for 2:30 PM on Tuesday?", "sure"),
              ("massage", "rodrigo", TUE, time(14, 30)), "wa-times"),
    wl.nothing("we-en-off-grid", "en", ("massage with Rodrigo tomorrow at 2:15pm", "yes"),
               "wa-ask", (BOOK,)),
    wl.nothing("we-en-rodrigo-saturday", "en", ("massage with Rodrigo on Saturday at 10am", "yes"),
               "wa-ask", (BOOK,)),
    wa.nothing("we-en-just-looking", "en",
               ("just checking, what do you guys offer? I'll book later",), "wa-chitchat"),
    wa.booked("we-en-dec-3-american", "en",
              ("I'm looking to get a beard done with Pedro Dec 3rd @ 5pm", "yeah"),
              ("barba", "pedro", THU, time(17)), "wa-dates"),
    # -- Portuguese -----------------------------------------------------------------------------
    wa.booked("we-pt-duas-e-meia", "pt",
              ("quero marcar barba com o pedro amanha as duas e meia da tarde", "sim"),
              ("barba", "pedro", TUE, time(14, 30)), "wa-times"),
    wa.booked("we-pt-dez-e-meia", "pt", ("corte com o lucas sabado dez e meia", "isso"),
              ("corte", "lucas", SAT, time(10, 30)), "wa-times"),
    wa.booked("we-pt-run-on", "pt",
              ("oi bom dia tudo bem entao eu queria ver se tem como marcar um corte com o pedro "
               "na quinta feira umas tres horas da tarde se tiver", "pode ser"),
              ("corte", "pedro", THU, time(15)), "wa-typos"),
    wa.booked("we-pt-demorou", "pt",
              ("e ai mano suave? bora marcar um corte sexta 11h com o lucas", "demorou"),
              ("corte", "lucas", FRI, time(11)), "wa-typos"),
    wl.nothing("we-pt-nao-quero-mais", "pt",
               ("marca sobrancelha com a juliana quinta 10h", "não quero mais"), "wa-ask",
               (BOOK,)),
    wl.booked("we-pt-preco-depois-marca", "pt",
              ("quanto ta a massagem?", "entao marca com o rodrigo quarta 16h", "sim"),
              ("massage", "rodrigo", WED, time(16)), "wa-multi"),
    wl.booked("we-pt-meu-nome", "pt",
              ("oi meu nome é Ana, queria fazer a unha com a patricia sabado 11h", "sim"),
              ("mani", "patricia", SAT, time(11)), "wa-multi"),
    wl.nothing("we-pt-patricia-folga", "pt",
               ("a patricia tem horario hoje as 15h pra unha?", "sim"), "wa-ask", (BOOK,)),
    wl.changed("we-pt-semana-que-vem-mesmo-horario", "pt",
               ("quero passar minha massagem pra semana que vem no mesmo horario", "sim"),
               (wl.BROW_TUE, wl.MASSAGE_WED), wl.MASSAGE_WED, (NEXT_WED, time(15))),
    wl.changed("we-pt-cancela-ultimo", "pt", ("cancela o ultimo que eu marquei", "sim"),
               (wl.MANI_THU,), wl.MANI_THU),
    wl.booked("we-pt-troca-servico", "pt",
              ("marca manicure com a juliana sexta 15h", "pensando bem, troca pra depilação",
               "sim"),
              ("wax", "juliana", FRI, time(15)), "wa-corrections", FIX),
    wa.booked("we-pt-recusa-nova-hora", "pt",
              ("corte com o pedro amanha 10h", "esse horario nao da pra mim, tem as 17h?", "sim"),
              ("corte", "pedro", TUE, time(17)), "wa-corrections", FIX),
    wa.nothing("we-pt-depois-te-falo", "pt",
               ("to pensando em marcar um corte semana que vem, depois te falo",), "wa-chitchat"),
    wa.booked("we-pt-cinco-da-tarde", "pt",
              ("quero marcar barba com o Lucas às cinco da tarde de sábado", "sim"),
              ("barba", "lucas", SAT, time(17)), "wa-times"),
    wa.nothing("we-pt-hoje-lucas-folga", "pt", ("o lucas atende hoje? queria um corte 15h", "sim"),
               "wa-ask", (BOOK,)),
    wl.nothing("we-pt-deixa-pra-la", "pt",
               ("massagem com o rodrigo sexta as 10", "deixa pra la, obrigada"), "wa-ask",
               (BOOK,)),
]  # fmt: skip
