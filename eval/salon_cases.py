"""The case builders of the one-salon WhatsApp batches (:mod:`eval.whatsapp_batch7`,
:mod:`eval.whatsapp_batch8`): each batch names its salon and the appointments its customer
has, and builds its cases with these (every case also requires that no two consecutive
replies are the same text)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time

from pydantic_evals import Case

from eval.dataset import (
    BOOK,
    CANCEL,
    LIST_MINE,
    RESCHEDULE,
    SEARCH,
    Conversation,
    EvalCase,
    Expected,
    Language,
    Outcome,
)
from eval.harness import Booked, local

Visit = tuple[str, str, date, time]
"""(service, professional, day, time): one service of a visit."""


@dataclass(frozen=True)
class SalonCases:
    """Builders of ``salon``'s cases; ``existing``: the appointments the customer has in the
    cases about them."""

    salon: str
    existing: tuple[Booked, ...] = ()

    def case(
        self,
        name: str,
        messages: tuple[str, ...],
        expected: Expected,
        booked: tuple[Booked, ...] = (),
    ) -> EvalCase:
        return Case(name=name, inputs=Conversation(messages, booked, self.salon), metadata=expected)

    def booked(
        self,
        name: str,
        language: Language,
        messages: tuple[str, ...],
        what: Visit,
        category: str,
        also: tuple[Visit, ...] = (),
        tools: tuple[str, ...] = (BOOK, BOOK),
    ) -> EvalCase:
        """Booked: ``what`` (and the visit's further services ``also``) after one yes."""
        service, professional, day, at = what
        expected = Expected(
            category=category, language=language, outcome="booked", tools=tools,
            service=service, professional=professional, start=local(day, at),
            also=tuple((s, p, local(d, t)) for s, p, d, t in also), distinct_replies=True,
        )  # fmt: skip
        return self.case(name, messages, expected)

    def booked_having(
        self, name: str, language: Language, messages: tuple[str, ...], what: Visit, category: str
    ) -> EvalCase:
        """Booked ``what`` after one yes, by a customer who has ``existing`` (listed first: the
        request names one of them); those stay as they are."""
        service, professional, day, at = what
        expected = Expected(
            category=category, language=language, outcome="booked",
            tools=(LIST_MINE, BOOK, BOOK), service=service, professional=professional,
            start=local(day, at), distinct_replies=True,
        )  # fmt: skip
        return self.case(name, messages, expected, self.existing)

    def kept(self, name: str, language: Language, messages: tuple[str, ...]) -> EvalCase:
        """A cancellation proposed, then called off: every appointment of ``existing`` stays."""
        expected = Expected(
            category="cancel-kept", language=language, outcome="nothing",
            tools=(LIST_MINE, CANCEL), distinct_replies=True,
        )  # fmt: skip
        return self.case(name, messages, expected, self.existing)

    def changed(
        self,
        name: str,
        language: Language,
        messages: tuple[str, ...],
        target: Booked,
        to: tuple[date, time] | None = None,
    ) -> EvalCase:
        """``target`` (one of ``existing``) cancelled, or moved ``to``."""
        outcome: Outcome = "cancelled" if to is None else "rescheduled"
        tool = CANCEL if to is None else RESCHEDULE
        expected = Expected(
            category="appointments", language=language, outcome=outcome,
            tools=(LIST_MINE, tool, tool), service=target.service,
            start=None if to is None else local(*to), target=target.start, distinct_replies=True,
        )  # fmt: skip
        return self.case(name, messages, expected, self.existing)

    def nothing(
        self,
        name: str,
        language: Language,
        messages: tuple[str, ...],
        category: str,
        tools: tuple[str, ...] = (),
        outcome: Outcome = "nothing",
        faq: str | None = None,
    ) -> EvalCase:
        """Nothing booked, cancelled or moved (``tools``: a proposal made before is ``BOOK``)."""
        expected = Expected(
            category=category, language=language, outcome=outcome, tools=tools, faq=faq,
            distinct_replies=True,
        )  # fmt: skip
        return self.case(name, messages, expected)

    def faq(self, name: str, language: Language, messages: tuple[str, ...], entry: str) -> EvalCase:
        return self.nothing(name, language, messages, "faq", (SEARCH,), outcome="faq", faq=entry)

    def abstains(self, name: str, language: Language, messages: tuple[str, ...]) -> EvalCase:
        return self.nothing(name, language, messages, "abstain", outcome="no_answer")

    def states(
        self,
        name: str,
        language: Language,
        messages: tuple[str, ...],
        category: str,
        *facts: tuple[str, ...],
        faq_free: bool = False,
    ) -> EvalCase:
        """Informed, nothing written or proposed: the last reply states one spelling of every
        group of ``facts`` (``faq_free``: and no FAQ answer)."""
        expected = Expected(
            category=category, language=language, outcome="info", tools=(), facts=facts,
            faq_free=faq_free, distinct_replies=True,
        )  # fmt: skip
        return self.case(name, messages, expected)
