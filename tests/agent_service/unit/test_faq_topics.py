"""FAQ topics meet across languages (application/faq_topics.py over ``[faq_topics]``), as a
property over the data: a question naming a topic in one language finds the one entry about
that topic written in another, above the threshold, among entries about the other topics;
the longest phrase decides the topic; a question naming no topic ranks as before."""

from __future__ import annotations

from uuid import uuid4

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agent_service.application.faq_ranking import scored
from agent_service.application.faq_topics import FaqTopics
from agent_service.domain.catalog import FaqEntry
from agent_service.infrastructure.agent.tools.faq import one_per_topic, ranked, threshold
from agent_service.infrastructure.language.grammar.vocabulary import vocabularies
from agent_service.infrastructure.language.lexicon import faq_topics
from tests.scale import size

TENANT = uuid4()
LANGUAGES = [v.code for v in vocabularies()]
TOPICS = sorted(faq_topics().phrases)
ANSWER = "Xq{n} wv{n} kp{n} rt{n} mz{n} bl{n} yd{n} jf{n}"
"""An answer of a usual length whose words no question holds."""


def _phrase(code: str, topic: str, index: int) -> str:
    words = next(v for v in vocabularies() if v.code == code).words("faq_topics", topic)
    return words[index % len(words)]


def _count(code: str, topic: str) -> int:
    return len(next(v for v in vocabularies() if v.code == code).words("faq_topics", topic))


def test_a_topic_named_in_one_language_finds_its_entry_in_another() -> None:
    """Every phrase of every topic in every language, asked against entries tagged with every
    phrase index of every language (the whole data, not a sample: a sample found a rare case
    only now and then, and a test must not depend on its luck)."""
    topics = faq_topics()
    missed = []
    for topic in TOPICS:
        for asked_in in LANGUAGES:
            for written_in in LANGUAGES:
                tags = max(_count(written_in, other) for other in TOPICS)
                for ask in range(_count(asked_in, topic)):
                    for tag in range(tags):
                        entries = [
                            FaqEntry(
                                tenant_id=TENANT,
                                question=f"Q {other}",
                                answer="A.",
                                tags=(_phrase(written_in, other, tag),),
                            )
                            for other in TOPICS
                        ]
                        question = f"¿{_phrase(asked_in, topic, ask)}?"
                        rows = scored(topics.question(question), map(topics.entry, entries))
                        if not (
                            rows
                            and rows[0].entry.question == f"Q {topic}"
                            and threshold(asked_in).answers(rows[0])
                        ):
                            missed.append((question, written_in, tag))
    assert not missed, missed[:10]


def test_the_longest_phrase_decides_and_no_topic_changes_nothing() -> None:
    topics = FaqTopics(
        {"payment": ["card", "cartao"], "giftcard": ["gift card", "cartao presente"]}
    )
    assert topics.about("do you sell gift-cards? gift card") == ("giftcard",)
    assert topics.about("Cartão presente ou cartão?") == ("giftcard", "payment")
    assert topics.question("tem wifi?") == "tem wifi?"
    entry = FaqEntry(tenant_id=TENANT, question="Tem wifi?", answer="Sim.")
    assert topics.entry(entry) is entry


def test_an_entry_found_by_its_answer_alone_never_answers_beside_one_about_the_question() -> None:
    """Every topic phrase of every language, led by a word that one other entry's answer
    holds (and nothing else does): that entry, found only by its answer, is not among the
    answers; the entry about the topic is the first."""
    from agent_service.infrastructure.agent.tools.faq import ranked

    def entry(question: str, answer: str, *tags: str) -> FaqEntry:
        return FaqEntry(tenant_id=TENANT, question=question, answer=answer, tags=tags)

    lead_words = ("antes", "before", "custo", "free", "gratis", "horas", "lado", "pronto")
    wrong = []
    for topic in TOPICS:
        others = [
            entry(f"Q {o}", ANSWER.format(n=3 + i), o) for i, o in enumerate(TOPICS) if o != topic
        ]
        for code in LANGUAGES:
            for ask in range(_count(code, topic)):
                phrase = _phrase(code, topic, ask)
                about = entry(f"Q {topic}", ANSWER.format(n=1), phrase)
                for lead in lead_words:
                    trap = entry("Q other", f"{ANSWER.format(n=2)} {lead}.")
                    question = f"{lead.capitalize()}, {phrase}?"
                    found = [row.entry for row in ranked(question, [trap, about, *others], code)]
                    if not found or found[0] is not about or trap in found:
                        wrong.append((code, question, [e.question for e in found]))
    assert wrong == []


def _expansions(pattern: str) -> list[str]:
    """Each ``a|b`` word's alternatives in turn (the others at their first), optional words
    kept, a ``*`` word as written: every word of the pattern appears in some expansion."""
    words = [w.removesuffix("?").replace("*", "") for w in pattern.split() if w != "~"]
    options = [w.split("|") for w in words]
    firsts = [o[0] for o in options]
    found = {" ".join(firsts)}
    for index, alternatives in enumerate(options):
        for alternative in alternatives:
            found.add(" ".join([*firsts[:index], alternative, *firsts[index + 1 :]]))
    return sorted(found)


def test_an_opening_hours_question_finds_the_entry_about_the_hours() -> None:
    """Every ``[faq].hours_question`` phrase of every language (each alternative of each word)
    finds the entry about the opening hours, written in any language, above the threshold,
    among entries about every other topic ("vocês atendem aos domingos?" names no topic
    phrase: the hours question itself is about the hours)."""
    from agent_service.infrastructure.agent.tools.faq import HOURS_TOPIC, ranked_question

    topics = faq_topics()
    missed = []
    for asked_in in LANGUAGES:
        vocabulary = next(v for v in vocabularies() if v.code == asked_in)
        for pattern in vocabulary.patterns("faq", "hours_question"):
            for said in _expansions(pattern):
                for written_in in LANGUAGES:
                    entries = [
                        FaqEntry(tenant_id=TENANT, question=f"Q {topic}",
                                 answer=ANSWER.format(n=i), tags=(_phrase(written_in, topic, 0),))
                        for i, topic in enumerate(TOPICS)
                    ]  # fmt: skip
                    rows = scored(
                        ranked_question(said, asked_in), [topics.entry(e) for e in entries]
                    )
                    top = rows[0] if rows else None
                    if (
                        top is None
                        or top.entry.question != f"Q {HOURS_TOPIC}"
                        or not threshold(asked_in).answers(top)
                    ):
                        missed.append((asked_in, said, written_in))
    assert missed == [], missed[:10]


@settings(max_examples=size(30, 400), deadline=None)
@given(
    asked_in=st.sampled_from(LANGUAGES),
    pair=st.lists(st.sampled_from(TOPICS), min_size=2, max_size=2, unique=True),
    picks=st.tuples(st.integers(0, 50), st.integers(0, 50)),
    joined=st.sampled_from([" e ", " and ", " y ", "? ", ", "]),
)
def test_two_topics_asked_in_one_message_get_an_entry_each(
    asked_in: str, pair: list[str], picks: tuple[int, int], joined: str
) -> None:
    """A message naming two topics ("qual o endereço e vocês aceitam pix?") is answered with
    the best entry about each, in the order it names them; one topic alone, with the best."""
    entries = [
        FaqEntry(tenant_id=TENANT, question=f"Q {topic}", answer=f"A {topic}.",
                 tags=(_phrase(asked_in, topic, 0),))
        for topic in TOPICS
    ]  # fmt: skip
    first, second = (_phrase(asked_in, t, n) for t, n in zip(pair, picks, strict=True))
    question = f"{first}{joined}{second}?"
    assume(faq_topics().about(question) == tuple(pair))  # one phrase may hold another's words
    matches = [row.entry for row in ranked(question, entries, asked_in)]
    found = one_per_topic(question, matches, asked_in)
    assert [e.question for e in found] == [f"Q {t}" for t in pair], (question, found)
    alone = f"{first}?"
    assert not one_per_topic(
        alone, [row.entry for row in ranked(alone, entries, asked_in)], asked_in
    )
