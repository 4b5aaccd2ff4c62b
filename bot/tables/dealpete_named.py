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
other players ("Each player rolls on [x]") are offered too, and "Your killer rolls on [x]" is
offered to the killer (``to: killer``, whom the player out names): the bot
rolls for the roller only, and an offer may be taken by the host or a referee for whoever the
text names. The text stays as written, so players still read the conditions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.tables.dealpete_entries import Target, Where
from bot.tables.dealpete_reading import Account, mentions, unread
from bot.tables.schema import MAX_OFFERS, MAX_TIMES

_NAMED = re.compile(r"\[([^\[\]\n]{1,60})\]")
_SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[.!?][\"'”])\s+|\n+")
_OR = re.compile(r"\bor\b", re.IGNORECASE)
_RANDOM = re.compile(r"\ba random chaos list\b", re.IGNORECASE)
_DOES = ("link", "roll", "card", "global")

# A mandatory roll: "Roll on [a]", "Go to [a]", "Roll twice on [a], then on [b], and once on [c]".
_COUNT = r"(?:once|twice|thrice|(?:\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+times)"
_PART = rf"(?:again\s+)?(?:({_COUNT})\s+)?(?:again\s+)?on\s+\[([^\[\]\n]{{1,60}})\](?:\s+again)?"
_MORE = rf"(?:({_COUNT})\s+)?(?:on\s+)?\[([^\[\]\n]{{1,60}})\](?:\s+again)?"  # "..., [b]"
_SEP = r"(?:,\s*(?:and\s+)?(?:then\s+)?|\s+(?:and\s+)?then\s+|\s+and\s+)"
_LIST = r"\[[^\[\]\n]{1,60}\]"
_MANDATORY = re.compile(
    rf"(?:then,?\s+)?(?:roll\s+(?P<first>{_PART}(?:{_SEP}{_MORE})*)"
    r"|go\s+to\s+\[(?P<goto>[^\[\]\n]{1,60})\]"
    rf"|roll\s+once\s+each\s+on\s+(?P<each>{_LIST}(?:(?:,\s*(?:and\s+)?|\s+and\s+){_LIST})*)"
    r"|change\s+the\s+\[(?P<change>[^\[\]\n]{1,60})\]"
    r"|(?:go\s+to|roll\s+on)\s+(?P<random>a\s+random\s+chaos\s+list))\s*[.!]?",
    re.IGNORECASE,
)
# "Change the [global], then you may ...": the change is demanded, what follows is read apart.
_CHANGE_THEN = re.compile(r"(change\s+the\s+\[[^\[\]\n]{1,60}\]),\s*(then\s.+)", re.I)
# Lists named without brackets: "Chaos List E", "Chaos List A through Chaos List F", and a
# list's title after a roll ("roll on Synthetic Creature", "roll again on the Vortex").
_ONE_CHAOS = re.compile(r"\bChaos List ([A-F])\b(?! through)")
_LONG_SPAN = re.compile(r"\bChaos List ([A-F]) through Chaos List ([A-F])\b")
_AFTER_ROLL = re.compile(r"\b((?:rolls?|on|to)\s+(?:again\s+on\s+)?)(?:the\s+)*", re.IGNORECASE)
_LEADING_THE = re.compile(r"^the\s+", re.IGNORECASE)
_ONE_PART = re.compile(_MORE, re.IGNORECASE)  # groups: the count, the name
_WORDS = {"once": 1, "twice": 2, "thrice": 3, "two": 2, "three": 3, "four": 4, "five": 5}
_WORDS |= {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
# "Roll chaos.", "Roll chaos three times, starting on [listA].": chaos rolls the result demands.
_CHAOS_ROLL = re.compile(
    rf"(?:then,?\s+)?roll\s+chaos(?:\s+(?P<count>{_COUNT}))?"
    r"(?:,\s*starting\s+on\s+\[(?P<start>[^\[\]\n]{1,60})\])?\s*[.!]?",
    re.IGNORECASE,
)
# Quotes and their closing marks: quoted rules text is left as written (see _split_quoted).
_CLOSING = {'"': '"', "“": "”"}
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
    r"\b(?:if|choose|unless|only|instead|when|whenever|until|activate|play this ability)\b"
    r"|(?<!player )(?<!players )\bmay\b"
    r"|\bat the beginning\b|\{T\}|:",
    re.IGNORECASE,
)
# A roll the text gives to whoever knocked the roller out.
_KILLER = re.compile(r"\byour\s+killer\b|\bthe\s+player\s+who\s+(?:defeated|killed)\s+you\b", re.I)
# A sentence about what the other players do.
_OTHERS = re.compile(r"(?:each|all|every)\s+(?:other\s+)?(?:player|opponent)s?\b", re.I)
# Words in a later sentence that restrict the roll before it ("Do this only if ...").
_RESTRICTS = re.compile(r"\b(?:only|unless|otherwise)\b|\{T\}", re.IGNORECASE)


@dataclass
class Named:
    """What the importer made of the lists named in results' texts, and the unknown names."""

    links: int = 0  # results that became a link
    times: int = 0  # ... roll: {times: N, list: x}
    each: int = 0  # ... roll: {each: [...]}
    random: int = 0  # ... roll: {random: [...]}
    chaos: int = 0  # ... roll: {chaos: N} (and starting: x)
    next_list: int = 0  # ... next_list: x (the next chaos roll is on list x)
    offers: int = 0  # results that offer rolls (beside any of the above)
    unknown: int = 0
    results: set[tuple[str, int]] = field(default_factory=set)  # (list, position) naming any
    account: Account = field(default_factory=Account)


Roll = tuple[str | tuple[str, ...], int]  # (list, times), or (the lists to pick from, 1)


def name_lists(
    body: dict[str, object],
    where: Where,
    targets: Mapping[str, Target],
    named: Named,
    own: tuple[str, ...] = (),
) -> None:
    """Give `body` (an entry being converted) the rolls and offers its text names, and account
    for every sentence of it that speaks of rolls or lists (see :mod:`dealpete_reading`).

    `own` are the result's names as Deal wrote them (its ``name`` and ``card``): "Chaos Flute"
    in its own text speaks of no list."""
    text = body.get("text")
    if not isinstance(text, str):
        return
    linked = body.get("link")
    seen: set[str] = {linked} if isinstance(linked, str) else set()
    offers: list[object] = []
    rolls: list[Roll] = []  # the rolls the result demands, in order
    sentences = _sentences(text, targets)
    account = named.account
    key = (where.short, where.pos)
    for number, sentence in enumerate(sentences):
        speaks = mentions(sentence, own)
        lists = list(dict.fromkeys(t.id for t in _targets(sentence, where, targets, named)))
        # The result's first sentence, one going on from it with "Then", or its last, when
        # nothing before makes it conditional; a sentence in between may belong to an ability.
        first = number in (0, len(sentences) - 1) or sentence.casefold().startswith("then")
        free = first and _does_nothing(body) and _unconditional(sentences, number)
        if free and not rolls and _chaos_roll(body, sentence, targets):
            named.results.add(key)
            account.converted.add(key)
            named.chaos += 1
            continue
        if not lists and not _RANDOM.search(sentence):
            if speaks:
                account.report(where.short, where.pos, where.number, sentence)
            continue
        named.results.add(key)
        account.converted.add(key)
        demanded = _demanded(sentence, targets) if free else None
        if (sent := _NEXT.fullmatch(sentence)) and (target := _find(sent[1], targets)):
            body["next_list"] = target.id
            named.next_list += 1
            continue
        if demanded is not None and set(lists) <= {t for t, _ in demanded}:
            rolls += demanded
            seen.update(lists)
            continue
        if not lists:  # "a random Chaos List" in a sentence that isn't only that
            account.report(where.short, where.pos, where.number, sentence)
            continue
        fresh = [t for t in lists if t not in seen]
        killer = bool(_KILLER.search(sentence))  # "Your killer rolls on [x]": theirs to take
        if len(fresh) > 1 and _OR.search(sentence):
            offers.append({"one_of": fresh[:MAX_OFFERS], **({"to": "killer"} if killer else {})})
        elif killer:
            offers.extend({"list": t, "to": "killer"} for t in fresh)
        else:
            offers.extend(fresh)
        seen.update(fresh)
        if (words := unread(sentence, own)) is not None:
            account.report(where.short, where.pos, where.number, words)
    if not _roll(body, rolls, where, named):
        rolls = []
    offers = [o for o in offers if not isinstance(o, str) or o not in {t for t, _ in rolls}]
    if offers:
        if len(offers) > MAX_OFFERS:
            where.warnings.append(
                f"{where.short}: rolls[{where.pos}] names {len(offers)} lists to roll on; only the"
                f" first {MAX_OFFERS} are offered"
            )
        body["offers"] = offers[:MAX_OFFERS]
        named.offers += 1
    _check_silence(body, sentences, own, where, account)


def _check_silence(
    body: Mapping[str, object],
    sentences: list[str],
    own: tuple[str, ...],
    where: Where,
    account: Account,
) -> None:
    """Count as silent a result whose text speaks of rolls or lists, yet that neither does
    anything about them nor was reported: the class of problem this import must never have."""
    key = (where.short, where.pos)
    speaking = [s for s in sentences if mentions(s, own)]
    if not speaking or key in account.reported_at:
        return
    if not any(k in body for k in ("link", "roll", "offers", "next_list")):
        account.converted.discard(key)
        account.unaccounted(where.short, where.pos, where.number, speaking[0])


def _sentences(text: str, targets: Mapping[str, Target]) -> list[str]:
    """The text's sentences, with lists named without brackets put in brackets, and a demanded
    Global change split from the offer after it."""
    out: list[str] = []
    for raw in _SENTENCES.split(text):
        sentence = _unbracketed(_span(raw.strip(), targets), targets)
        if not sentence:
            continue
        if match := _CHANGE_THEN.fullmatch(sentence.rstrip(".!")):
            out += [f"{match[1]}.", f"{match[2][0].upper()}{match[2][1:]}."]
        else:
            out.append(sentence)
    return out


def _unbracketed(sentence: str, targets: Mapping[str, Target]) -> str:
    """``Chaos List E`` as ``[listE]``, and a list's title after a roll as its name in brackets,
    outside quotes."""

    def span(match: re.Match[str]) -> str:
        low, high = (ord(letter) for letter in match.groups())
        names = [f"list{chr(c)}" for c in range(low, high + 1)]
        if not names or any(_find(n, targets) is None for n in names):
            return match[0]
        return ", ".join(f"[{n}]" for n in names)

    def one(match: re.Match[str]) -> str:
        name = f"list{match[1]}"
        return f"[{name}]" if _find(name, targets) is not None else match[0]

    parts = _split_quoted(sentence)  # quoted rules text stays as it is
    return "".join(
        part if i % 2 else _bracket_titles(_ONE_CHAOS.sub(one, _LONG_SPAN.sub(span, part)), targets)
        for i, part in enumerate(parts)
    )


def _bracket_titles(sentence: str, targets: Mapping[str, Target]) -> str:
    """The sentence with each list's title after a roll word written as its ``[short]`` name:
    "roll again on the Vortex" becomes "roll again on [vortex]"."""
    for short, target in targets.items():
        title = _LEADING_THE.sub("", target.title)
        if len(title) < 4 or title.casefold().startswith("chaos list"):
            continue
        sentence = _bracket_title(sentence, title, f"[{short}]")
    return sentence


def _bracket_title(sentence: str, title: str, bracketed: str) -> str:
    """Each `title` that follows roll words (:data:`_AFTER_ROLL`), as a whole word and not already
    followed by a bracket, replaced by `bracketed` (the roll words stay, any "the" goes). The
    title is looked for with plain string searches: it comes from the file being imported, and
    a pattern built from it couldn't be checked for backtracking."""
    done: list[str] = []
    at = 0
    while (lead := _AFTER_ROLL.search(sentence, at)) is not None:
        end = lead.end() + len(title)
        if sentence.startswith(title, lead.end()) and _stands_alone(sentence, end, title):
            done += [sentence[: lead.start()], lead[1], bracketed]
            sentence, at = sentence[end:], 0
        else:
            at = lead.start() + 1
    return "".join(done) + sentence


def _stands_alone(sentence: str, end: int, title: str) -> bool:
    """A title ending at `end` ends a word there, and no bracket follows it."""
    if end < len(sentence) and _word_char(title[-1]) and _word_char(sentence[end]):
        return False
    return sentence[end:].lstrip()[:1] not in ("[", "(")


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


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
    """True when no sentence around sentence `number` makes its roll depend on something.

    What other players do first ("Each player may choose ...") conditions nothing of the
    roller's: "Each player may ... . Roll again on [vortex]." rolls at once."""
    before = any(
        _CONDITION.search("".join(_split_quoted(s)[::2])) and not _OTHERS.match(s)
        for s in sentences[:number]
    )
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


def _demanded(sentence: str, targets: Mapping[str, Target]) -> list[Roll] | None:
    """The rolls a sentence that is only a mandatory roll asks for, as (list, times) in order."""
    match = _MANDATORY.fullmatch(sentence)
    if match is None:
        return None
    if match["random"] is not None:
        letters = [t.id for n in "ABCDEF" if (t := _find(f"list{n}", targets)) is not None]
        return [(tuple(letters), 1)] if len(letters) > 1 else None
    single = match["goto"] or match["change"]
    if single is not None:
        target = _find(single, targets)
        return None if target is None else [(target.id, 1)]
    if match["each"] is not None:
        found = [_find(name, targets) for name in _NAMED.findall(match["each"])]
        return None if None in found else [(t.id, 1) for t in found if t is not None]
    demanded: list[Roll] = []
    for part in _ONE_PART.finditer(match["first"]):
        target = _find(part[2], targets)
        if target is None:
            return None
        count = (part[1] or "once").casefold().removesuffix("times").strip()
        demanded.append((target.id, int(count) if count.isdigit() else _WORDS[count]))
    return demanded


def _roll(body: dict[str, object], rolls: list[Roll], where: Where, named: Named) -> bool:
    """Write the demanded rolls: a link, ``{times: N, list: x}``, ``{each: [...]}`` or
    ``{random: [...]}``; False (nothing written) for a random pick among other rolls."""
    if not rolls:
        return True
    picks = [t for t, _ in rolls if isinstance(t, tuple)]
    if picks and len(rolls) > 1:
        named.account.report(
            where.short, where.pos, where.number, "a random list among other rolls"
        )
        return False
    first, count = rolls[0]
    if isinstance(first, tuple):
        body["roll"] = {"random": list(first)}
        named.random += 1
    elif len(rolls) == 1 and count == 1:
        body["link"] = first
        named.links += 1
    elif len(rolls) == 1:
        body["roll"] = {"times": min(count, MAX_TIMES), "list": first}
        named.times += 1
    else:
        lists = [t for t, n in rolls if isinstance(t, str) for _ in range(n)]
        if len(lists) > MAX_TIMES:
            where.warnings.append(
                f"{where.short}: rolls[{where.pos}] demands {len(lists)} rolls; only the first"
                f" {MAX_TIMES} are made"
            )
        body["roll"] = {"each": lists[:MAX_TIMES]}
        named.each += 1
    return True


def _chaos_roll(body: dict[str, object], sentence: str, targets: Mapping[str, Target]) -> bool:
    """Write ``roll: {chaos: N}`` (with ``starting:``) when `sentence` is only a chaos roll."""
    match = _CHAOS_ROLL.fullmatch(sentence)
    if match is None:
        return False
    count = (match["count"] or "once").casefold().removesuffix("times").strip()
    times = int(count) if count.isdigit() else _WORDS[count]
    roll: dict[str, object] = {"chaos": min(times, MAX_TIMES)}
    if match["start"] is not None:
        start = _find(match["start"], targets)
        if start is None:
            return False
        roll["starting"] = start.id
    body["roll"] = roll
    return True


def _find(name: str, targets: Mapping[str, Target]) -> Target | None:
    name = name.strip()
    return targets.get(name) or next(
        (t for short, t in targets.items() if name.casefold() in (short.casefold(), t.id)), None
    )


def _does_nothing(body: Mapping[str, object]) -> bool:
    """True for an effect that does nothing the engine tracks yet: a roll may be added."""
    return not any(key in body for key in _DOES)


def _split_quoted(text: str) -> list[str]:
    """`text` cut at its quotes, each whole with its marks: outside, inside, outside, ... (as a
    split on a group would give). One pass: a quote that is never closed is read once, not
    again from every later opening mark, which a pattern would do (n² on a long line of them)."""
    parts: list[str] = []
    start = at = 0
    unclosed: set[str] = set()  # once one isn't closed, no later one of its kind is either
    while at < len(text):
        close = _CLOSING.get(text[at])
        if close is not None and text[at] not in unclosed:
            end = text.find(close, at + 1)
            if end >= 0:
                parts += [text[start:at], text[at : end + 1]]
                start = at = end + 1
                continue
            unclosed.add(text[at])
        at += 1
    parts.append(text[start:])
    return parts
