"""Tables and decks as players read them: each result, its chance, and what it does in words."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.model import (
    Deck,
    Entry,
    Kind,
    MultiMode,
    OfferTo,
    RollTable,
    TurnChange,
)
from bot.engine.tags import TAGS

_TURNS = {
    TurnChange.REVERSE: "play changes direction",
    TurnChange.EXTRA: "you take another turn after this one",
    TurnChange.SKIP: "you skip your next turn",
    TurnChange.AWAY: "you leave the game until your next turn",
}


def what_it_does(entry: Entry, names: Mapping[str, str], here: str) -> str:
    """What an entry does beyond its text, in words: ``roll once on WackyLand; lasts ...``.

    `names` gives the players' name of each list by id; `here` is the id of the entry's list.
    """

    def called(table_id: str) -> str:
        return "this list" if table_id == here else names.get(table_id, table_id)

    parts: list[str] = []
    match entry.kind:
        case Kind.CARD:
            parts.append(
                f"the card {entry.card}" + (f" with X = {entry.x.text}" if entry.x else "")
            )
        case Kind.LINK if entry.link is not None:
            parts.append(f"roll once on {called(entry.link)}")
        case Kind.MULTI if entry.multi is not None:
            multi = entry.multi
            if multi.mode is MultiMode.EACH:
                parts.append("roll once on each of " + ", ".join(map(called, multi.tables)))
            elif multi.mode is MultiMode.CHAOS:
                times = multi.times.text
                first = f", the first on {called(multi.tables[0])}" if multi.tables else ""
                parts.append(f"roll chaos {times} time{'' if times == '1' else 's'}{first}")
            elif multi.mode is MultiMode.RANDOM:
                picks = ", ".join(map(called, multi.tables))
                parts.append(f"roll once on one of {picks}, chosen at random")
            else:
                times = multi.times.text
                where = called(multi.tables[0] if multi.tables else here)
                keep = ", and keep one of them" if multi.mode is MultiMode.KEEP else ""
                parts.append(f"roll {times} time{'' if times == '1' else 's'} on {where}{keep}")
        case Kind.TOKEN if entry.token is not None:
            many = "" if entry.count == 1 else "s"
            parts.append(f"you get {entry.count} {entry.token.label}{many}")
        case Kind.WORLD:
            parts.append("stays in play as a world enchantment")
        case Kind.GLOBAL:
            parts.append("becomes the Global, replacing the current one")
        case _:
            pass
    if entry.duration is not None:
        parts.append(f"lasts {entry.duration.describe()}")
    parts.extend(change.describe() for change in entry.life_changes)
    if (gain := entry.life_gain) is not None:
        parts.append(gain.describe())
    if entry.life_undeclared and not entry.changes_life:
        parts.append("speaks of life but declares no change: every total is shown as unsure")
    if entry.removes:
        parts.append(f"removes {', '.join(entry.removes)}")
    if entry.next_list is not None:
        parts.append(f"your next chaos roll is on {called(entry.next_list)}")
    if entry.turn is not None:
        parts.append(_TURNS[entry.turn])
    for offer in entry.offers:
        lists = [called(t) for t in offer.tables]
        one = " or ".join([", ".join(lists[:-1]), lists[-1]] if len(lists) > 1 else lists)
        who = "your killer" if offer.to is OfferTo.KILLER else "you"
        parts.append(f"{who} may roll on {'one of ' if offer.one_of else ''}{one}")
    return "; ".join(parts)


def tags_line(entry: Entry) -> str | None:
    """An entry's tags, which a group's house rules may leave out: ``tags: swingy, mana``;
    None for an entry without tags."""
    return "tags: " + ", ".join(entry.tags) if entry.tags else None


def tag_meanings(entry: Entry) -> list[str]:
    """What each of an entry's tags says of it: ``swingy — can end a game or turn it over: …``."""
    return [f"{tag} — {TAGS[tag]}" for tag in entry.tags if tag in TAGS]


def _wrap(text: str, indent: str, width: int = 100) -> list[str]:
    """Plain word wrapping that keeps every line under `width`."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(indent) + len(line) + 1 + len(word) > width:
            lines.append(indent + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(indent + line)
    return lines


def render_table(table: RollTable, names: Mapping[str, str]) -> str:
    """A table the way players read it: name, dice, directions, then every result."""
    weights = table.dice.weights()
    total = sum(weights.values())
    width = max(len(band.label) for band in table.bands)
    out = [
        f"{table.name} ({table.id})" + (f", revision {table.revision}" if table.revision else "")
    ]
    first, last = min(weights), max(weights)
    out.append(f"Roll {table.dice.notation}: {first} to {last}.")
    if table.directions:
        out += _wrap(table.directions, "")
    out.append("")
    for band in table.bands:
        share = sum(weights.get(n, 0) for n in range(band.low, band.high + 1)) / total
        entry = band.entry
        head = f"{band.label:>{width}}  {entry.name}"
        out.append(f"{head}  ({_percent(share)})")
        indent = " " * (width + 4)
        if entry.text:
            out += _wrap(entry.text, indent)
        if does := what_it_does(entry, names, table.id):
            out += _wrap(f"-> {does}", indent)
        if tags := tags_line(entry):
            out.append(indent + tags)
    return "\n".join(out)


def render_deck(deck: Deck, names: Mapping[str, str]) -> str:
    """A deck the way players read it: every card, its copies, and split cards' halves."""
    count = sum(card.copies for card in deck.cards)
    out = [f"{deck.name} ({deck.id}): a deck of {count} cards", ""]
    for card in deck.cards:
        entry = card.entry
        out.append(
            f"{card.copies:>3}x  {entry.name}" + ("  (split: pick a half)" * bool(entry.halves))
        )
        for part in entry.halves or (entry,):
            indent = "        " if entry.halves else "      "
            if entry.halves:
                out.append(f"      {part.name}")
            if part.text:
                out += _wrap(part.text, indent)
            if does := what_it_does(part, names, deck.id):
                out += _wrap(f"-> {does}", indent)
        if tags := tags_line(entry):  # a split card's, not its halves'
            out.append("      " + tags)
    return "\n".join(out)


def _percent(share: float) -> str:
    if share >= 0.095:
        return f"{share:.0%}"
    return f"{share * 100:.2g}%"
