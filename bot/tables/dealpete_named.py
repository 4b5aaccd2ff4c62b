"""Lists named inside the text of a Peter Deal result: ``[vortex]`` is rolled at once or offered.

Part of the importer (:mod:`bot.tables.dealpete`). Deal writes "Roll on [vortex]" or "If you
do, roll on [extreme]" in a result's text, naming another list by its ``short_name`` in
brackets. A sentence that is nothing but an unconditional roll is rolled at once, when the
entry does nothing else: "Roll on [x]." or "Go to [x]." becomes a link, "Roll twice on [x]."
``roll: {times: 2, list: x}``, and "Roll on [a], then on [b]." or "Roll twice on [a], and once
on [b]." ``roll: {each: [a, a, b]}``. Such a sentence counts when it is the result's first, or a
later one going on with "Then", and no sentence of the result makes it conditional.

Every other list a result names becomes an offered roll; a sentence naming several lists with an
"or" between them ("choose one of [a], [b], or [c]") offers one of them. Rolls the text gives to
other players ("Each player rolls on [x]", "Your killer rolls on [x]") are offered too: the bot
rolls for the roller only, and an offer may be taken by the host or a referee for whoever the
text names. The text stays as written, so players still read the conditions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.tables.dealpete_entries import Target, Where
from bot.tables.schema import MAX_OFFERS, MAX_TIMES

_NAMED = re.compile(r"\[([^\[\]\n]{1,60})\]")
_SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[.!?][\"'”])\s+|\n+")
_OR = re.compile(r"\bor\b", re.IGNORECASE)
_DOES = ("link", "roll", "card", "global")

# A mandatory roll: "Roll on [a]", "Go to [a]", "Roll twice on [a], then on [b], and once on [c]".
_COUNT = r"(?:once|twice|thrice|(?:\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+times)"
_PART = rf"(?:({_COUNT})\s+)?on\s+\[([^\[\]\n]{{1,60}})\](?:\s+again)?"
_MORE = rf"(?:({_COUNT})\s+)?(?:on\s+)?\[([^\[\]\n]{{1,60}})\](?:\s+again)?"  # "..., [b]"
_SEP = r"(?:,\s*(?:and\s+)?(?:then\s+)?|\s+(?:and\s+)?then\s+|\s+and\s+)"
_MANDATORY = re.compile(
    rf"(?:then,?\s+)?(?:roll\s+(?P<first>{_PART}(?:{_SEP}{_MORE})*)"
    r"|go\s+to\s+\[(?P<goto>[^\[\]\n]{1,60})\])\s*[.!]?",
    re.IGNORECASE,
)
_ONE_PART = re.compile(_MORE, re.IGNORECASE)  # groups: the count, the name
_WORDS = {"once": 1, "twice": 2, "thrice": 3, "two": 2, "three": 3, "four": 4, "five": 5}
_WORDS |= {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
# "Chaos Lists A through F", naming chaos lists without brackets.
_SPAN = re.compile(r"\bchaos lists ([a-f]) through ([a-f])\b", re.IGNORECASE)
# The next chaos roll sent to a chaos list, as the `next_list` modifier does.
_NEXT = re.compile(
    r"(?:then,?\s+)?the next time a player would roll chaos, they roll on \[(list[a-f])\] instead"
    r"\b[^.]*[.!]?",
    re.IGNORECASE,
)
# Words that make a roll depend on something, or belong to an ability rather than the result:
# in the sentences before a "Then roll on [x]", and in the sentence of the roll itself.
_CONDITION = re.compile(
    r"\b(?:if|may|choose|unless|only|instead|when|whenever|until|activate|play this ability)\b"
    r"|\bat the beginning\b|\{T\}|:",
    re.IGNORECASE,
)
# Words in a later sentence that restrict the roll before it ("Do this only if ...").
_RESTRICTS = re.compile(r"\b(?:only|unless|otherwise)\b|\{T\}", re.IGNORECASE)


@dataclass
class Named:
    """What the importer made of the lists named in results' texts, and the unknown names."""

    links: int = 0  # results that became a link
    times: int = 0  # ... roll: {times: N, list: x}
    each: int = 0  # ... roll: {each: [...]}
    next_list: int = 0  # ... next_list: x (the next chaos roll is on list x)
    offers: int = 0  # results that offer rolls (beside any of the above)
    unknown: int = 0
    results: set[tuple[str, int]] = field(default_factory=set)  # (list, position) naming any


def name_lists(
    body: dict[str, object], where: Where, targets: Mapping[str, Target], named: Named
) -> None:
    """Give `body` (an entry being converted) the rolls and offers its text names."""
    text = body.get("text")
    if not isinstance(text, str) or "[" not in text:
        return
    linked = body.get("link")
    seen: set[str] = {linked} if isinstance(linked, str) else set()
    offers: list[object] = []
    rolls: list[tuple[str, int]] = []  # the rolls the result demands, in order
    sentences = [_span(s.strip(), targets) for s in _SENTENCES.split(text)]
    for number, sentence in enumerate(sentences):
        lists = [t.id for t in _targets(sentence, where, targets, named)]
        lists = list(dict.fromkeys(lists))
        if not lists:
            continue
        named.results.add((where.short, where.pos))
        # Only the result's first sentence, or one going on from it with "Then", is the result
        # itself; a later one may belong to an ability that comes into play ("{T}: ...").
        first = number == 0 or sentence.casefold().startswith("then")
        free = first and _does_nothing(body) and _unconditional(sentences, number)
        demanded = _demanded(sentence, targets) if free else None
        if (sent := _NEXT.fullmatch(sentence)) and (target := _find(sent[1], targets)):
            body["next_list"] = target.id
            named.next_list += 1
            continue
        if demanded is not None and len(lists) == len(set(t for t, _ in demanded)):
            rolls += demanded
            seen.update(lists)
            continue
        fresh = [t for t in lists if t not in seen]
        if len(fresh) > 1 and _OR.search(sentence):
            offers.append({"one_of": fresh[:MAX_OFFERS]})
        else:
            offers.extend(fresh)
        seen.update(fresh)
    _roll(body, rolls, where, named)
    offers = [o for o in offers if not isinstance(o, str) or o not in {t for t, _ in rolls}]
    if offers:
        if len(offers) > MAX_OFFERS:
            where.warnings.append(
                f"{where.short}: rolls[{where.pos}] names {len(offers)} lists to roll on; only the"
                f" first {MAX_OFFERS} are offered"
            )
        body["offers"] = offers[:MAX_OFFERS]
        named.offers += 1


def _span(sentence: str, targets: Mapping[str, Target]) -> str:
    """The sentence with "Chaos Lists A through F" written as ``[listA], ..., [listF]``."""

    def names(match: re.Match[str]) -> str:
        low, high = (ord(letter.casefold()) for letter in match.groups())
        shorts = [f"list{chr(c).upper()}" for c in range(low, high + 1)]
        if not shorts or any(_find(short, targets) is None for short in shorts):
            return match[0]
        return ", ".join(f"[{short}]" for short in shorts)

    return _SPAN.sub(names, sentence)


def _unconditional(sentences: list[str], number: int) -> bool:
    """True when no sentence around sentence `number` makes its roll depend on something."""
    before = any(_CONDITION.search(s) for s in sentences[:number])
    return not before and not any(_RESTRICTS.search(s) for s in sentences[number + 1 :])


def _targets(
    sentence: str, where: Where, targets: Mapping[str, Target], named: Named
) -> list[Target]:
    """The lists a sentence names, warning once for each name that is no list of the file."""
    found = []
    for name in _NAMED.findall(sentence):
        target = _find(name, targets)
        if target is None:
            named.unknown += 1
            where.warnings.append(
                f"{where.short}: rolls[{where.pos}] names [{name}], which is not a list in"
                " this file; it stays in the text only"
            )
        else:
            found.append(target)
    return found


def _demanded(sentence: str, targets: Mapping[str, Target]) -> list[tuple[str, int]] | None:
    """The rolls a sentence that is only a mandatory roll asks for, as (list, times) in order."""
    match = _MANDATORY.fullmatch(sentence)
    if match is None:
        return None
    if match["goto"] is not None:
        target = _find(match["goto"], targets)
        return None if target is None else [(target.id, 1)]
    demanded = []
    for part in _ONE_PART.finditer(match["first"]):
        target = _find(part[2], targets)
        if target is None:
            return None
        count = (part[1] or "once").casefold().removesuffix("times").strip()
        demanded.append((target.id, int(count) if count.isdigit() else _WORDS[count]))
    return demanded


def _roll(
    body: dict[str, object], rolls: list[tuple[str, int]], where: Where, named: Named
) -> None:
    """Write the demanded rolls: a link, ``{times: N, list: x}`` or ``{each: [...]}``."""
    if not rolls:
        return
    if len(rolls) == 1 and rolls[0][1] == 1:
        body["link"] = rolls[0][0]
        named.links += 1
    elif len(rolls) == 1:
        body["roll"] = {"times": min(rolls[0][1], MAX_TIMES), "list": rolls[0][0]}
        named.times += 1
    else:
        lists = [t for t, count in rolls for _ in range(count)]
        if len(lists) > MAX_TIMES:
            where.warnings.append(
                f"{where.short}: rolls[{where.pos}] demands {len(lists)} rolls; only the first"
                f" {MAX_TIMES} are made"
            )
        body["roll"] = {"each": lists[:MAX_TIMES]}
        named.each += 1


def _find(name: str, targets: Mapping[str, Target]) -> Target | None:
    name = name.strip()
    return targets.get(name) or next(
        (t for short, t in targets.items() if name.casefold() in (short.casefold(), t.id)), None
    )


def _does_nothing(body: Mapping[str, object]) -> bool:
    """True for an effect that does nothing the engine tracks yet: a roll may be added."""
    return not any(key in body for key in _DOES)
