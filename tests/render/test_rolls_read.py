"""A result reads for the table (issue 24, section 2): each inline die says what it was for, a
supplementary list's directions are read once a game, and Discord's steps need no fixed-width
font while the console keeps its tree."""

from __future__ import annotations

from bot.engine import Begin, Game, Join, Kind, NextTurn, RollChaos
from bot.render import Names, render_lines
from bot.tables import find_ruleset
from tests.engine.tiny import entry, fixed, new_game, ruleset, times

SPARKS = "Deal {1d6} damage to target creature and {1d6} damage to target player."


def test_each_inline_die_is_named_by_the_words_around_it() -> None:
    rules = ruleset(
        fixed("chaos", entry("sparks", "Twin Sparks", text=SPARKS)),
        fixed("scry", entry("scry", "Peek", text="Scry {1d3}, then draw a card.")),
    )
    game = new_game(rules)
    events = game.act(RollChaos(actor="ann"))
    lines = render_lines(events, Names.of(game))
    dice = [line.strip() for line in lines if "1d6 [" in line]
    assert [line.split(": 1d6")[0] for line in dice] == [
        "Damage to target creature",
        "Damage to target player",
    ]
    events = game.act(RollChaos(actor="ann", table="scry"))
    assert any(
        line.strip().startswith("Scry: 1d3 [") for line in render_lines(events, Names.of(game))
    )


def test_dice_the_engine_named_read_in_words() -> None:
    rules = ruleset(
        fixed("chaos", entry("some", "Some rolls", kind=Kind.MULTI, multi=times("1d3", "calm"))),
        fixed("calm", entry("calm", "Calm")),
    )
    game = new_game(rules)
    lines = render_lines(game.act(RollChaos(actor="ann")), Names.of(game))
    assert any(line.startswith("│  How many rolls: 1d3 [") for line in lines), lines


def test_a_lists_directions_are_read_with_the_games_first_roll_on_it_only() -> None:
    ruleset_ = find_ruleset("lists").ruleset
    directions = ruleset_.tables["global"].directions
    for seed in range(300):
        game = Game.start(ruleset_, seed=seed, host="ann", name="Ann")
        game.act(Join(actor="bob", player_name="Bob"))
        first = game.act(Begin(actor="ann"))
        later = []
        for _ in range(12):
            batch = game.act(RollChaos(actor=game.state.active or "ann"))
            if any(e["type"] == "roll" and e["table"] == "global" for e in batch):
                later = batch
                break
            if game.state.pending is not None:
                break
            game.act(NextTurn(actor=game.state.active or "ann"))
        if later:
            break
    else:
        raise AssertionError("no seed rolled on the Global twice")
    names = Names.of(game)
    assert f"Directions: {directions}" in "\n".join(render_lines(first, names, width=10_000))
    again = "\n".join(render_lines(later, names, width=10_000))
    assert "Directions:" not in again
    assert any(e["type"] == "roll" and e["table"] == "global" for e in later)


def test_the_console_keeps_its_tree_and_discord_gets_steps() -> None:
    rules = ruleset(
        fixed("chaos", entry("twice", "Roll twice", kind=Kind.MULTI, multi=times(2, "calm"))),
        fixed("calm", entry("calm", "Calm", text="Nothing happens.")),
    )
    game = new_game(rules)
    events = game.act(RollChaos(actor="ann"))
    names = Names.of(game)
    tree = render_lines(events, names)
    assert tree[1].startswith("├─ roll 1/2: calm d2 [")
    assert tree[3].startswith("└─ roll 2/2: calm d2 [")
    top = next(e for e in events if e["type"] == "roll")
    steps = render_lines(events, names, steps=True, titled=top["id"])
    assert steps[0].startswith("chaos d2 [")
    assert steps[0].endswith("→ #1-2")
    assert steps[1].startswith("↳ 1/2 · Calm — calm d2 [")
    assert steps[2] == "\u2003Nothing happens."
    assert steps[3].startswith("↳ 2/2 · Calm — ")
