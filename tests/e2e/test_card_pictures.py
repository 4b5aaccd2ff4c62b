"""Card pictures through Discord: a result that names a real card carries Scryfall's image URL
for that exact name in its embed (Discord fetches it; the bot calls nobody), a result without
a card carries none, and a face-down card shows nothing of itself before its reveal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.engine import actions as a
from bot.render.cards import card_image_url, card_page_url
from tests.e2e.table import JSON, Table, rolls, seed_where, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

SCRYFALL = "scryfall.com"


def pictures(body: JSON) -> list[str]:
    """Every picture URL in an answer's embeds: images and thumbnails."""
    found = []
    for embed in (body.get("data") or body).get("embeds") or []:
        for key in ("image", "thumbnail"):
            if embed.get(key):
                found.append(embed[key]["url"])
    return found


def cards_named(game: Any, events: list[Any]) -> list[str]:
    """The real cards the honoured rolls among `events` came up on."""
    names = []
    for roll in events:
        if roll["type"] != "roll" or roll["ignored"]:
            continue
        table = game.ruleset.tables.get(roll["table"])
        entry = table.lookup(roll["result"]) if table else None
        if entry is not None and entry.card:
            names.append(entry.card)
    return names


def _first_roll_names(count: int):
    def wanted(game: Any, seats: list[str]) -> bool:
        before = len(game.events)
        game.act(a.RollChaos(actor=seats[0]))
        return len(set(cards_named(game, game.events[before:]))) == count

    return wanted


@pytest.mark.parametrize("count", [1, 0])
@aio
async def test_a_result_naming_a_card_shows_its_picture_and_one_without_shows_none(
    fake_discord: FakeDiscord, tmp_path: Path, count: int
) -> None:
    seed = seed_where("classic", _first_roll_names(count))
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic", seed=seed)
        body = await t.slash("chaos roll", user=owner)
        game = (await t.current()).game
        named = cards_named(game, rolls(game))
        if count == 0:
            assert named == []
            assert pictures(body) == []
            assert SCRYFALL not in text_of(body)
            return
        (name,) = set(named)
        assert pictures(body) == [card_image_url(name)]
        assert pictures(body)[0] == (
            "https://api.scryfall.com/cards/named?exact="
            + name.replace(" ", "%20").replace(",", "%2C").replace("'", "%27")
            + "&format=image&version=normal"
        )
        # If the picture doesn't load, the name is still a link to the card's page.
        assert f"[{name}]({card_page_url(name)})" in text_of(body)


@aio
async def test_a_deck_card_shows_its_picture_at_the_reveal_and_not_before(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    def real_card(game: Any, seats: list[str]) -> bool:
        game.act(a.RollChaos(actor=seats[0]))
        deck, card, _, _ = game.state.face_down
        return bool(game.ruleset.deck(deck).card(card).card)

    seed = seed_where("deck", real_card)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("deck", seed=seed)
        drawn = await t.press("Draw chaos card", user=owner)
        game = (await t.current()).game
        deck, card, _, _ = game.state.face_down
        name = game.ruleset.deck(deck).card(card).card
        assert name
        assert pictures(drawn) == []  # a face-down card shows nothing of itself
        await t.settle()
        assert all(pictures(m) == [] for m in t.fake.channel_messages())

        shown = await t.slash("chaos reveal", user=owner)
        assert pictures(shown) == [card_image_url(name)]


@aio
async def test_card_shows_the_picture_of_the_exact_name(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await t.slash("card", {"name": "Fire // Ice"})
        assert pictures(body) == [
            "https://api.scryfall.com/cards/named?exact=Fire%20%2F%2F%20Ice"
            "&format=image&version=normal"
        ]
        accented = await t.slash("card", {"name": "Lim-Dûl's Vault"})
        assert pictures(accented) == [
            "https://api.scryfall.com/cards/named?exact=Lim-D%C3%BBl%27s%20Vault"
            "&format=image&version=normal"
        ]
