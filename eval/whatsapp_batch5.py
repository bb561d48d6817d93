"""The WhatsApp-style set's fifth batch, written last and measured with no fix after it: the
best estimate here of how the offline model does on phrasing it was not written for (baseline:
``eval/baselines/whatsapp-batch5-before.md``). Clock and salons: :mod:`eval.whatsapp`,
:mod:`eval.whatsapp_lirio`."""

from __future__ import annotations

from datetime import time

from eval import whatsapp as wa
from eval import whatsapp_lirio as wl
from eval.dataset import BOOK, SEARCH, EvalCase
from eval.whatsapp import FRI, SAT, THU, TUE, WED

# "bem cedinho", "first thing": the day's earliest time is proposed at once (session 41), so
# the customer's "9h" restates the question (asked again), then the yes books.
EARLIEST = (BOOK, BOOK, BOOK)

FIX = (BOOK, BOOK, BOOK)

CASES: list[EvalCase] = [
    wa.booked("wd-pt-encaixar-cedo", "pt",
              ("vc consegue me encaixar amanha cedo com o lucas pra barba?", "9h", "fechou"),
              ("barba", "lucas", TUE, time(9)), "wa-typos", EARLIEST),
    wa.booked("wd-pt-depois-das-16", "pt",
              ("quero cortar com o pedro, qualquer horario depois das 16h na quarta", "16h30",
               "sim"),
              ("corte", "pedro", WED, time(16, 30)), "wa-times"),
    wa.changed("wd-pt-cancelar-barba-de-sexta", "pt", ("cancelar barba de sexta", "s"),
               (wa.CUT_TUE, wa.BEARD_FRI), wa.BEARD_FRI),
    wa.changed("wd-pt-corte-do-lucas", "pt", ("remarca o corte do lucas pra sabado 10h", "sim"),
               (wa.CUT_TUE, wa.CUT_SAT), wa.CUT_TUE, (SAT, time(10))),
    wl.booked("wd-pt-depilacao-13h30", "pt", ("depilação com a juliana dia 4 às 13h30", "isso"),
              ("wax", "juliana", FRI, time(13, 30)), "wa-times"),
    wl.booked("wd-pt-nao-quinta", "pt", ("massagem quarta 3 da tarde", "não, quinta", "sim"),
              ("massage", "rodrigo", THU, time(15)), "wa-corrections", FIX),
    wl.nothing("wd-pt-sobrancelha-preco", "pt", ("oi, vcs fazem sobrancelha? quanto é?",),
               "wa-chitchat"),
    wa.handoff("wd-pt-c-alguem", "pt", ("quero falar c alguem da recepcao",)),
    wa.booked("wd-en-mani-pedi-fri", "en", ("can I get a mani pedi w Fernanda fri 10am", "yep"),
              ("pemao", "fernanda", FRI, time(10)), "wa-typos"),
    wa.changed("wd-en-nails-from-to", "en",
               ("move my nails from thursday to saturday 2pm", "yes"),
               (wa.CUT_TUE, wa.GEL_THU), wa.GEL_THU, (SAT, time(14))),
    wa.booked("wd-en-wait-no-1130", "en",
              ("beard trim w Lucas sat 11am", "wait no, 11:30", "yes"),
              ("barba", "lucas", SAT, time(11, 30)), "wa-corrections", FIX),
    wl.nothing("wd-en-address", "en", ("what's the address?",), "wa-faq", (SEARCH,),
               outcome="faq", faq="address"),
]  # fmt: skip
