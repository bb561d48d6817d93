"""FAQ answers, citing the entries used, in the conversation's language; the FAQ abstains
below its language's threshold, and a question about opening hours with no entry for it is
answered from the professionals' working hours."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import time

from pydantic_ai import RunContext

from agent_service.application.faq_ranking import Scored, Threshold, answering
from agent_service.application.grounding import question_sentences
from agent_service.application.opening_hours import DayOpen, opening_hours
from agent_service.application.text import normalize
from agent_service.domain.catalog import FaqEntry, Professional
from agent_service.infrastructure.agent import messages
from agent_service.infrastructure.agent.deps import AgentDeps
from agent_service.infrastructure.agent.tools.formatting import (
    WEEKDAYS,
    professional_item,
    service_item,
)
from agent_service.infrastructure.agent.tools.results import (
    DayHours,
    FaqAnswer,
    FaqItem,
    NoMatch,
    OpeningHours,
)
from agent_service.infrastructure.language import language_detector, spoken_languages
from agent_service.infrastructure.language.grammar.vocabulary import Vocabulary, found
from agent_service.infrastructure.language.lexicon import faq_topics, service_lexicon

SHOWN = 3


@dataclass(frozen=True, slots=True)
class ShownAnswer:
    """What the customer is shown for one entry: its question and answer in the conversation's
    language, or the original answer quoted under a localized lead-in ("The salon has this
    answer only in Portuguese: “…”") when the salon wrote none in that language."""

    question: str
    answer: str
    quoted: bool


async def search_faq(
    ctx: RunContext[AgentDeps], query: str, show_customer: bool = False
) -> FaqAnswer | NoMatch:
    """Search the business's FAQ; answer only from the entries returned.

    Args:
        query: The customer's question, in their words.
        show_customer: Show the result to the customer as your reply.
    """
    return ctx.deps.turn.show(await _search(ctx, query), show_customer)


async def _search(ctx: RunContext[AgentDeps], query: str) -> FaqAnswer | NoMatch:
    deps = ctx.deps
    language = deps.turn.language
    everything = await deps.faq_repository.list(deps.tenant_id)
    matches = [row.entry for row in ranked(query[:500], everything, language)]
    per_topic = one_per_topic(query[:500], matches, language)
    rest = [e for e in _conversation_language_first(matches, language) if e not in per_topic]
    entries = (per_topic + rest)[: max(SHOWN, len(per_topic))]
    if not set(faq_topics().about(query)) - {HOURS_TOPIC}:
        # it names no topic of the FAQ but the hours (a word in common is no answer: "a
        # Helena atende terça?" is no "Vocês atendem cães bravos?"), and its question names
        # one of the team: their hours, not the business's ("Qual o horário de
        # funcionamento? A Ana me indicou vocês" asks the business's)
        team = await deps.professional_repository.list(deps.tenant_id)
        asking = " ".join(question_sentences(query)) or query
        named = named_professional(asking, team, language)
        if named is not None and not service_lexicon().kinds_in(query):
            # "que dias o Rafael trabalha?", "quanto o Rafael cobra?": that professional's
            # services (length, price) and week
            return await _professional_card(deps, named, language)
    if not entries:
        team = await deps.professional_repository.list(deps.tenant_id)
        if asks_for_opening_hours(query, language):  # the business's, whoever it names
            return FaqAnswer(hours=_hours(opening_hours(team), language))
        catalog = await _catalog_answer(deps, query, language)
        if catalog is not None:
            return catalog
        return NoMatch(note="The FAQ does not answer this: say so and offer a human attendant.")
    shown = [(entry, answer_for(entry, language)) for entry in entries]
    for entry, answer in shown:
        deps.turn.citations.append(
            {"faq_id": str(entry.id), "question": answer.question, "answer": answer.answer}
        )
    return FaqAnswer(
        entries=[
            FaqItem(id=str(e.id), question=a.question, answer=a.answer, quoted=a.quoted)
            for e, a in shown
        ],
        answering=max(1, len(per_topic)),
    )


def one_per_topic(query: str, matches: list[FaqEntry], language: str) -> list[FaqEntry]:
    """For a question that names two topics or more ("qual o endereço e vocês aceitam pix?"),
    the best-ranked entry about each, in the order the question names them (the conversation's
    language first among an entry's twins); for one topic or none, nothing: the ranking
    alone answers it."""
    topics = faq_topics()
    asked = topics.about(query)
    if len(asked) < 2:
        return []
    found: list[FaqEntry] = []
    for topic in asked:
        about = [e for e in matches if topic in topics.entry(e).tags and e not in found]
        if about:
            found.append(_conversation_language_first(about, language)[0])
    return found if len(found) >= 2 else []


async def _catalog_answer(deps: AgentDeps, query: str, language: str) -> FaqAnswer | None:
    """A question no entry answers that names a kind of service ("how long does the haircut
    take?", "¿quién hace las uñas?"): the services of that kind (duration, price) and who does
    them; ``None`` when it names none the business offers."""
    said = service_lexicon().kinds_in(query)
    if not said:
        return None
    top = {kind for kind, count in said.items() if count == max(said.values())}
    services = await deps.service_repository.list(deps.tenant_id)
    named = [
        s for s in services if top & set(service_lexicon().kinds_of((s.name, *s.words(language))))
    ]
    if not named:
        return None
    by_id = {str(s.id): s for s in services}
    ids = {s.id for s in named}
    team = await deps.professional_repository.list(deps.tenant_id)
    return FaqAnswer(
        services=[service_item(s, language) for s in named],
        professionals=[
            professional_item(p, by_id, language) for p in team if ids & set(p.service_ids)
        ],
        note="No FAQ entry answers this: these are the business's services it names.",
    )


HOURS_TOPIC = "hours"
"""The ``[faq_topics]`` key of the opening hours: a ``[faq].hours_question`` is about it."""


def ranked(query: str, entries: Sequence[FaqEntry], language: str) -> list[Scored]:
    """The entries that answer ``query`` (best first, at most ``2 * SHOWN``): BM25 with the
    built-in FAQ topics on both sides (``application/faq_topics.py``), above the language's
    threshold. Rows carry the stored entries (never the annotated copies)."""
    topics = faq_topics()
    stored = {entry.id: entry for entry in entries}
    asked = ranked_question(query, language)
    rows = answering(asked, [topics.entry(e) for e in entries], 2 * SHOWN, threshold(language))
    return [replace(row, entry=stored[row.entry.id]) for row in rows]


def ranked_question(query: str, language: str) -> str:
    """The question as the ranking reads it: each topic phrase replaced by its topic, and an
    opening-hours question ("atendem aos domingos?") about the hours topic."""
    asked = faq_topics().question(query)
    return f"{asked} {HOURS_TOPIC}" if asks_for_opening_hours(query, language) else asked


@functools.cache
def threshold(language: str) -> Threshold:
    """``[faq]`` of the conversation's language (the strictest spoken one when unknown)."""
    codes = [language.split("-")[0]] if language.split("-")[0] in spoken_languages() else []
    rows = [
        Threshold(Vocabulary(code).number("faq", "min_about"),
                  Vocabulary(code).number("faq", "min_answer_only"))
        for code in (codes or spoken_languages())
    ]  # fmt: skip
    return max(rows, key=lambda row: (row.min_about, row.min_answer_only))


async def _professional_card(deps: AgentDeps, named: Professional, language: str) -> FaqAnswer:
    services = await deps.service_repository.list(deps.tenant_id)
    by_id = {str(s.id): s for s in services}
    offered = [s for s in services if s.id in set(named.service_ids)]
    return FaqAnswer(
        services=[service_item(s, language) for s in offered],
        professionals=[professional_item(named, by_id, language)],
        hours=_hours(opening_hours([named]), language, professional=named.name),
        note="No FAQ entry answers this: the professional it names, what they do and when.",
    )


def asks_for_opening_hours(query: str, language: str | None = None) -> bool:
    """``[faq].hours_question`` read as a conversation in ``language`` reads it."""
    return bool(found("faq", "hours_question", normalize(query), language))


def named_professional(
    query: str, team: Sequence[Professional], language: str
) -> Professional | None:
    """The one professional ``query`` names, by full name, first name or one of their other
    words, as whole words; ``None`` for none or several."""
    folded = normalize(query)
    named = [
        p
        for p in team
        if any(
            re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", folded)
            for word in {
                normalize(p.name),
                normalize(p.name).split()[0],
                *map(normalize, p.words(language)),
            }
            if word
        )
    ]
    return named[0] if len(named) == 1 else None


def _hours(days: dict[int, DayOpen], language: str, professional: str = "") -> OpeningHours:
    names = WEEKDAYS.get(language, WEEKDAYS[messages.DEFAULT_LANGUAGE])
    shown = [
        DayHours(weekday=names[day - 1], opens=f"{opens:%H:%M}", closes=_closes(closes), day=day)
        for day, (opens, closes) in days.items()
    ]
    closed = [names[d - 1] for d in range(1, 8) if d not in days]
    return OpeningHours(days=shown, closed=closed, professional=professional)


def _closes(closes: time | None) -> str:
    return f"{closes:%H:%M}" if closes is not None else "24:00"


def answer_for(entry: FaqEntry, language: str) -> ShownAnswer:
    """The entry as a customer speaking ``language`` reads it: the salon's own version in that
    language; else the default answer when it is written in that language; else the default
    answer quoted, under a lead-in in ``language`` naming the answer's language — never the
    other language's sentence passed off as the reply."""
    own = entry.in_language(language)
    if own is not None:
        return ShownAnswer(own.question or entry.question, own.answer, quoted=False)
    written = _language_of(entry, language)
    if written == language.split("-")[0]:
        return ShownAnswer(entry.question, entry.answer, quoted=False)
    name = messages.text(f"language_{written}", language)
    lead = messages.text("faq_only_in", language, written_in=name, answer=entry.answer)
    return ShownAnswer(entry.question, lead, quoted=True)


def _language_of(entry: FaqEntry, conversation: str) -> str:
    """The language the default question and answer are written in; without evidence of
    any, the conversation's: only a clearly foreign answer is quoted."""
    return language_detector().detect(
        f"{entry.question} {entry.answer}", conversation.split("-")[0]
    )


def _conversation_language_first(entries: list[FaqEntry], language: str) -> list[FaqEntry]:
    """Of the two best entries, the one written in the conversation's language first (a
    salon may keep its FAQ in several languages: the twins rank together); the ranking order
    is kept otherwise. An entry with its own version in that language counts as written in it."""
    code = language.split("-")[0]

    def foreign(entry: FaqEntry) -> bool:
        if entry.in_language(language) is not None:
            return False
        return language_detector().detect(f"{entry.question} {entry.answer}", "") != code

    top = sorted(entries[:2], key=foreign)
    return top + entries[2:]


def marked_quotation(language: str) -> re.Pattern[str]:
    """A quotation :func:`answer_for` marks in a ``language`` reply: the catalog's lead-in
    naming another language, then the quoted original (the one place a sentence in another
    language may appear in a reply)."""
    names = [
        messages.text(f"language_{other}", language)
        for other in spoken_languages()
        if other != language.split("-")[0]
    ]
    forms = []
    for name in names:
        lead, close = messages.text("faq_only_in", language, written_in=name, answer="\0").split(
            "\0"
        )
        forms.append(re.escape(lead) + r"[^" + re.escape(close) + r"\n]*" + re.escape(close))
    return re.compile("|".join(forms) or r"(?!)")
