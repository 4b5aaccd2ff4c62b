"""House rules as both front ends show and change them (``/house`` and the console's
``house``): the words are the same, and the rules themselves are the engine's
(:mod:`bot.engine.house`)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import replace

from bot.commands.grammar import CommandError
from bot.commands.tables import find_table
from bot.engine.house import MAX_ROUND, HouseRules, leaves_nothing
from bot.engine.model import Entry, Ruleset
from bot.engine.tables import Deck, RollTable
from bot.engine.tags import TAGS, tag_words

ROUNDS = (1, MAX_ROUND)  # what `chaos_from` takes
SHOWN_DENIED = 40  # denied entries listed by `house show`; the rest are counted
# The tags `/house exclude` offers, each with the first words of what it means.
TAG_CHOICES = [(tag, f"{tag}: {meaning.split(':')[0]}"[:100]) for tag, meaning in TAGS.items()]


def house_show(house: HouseRules, ruleset: Ruleset | None = None) -> str:
    """The house rules games started here keep, one a line, with what each does. The denied
    entries are named as `ruleset` has them (by id where it hasn't)."""
    if house.chaos_from == 1:
        chaos = "Chaos from round: 1 (the default: chaos from the first turn)."
    else:
        chaos = (
            f"Chaos from round: {house.chaos_from}. No chaos roll or card is made, owed or"
            f" offered before round {house.chaos_from}; a round is one turn of each seated"
            " player."
        )
    lines = ["House rules for the games started here:", chaos]
    if not house.deny:
        lines.append("Denied: nothing (`house deny LIST ENTRY` denies an entry).")
    else:
        lines.append(f"Denied ({len(house.deny)}), rolled again at once when they come up:")
        shown = sorted(house.deny, key=lambda pair: _position(pair, ruleset))
        lines += [f"  {denied_name(t, e, ruleset)}" for t, e in shown[:SHOWN_DENIED]]
        if len(house.deny) > SHOWN_DENIED:
            lines.append(f"  … and {len(house.deny) - SHOWN_DENIED} more.")
    if house.repeats == "never":
        lines.append(
            "Repeats: never. A list gives no entry twice until every entry of it has come up;"
            " then it starts over."
        )
    else:
        lines.append("Repeats: allowed (the default: every roll afresh).")
    lines.append(_excluded_line(house, ruleset))
    lines.append(
        "Veto: on. The players at the table but the roller may vote to veto a result until the"
        " next action; a strict majority of the table takes it back and rolls it again, once"
        " a turn."
        if house.veto
        else "Veto: off (the default: `house veto on` lets the table vote a result away)."
    )
    lines.append("A game keeps the house rules it started with (they are on its board).")
    return "\n".join(lines)


def _excluded_line(house: HouseRules, ruleset: Ruleset | None) -> str:
    if not house.exclude:
        return f"Excluded tags: none (`house exclude TAG` leaves out a tag: {tag_words()})."
    line = (
        f"Excluded tags: {', '.join(house.exclude)}. An entry carrying one is rolled again at"
        " once when it comes up, and a deck is shuffled without its cards"
    )
    if ruleset is None:
        return f"{line}."
    left_out = _left_out(HouseRules(exclude=house.exclude), ruleset)
    return f"{line} ({left_out} {'entry' if left_out == 1 else 'entries'} in {ruleset.name})."


def _left_out(house: HouseRules, ruleset: Ruleset) -> int:
    return sum(len(entries) for entries in house.barred(ruleset).values())


def denied_name(table_id: str, entry_id: str, ruleset: Ruleset | None) -> str:
    """``Chaos List #12 Mana Flare``, or the ids where `ruleset` lacks the list or entry."""
    table = ruleset.tables.get(table_id) if ruleset is not None else None
    if table is None:
        return f"{table_id}: {entry_id}"
    band = next((b for b in table.bands if b.entry.id == entry_id), None)
    if band is None:
        return f"{table.name}: {entry_id}"
    return f"{table.name} #{band.label} {band.entry.name}"


def _position(pair: tuple[str, str], ruleset: Ruleset | None) -> tuple[str, int, str]:
    """Where a denied entry stands: its list, then its number on it (ids where unknown)."""
    table_id, entry_id = pair
    table = ruleset.tables.get(table_id) if ruleset is not None else None
    lows = [b.low for b in table.bands if b.entry.id == entry_id] if table is not None else []
    return table_id, min(lows, default=0), entry_id


def chaos_from(house: HouseRules, round_number: int) -> HouseRules:
    """The rules with chaos from `round_number` (checked by the engine's rules)."""
    return replace(house, chaos_from=round_number)


def veto(house: HouseRules, on: bool) -> HouseRules:
    """The rules with the veto vote on or off."""
    return replace(house, veto=on)


def repeats(house: HouseRules, word: str) -> HouseRules:
    """The rules with repeats `never` or `allowed` (checked by the engine's rules)."""
    return replace(house, repeats=word)


def deny(house: HouseRules, ruleset: Ruleset, wanted_list: str, wanted_entry: str) -> HouseRules:
    """The rules with one more denied entry; CommandError for a list or entry `ruleset` lacks,
    one denied already, or a deny that would leave the list nothing to roll."""
    table = _list(ruleset, wanted_list)
    entry = _entry(table, wanted_entry)
    if entry.id in house.denied().get(table.id, frozenset()):
        raise CommandError(f"{denied_name(table.id, entry.id, ruleset)} is denied already.")
    changed = replace(house, deny=(*house.deny, (table.id, entry.id)))
    if changed.emptied([table]):
        raise CommandError(
            f"Denying {entry.name} would leave {table.name} nothing to roll: allow another of"
            " its entries first (`house allow`, or `house include` for an excluded tag)."
        )
    return changed


def allow(house: HouseRules, ruleset: Ruleset, wanted_list: str, wanted_entry: str) -> HouseRules:
    """The rules without a denied entry; CommandError for one that isn't denied."""
    table = _list(ruleset, wanted_list)
    entry = _entry(table, wanted_entry)
    if (table.id, entry.id) not in house.deny:
        raise CommandError(f"{denied_name(table.id, entry.id, ruleset)} isn't denied.")
    return replace(house, deny=tuple(p for p in house.deny if p != (table.id, entry.id)))


def exclude(
    house: HouseRules, ruleset: Ruleset, wanted: str, uploads: Sequence[RollTable | Deck] = ()
) -> HouseRules:
    """The rules with one more excluded tag; CommandError for a tag that isn't one of ours,
    one excluded already, or one that would leave a list nothing to roll or a deck no card:
    one of `ruleset`'s, or one of `uploads`, the tables the server uploaded (a game may play
    any of them)."""
    tag = _tag(wanted)
    if tag in house.exclude:
        raise CommandError(f"Entries tagged {tag} are left out already.")
    changed = replace(house, exclude=(*house.exclude, tag))
    bundled: list[RollTable | Deck] = [*ruleset.tables.values(), *ruleset.decks.values()]
    for table in changed.emptied(bundled):
        raise CommandError(f"Excluding {tag} would leave {leaves_nothing(table)}.")
    for table in changed.emptied(uploads):
        raise CommandError(f"Excluding {tag} would leave {leaves_nothing(table, uploaded=True)}.")
    return changed


def include(house: HouseRules, wanted: str) -> HouseRules:
    """The rules without an excluded tag; CommandError for one that isn't excluded."""
    tag = _tag(wanted)
    if tag not in house.exclude:
        raise CommandError(f"Entries tagged {tag} aren't left out.")
    return replace(house, exclude=tuple(t for t in house.exclude if t != tag))


def _tag(wanted: str) -> str:
    """A tag of the vocabulary, as typed (``slow``, ``tag:slow``, ``Slow``)."""
    text = " ".join(wanted.split())[:100]
    word = text.casefold().removeprefix("tag:").strip()
    if word in TAGS:
        return word
    close = difflib.get_close_matches(word, list(TAGS), n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise CommandError(f"There's no tag {text!r}: the tags are {tag_words()}.{hint}")


def house_saved(house: HouseRules, *, running: bool, ruleset: Ruleset | None = None) -> str:
    """What a change answers: the rules now, and whom they reach."""
    reach = (
        "They apply from the next game: the game running here keeps the rules it started with."
        if running
        else "Games started from now on play by them."
    )
    return f"Saved. {reach}\n{house_show(house, ruleset)}"


def _list(ruleset: Ruleset, wanted: str) -> RollTable:
    found = find_table(ruleset, wanted[:100])
    if found not in ruleset.tables:
        raise CommandError(
            f"{ruleset.decks[found].name} is a deck: the deny-list is for lists, whose results"
            " are rolled again."
        )
    return ruleset.tables[found]


def _entry(table: RollTable, wanted: str) -> Entry:
    """An entry of `table` by the number rolled (``12``, ``#12``), its id or its name."""
    text = " ".join(wanted.split())[:100]
    number = text.lstrip("#")
    if number.isascii() and number.isdigit() and len(number) <= 9:
        band = next((b for b in table.bands if b.low <= int(number) <= b.high), None)
        if band is not None:
            return band.entry
    key = text.casefold()
    for entry in table.entries:
        if key in (entry.id.casefold(), entry.name.casefold()):
            return entry
    names = [e.name for e in table.entries[:500]]  # bounded: the hint is a courtesy
    close = difflib.get_close_matches(text, names, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise CommandError(f"{table.name} has no entry {text!r}.{hint}")
