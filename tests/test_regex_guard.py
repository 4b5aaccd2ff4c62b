"""No regular expression in the bot can backtrack without end on what a member types (issue 22).

A 72-character ``/roll`` held every server's event loop for seconds because one pattern could
read ``kh1kh1kh1...`` in 2^n ways. This guard is for the whole class, wherever it comes back:

* **Every pattern is found without a list** (:mod:`tests.backtrack.inventory`): each
  ``re.<function>(...)`` call in ``bot/`` and ``cogs/`` read from the source, and every
  compiled pattern the modules hold once imported (discord.py's ``DynamicItem`` templates and
  PyYAML's resolvers included). A pattern built while the bot runs can't be checked, and fails
  here with a sentence saying what to write instead. No pattern is exempt.
* **Read from its parse tree** (:mod:`tests.backtrack`), no pattern may have a loop that reads
  the same text two ways (exponential: ``(a+)+$``, ``(a|a)*$``, the old ``!`` rewrite) or two
  loops in a row that read the same text (polynomial: ``\\s*\\s*x``, ``\\s+as\\s+([^:]+?)\\s*:``,
  and ``\\s+x`` in a search, whose start positions are a loop of their own), as it is run:
  search, match or fullmatch, from the calls made on it.
* **Run on texts made from the pattern itself** (:mod:`tests.backtrack.attacks`), about 20 KB
  each, far more than a member can send: each repeat pumped, each character and word of the
  pattern repeated, random texts of its characters, each ended by a character that fails it.
  Each run may take :data:`LIMIT` of processor time; a linear one takes about a millisecond,
  n^2 steps take over half a second at this size, and 2^n never end (an alarm stops them).

The checker is tested too: it must flag patterns known to be bad (the ones it made us
rewrite among them) and pass the shapes that only look alike, and a module planted with a bad
pattern and a pattern built at run time must fail it.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from tests.backtrack.ambiguity import Finding, analyse
from tests.backtrack.attacks import SIZE, attacks
from tests.backtrack.automaton import Mode
from tests.backtrack.chars import Unsupported
from tests.backtrack.clock import Runaway, cpu_seconds
from tests.backtrack.inventory import Regex, inventory

LIMIT = 0.25  # processor seconds a run on SIZE characters may take
FOUND, PROBLEMS = inventory()


def _modes(regex: Regex) -> list[Mode]:
    return sorted({Mode.of(method) for method in regex.runs}, key=lambda m: m.value)


def _run(pattern: re.Pattern[str], method: str, text: str) -> object:
    if method in ("sub", "subn"):
        return getattr(pattern, method)("", text)
    if method == "finditer":
        return list(pattern.finditer(text))
    return getattr(pattern, method)(text)


def test_every_pattern_is_found_and_can_be_checked() -> None:
    assert not PROBLEMS, "\n".join(PROBLEMS)
    where = " ".join(regex.where for regex in FOUND)
    # One of each way of being found: held by a module, called in place, compiled by a library.
    assert "bot/commands/grammar.py _BARE_START" in where
    assert "bot/commands/catalog.py:411 re.fullmatch" in where or "re.fullmatch" in where
    assert "__discord_ui_compiled_template__" in where  # a library's, compiled from our text
    assert "_IMPLICIT" in where  # PyYAML's, run on uploaded tables
    assert len(FOUND) > 40


@pytest.mark.parametrize("regex", FOUND, ids=lambda regex: regex.where)
def test_no_pattern_reads_a_text_many_ways(regex: Regex) -> None:
    for mode in _modes(regex):
        try:
            findings = analyse(regex.pattern, regex.flags, mode)
        except Unsupported as error:
            pytest.fail(
                f"{regex.where}: {regex.pattern!r} has {error}, which the regex guard can't"
                " follow. Write it without, or read the text with a few lines of Python."
            )
        for finding in findings:
            pytest.fail(
                f"{regex.where}: {regex.pattern!r}, run as a {mode.value}: {finding}. A member"
                " can stall the bot with it. Rewrite it so that no two quantifiers can read the"
                " same characters one after the other or one inside the other (give each loop"
                " its own characters, or a separator between them), or read the text with a"
                " few lines of Python instead."
            )


@pytest.mark.parametrize("regex", FOUND, ids=lambda regex: regex.where)
def test_no_pattern_is_slow_on_texts_made_to_fail_it(regex: Regex) -> None:
    compiled = re.compile(regex.pattern, regex.flags)
    for text in attacks(regex.pattern, regex.flags):
        for method in sorted(regex.runs):
            try:
                took = cpu_seconds(functools.partial(_run, compiled, method, text), give_up=5)
            except Runaway:
                took = float("inf")
            assert took < LIMIT, (
                f"{regex.where}: {regex.pattern!r}.{method} took {took:.2f} s on {text[:40]!r}..."
                f" ({len(text)} characters)"
            )


# -- the checker itself --------------------------------------------------------------------------

# The patterns this guard made us rewrite, as they were, and the shapes they stand for.
OLD_EXPLODE = r"(\d*d(\d+)(?:(?:kh|kl|ph|pl|k|p|rr|ro|ra|e|mi|ma)[lh<>]?\d+)*)!(?!!)"
OLD_HINT = r"\\?`(?P<name>chaos|turn)(?P<rest>(?:\s(?:[A-Z][A-Z_]*|override|extra|N|ID))*)\\?`"
OLD_URL = r"<[^: >]+:/[^ >]+>|https?://[^\s<]+[^<.,:;\"')\]\s]"
BAD = [
    (r"(a+)+$", Mode.SEARCH, "exponential"),
    (r"(a|a)*$", Mode.SEARCH, "exponential"),
    (r"(a|a?)+$", Mode.FULLMATCH, "exponential"),
    (r"(?:a(?:b?|c?))*d", Mode.MATCH, "exponential"),
    (r"(?:x{1,10})*y", Mode.MATCH, "exponential"),
    (r"^(\w+\s?)*$", Mode.SEARCH, "exponential"),
    (OLD_EXPLODE, Mode.SEARCH, "exponential"),
    (OLD_HINT, Mode.SEARCH, "exponential"),
    (r"\s*as\s+([^:]+?)\s*:\s*(.*)", Mode.FULLMATCH, "polynomial"),
    (r"\s+(adv|advantage|dis|disadvantage)$", Mode.SEARCH, "polynomial"),
    (r"\s*([0-9]{0,6})\s*[dD]\s*([0-9]{1,6})\s*", Mode.FULLMATCH, "polynomial"),
    (r"\{([^{}]*[dD][^{}]*)\}", Mode.SEARCH, "polynomial"),
    (OLD_URL, Mode.SEARCH, "polynomial"),
    (r"a\s*\s*b", Mode.FULLMATCH, "polynomial"),
    (r"[a-z]+x", Mode.SEARCH, "polynomial"),
    (r"(?:\s*,\s*\w+)*$", Mode.SEARCH, "polynomial"),  # each start reads to the end
]
# Shapes that look alike but read every text one way, as they are run.
GOOD = [
    (r"[^a-z0-9_-]+", Mode.SEARCH),  # one loop, and a sub ends it wherever it stops
    (r"(?<=[.!?])\s+|\n+", Mode.SEARCH),
    (r"(?m)^([ \t]*)([>#-]|\d+\.)", Mode.SEARCH),  # entered only after a newline
    (r"(?:ab|a)*c", Mode.FULLMATCH),  # the branches start alike, but b can't start a turn
    (r"\b\w+\b", Mode.SEARCH),
    (r"x{1,10}x{1,10}", Mode.FULLMATCH),  # bounded: it can't loop
    (r"a*b", Mode.MATCH),  # the same as a search would be n^2
    (r"(?:\s*,\s*\w+)*$", Mode.MATCH),  # searched, each start would read to the end: n^2
    (r"\s*(?:([0-9]{1,6})\s*)?[dD]\s*([0-9]{1,6})\s*", Mode.FULLMATCH),
    (r"\{([^{}dD]*[dD][^{}]*)\}", Mode.SEARCH),
]


@pytest.mark.parametrize(("pattern", "mode", "kind"), BAD)
def test_the_checker_flags_patterns_known_to_backtrack(pattern: str, mode: Mode, kind: str) -> None:
    found = analyse(pattern, 0, mode)
    assert [f.kind for f in found[:1]] == [kind], found


@pytest.mark.parametrize(("pattern", "mode"), GOOD)
def test_the_checker_passes_shapes_that_only_look_alike(pattern: str, mode: Mode) -> None:
    assert analyse(pattern, 0, mode) == []


@pytest.mark.parametrize(
    ("pattern", "mode"),
    [(OLD_EXPLODE, Mode.SEARCH), (OLD_HINT, Mode.SEARCH), (BAD[8][0], Mode.FULLMATCH)],
    ids=["explode", "hint", "as"],
)
def test_the_texts_made_from_a_bad_pattern_are_slow(pattern: str, mode: Mode) -> None:
    """The timed half of the guard catches these on its own, with or without the witness."""
    compiled = re.compile(pattern)
    method = {Mode.SEARCH: "search", Mode.FULLMATCH: "fullmatch"}[mode]
    for text in attacks(pattern, 0):
        try:
            if cpu_seconds(functools.partial(_run, compiled, method, text), give_up=1) >= LIMIT:
                return
        except Runaway:
            return
    pytest.fail(f"no text made from {pattern!r} was slow")


def test_a_witness_is_a_text_that_really_is_slow() -> None:
    (finding,) = analyse(r"\s*as\s+([^:]+?)\s*:", 0, Mode.FULLMATCH)
    assert isinstance(finding, Finding)
    text = finding.prefix + finding.word * (SIZE // 10 // len(finding.word)) + "\x00"
    with pytest.raises(Runaway):
        cpu_seconds(lambda: re.fullmatch(r"\s*as\s+([^:]+?)\s*:", text, re.I), give_up=0.5)


def test_a_planted_module_fails_the_guard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "planted"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import re\n"
        '_BAD = re.compile(r"(\\d+)+!")\n'
        "def shout(word: str, text: str) -> bool:\n"
        "    return bool(_BAD.search(text)) or bool(re.search(word + '+', text))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    found, problems = inventory(tmp_path, ("planted",))
    (bad,) = found
    assert (bad.pattern, bad.runs) == (r"(\d+)+!", frozenset({"search"}))
    assert analyse(bad.pattern, bad.flags, Mode.SEARCH)[0].kind == "exponential"
    (problem,) = problems
    assert problem.startswith("planted/__init__.py:4: re.search is given word + '+'")
    assert "Write the pattern out" in problem
