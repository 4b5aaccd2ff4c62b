"""next_steps: the buttons a game offers in each state, and their custom ids."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import discord
import pytest

from bot.client import buttons
from bot.client.bot import PERSISTENT
from bot.client.buttons import GameButton, PickMenu, VetoButton, custom_id, steps_view
from bot.client.quietly import can_send_first
from bot.commands.steps import MAX_OPTION_BUTTONS, Step, StepKind, next_steps
from bot.engine import Offer, SpitePolicy
from bot.engine import actions as a
from bot.engine.game import Game
from bot.engine.house import HouseRules
from bot.engine.state import Pending
from bot.tables import find_ruleset
from tests.engine.test_offers import offering
from tests.engine.tiny import entry, fixed, new_game
from tests.fakediscord.plugin import aio


def begun(ruleset: str, seed: int = 7) -> Game:
    game = Game.start(find_ruleset(ruleset).ruleset, seed=seed, host="ann", name="Ann")
    game.act(a.Join(actor="bob", player_name="Bob"))
    game.act(a.Begin(actor="ann"))
    return game


def kinds(game: Game) -> list[StepKind]:
    return [s.kind for s in next_steps(game.state, game.ruleset)]


def test_a_lobby_offers_join_and_begin() -> None:
    game = Game.start(find_ruleset("classic").ruleset, seed=1, host="ann", name="Ann")
    assert kinds(game) == [StepKind.JOIN, StepKind.BEGIN]


@pytest.mark.parametrize(("ruleset", "label"), [("classic", "Roll chaos"), ("lists", "Roll chaos")])
def test_a_new_turn_offers_the_chaos_roll(ruleset: str, label: str) -> None:
    game = begun(ruleset)
    assert next_steps(game.state, game.ruleset) == [Step(StepKind.ROLL, label)]


def test_the_deck_draws_then_reveals_then_moves_on() -> None:
    game = begun("deck", seed=2)
    assert next_steps(game.state, game.ruleset) == [Step(StepKind.ROLL, "Draw chaos card")]
    game.act(a.RollChaos(actor="ann"))
    assert kinds(game) == [StepKind.REVEAL]
    game.act(a.Reveal(actor="ann"))
    assert game.state.pending is None  # seed 2's first card isn't a split card
    assert kinds(game) == [StepKind.NEXT]


def test_a_finished_game_offers_nothing() -> None:
    game = begun("classic")
    game.act(a.End(actor="ann"))
    assert next_steps(game.state, game.ruleset) == []


def pending(game: Game, kind: str, count: int) -> Game:
    game.state.pending = Pending(
        "bob", kind, [(str(n), f"Option {n}") for n in range(1, count + 1)], {}
    )
    return game


@pytest.mark.parametrize("count", [1, 2, MAX_OPTION_BUTTONS])
def test_a_few_options_get_a_button_each(count: int) -> None:
    game = pending(begun("classic"), "keep", count)
    assert next_steps(game.state, game.ruleset) == [
        Step(StepKind.CHOOSE, f"Option {n}", n) for n in range(1, count + 1)
    ]


def test_many_options_or_a_spite_look_go_into_a_private_menu() -> None:
    many = pending(begun("classic"), "keep", MAX_OPTION_BUTTONS + 1)
    assert kinds(many) == [StepKind.PICK]
    spite = pending(begun("deck"), "spite", 2)
    assert kinds(spite) == [StepKind.PICK]


def test_a_long_option_name_is_cut_to_fit_a_button() -> None:
    game = begun("classic")
    game.state.pending = Pending("bob", "keep", [("1", "x" * 120), ("2", "short")], {})
    first, second = next_steps(game.state, game.ruleset)
    assert len(first.label) == 80
    assert first.label.endswith("…")
    assert second.label == "short"


def test_button_ids_carry_the_game_the_version_and_the_option() -> None:
    game = pending(begun("classic"), "keep", 2)
    (row,) = steps_view(12, game).to_components()
    ids = [button["custom_id"] for button in row["components"]]
    assert ids == [f"cr:choose:12:{game.seq}:1", f"cr:choose:12:{game.seq}:2"]
    assert custom_id("roll", 3, 9) == "cr:roll:3:9"


def test_a_menu_id_is_not_mistaken_for_a_button() -> None:
    assert GameButton.__discord_ui_compiled_template__.fullmatch("cr:menu:1:4") is None
    assert PickMenu.__discord_ui_compiled_template__.fullmatch("cr:menu:1:4") is not None
    assert GameButton.__discord_ui_compiled_template__.fullmatch("cr:pick:1:4") is not None


def offering_game() -> Game:
    """Ann, Bob and Cy at a tiny table where every chaos roll offers a roll on the Vortex, and
    a spite roll offers one on the creature list."""
    spite = entry("sp", "Parting Gift", offers=(Offer(("mild",)),))
    rules = offering()
    rules = replace(
        rules,
        tables={**rules.tables, "spite": fixed("spite", spite)},
        spite=SpitePolicy.SPITE_TABLE,
        spite_table="spite",
    )
    return new_game(rules, players=("ann", "bob", "cy"))


def labels_of(game: Game) -> list[str]:
    return [s.label for s in next_steps(game.state, game.ruleset)]


def test_an_offer_button_names_its_player_unless_it_is_the_active_players() -> None:
    game = offering_game()
    game.act(a.RollChaos(actor="ann"))  # Ann's Portal: the Vortex, one of the creature lists
    assert labels_of(game) == [
        "Roll on vortex",
        "Roll on mild",
        "Roll on strong",
        "Next turn",
    ]
    game.act(a.Spite(actor="bob"))  # Bob is out on Ann's turn; his spite roll offers "mild"
    assert "Bob: roll on mild" in labels_of(game)


def test_an_offer_of_a_player_who_stepped_away_has_no_button_while_they_are_away() -> None:
    game = offering_game()
    game.act(a.NextTurn(actor="ann", override=True))
    game.act(a.RollChaos(actor="bob"))
    game.act(a.Away(actor="bob"))
    assert labels_of(game) == ["Next turn"]  # nobody may take Bob's offers for him
    game.act(a.Back(actor="bob"))
    steps = next_steps(game.state, game.ruleset)
    assert [s.label for s in steps][:1] == ["Roll on vortex"]
    assert steps[0].option == 1  # still numbered among every open offer


def test_a_multi_roll_waiting_for_its_offer_shows_take_and_decline_and_nothing_else() -> None:
    from tests.engine.test_pauses import begun as waiting_game

    game = waiting_game()
    game.act(a.RollChaos(actor="ann"))  # List A: Offerer then List B; Offerer offers List C
    assert next_steps(game.state, game.ruleset) == [
        Step(StepKind.OFFER, "Roll on List C", 1),
        Step(StepKind.DECLINE, "Decline List C", 1),
    ]
    game.act(a.Away(actor="ann"))  # nobody rolls for her, but the host may still decline
    assert next_steps(game.state, game.ruleset) == [Step(StepKind.DECLINE, "Decline List C", 1)]
    game.act(a.Back(actor="ann"))
    game.act(a.Decline(actor="ann"))
    assert kinds(game) == [StepKind.NEXT]


def item_view(game_id: int, game: Game) -> discord.ui.View:
    """The buttons as items, as steps_view drew them before it drew their payload directly."""
    view = discord.ui.View(timeout=None)
    for step in next_steps(game.state, game.ruleset)[:25]:
        if step.kind is StepKind.VETO:
            view.add_item(VetoButton(step, game_id))
        else:
            view.add_item(GameButton(step, game_id, game.seq))
    return view


def vetoing() -> Game:
    game = Game.start(
        find_ruleset("classic").ruleset, seed=3, host="ann", name="Ann", house=HouseRules(veto=True)
    )
    game.act(a.Join(actor="bob", player_name="Bob"))
    game.act(a.Join(actor="cy", player_name="Cy"))
    game.act(a.Begin(actor="ann"))
    game.act(a.RollChaos(actor="ann"))
    return game


def every_kind_of_state() -> list[Game]:
    lobby = Game.start(find_ruleset("classic").ruleset, seed=1, host="ann", name="Ann")
    ended = begun("classic")
    ended.act(a.End(actor="ann"))
    offers = offering_game()
    offers.act(a.RollChaos(actor="ann"))
    deck = begun("deck", seed=2)
    deck.act(a.RollChaos(actor="ann"))
    return [
        lobby,
        begun("classic"),
        begun("lists"),
        deck,
        pending(begun("classic"), "keep", MAX_OPTION_BUTTONS),
        pending(begun("classic"), "keep", MAX_OPTION_BUTTONS + 1),
        offers,
        vetoing(),
        ended,
    ]


@pytest.mark.parametrize("game", every_kind_of_state())
def test_the_drawn_buttons_are_the_items_payload_and_nothing_is_kept_for_them(game: Game) -> None:
    """steps_view draws the same components as a view of the dynamic items, holds no item of
    its own (so nothing is stored for its message, and it is sent quietly)."""
    drawn = steps_view(41, game)
    assert drawn.to_components() == item_view(41, game).to_components()
    assert drawn.children == []
    assert not drawn.is_dispatchable()
    assert not drawn.has_components_v2()
    assert can_send_first(drawn)


def test_a_veto_button_is_drawn_with_its_result() -> None:
    game = vetoing()
    labels = [b["label"] for row in steps_view(5, game).to_components() for b in row["components"]]
    assert any(label.startswith("Veto") for label in labels)


@pytest.mark.parametrize("game", every_kind_of_state())
@aio
async def test_every_drawn_button_is_rebuilt_by_the_registered_item_it_matches(
    game: Game,
) -> None:
    """A press carries only the button's id (and its label): each one drawn must match
    exactly one of the dynamic items the bot registers, which rebuilds the same step."""
    steps = next_steps(game.state, game.ruleset)[:25]
    ids = [b for row in steps_view(41, game).to_components() for b in row["components"]]
    assert len(ids) == len(steps)
    for step, button in zip(steps, ids, strict=True):
        matching = [
            (item, match)
            for item in PERSISTENT
            if (match := item.__discord_ui_compiled_template__.fullmatch(button["custom_id"]))
        ]
        assert len(matching) == 1, button
        ((item, match),) = matching
        pressed: discord.ui.Button[Any] = discord.ui.Button(
            label=button["label"], custom_id=button["custom_id"]
        )
        rebuilt = await item.from_custom_id(cast(Any, None), pressed, match)
        assert isinstance(rebuilt, GameButton | VetoButton)
        assert rebuilt.step == step
        assert rebuilt.game_id == 41
        if isinstance(rebuilt, GameButton):
            assert rebuilt.version == game.seq


def test_more_than_five_buttons_go_into_rows_of_five(monkeypatch: pytest.MonkeyPatch) -> None:
    game = begun("classic")
    steps = [Step(StepKind.CHOOSE, f"Option {n}", n) for n in range(1, 28)]
    monkeypatch.setattr(buttons, "next_steps", lambda state, ruleset: steps)
    rows = steps_view(41, game).to_components()
    assert [len(row["components"]) for row in rows] == [5, 5, 5, 5, 5]
    assert rows == item_view_of(steps[:25], 41, game.seq).to_components()


def item_view_of(steps: list[Step], game_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for step in steps:
        view.add_item(GameButton(step, game_id, version))
    return view
