"""Lists named inside the text of a Peter Deal result: ``[vortex]`` becomes a link or an offer.

Part of the importer (:mod:`bot.tables.dealpete`). Deal writes "Roll on [vortex]" or "If you
do, roll on [extreme]" in a result's text, naming another list by its ``short_name`` in
brackets. A first sentence that is nothing but an unconditional "Roll on [x]" or "Go to [x]"
(or a later "Then roll on [x]") becomes a link, rolled at once like a ``{list: x}`` roll, when
the entry does nothing else. Every other list a result names becomes an offered roll; a
sentence naming several lists with an "or" between them ("choose one of [a], [b], or [c]")
offers one of them. The text stays as written, so players still read the conditions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.tables.dealpete_entries import Target, Where
from bot.tables.schema import MAX_OFFERS

_NAMED = re.compile(r"\[([^\[\]\n]{1,60})\]")
_SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[.!?][\"'”])\s+|\n+")
_LINK = re.compile(r"(?:then,?\s+)?(?:roll on|go to)\s+\[[^\[\]]+\]\s*[.!]?", re.IGNORECASE)
_OR = re.compile(r"\bor\b", re.IGNORECASE)
_DOES = ("link", "roll", "card", "global")


@dataclass
class Named:
    """How many results' named lists became links and offers, and how many names were unknown."""

    links: int = 0
    offers: int = 0
    unknown: int = 0
    results: set[tuple[str, int]] = field(default_factory=set)  # (list, position) naming any


def name_lists(
    body: dict[str, object], where: Where, targets: Mapping[str, Target], named: Named
) -> None:
    """Give `body` (an entry being converted) the links and offers its text names."""
    text = body.get("text")
    if not isinstance(text, str) or "[" not in text:
        return
    linked = body.get("link")
    seen: set[str] = {linked} if isinstance(linked, str) else set()
    offers: list[object] = []
    for number, sentence in enumerate(_SENTENCES.split(text)):
        lists = []
        for name in _NAMED.findall(sentence):
            target = _find(name, targets)
            if target is None:
                named.unknown += 1
                where.warnings.append(
                    f"{where.short}: rolls[{where.pos}] names [{name}], which is not a list in"
                    " this file; it stays in the text only"
                )
            elif target.id not in lists:
                lists.append(target.id)
        fresh = [t for t in lists if t not in seen]
        if not fresh:
            continue
        named.results.add((where.short, where.pos))
        sentence = sentence.strip()
        # Only the result's first sentence, or one going on from it with "Then", is the result
        # itself; a later one may belong to an ability that comes into play ("{T}: ...").
        first = number == 0 or sentence.casefold().startswith("then")
        if len(fresh) == 1 and first and _LINK.fullmatch(sentence) and _does_nothing(body):
            body["link"] = fresh[0]
            named.links += 1
        elif len(fresh) > 1 and _OR.search(sentence):
            offers.append({"one_of": fresh[:MAX_OFFERS]})
        else:
            offers.extend(fresh)
        seen.update(fresh)
    if offers:
        if len(offers) > MAX_OFFERS:
            where.warnings.append(
                f"{where.short}: rolls[{where.pos}] names {len(offers)} lists to roll on; only the"
                f" first {MAX_OFFERS} are offered"
            )
        body["offers"] = offers[:MAX_OFFERS]
        named.offers += 1


def _find(name: str, targets: Mapping[str, Target]) -> Target | None:
    name = name.strip()
    return targets.get(name) or next(
        (t for short, t in targets.items() if name.casefold() in (short.casefold(), t.id)), None
    )


def _does_nothing(body: Mapping[str, object]) -> bool:
    """True for an effect that does nothing the engine tracks yet: a link may be added."""
    return not any(key in body for key in _DOES)
