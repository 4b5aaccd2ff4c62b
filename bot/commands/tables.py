"""The lists and decks of a ruleset as text, for every front end: list them, show one, look up
one result. Pure: a ruleset in, text out (or a CommandError that says what there is).
"""

from __future__ import annotations

import difflib

from bot import entry_search
from bot.commands.grammar import CommandError, check_text, read_int
from bot.engine.entries import Entry
from bot.engine.model import Ruleset
from bot.tables.describe import render_deck, render_table, tag_meanings, tags_line, what_it_does


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


MAX_QUERY = 100  # characters: a name is shorter, and Discord sends at most this many
SHORT_LIST = 8  # entries shown when a name could mean several


def table_lookup(ruleset: Ruleset, wanted: str, result: str) -> str:
    """One result of a list (by the number rolled, or by name) or one card of a deck (by
    name)."""
    found = find_table(ruleset, wanted)
    names = table_names(ruleset)
    if found in ruleset.tables:
        table = ruleset.tables[found]
        number = read_int(result.strip().lstrip("#"), "the number rolled")
        if number is None:
            return entry_lookup(ruleset, result, only=found)
        band = next((b for b in table.bands if b.low <= number <= b.high), None)
        if band is None:
            low, high = table.bands[0].low, table.bands[-1].high
            raise CommandError(f"{table.name} has results {low} to {high}; {number} isn't one")
        return _entry_text(names, found, band.label, band.entry)
    return entry_lookup(ruleset, result, only=found)


def lookup(ruleset: Ruleset, query: str) -> str:
    """`table lookup` as typed in one line: `TABLE NUMBER`, `TABLE NAME`, or a NAME alone,
    searched across every list and deck of the ruleset."""
    text = " ".join(_checked(query).split())
    head, _, last = text.rpartition(" ")
    if head and read_int(last.lstrip("#"), "the number rolled") is not None:
        return table_lookup(ruleset, head, last)
    folded = text.casefold()
    for table, name in table_names(ruleset).items():
        for said in (table, name):
            if folded.startswith(said.casefold() + " "):
                try:
                    return table_lookup(ruleset, table, text[len(said) + 1 :])
                except CommandError:  # "a fog" in a ruleset with a list "a": a name after all
                    break
    if read_int(text.lstrip("#"), "the number rolled") is not None:
        raise CommandError(f"say which list the number is from, like `table lookup chaos {text}`")
    return entry_lookup(ruleset, text)


def entry_lookup(ruleset: Ruleset, name: str, only: str | None = None) -> str:
    """The entry called `name` (or about it, by the ranked search) in every list and deck of the
    ruleset, or in the one `only`; a short ranked list when several are close."""
    name = " ".join(_checked(name).split())
    where = table_names(ruleset)[only] if only else ruleset.name
    if not name:
        raise CommandError(f"say which entry of {where} to look up, by its name or number")
    places = entry_search.places(ruleset, only)
    found = entry_search.search(places, name)
    if found.answer is not None:
        place = found.answer
        return _entry_text(table_names(ruleset), place.table, place.label, place.entry)
    several = found.candidates()
    if several:
        lines = [f"Several entries of {where} match {name!r}, best first:"]
        lines += [f"  {p.title}" for p in several[:SHORT_LIST]]
        lines.append("Look one up by its list and number, like `table lookup chaos 158`.")
        return "\n".join(lines)
    close = entry_search.suggest(places, name)
    hint = f" Did you mean {', '.join(repr(p.entry.name) for p in close[:3])}?" if close else ""
    if only in ruleset.decks:
        raise CommandError(f"{where} has no card called {name!r}.{hint}")
    how = "look a result up by its number, like 42, or its name" if only else "see `table list`"
    raise CommandError(f"{where} has no entry called {name!r}.{hint} ({how})")


def _checked(query: str) -> str:
    if len(query) > MAX_QUERY:
        raise CommandError(
            f"that's too long to be an entry's name ({MAX_QUERY} characters at most)"
        )
    return check_text(query, "an entry's name")


def _entry_text(names: dict[str, str], table: str, label: str, entry: Entry) -> str:
    lines = [f"{names[table]} {label}: {entry.name}"]
    for part in entry.halves or (entry,):
        if entry.halves:
            lines.append(f"  {part.name}")
        if part.text:
            lines.append(("    " if entry.halves else "  ") + part.text)
        if does := what_it_does(part, names, table):
            lines.append(("    " if entry.halves else "  ") + f"-> {does}")
    if tags := tags_line(entry):  # a split card's, not its halves'
        lines.append(f"  {tags}")
        lines += [f"    {meaning}" for meaning in tag_meanings(entry)]
    return "\n".join(lines)
