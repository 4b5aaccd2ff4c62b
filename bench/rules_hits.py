"""Benchmark: how often a rules lookup finds the topic a player asked about.

The questions are ``tests/data/rules_questions.yaml``: per ruleset, short queries and whole
sentences written the way players ask them mid-game, each with the topic that answers it. For
each one this reports top-1 hits (the first topic offered is the right one) for:

* submitted: console ``rules WORDS`` and ``/rules`` sent with that text;
* answered (after only): the same, counting only a topic shown straight away, not a list of
  close calls with the right one first;
* autocomplete: the first choice ``/rules`` autocomplete offers for that text.

"before" is the matcher the bot had until the ranked search (kept below, frozen, so the two can
be compared in one run); "after" is ``bot.rules_search``. Run it from the repository root::

    python bench/rules_hits.py [--misses] [--questions PATH]

Goals (after): at least 90 % top-1 for short queries and 80 % for whole sentences, submitted and
autocomplete alike. ``--misses`` lists the questions the ranked search gets wrong.
``--questions`` scores another file in the same format instead, such as the held-out set
``tests/data/rules_questions_heldout.yaml`` (written without looking at the search or the tuned
questions; it has no goal, it shows whether the search generalises).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.tables import Rule, find_ruleset  # noqa: E402

QUESTIONS = ROOT / "tests" / "data" / "rules_questions.yaml"
KINDS = ("short", "sentences")
Lookup = Callable[[Sequence[Rule], str], list[str]]


def load_questions(path: Path = QUESTIONS) -> dict[str, dict[str, list[tuple[str, str]]]]:
    """{ruleset: {kind: [(question, topic id)]}} from the question file."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {
        ruleset: {kind: [(str(q), str(t)) for q, t in kinds[kind]] for kind in KINDS}
        for ruleset, kinds in data.items()
    }


# The matcher before the ranked search, frozen here as the baseline.
def _words(text: str) -> set[str]:
    return set("".join(c if c.isalnum() else " " for c in text.casefold()).split())


def old_submitted(rules: Sequence[Rule], topic: str) -> list[str]:
    """The old `rules TOPIC`: exact id, title, keyword, then every word a prefix of a word in
    the id, title or keywords. Several matches were a list to retype, so only one counts."""
    wanted = " ".join(topic.casefold().split())
    tiers: tuple[Callable[[Rule], bool], ...] = (
        lambda r: r.id.casefold() == wanted,
        lambda r: r.title.casefold() == wanted,
        lambda r: wanted in (k.casefold() for k in r.keywords),
    )
    for matches in tiers:
        if found := [r.id for r in rules if matches(r)]:
            return found if len(found) == 1 else []
    words = _words(wanted)
    found = []
    for rule in rules:
        about = _words(" ".join((rule.id, rule.title, *rule.keywords)))
        if words and all(any(a.startswith(w) for a in about) for w in words):
            found.append(rule.id)
    return found if len(found) == 1 else []


def old_autocomplete(rules: Sequence[Rule], typed: str) -> list[str]:
    """The old autocomplete: "Title (id)" or id starting with, then containing, the text."""
    wanted = typed.casefold().strip()
    starts, inside = [], []
    for rule in rules:
        name = f"{rule.title} ({rule.id})"
        if name.casefold().startswith(wanted) or rule.id.casefold().startswith(wanted):
            starts.append(rule.id)
        elif wanted in f"{name} {rule.id}".casefold():
            inside.append(rule.id)
    return (starts + inside)[:25]


def new_submitted(rules: Sequence[Rule], topic: str) -> list[str]:
    from bot.rules_search import search

    return [r.id for r in search(rules, topic).ranked]


def new_answered(rules: Sequence[Rule], topic: str) -> list[str]:
    """Only the topic shown straight away (no list to pick from) counts."""
    from bot.rules_search import search

    answer = search(rules, topic).answer
    return [answer.id] if answer is not None else []


def new_autocomplete(rules: Sequence[Rule], typed: str) -> list[str]:
    from bot.rules_search import complete

    return [r.id for r in complete(rules, typed)]


def rates(
    lookup: Lookup, misses: list[str] | None = None, questions: Path = QUESTIONS
) -> dict[tuple[str, str], tuple[int, int]]:
    """{(ruleset, kind): (hits, questions)}."""
    out = {}
    for ruleset, kinds in load_questions(questions).items():
        rules = find_ruleset(ruleset).rules
        for kind, asked in kinds.items():
            hits = 0
            for question, topic in asked:
                found = lookup(rules, question)
                if found[:1] == [topic]:
                    hits += 1
                elif misses is not None:
                    misses.append(f"{ruleset:8} {question!r}: wanted {topic}, got {found[:3]}")
            out[ruleset, kind] = (hits, len(asked))
    return out


def _pct(hit: tuple[int, int]) -> str:
    return f"{hit[0]:>2}/{hit[1]:<2} {100 * hit[0] / hit[1]:3.0f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--misses", action="store_true", help="list the ranked search's misses")
    parser.add_argument(
        "--questions",
        type=Path,
        default=QUESTIONS,
        help="question file to score (default: the tuned set; e.g. the held-out set)",
    )
    args = parser.parse_args()
    try:
        import bot.rules_search  # noqa: F401

        have_new = True
    except ImportError:
        have_new = False
    columns: list[tuple[str, Lookup]] = [
        ("before submitted", old_submitted),
        ("before autocomplete", old_autocomplete),
    ]
    if have_new:
        columns += [
            ("after submitted", new_submitted),
            ("after answered", new_answered),
            ("after autocomplete", new_autocomplete),
        ]
    misses: dict[str, list[str]] = {"submitted": [], "answered": [], "autocomplete": []}
    missed_by: dict[Lookup, list[str]] = {
        new_submitted: misses["submitted"],
        new_answered: misses["answered"],
        new_autocomplete: misses["autocomplete"],
    }
    results = [rates(f, missed_by.get(f), args.questions) for name, f in columns]
    print(f"{'ruleset':8} {'kind':9} " + " ".join(f"{name:>20}" for name, _ in columns))
    for key in results[0]:
        print(f"{key[0]:8} {key[1]:9} " + " ".join(f"{_pct(r[key]):>20}" for r in results))
    for kind in KINDS:
        totals = []
        for r in results:
            got = [v for k, v in r.items() if k[1] == kind]
            totals.append((sum(h for h, _ in got), sum(n for _, n in got)))
        print(f"{'all':8} {kind:9} " + " ".join(f"{_pct(t):>20}" for t in totals))
    for way, missed in misses.items():
        if args.misses and missed:
            print(f"\nMisses of the ranked search ({way}):")
            print("\n".join(f"  {m}" for m in missed))


if __name__ == "__main__":
    main()
