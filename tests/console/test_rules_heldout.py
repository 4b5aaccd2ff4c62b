"""The held-out rules questions: a check on the ranked search that it was never tuned on.

No hit-rate goal is asserted here (that would make the set one more thing to tune against); this
only keeps the file well formed and the bench able to score it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.rules_hits import KINDS, load_questions, new_submitted, rates
from bot.tables import find_ruleset

ROOT = Path(__file__).resolve().parents[2]
HELDOUT = ROOT / "tests" / "data" / "rules_questions_heldout.yaml"


def test_the_held_out_set_loads_and_names_only_topics_that_exist() -> None:
    questions = load_questions(HELDOUT)
    assert set(questions) == {"classic", "lists", "deck"}
    for ruleset, kinds in questions.items():
        topics = {rule.id for rule in find_ruleset(ruleset).rules}
        for kind in KINDS:
            assert len(kinds[kind]) == 10, (ruleset, kind)
            for question, topic in kinds[kind]:
                assert question.strip(), (ruleset, kind)
                assert topic in topics, f"{ruleset}: {question!r} names unknown topic {topic!r}"


def test_the_bench_scores_another_question_file() -> None:
    scored = rates(new_submitted, questions=HELDOUT)
    assert {key: n for key, (_, n) in scored.items()} == {
        (ruleset, kind): 10 for ruleset in ("classic", "lists", "deck") for kind in KINDS
    }
    run = subprocess.run(
        [sys.executable, "bench/rules_hits.py", "--questions", str(HELDOUT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "all      short" in run.stdout
    assert "/30" in run.stdout
