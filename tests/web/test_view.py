"""The page's view of a game (bot.web.view): pure, from real rulesets and real games."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine import actions as a
from bot.engine.game import Game
from bot.render import Names, remaining
from bot.render.cards import card_image_url
from bot.tables import find_ruleset
from bot.web import view as page
from bot.web.view import build_view


def begun(ruleset: str, seed: int = 3, life: int | None = None, players: int = 2) -> Game:
    game = Game.start(find_ruleset(ruleset).ruleset, seed=seed, host="ann", name="Ann", life=life)
    for pid, name in (("bob", "Bob"), ("cy", "Cy"))[: players - 1]:
        game.act(a.Join(actor=pid, player_name=name))
    game.act(a.Begin(actor="ann"))
    return game


def view_of(game: Game, layout: page.Layout = "full") -> dict[str, Any]:
    built = build_view(game, game_id=1, version=game.seq, layout=layout)
    json.dumps(built)  # plain JSON values only
    return built


def nested() -> Game:
    """A classic game whose latest chaos roll made rolls under it."""
    for seed in range(1, 400):
        game = begun("classic", seed=seed)
        events = game.act(a.RollChaos(actor="ann"))
        if any(e["type"] == "roll" and e["parent"] is not None for e in events):
            return game
    raise AssertionError("no seed below 400 nests a roll")


def test_the_latest_roll_comes_with_its_tree() -> None:
    game = nested()
    rolls = [e for e in game.events if e["type"] == "roll"]
    root = next(r for r in reversed(rolls) if r["parent"] is None)
    roll = view_of(game)["roll"]
    assert (roll["id"], roll["entry"], roll["player"]) == (root["id"], root["entry"]["name"], "Ann")
    assert roll["dice"].endswith(f"= {root['result']}")
    assert roll["table"] == "Chaos List"

    def ids(node: dict[str, Any]) -> set[int]:
        return {node["id"]}.union(*(ids(child) for child in node["children"]))

    under = {r["id"] for r in rolls if r["id"] > root["id"]}
    assert roll["children"]
    assert ids(roll) == {root["id"]} | under
    for child in roll["children"]:
        parent = next(r for r in rolls if r["id"] == child["id"])["parent"]
        assert parent == root["id"]
    assert roll["lines"][0].startswith(f"Ann rolls Chaos List {roll['dice']}")


def test_an_undone_roll_gives_way_to_the_one_before() -> None:
    game = begun("lists")
    start_roll = view_of(game)["roll"]
    assert start_roll["table"] == "Global"  # the start roll
    game.act(a.RollChaos(actor="ann"))
    assert view_of(game)["roll"]["id"] != start_roll["id"]
    game.act(a.Undo(actor="ann"))
    assert view_of(game)["roll"]["id"] == start_roll["id"]
    log = view_of(game)["log"]
    assert [entry["undone"] for entry in log[-2:]] == [True, False]
    assert log[-1]["lines"][0] == "» Ann: chaos undo"


def test_seats_show_life_tokens_who_is_active_and_who_is_away() -> None:
    game = begun("classic", life=20, players=3)
    game.act(a.Away(actor="cy", player="cy", turns=2))
    game.act(a.Life(actor="ann", player="bob", mode="lose", amount=3))
    seats = view_of(game)["seats"]
    assert [(s["name"], s["active"], s["host"], s["life"]) for s in seats] == [
        ("Ann", True, True, 20),
        ("Bob", False, False, 17),
        ("Cy", False, False, 20),
    ]
    assert seats[2]["status"] == "away"
    assert seats[2]["marks"] == ["away (2 turns)"]
    tokens = {s["name"]: s["tokens"] for s in seats}
    assert {t["name"] for t in tokens["Ann"]} <= {"CounterRoll", "RollFork"}


def test_effects_say_how_long_they_last_and_the_global_comes_first() -> None:
    for seed in range(1, 200):
        game = begun("lists", seed=seed)
        game.act(a.RollChaos(actor="ann"))
        if any(e.kind == "effect" for e in game.state.effects.values()):
            break
    effects = view_of(game)["effects"]
    assert effects[0]["kind"] == "global"
    assert effects[0]["label"] == "E1"  # the start roll's Global, the game's first effect
    assert effects[0]["lasts"] == "the Global"
    timed = [e for e in effects if e["kind"] == "effect"]
    assert timed
    for shown in timed:
        effect = game.state.effects[shown["id"]]
        # As everywhere: #N is an entry number, and effects are counted E1, E2, … (issue 24).
        assert shown["label"] == f"E{effect.number}"
        assert shown["owner"] == "Ann"
        assert shown["lasts"] == remaining(effect, Names.of(game))


def test_the_middle_and_the_chaos_source() -> None:
    game = begun("lists")
    game.act(a.MiddleAdd(actor="ann", card="Lightning Bolt"))
    view = view_of(game)
    assert view["middle"]["title"] == "The middle world"
    assert [c["name"] for c in view["middle"]["cards"]] == ["Lightning Bolt"]
    assert view["middle"]["cards"][0]["card"] == "Lightning Bolt"  # for its picture
    assert view["middle"]["cards"][0]["image"] == card_image_url("Lightning Bolt")
    assert view["chaos"] == {
        "kind": "lists",
        "current": "List A",
        "lines": ["Current list: List A"],
        "face_down": False,
    }
    assert view_of(begun("classic"))["middle"] is None
    deck = begun("deck")
    deck.act(a.RollChaos(actor="ann"))
    chaos = view_of(deck)["chaos"]
    assert chaos["face_down"] is True
    assert chaos["lines"][0].startswith("Chaos deck: ")


def test_a_lobby_has_seats_and_no_roll() -> None:
    game = Game.start(find_ruleset("deck").ruleset, seed=3, host="ann", name="Ann")
    game.act(a.Join(actor="bob", player_name="Bob"))
    view = view_of(game)
    assert view["phase"] == "lobby"
    assert view["headline"] == "Chaos Deck: waiting for the game to begin."
    assert [s["name"] for s in view["seats"]] == ["Ann", "Bob"]
    assert (view["roll"], view["active"], view["chaos"]["lines"]) == (None, None, [])


def test_the_overlay_leaves_out_the_log_and_the_full_page_keeps_the_latest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = begun("classic")
    for _ in range(5):
        game.act(a.RollChaos(actor="ann", extra=True))
    assert "log" not in view_of(game, "overlay")
    full = view_of(game)
    assert [entry["seq"] for entry in full["log"]] == list(range(game.seq))
    assert full["log_left_out"] == 0
    monkeypatch.setattr(page, "LOG_ACTIONS", 3)
    short = view_of(game)
    assert [entry["seq"] for entry in short["log"]] == [game.seq - 3, game.seq - 2, game.seq - 1]
    assert short["log_left_out"] == game.seq - 3


def test_a_roll_that_names_a_real_card_carries_its_picture() -> None:
    """Classic entries with a `card:` name a real Magic card: the page shows Scryfall's
    picture of it; a result without one has none."""
    seen: dict[bool, dict[str, Any]] = {}
    for seed in range(60):
        game = begun("classic", seed=seed)
        game.act(a.RollChaos(actor="ann"))
        roll = view_of(game)["roll"]
        entry = next(
            e for e in game.ruleset.tables[roll_table(game)].entries if e.name == roll["entry"]
        )
        seen.setdefault(bool(entry.card), roll)
        if len(seen) == 2:
            break
    assert seen[True]["card"]
    assert seen[True]["image"] == card_image_url(seen[True]["card"])
    assert seen[False]["card"] is None
    assert seen[False]["image"] is None


def roll_table(game: Game) -> str:
    """The list of the last action's first roll (the one the page shows)."""
    last = max(i for i, e in enumerate(game.events) if e["type"] == "action")
    return next(e["table"] for e in game.events[last:] if e["type"] == "roll")
