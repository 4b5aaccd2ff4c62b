"""Choices through Discord say what each option does: the keep-one and split-half answers
carry every option's text in the message, and the private spite menu gives each card a
description (Discord's 100 characters, cut with "…") with the whole texts in the message above
it, so a player can find the card they need."""

from __future__ import annotations

from bot.engine.game import Game
from bot.render.choices import option_texts
from bot.tables import find_ruleset
from tests.e2e.table import Table, components, seed_where, text_of
from tests.e2e.test_choices import keep_choice, split_card
from tests.fakediscord.plugin import aio


def texts_of(game: Game) -> list[tuple[str, str]]:
    pending = game.state.pending
    assert pending is not None
    texts = option_texts(pending.kind, pending.options, pending.context, game.ruleset)
    return [(name, text) for (_, name), text in zip(pending.options, texts, strict=True)]


def plain_text(said: str) -> str:
    """A message's text with Discord's escapes taken out again."""
    return said.replace("\\", "").replace("\u2002", " ")


@aio
async def test_keep_one_says_what_each_roll_does(fake_discord, tmp_path):
    seed = seed_where("lists", keep_choice)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("lists", seed=seed)
        body = await t.slash("chaos roll", user=owner)
        options = texts_of((await t.current()).game)
        said = plain_text(text_of(body))
        for n, (name, text) in enumerate(options, 1):
            assert text, name
            assert f"{n}) {name}\n" in said
            assert text in said  # whole, on its own line under the name


@aio
async def test_split_halves_say_what_each_half_does(fake_discord, tmp_path):
    seed = seed_where("deck", split_card)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("deck", seed=seed)
        await t.slash("chaos roll", user=owner)
        body = await t.slash("chaos reveal", user=owner)
        game = (await t.current()).game
        said = plain_text(text_of(body))
        pending = game.state.pending
        assert pending is not None
        card = game.ruleset.decks[str(pending.context["deck"])].card(str(pending.context["card"]))
        for half in card.halves:
            assert half.text in said


@aio
async def test_the_spite_menu_describes_every_card(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        _, player = await t.game("deck")
        await t.slash("chaos spite", user=player)
        game = (await t.current()).game
        options = texts_of(game)
        await t.press("Choose…", user=player)
        (private,) = t.fake.ephemeral_messages(user=player)
        (menu,) = [c for c in components(private) if c["type"] == 3]
        assert len(menu["options"]) == len(options) == 7
        deck = find_ruleset("deck").ruleset.decks["chaos"]
        said = plain_text(text_of(private))
        for offered, (name, text), (card_id, _) in zip(
            menu["options"], options, game.state.pending.options, strict=True
        ):
            assert offered["label"] == name
            description = offered.get("description", "")
            assert len(description) <= 100
            if len(text) <= 100:
                assert description == text
            else:
                assert description == text[:99] + "…"
            entry = deck.card(card_id)
            for part in entry.halves or (entry,):
                assert part.text in said  # the whole text is in the message
        assert "Your choice (only you can see this)" in said
