"""Choices through Discord: keep-one buttons, split halves, /chaos choose, and the private menu."""

from __future__ import annotations

import logging

from bot.engine import actions as a
from tests.e2e.table import Table, components, is_ephemeral, labels, seed_where, text_of
from tests.fakediscord.plugin import aio


def keep_choice(game, seats) -> bool:
    """The host's first chaos roll ends in "keep one of these rolls"."""
    game.act(a.RollChaos(actor=seats[0]))
    pending = game.state.pending
    return pending is not None and pending.kind == "keep" and 2 <= len(pending.options) <= 5


def split_card(game, seats) -> bool:
    """The host's first chaos card is a split card."""
    game.act(a.RollChaos(actor=seats[0]))
    game.act(a.Reveal(actor=seats[0]))
    pending = game.state.pending
    return pending is not None and pending.kind == "half"


async def version(t: Table):
    return (await t.current()).version


# -- keep one: a button per option -------------------------------------------------------------


@aio
async def test_keep_one_offers_a_button_per_roll_and_a_press_keeps_it(fake_discord, tmp_path):
    seed = seed_where("classic", keep_choice)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", seed=seed)
        body = await t.slash("chaos roll", user=owner)
        pending = (await t.current()).game.state.pending
        names = [name for _, name in pending.options]
        assert labels(body) == names
        assert "owner keeps one of these rolls" in text_of(body)

        before = await version(t)
        refused = await t.press(names[-1], user=player)
        assert is_ephemeral(refused)
        assert "the host or a referee can answer that choice" in text_of(refused)
        assert await version(t) == before

        kept = await t.press(names[-1], user=owner)

        assert not is_ephemeral(kept)
        assert f"owner chooses {names[-1]}" in text_of(kept)
        game = (await t.current()).game
        assert game.state.pending is None
        made = [e for e in game.events if e["type"] == "choice_made"]
        assert [e["option"] for e in made] == [pending.options[-1][0]]


@aio
async def test_chaos_choose_suggests_the_pending_options(fake_discord, tmp_path):
    seed = seed_where("classic", keep_choice)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic", seed=seed)
        _, nothing = await t.fake.autocomplete("chaos choose", {"option": ""}, "option")
        assert nothing["data"]["choices"] == []
        await t.slash("chaos roll", user=owner)
        pending = (await t.current()).game.state.pending

        _, typed = await t.fake.autocomplete("chaos choose", {"option": ""}, "option", user=owner)

        assert typed["data"]["choices"] == [
            {"name": f"{n}) {name}", "value": str(n)}
            for n, (_, name) in enumerate(pending.options, 1)
        ]
        body = await t.slash("chaos choose", {"option": "1"}, user=owner)
        assert f"owner chooses {pending.options[0][1]}" in text_of(body)
        assert (await t.current()).game.state.pending is None


@aio
async def test_chaos_choose_with_an_unknown_option_is_refused(fake_discord, tmp_path):
    seed = seed_where("classic", keep_choice)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic", seed=seed)
        await t.slash("chaos roll", user=owner)
        before = await version(t)
        body = await t.slash("chaos choose", {"option": "nothing like it"}, user=owner)
        assert is_ephemeral(body)
        assert "isn't one of the choices" in text_of(body)
        assert await version(t) == before


@aio
async def test_a_choice_holds_up_the_turn_until_it_is_made(fake_discord, tmp_path):
    seed = seed_where("classic", keep_choice)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic", seed=seed)
        await t.slash("chaos roll", user=owner)
        body = await t.slash("turn next", user=owner)
        assert is_ephemeral(body)
        assert "owner must choose first" in text_of(body)


# -- split cards: a button per half ------------------------------------------------------------


@aio
async def test_a_split_card_offers_its_halves_to_its_controller(fake_discord, tmp_path):
    seed = seed_where("deck", split_card)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("deck", seed=seed)
        await t.press("Draw chaos card", user=owner)

        shown = await t.press("Reveal", user=owner)

        game = (await t.current()).game
        deck, card = game.state.pending.context["deck"], game.state.pending.context["card"]
        halves = [h.name for h in game.ruleset.deck(deck).card(card).halves]
        assert labels(shown) == halves
        assert "owner picks a half of the split card" in text_of(shown)

        before = await version(t)
        no = await t.press(halves[1], user=player)
        assert is_ephemeral(no)
        assert await version(t) == before

        picked = await t.press(halves[1], user=owner)

        assert f"the {halves[1]} half" in text_of(picked)
        assert halves[0] not in picked["data"]["embeds"][0]["title"]
        game = (await t.current()).game
        assert game.state.pending is None
        played = [e for e in game.events if e["type"] == "roll"][-1]
        assert played["entry"]["name"] == halves[1]
        assert labels(picked) == ["Next turn"]


# -- the private choice: "Choose…" and a menu only the chooser sees ------------------------------


async def deck_spite(t: Table):
    """A deck game in which the (non-host) player spites: seven cards to pick from."""
    owner, player = await t.game("deck")
    body = await t.slash("chaos spite", user=player)
    return owner, player, body


def menu_of(message):
    (menu,) = [c for c in components(message) if c["type"] == 3]
    return menu


def menus_shown_to(t: Table, user):
    return [
        m
        for m in t.fake.ephemeral_messages(user=user)
        if any(c["type"] == 3 for c in components(m))
    ]


@aio
async def test_a_spite_look_is_chosen_privately_from_a_menu(fake_discord, tmp_path, caplog):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        _owner, player, body = await deck_spite(t)
        pending = (await t.current()).game.state.pending
        assert pending.kind == "spite"
        assert pending.player == player["id"]
        assert labels(body) == ["Choose…"]
        assert "player would lose, and gets a spite" in text_of(body)

        menu = await t.press("Choose…", user=player)

        assert is_ephemeral(menu)
        (private,) = t.fake.ephemeral_messages(user=player)
        offered = menu_of(private)["options"]
        assert [o["label"] for o in offered] == [name for _, name in pending.options]
        assert len(offered) == 7
        before = await version(t)

        _, chosen = await t.fake.select(
            menu_of(private)["custom_id"], [offered[2]["value"]], message=private, user=player
        )

        assert not is_ephemeral(chosen)
        assert f"player chooses {offered[2]['label']}" in text_of(chosen)
        game = (await t.current()).game
        # Next: a half of a split card, or (no reason was given) whether the loss still holds.
        assert game.state.pending is not None
        assert game.state.pending.kind in ("half", "loss")
        assert await version(t) == before + 1
        made = [e for e in game.events if e["type"] == "choice_made"]
        assert [e["option"] for e in made] == [pending.options[2][0]]
        assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@aio
async def test_only_the_chooser_may_open_the_menu(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _player, _ = await deck_spite(t)
        guest = t.fake.add_user("onlooker")
        before = await version(t)

        for someone in (owner, guest):  # not even the host sees another player's look
            body = await t.press("Choose…", user=someone)
            assert is_ephemeral(body)
            assert "That choice is player's to make" in text_of(body)
            assert not components(body["data"])
        assert not menus_shown_to(t, owner)
        assert not menus_shown_to(t, guest)
        assert await version(t) == before


@aio
async def test_a_menu_from_an_older_version_is_refused(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, _ = await deck_spite(t)
        await t.press("Choose…", user=player)
        (private,) = menus_shown_to(t, player)
        menu = menu_of(private)
        # The game moves on while the look is still open (the middle doesn't wait for it).
        await t.slash("middle add", {"card": "Shock"}, user=owner)
        after = await version(t)

        _, stale = await t.fake.select(
            menu["custom_id"], [menu["options"][0]["value"]], message=private, user=player
        )

        assert is_ephemeral(stale)
        assert "That was for an earlier moment of the game" in text_of(stale)
        assert "owner: middle add" in text_of(stale)
        assert await version(t) == after
        assert (await t.current()).game.state.pending.kind == "spite"

        await t.press("Choose…", user=player)  # a fresh menu works
        fresh = menus_shown_to(t, player)[-1]
        _, chosen = await t.fake.select(
            menu_of(fresh)["custom_id"], [menu["options"][0]["value"]], message=fresh, user=player
        )
        assert not is_ephemeral(chosen)
        assert await version(t) == after + 1

        # Once chosen, the same menu answers that the choice is gone.
        _, gone = await t.fake.select(
            menu_of(fresh)["custom_id"], [menu["options"][1]["value"]], message=fresh, user=player
        )
        assert is_ephemeral(gone)
        assert await version(t) == after + 1


@aio
async def test_an_old_choose_button_is_refused(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, _body = await deck_spite(t)
        old = t.newest_with("Choose…")
        await t.slash("chaos undo", user=owner)  # the look is taken back: a new version

        refused = await t.press("Choose…", user=player, message=old)

        assert is_ephemeral(refused)
        assert "already made" in text_of(refused)
        assert not menus_shown_to(t, player)


@aio
async def test_a_spite_look_is_not_shown_to_the_table(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, _body = await deck_spite(t)
        looked = [name for _, name in (await t.current()).game.state.pending.options]
        await t.settle()

        public = [text_of(m) for m in t.fake.channel_messages()]
        assert any("player would lose, and gets a spite" in text for text in public)
        for name in looked:
            assert all(name not in text for text in public), f"{name} is shown to everyone"
        log = await t.slash("chaos log", user=owner)
        assert all(name not in text_of(log) for name in looked)

        await t.press("Choose…", user=player)
        (private,) = menus_shown_to(t, player)
        assert [o["label"] for o in menu_of(private)["options"]] == looked


@aio
async def test_chaos_choose_suggests_a_spite_look_to_the_chooser_alone(fake_discord, tmp_path):
    # The cards of a spite look are the top of the deck: suggesting them to anyone who types
    # `/chaos choose` would show the table cards nobody else may see.
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, _ = await deck_spite(t)
        looked = [name for _, name in (await t.current()).game.state.pending.options]
        guest = t.fake.add_user("onlooker")

        for someone in (owner, guest):
            _, shown = await t.fake.autocomplete(
                "chaos choose", {"option": ""}, "option", user=someone
            )
            assert shown["data"]["choices"] == []
        _, own = await t.fake.autocomplete("chaos choose", {"option": ""}, "option", user=player)
        assert [c["name"] for c in own["data"]["choices"]] == [
            f"{n}) {name}" for n, name in enumerate(looked, 1)
        ]

        wrong = await t.slash("chaos choose", {"option": "no such card"}, user=owner)
        assert is_ephemeral(wrong)
        assert "isn't one of the choices" in text_of(wrong)
        assert all(name not in text_of(wrong) for name in looked)
