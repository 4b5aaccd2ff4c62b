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
