"""``python -m eval.faq_calibration``: the FAQ scores behind each language's ``[faq]``
thresholds (``agent_service/infrastructure/language/data/<code>.toml``).

For every eval case that expects an FAQ answer, the wanted entry's scores (about: question and
tags; answer); for every case that expects the FAQ to abstain (or an opening-hours answer with
no entry), the best entry's. It prints them per language and exits 1 when a language's
threshold answers an abstain case or abstains on a wanted entry.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from uuid import uuid4

from agent_service.application.faq_ranking import Scored, scored
from agent_service.domain.catalog import FaqEntry, LocalizedFaq
from agent_service.infrastructure.agent.tools.faq import ranked_question, threshold
from agent_service.infrastructure.language.lexicon import faq_topics
from eval.harness import SALONS, SalonSpec
from eval.suites import CASES


def _entries(spec: SalonSpec) -> dict[str, FaqEntry]:
    tenant = uuid4()
    return {
        key: FaqEntry(
            tenant_id=tenant, question=question, answer=answer, tags=tags,
            localized=tuple(
                LocalizedFaq(language=language, question=asked, answer=said)
                for language, (asked, said) in spec.localized_faq.get(key, {}).items()
            ),
        )
        for key, (question, answer, tags) in spec.faq.items()
    }  # fmt: skip


def rows() -> Iterator[tuple[str, str, bool, Scored | None]]:
    """(case, language, should answer, the scores that decide it)."""
    for case in CASES:
        want = case.metadata
        assert want is not None
        abstains = want.outcome == "no_answer" or want.category == "hours"
        if want.outcome != "faq" and not abstains:
            continue
        entries = _entries(SALONS[case.inputs.salon])
        topics = faq_topics()  # as the FAQ tool ranks: the built-in topics on both sides
        question = ranked_question(case.inputs.messages[-1], want.language)
        ranked = scored(question, [topics.entry(e) for e in entries.values()])
        if abstains:
            yield case.name or "", want.language, False, ranked[0] if ranked else None
            continue
        wanted = {entries[k].id for k in entries if k.split("_")[0] == want.faq}
        top = next((row for row in ranked if row.entry.id in wanted), None)
        yield case.name or "", want.language, True, top


def main() -> int:
    wrong = 0
    for name, language, should, row in sorted(rows(), key=lambda r: (r[1], r[2], r[0])):
        about, answer = (row.about, row.answer) if row else (0.0, 0.0)
        answers = row is not None and threshold(language).answers(row)
        mark = "ok" if answers == should else "WRONG"
        wrong += mark == "WRONG"
        print(f"{language} {'answer ' if should else 'abstain'} about={about:6.2f} "
              f"answer={answer:6.2f} {mark:5} {name}")  # fmt: skip
    print(f"{wrong} cases on the wrong side of their language's threshold")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
