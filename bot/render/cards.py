"""Where a real card's picture and page are on Scryfall: URLs built here, never fetched.

A result that names a real card shows its picture. The bot makes no network call for it: it
hands Discord (or a browser) the address of Scryfall's image endpoint for that exact name,
which answers with a redirect to the picture, and whoever shows the picture fetches it. When
the picture can't be had (a name Scryfall doesn't know, Scryfall down), the name is still a
link to the card's page.

Names go into the URLs percent-encoded whole: a split card's ``Fire // Ice``, an accented
``Lim-Dûl's Vault`` and a name with quotes or ``&`` in it stay one query value.
"""

from __future__ import annotations

from urllib.parse import quote

from bot.engine.events import Roll
from bot.engine.model import Entry, Ruleset

SCRYFALL_NAMED = "https://api.scryfall.com/cards/named"
SCRYFALL_SEARCH = "https://scryfall.com/search?q="
IMAGE_VERSION = "normal"  # 488 × 680: sharp in an embed, a fraction of `large`'s bytes


def card_image_url(name: str, version: str = IMAGE_VERSION) -> str:
    """The picture of the card with exactly this name (Scryfall redirects to the image file).

    `version` is one of Scryfall's sizes: ``small``, ``normal``, ``large``, ``png``,
    ``art_crop``, ``border_crop``.
    """
    return f"{SCRYFALL_NAMED}?exact={quote(name, safe='')}&format=image&version={version}"


def card_page_url(name: str) -> str:
    """Scryfall's page for the card with exactly this name: a search for the exact name, which
    Scryfall answers with the card's page when one card has it."""
    if '"' in name:
        # An exact-name search is written !"Name", which a quote in the name would end early;
        # the words alone still find the one card that has them all.
        return SCRYFALL_SEARCH + quote(" ".join(name.replace('"', " ").split()), safe="")
    return SCRYFALL_SEARCH + quote(f'!"{name}"', safe="")


def rolled_card(roll: Roll, ruleset: Ruleset) -> str | None:
    """The real card a roll's result names (its entry's ``card``), if any."""
    entry = _entry(roll, ruleset)
    return entry.card if entry is not None and entry.card else None


def _entry(roll: Roll, ruleset: Ruleset) -> Entry | None:
    """The entry a roll came up on (a split card's half included); None if the ruleset no
    longer has it."""
    wanted = roll["entry"]["id"]
    table = ruleset.tables.get(roll["table"])
    if table is not None:
        try:
            found: Entry | None = table.lookup(roll["result"])
        except KeyError:  # the list changed since the roll: look for the entry by id
            found = None
        if found is not None and found.id == wanted:
            return found
        return next((e for e in table.entries if e.id == wanted), None)
    deck = ruleset.decks.get(roll["table"])
    if deck is None:
        return None
    for card in deck.cards:
        for entry in (card.entry, *card.entry.halves):
            if entry.id == wanted:
                return entry
    return None


def card_named(ruleset: Ruleset, name: str) -> str | None:
    """The real card behind something in play called `name` (an effect, a card in the middle):
    the ``card`` of the ruleset's entry of that name, if it has one."""
    for table in ruleset.tables.values():
        for entry in table.entries:
            if entry.name == name and entry.card:
                return entry.card
    for deck in ruleset.decks.values():
        for card in deck.cards:
            for entry in (card.entry, *card.entry.halves):
                if entry.name == name and entry.card:
                    return entry.card
    return None
