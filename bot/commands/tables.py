"""The lists and decks of a ruleset as text, for every front end: list them, show one, look up
one result. Pure: a ruleset in, text out (or a CommandError that says what there is).
"""

from __future__ import annotations

import difflib

from bot.commands.grammar import CommandError, read_int
from bot.engine.model import Ruleset
from bot.tables.describe import render_deck, render_table, what_it_does


def table_names(ruleset: Ruleset) -> dict[str, str]:
    """Every list and deck of the ruleset: id → name."""
    names = {t.id: t.name for t in ruleset.tables.values()}
    names.update({d.id: d.name for d in ruleset.decks.values()})
    return names


def find_table(ruleset: Ruleset, wanted: str) -> str:
    """The id of the list or deck called `wanted` (its id or name, any case)."""
    names = table_names(ruleset)
    key = wanted.casefold().strip()
    found = next((i for i, n in names.items() if key in (i.casefold(), n.casefold())), None)
    if found is None:
        close = difflib.get_close_matches(key, [*names, *(n.casefold() for n in names.values())])
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise CommandError(
            f"{ruleset.name} has no list or deck {wanted!r}.{hint} (there are: {', '.join(names)})"
        )
    return found


def table_list(ruleset: Ruleset) -> str:
    """One line per list (with its dice) and per deck (with its size)."""
    width = max(len(t) for t in table_names(ruleset))
    lines = [f"Lists and decks of {ruleset.name} (`table show ID` prints one):"]
    for table in ruleset.tables.values():
        lines.append(f"  {table.id:<{width}}  {table.name} ({table.dice.notation})")
    for deck in ruleset.decks.values():
        count = sum(card.copies for card in deck.cards)
        lines.append(f"  {deck.id:<{width}}  {deck.name} ({count} cards)")
    return "\n".join(lines)


def table_show(ruleset: Ruleset, wanted: str) -> str:
    """A list or deck as players read it: dice, directions and every result."""
    found = find_table(ruleset, wanted)
    names = table_names(ruleset)
    if found in ruleset.tables:
        return render_table(ruleset.tables[found], names)
    return render_deck(ruleset.decks[found], names)


def table_lookup(ruleset: Ruleset, wanted: str, result: str) -> str:
    """One result of a list (by the number rolled) or one card of a deck (by name)."""
    found = find_table(ruleset, wanted)
    names = table_names(ruleset)
    if found in ruleset.tables:
        table = ruleset.tables[found]
        number = read_int(result.strip().lstrip("#"), "the number rolled")
        if number is None:
            raise CommandError(f"look a result of {table.name} up by its number, like 42")
        band = next((b for b in table.bands if b.low <= number <= b.high), None)
        if band is None:
            low, high = table.bands[0].low, table.bands[-1].high
            raise CommandError(f"{table.name} has results {low} to {high}; {number} isn't one")
        entry, label = band.entry, band.label
    else:
        deck = ruleset.decks[found]
        key = result.casefold().strip()
        cards = [c for c in deck.cards if key in (c.entry.id.casefold(), c.entry.name.casefold())]
        cards = cards or [c for c in deck.cards if key in c.entry.name.casefold()]
        if len(cards) != 1:
            which = "several cards" if cards else "no card"
            raise CommandError(f"{deck.name} has {which} called {result!r}")
        entry, label = cards[0].entry, f"{cards[0].copies}x"
    lines = [f"{names[found]} {label}: {entry.name}"]
    for part in entry.halves or (entry,):
        if entry.halves:
            lines.append(f"  {part.name}")
        if part.text:
            lines.append(("    " if entry.halves else "  ") + part.text)
        if does := what_it_does(part, names, found):
            lines.append(("    " if entry.halves else "  ") + f"-> {does}")
    return "\n".join(lines)
