"""Every case ``make eval`` plays: the main set (:mod:`eval.dataset`) and the WhatsApp-style
set written against another salon (:mod:`eval.whatsapp`)."""

from __future__ import annotations

from eval import dataset, whatsapp

CASES = [*dataset.CASES, *whatsapp.CASES]
