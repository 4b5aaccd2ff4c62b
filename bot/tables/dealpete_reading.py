"""Which of Deal's results speak of rolls or lists, and what the importer made of each of them.

Part of the importer (:mod:`bot.tables.dealpete_named`). A result's text may name a roll on a
list ("Roll again on the Vortex", "Go to a random Chaos List", "Each player rolls chaos") in
words the engine can act on, or in words it can't. Every sentence that speaks of rolls, lists or
chaos ends in one of two ways: *converted* into something the engine does (a link, times, each,
a random list, a Global change, an offer, a list move), or *reported* with its list, its number
and the words the importer could not read. A sentence that ends neither way is *silent*; the
import counts those too, and the tests hold them at zero.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# A roll of dice rather than on a list: "Roll d20", "rolls a six-sided die", "If you roll 5".
_DICE_ROLL = re.compile(
    r"\brol(?:l|ls|led|ling)\s+(?:a\s+|an\s+)?"
    r"(?:\d|d\d|[\w-]+[- ]sided\b|coin\b|die\b|dice\b"
    r"|greater\b|less\b|higher\b|lower\b|even\b|odd\b)",
    re.IGNORECASE,
)
# Words about rolls, lists or chaos: what a sentence must have for it to need reading.
_MENTION = re.compile(
    r"\[[^\[\]\n]{1,60}\]|\brol(?:l|ls|led|ling)\b|\bchaos\b|\blists?\b|\bvortex\b|\bglobals?\b",
    re.IGNORECASE,
)
# What an offered roll's sentence may say around the lists it names: taken out before the rest
# is looked at, so that a sentence with roll words left over is reported, not passed over.
_OFFER_WORDS = re.compile(
    r"\brol(?:l|ls|led|ling)\s+(?:once\s+|twice\s+)?(?:again\s+)?(?:on\s+)?(?=\[)"
    r"|\bagain\s+on\s+(?=\[)|\bon\s+(?=\[)|\[[^\[\]\n]{1,60}\]"
    r"|\b(?:chosen\s+)?at\s+random\b|\bone\s+of\s+the\s+creature\s+lists\b",
    re.IGNORECASE,
)
# Words that say how many rolls: left over after the lists are taken out, they weren't read.
_HOW_MANY = re.compile(r"\b(?:number of times|twice|thrice|again)\b", re.IGNORECASE)
MAX_WORDS = 160  # of a reported sentence, shown


@dataclass(frozen=True)
class Report:
    """A sentence the importer could not turn into anything the engine does."""

    list: str  # the list's short_name
    number: str  # the result's number on Deal's list, "7" or "71-76"
    words: str  # the words it could not read

    def __str__(self) -> str:
        return f"{self.list} {self.number}: {self.words!r}"


@dataclass
class Account:
    """What became of every result whose text speaks of rolls or lists."""

    converted: set[tuple[str, int]] = field(default_factory=set)  # (list, position)
    reported: list[Report] = field(default_factory=list)
    silent: list[Report] = field(default_factory=list)
    reported_at: set[tuple[str, int]] = field(default_factory=set)
    silent_at: set[tuple[str, int]] = field(default_factory=set)

    @property
    def counts(self) -> tuple[int, int, int]:
        """Results converted (wholly), reported (one sentence or more), and silent (any)."""
        silent = self.silent_at
        reported = self.reported_at - silent
        return len(self.converted - reported - silent), len(reported), len(silent)

    def report(self, short: str, pos: int, number: str, words: str) -> None:
        self.reported_at.add((short, pos))
        self.reported.append(Report(short, number, _cut(words)))

    def unaccounted(self, short: str, pos: int, number: str, words: str) -> None:
        self.silent_at.add((short, pos))
        self.silent.append(Report(short, number, _cut(words)))


def mentions(sentence: str, own: tuple[str, ...] = ()) -> bool:
    """True when `sentence` speaks of a roll on a list, a list, or chaos.

    Rolls of dice ("roll d20", "rolls a six-sided die") don't count, nor the result's own
    names in `own` ("Chaos Flute").
    """
    for name in own:
        if name:
            sentence = sentence.replace(name, "")
    return _MENTION.search(_DICE_ROLL.sub("", sentence)) is not None


def unread(sentence: str, own: tuple[str, ...] = ()) -> str | None:
    """What is left of an offering sentence once its lists and their roll words are taken out,
    when that still speaks of rolls or lists (or says how many); None when nothing is left."""
    rest = _OFFER_WORDS.sub(" ", sentence)
    if mentions(rest, own) or _HOW_MANY.search(rest):
        return sentence
    return None


def _cut(words: str) -> str:
    words = " ".join(words.split())
    return words if len(words) <= MAX_WORDS else words[: MAX_WORDS - 1].rstrip() + "…"
