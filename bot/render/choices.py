"""What each option of a choice does, in the players' words: pure, no I/O.

A choice names its options (``1) Dizzy Spell 2) Thrown Clear``); a player choosing wants what
each one does: the entry's text, and what it does beyond its text (``roll once on List D``), as
``table show`` words it. The Vortex's "keep one", a split card's halves and a spite look's cards
are all entries of the ruleset, found here by the ids the choice carries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.model import Entry, Ruleset
from bot.tables.describe import what_it_does


def option_texts(
    kind: str,
    options: Sequence[tuple[str, str]],
    context: Mapping[str, object],
    ruleset: Ruleset | None,
) -> list[str]:
    """One text per option ("" where there is nothing to say: a yes-or-no question, or an
    entry the ruleset no longer has)."""
    if ruleset is None:
        return ["" for _ in options]
    found = [_entry(kind, option, context, ruleset) for option, _ in options]
    return [_described(entry, where, ruleset) if entry else "" for entry, where in found]


def _entry(
    kind: str, option: str, context: Mapping[str, object], ruleset: Ruleset
) -> tuple[Entry | None, str]:
    """The entry an option stands for, and the id of its list or deck."""
    match kind:
        case "keep":
            candidates = context.get("candidates")
            for candidate in candidates if isinstance(candidates, list) else []:
                if str(candidate.get("roll")) == option:
                    table, entry = str(candidate.get("table")), str(candidate.get("entry"))
                    return _in_table(ruleset, table, entry), table
        case "half":
            deck = str(context.get("deck"))
            card = _card(ruleset, deck, str(context.get("card")))
            half = next((h for h in card.halves if h.id == option), None) if card else None
            return half, deck
        case "spite":
            deck = str(context.get("deck"))
            return _card(ruleset, deck, option), deck
    return None, ""


def _in_table(ruleset: Ruleset, table: str, entry_id: str) -> Entry | None:
    if table in ruleset.tables:
        return next((e for e in ruleset.tables[table].entries if e.id == entry_id), None)
    if table in ruleset.decks:
        return _card(ruleset, table, entry_id)
    return None


def _card(ruleset: Ruleset, deck: str, card: str) -> Entry | None:
    if deck not in ruleset.decks:
        return None
    try:
        return ruleset.decks[deck].card(card)
    except KeyError:
        return None


def _described(entry: Entry, where: str, ruleset: Ruleset) -> str:
    """``Roll once on List D.`` or the entry's text, then what it does beyond it; a split card
    as its two halves."""
    if entry.halves:
        return " // ".join(f"{h.name}: {_described(h, where, ruleset)}" for h in entry.halves)
    names = {t: table.name for t, table in ruleset.tables.items()}
    names.update((d, deck.name) for d, deck in ruleset.decks.items())
    does = what_it_does(entry, names, where)
    text = entry.text.strip()
    if text and does:
        return f"{text} ({does})"
    if does:
        return does[0].upper() + does[1:] + "."
    return text


def clipped(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, ending in "…" when anything was cut."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"
