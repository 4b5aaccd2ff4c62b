"""Card pictures in embeds and the URLs behind them (bot/render/cards.py): built, never fetched."""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

import discord
import pytest

from bot.client.embeds import MESSAGE_LIMIT, result_embeds, with_pictures
from bot.engine import Kind, Nesting
from bot.render.cards import card_image_url, card_page_url
from tests.client.test_embeds import as_dict, assert_within_limits, chaos, first_roll
from tests.engine.tiny import entry, faces, fixed, new_game, ruleset, times

NAMES = [
    "Lightning Bolt",
    "Fire // Ice",
    "Lim-Dûl's Vault",
    "Jötun Grunt",
    'Kongming, "Sleeping Dragon"',
    "R&D's Secret Lair",
    "Ach! Hans, Run!",
    "+2 Mace",
]


@pytest.mark.parametrize("name", NAMES)
def test_the_image_url_asks_scryfall_for_exactly_this_name(name: str) -> None:
    url = urlsplit(card_image_url(name))
    assert (url.scheme, url.netloc, url.path) == ("https", "api.scryfall.com", "/cards/named")
    assert parse_qs(url.query) == {"exact": [name], "format": ["image"], "version": ["normal"]}
    assert " " not in card_image_url(name)
    assert card_image_url(name, "small").endswith("&version=small")


@pytest.mark.parametrize("name", NAMES)
def test_the_page_url_searches_for_the_exact_name(name: str) -> None:
    url = urlsplit(card_page_url(name))
    assert (url.scheme, url.netloc, url.path) == ("https", "scryfall.com", "/search")
    (query,) = parse_qs(url.query)["q"]
    if '"' in name:
        assert query == " ".join(name.replace('"', " ").split())
    else:
        assert query == f'!"{name}"'
    assert unquote(card_page_url(name)).count("&") == name.count("&")


def test_one_card_is_pictured_under_its_link() -> None:
    bolt = entry("bolt", "Bolt out of the blue", kind=Kind.CARD, card="Lightning Bolt")
    game = new_game(ruleset(fixed("chaos", bolt)))
    embeds = result_embeds(chaos(game), game)
    data = as_dict(embeds[-1])
    assert data["image"] == {"url": card_image_url("Lightning Bolt")}
    assert data["fields"] == [
        {
            "name": "Card",
            "value": f"[Lightning Bolt]({card_page_url('Lightning Bolt')})",
            "inline": False,
        }
    ]


def test_a_result_without_a_card_has_no_picture() -> None:
    game = new_game(ruleset(fixed("chaos", entry("calm", "Calm"))))
    embeds = result_embeds(chaos(game), game)
    assert all("image" not in as_dict(e) and "thumbnail" not in as_dict(e) for e in embeds)


def test_several_cards_are_each_pictured_small_beside_their_name() -> None:
    rules = ruleset(
        fixed("chaos", entry("three", "Three cards", kind=Kind.MULTI, multi=times(3, "cards"))),
        faces(
            "cards",
            entry("bolt", "Bolt", kind=Kind.CARD, card="Lightning Bolt"),
            entry("fire", "Fire", kind=Kind.CARD, card="Fire // Ice"),
        ),
        nesting=Nesting.SEQUENTIAL,
    )
    game, events = first_roll(rules, lambda batch: "Bolt" in str(batch) and "Fire" in str(batch))
    embeds = result_embeds(events, game)
    pictured = [as_dict(e) for e in embeds if "thumbnail" in as_dict(e)]
    assert sorted((p["title"], p["url"], p["thumbnail"]["url"]) for p in pictured) == sorted(
        (name, card_page_url(name), card_image_url(name))
        for name in ("Lightning Bolt", "Fire // Ice")
    )
    assert all("image" not in as_dict(e) for e in embeds)
    assert_within_limits(embeds)


def test_pictures_never_push_a_message_past_discords_limits() -> None:
    full = [discord.Embed(description="x" * 4000), discord.Embed(description="y" * 1990)]
    names = [f"Card {n}" for n in range(30)]
    embeds = with_pictures(full, names)
    assert sum(len(e) for e in embeds) <= MESSAGE_LIMIT
    assert len(embeds) == 3  # room for one title of 6 characters, no more
    many = with_pictures([discord.Embed(description="z")], names)
    assert len(many) == 10
    assert_within_limits(many)
