"""Rendering real events from real games: rolls, trees, reasons, and the status board."""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Callable, Iterator

import pytest

from bot.engine import (
    Action,
    Away,
    Begin,
    Choose,
    Counter,
    Event,
    Game,
    Join,
    Life,
    MiddleAdd,
    NextTurn,
    Reveal,
    RollChaos,
    Ruleset,
    Undo,
)
from bot.engine.errors import ChaosError
from bot.engine.events import Roll
from bot.render import Names, render_events, render_lines, render_status
from bot.tables import find_ruleset
from tests.engine import rulesets
from tests.engine.test_tokens import classic_tokens, stocked

Batch = list[Event]


def new_game(ruleset: Ruleset, seed: int, players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> Game:
    game = Game.start(ruleset, seed=seed, host=players[0].lower(), name=players[0])
    for name in players[1:]:
        game.act(Join(actor=name.lower(), player_name=name))
    return game


def act(game: Game, action: Action) -> str:
    events = game.act(action)
    return render_events(events, Names.of(game))


def turns(ruleset: Ruleset, seed: int, count: int = 8) -> Iterator[tuple[Game, Batch]]:
    """Play `count` turns, yielding each chaos roll's events; choices take the first option."""
    game = new_game(ruleset, seed)
    game.act(Begin(actor="ann"))
    for _ in range(count):
        active = game.state.active
        assert active is not None
        events = game.act(RollChaos(actor=active))
        if game.state.face_down is not None:
            events += game.act(Reveal(actor=active))
        yield game, events
        while game.state.pending is not None:
            pending = game.state.pending
            game.act(Choose(actor=pending.player, option=pending.options[0][0]))
        game.act(NextTurn(actor=active))


def find_batch(ruleset: Ruleset, wanted: Callable[[Batch], bool]) -> tuple[Game, Batch]:
    for seed in range(500):
        for game, events in turns(ruleset, seed):
            if wanted(events):
                return game, events
    raise AssertionError("no seed produced the events wanted")


def rolls(events: Batch) -> list[Roll]:
    return [e for e in events if e["type"] == "roll"]


def test_a_roll_shows_its_list_dice_faces_entry_and_text() -> None:
    game = new_game(find_ruleset("classic").ruleset, seed=1)  # an entry of one number
    game.act(Begin(actor="ann"))
    text = act(game, RollChaos(actor="ann"))
    roll = next(e for e in game.events[::-1] if e["type"] == "roll")
    assert roll["type"] == "roll"
    tens, units = roll["dice"]
    first = text.splitlines()[0]
    assert first.startswith("Ann rolls Chaos List d20×d10 ")
    assert f"[{tens}, {units}] = {roll['result']}" in first
    assert first.endswith(f"→ #{roll['result']} {roll['entry']['name']}")
    assert roll["text"][:40] in text


def test_start_roll_and_turn_lines() -> None:
    game = new_game(find_ruleset("classic").ruleset, seed=3)
    lines = act(game, Begin(actor="ann")).splitlines()
    assert lines[0] == "Seats are locked: Ann, Bob, Cy."
    assert re.fullmatch(r"Ann rolls EnchantWorldLand d20 \[\d+\] = \d+ → #\d+ .+", lines[1])
    assert any("stays in play as a world enchantment" in line for line in lines)
    assert lines[-1] == "── Turn 1 — Ann ──"
    game.act(RollChaos(actor="ann"))
    assert "── Turn 2 — Bob ──" in act(game, NextTurn(actor="ann"))


def test_nested_rolls_are_drawn_as_a_tree() -> None:
    game, events = find_batch(
        rulesets.classic(),
        lambda ev: max((r["depth"] for r in rolls(ev)), default=0) >= 2,
    )
    lines = render_lines(events, Names.of(game))
    roll_lines = [line for line in lines if " → #" in line]
    assert not roll_lines[0].startswith(("├", "└", "│", " "))
    depths = [r["depth"] for r in rolls(events)]
    for line, depth in zip(roll_lines, depths, strict=True):
        marker = re.search(r"[├└]─ ", line)
        if depth == 0:
            assert marker is None
        else:
            assert marker is not None
            assert marker.start() == 3 * (depth - 1), line
    # The last roll of each multi-roll closes its branch.
    last_child = {r["parent"]: r["id"] for r in rolls(events) if r["parent"] is not None}
    for roll, line in zip(rolls(events), roll_lines, strict=True):
        if roll["parent"] is not None:
            closing = last_child[roll["parent"]] == roll["id"]
            assert ("└─ " in line) == closing, line


def test_an_ignored_roll_says_why_and_the_slot_is_rolled_again() -> None:
    game, events = find_batch(rulesets.classic(), lambda ev: any(r["ignored"] for r in rolls(ev)))
    text = render_events(events, Names.of(game))
    ignored = next(r for r in rolls(events) if r["ignored"])
    line = next(line for line in text.splitlines() if "✗ ignored" in line)
    assert f"roll {ignored['slot']}:" in line
    assert "asks for several rolls" in line
    assert "rolled again" in line
    assert sum(f"roll {ignored['slot']}:" in x for x in text.splitlines()) >= 2


def test_a_keep_choice_lists_numbered_options() -> None:
    game, events = find_batch(
        rulesets.classic(), lambda ev: any(e["type"] == "choice_offered" for e in ev)
    )
    text = render_events(events, Names.of(game))
    offered = next(e for e in events if e["type"] == "choice_offered")
    assert offered["type"] == "choice_offered"
    assert "`chaos choose N`" in text
    for n, option in enumerate(offered["options"], 1):
        assert f"   {n}) {option['name']}" in text
    player = offered["player"]
    picked = act(game, Choose(actor=player, option=offered["options"][-1]["id"]))
    assert f"chooses {offered['options'][-1]['name']}" in picked


def test_effects_show_when_they_start_and_end_and_why() -> None:
    game, events = find_batch(
        rulesets.classic(),
        lambda ev: any(e["type"] == "effect_started" and e["kind"] == "effect" for e in ev),
    )
    started = next(e for e in events if e["type"] == "effect_started" and e["kind"] == "effect")
    assert started["type"] == "effect_started"
    text = render_events(events, Names.of(game))
    number = game.state.effect_numbers[started["id"]]  # as people count them (issue 24)
    assert f"+ E{number} {started['name']} (effect, " in text
    ended = ""
    while started["id"] in game.state.effects:
        active = game.state.active
        assert active is not None
        ended += act(game, NextTurn(actor=active, override=True, referee=True))
    assert re.search(rf"− E{number} {re.escape(started['name'])} ends: .+\.", ended)


def test_a_face_down_card_stays_secret_until_revealed() -> None:
    game = new_game(find_ruleset("deck").ruleset, seed=5)
    begun = act(game, Begin(actor="ann"))
    assert "The Chaos deck is shuffled (" in begun
    assert "'s card from the Global deck: " in begun
    drawn = act(game, RollChaos(actor="ann"))
    assert face_down_card(game) not in drawn
    assert "draws a chaos card face down" in drawn
    card = face_down_card(game)
    revealed = act(game, Reveal(actor="ann"))
    assert f"Ann's card from the Chaos deck: {card}" in revealed


def face_down_card(game: Game) -> str:
    assert game.state.face_down is not None
    deck, card, _, _ = game.state.face_down
    return game.ruleset.decks[deck].card(card).name


def test_life_spite_and_player_out_are_told() -> None:
    game = new_game(find_ruleset("classic").ruleset, seed=3)
    game.act(Begin(actor="ann"))
    text = act(game, Life(actor="ann", player="bob", mode="lose", amount=25))
    assert (
        "Bob: -5 life (-25, lose by Ann).\nBob: 0 life (+5, healed to 0 before the spite roll)."
        in text
    )
    assert "Bob would lose, and gets a spite: one roll on the Chaos List" in text
    assert "Bob rolls Chaos List" in text
    assert ("Bob is out: " in text) != ("Bob survives the spite" in text)


def test_undo_is_told_with_what_it_took_back() -> None:
    game = new_game(rulesets.classic(), seed=3)
    game.act(Begin(actor="ann"))
    game.act(RollChaos(actor="ann"))
    assert act(game, Undo(actor="ann")) == "Undone: chaos roll (by Ann)."


def test_a_counterroll_is_granted_played_and_told() -> None:
    def grants_counter(events: Batch) -> bool:
        return any(
            e["type"] == "tokens" and e["token"] == "counter_roll" and e["delta"] > 0
            for e in events
        )

    game, events = find_batch(rulesets.classic(), grants_counter)
    granted = render_events(events, Names.of(game))
    holder = next(e for e in events if e["type"] == "tokens")
    assert holder["type"] == "tokens"
    who = game.state.players[holder["player"]].name
    assert f"+ {who} gets a CounterRoll." in granted
    target = game.state.live_item()
    assert target is not None
    name = Names.of(game).items[target.id]
    lines = act(game, Counter(actor=holder["player"])).splitlines()
    assert lines[:3] == [
        f"− {who} spends a CounterRoll.",
        f"{who} plays a CounterRoll on {game.state.roll_ref(target.id)} {name}.",
        f"{game.state.roll_ref(target.id)} {name} is countered.",
    ]


def test_every_event_of_long_games_renders(every_ruleset: Ruleset) -> None:
    """Any event of any ruleset renders to text without a None or a raw id left in it."""
    for seed in range(6):
        game = new_game(every_ruleset, seed)
        game.act(Begin(actor="ann"))
        for turn, _ in enumerate(turns_of(game)):
            if turn == 3:
                _try(game, Away(actor="cy", turns=1))
                _try(game, MiddleAdd(actor="ann", card="Black Lotus"))
            if turn == 6:
                _try(game, Life(actor="ann", player="bob", mode="set", amount=0))
        text = render_events(game.events, Names.of(game))
        assert not re.search(r"\bNone\b(?! of)", text)  # a card may say "None of them"
        status = render_status(game.state, game.ruleset)
        assert "None" not in status


def turns_of(game: Game, count: int = 12) -> Iterator[int]:
    for turn in range(count):
        active = game.state.active
        if active is None or game.state.phase != "playing":
            return
        _try(game, RollChaos(actor=active))
        _try(game, Reveal(actor=active))
        _choose(game)
        yield turn
        _choose(game)
        if game.state.phase == "playing":
            game.act(NextTurn(actor=game.state.host, override=True))


def _choose(game: Game) -> None:
    while game.state.pending is not None:
        pending = game.state.pending
        game.act(Choose(actor=pending.player, option=pending.options[-1][0]))


def _try(game: Game, action: Action) -> None:
    with contextlib.suppress(ChaosError):
        game.act(action)


@pytest.fixture(
    params=["classic", "lists", "deck", "test-classic", "test-lists", "test-deck"],
)
def every_ruleset(request: pytest.FixtureRequest) -> Ruleset:
    name: str = request.param
    if name.startswith("test-"):
        made: Ruleset = getattr(rulesets, name.removeprefix("test-"))()
        return made
    return find_ruleset(name).ruleset


# -- the status board --------------------------------------------------------------------------


def test_status_in_the_lobby_says_how_to_begin() -> None:
    game = new_game(find_ruleset("classic").ruleset, seed=1)
    board = render_status(game.state, game.ruleset)
    assert "waiting to begin" in board
    assert "Ann (host), Bob, Cy" in board
    assert "`game begin`" in board


def test_status_board_shows_seats_turn_effects_and_the_roll() -> None:
    game = new_game(find_ruleset("classic").ruleset, seed=3)
    game.act(Begin(actor="ann"))
    board = render_status(game.state, game.ruleset)
    assert board.startswith("Classic Chaos · turn 1 · Ann's turn — roll chaos (`chaos roll`).")
    lines = board.splitlines()
    seats = [line for line in lines if re.match(r" [▶ ] \w", line)]
    assert seats[0].startswith(" ▶ Ann")
    assert "20 life" in seats[1]
    world = next(iter(game.state.effects.values()))
    assert f"E1 {world.name} (world enchantment)" in board  # the game's first effect
    game.act(RollChaos(actor="ann"))
    game.act(Away(actor="cy", player="cy", turns=2))
    board = render_status(game.state, game.ruleset)
    assert board.startswith("Classic Chaos · turn 1 · Ann's turn — chaos done (`turn next`).")
    assert re.search(r"Cy +20 life {2}\[away \(2 turns\)\]", board)


def test_status_board_shows_the_current_list_the_middle_and_timed_effects() -> None:
    ruleset = find_ruleset("lists").ruleset
    for seed in range(100):
        game = new_game(ruleset, seed)
        game.act(Begin(actor="ann"))
        game.act(RollChaos(actor="ann"))
        timed = [e for e in game.state.effects.values() if e.kind == "effect"]
        if timed:
            break
    else:
        raise AssertionError("no timed effect in 100 seeds")
    game.act(MiddleAdd(actor="bob", card="Black Lotus"))
    board = render_status(game.state, game.ruleset)
    assert "Current list: List A" in board
    assert "the Global)" in board
    effect = timed[0]
    assert f"E{effect.number} {effect.name} (Ann's, " in board
    assert "M1 Black Lotus (from Bob, turn 1)" in board  # the middle's first card
    assert "The middle world:" in board
    assert "Black Lotus (from Bob, turn 1)" in board


def test_status_board_shows_deck_counts_and_a_pending_choice() -> None:
    game, _ = find_batch(
        find_ruleset("deck").ruleset, lambda ev: any(e["type"] == "choice_offered" for e in ev)
    )
    board = render_status(game.state, game.ruleset)
    assert re.search(r"Chaos deck: \d+ to draw, \d+ discarded", board)
    assert re.search(r"Global deck: \d+ to draw", board)
    assert "Waiting for " in board
    assert "1) " in board


def test_a_deck_game_speaks_of_its_chaos_card_not_a_roll() -> None:
    game = new_game(find_ruleset("deck").ruleset, seed=5)
    game.act(Begin(actor="ann"))
    board = render_status(game.state, game.ruleset)
    assert "Ann's turn — draw a chaos card (`chaos roll`)." in board
    assert "roll chaos" not in board
    act(game, RollChaos(actor="ann", extra=True, referee=True))
    revealed = act(game, Reveal(actor="ann"))
    assert "An extra chaos card for Ann (it isn't the turn's chaos card):" in revealed
    waived = act(game, NextTurn(actor="ann", override=True, referee=True))
    assert "Turn 1 ends without its chaos card (waived by Ann)." in waived
    assert "roll" not in waived.split("waived")[0]


def test_status_board_marks_players_who_are_out_and_the_end() -> None:
    game = new_game(find_ruleset("lists").ruleset, seed=2, players=("Ann", "Bob"))
    game.act(Begin(actor="ann"))
    game.act(Life(actor="ann", player="bob", mode="set", amount=0))
    board = render_status(game.state, game.ruleset)
    assert board.startswith("Chaos Lists A–F: Game over after 1 turn — Ann won.")
    assert re.search(r"Bob +0 life {2}\[out\]", board)


@pytest.mark.parametrize(("name", "shown"), [("classic", False), ("deck", True)])
def test_spite_used_is_marked_only_where_spite_is_once_a_game(name: str, shown: bool) -> None:
    game = new_game(find_ruleset(name).ruleset, seed=3)
    game.act(Begin(actor="ann"))
    game.state.players["bob"].spited = True  # as after a spite Bob survived
    assert ("spite used" in render_status(game.state, game.ruleset)) is shown


def test_a_supplementary_list_shows_its_directions_with_its_roll_once() -> None:
    """The lists rules text says each supplementary list is read by its own directions, shown
    with the roll; lists A to F, which every turn rolls on, don't repeat theirs."""
    ruleset = find_ruleset("lists").ruleset
    game, events = find_batch(
        ruleset,
        lambda batch: any(r["table"] == "vortex" and not r["ignored"] for r in rolls(batch)),
    )
    text = render_events(events, Names.of(game))
    vortex = ruleset.tables["vortex"].directions
    supplementary = {r["table"] for r in rolls(events) if not r["ignored"]} - set(ruleset.lists)
    assert text.count("Directions: ") == len(supplementary)
    flat = " ".join(text.replace("│", " ").split())  # a nested roll's lines start with │
    assert flat.count(f"Directions: {vortex}") == 1
    for letter in ruleset.lists:
        assert ruleset.tables[letter].directions.split(".")[0] not in text
    classic = new_game(find_ruleset("classic").ruleset, seed=3)
    assert "Directions:" not in act(classic, Begin(actor="ann"))


def test_the_log_shows_a_choice_by_the_option_picked_not_its_roll_id() -> None:
    ruleset = find_ruleset("classic").ruleset
    game, _ = find_batch(ruleset, lambda batch: any(e["type"] == "choice_offered" for e in batch))
    pending = game.state.pending
    assert pending is not None
    option, name = pending.options[1]
    game.act(Choose(actor=pending.player, option=option))
    log = render_events(game.events[-8:], Names.of(game), actions=True)
    who = Names.of(game).player(pending.player)
    assert f"» {who}: chaos choose {name}" in log.splitlines()
    assert f"chaos choose {option}" not in log


def test_a_counter_of_a_counter_says_whose_counter_it_was() -> None:
    """It used to print a bare "#8 is countered"."""
    game = stocked(classic_tokens(), ann=(1, 0), bob=(1, 0))
    rolled = game.act(RollChaos(actor="ann"))
    fog = next(e["item"] for e in rolled if e["type"] == "stack")
    countered = game.act(Counter(actor="bob"))
    bobs = next(e["item"] for e in countered if e["type"] == "stack")
    text = act(game, Counter(actor="ann"))
    # Rolls and counters are numbered as they go on the stack, whatever their ids.
    first = game.state.roll_numbers[fog]
    assert game.state.roll_numbers[bobs] == first + 1
    assert text.splitlines()[1:4] == [
        f"Ann plays a CounterRoll on R{first + 1} (Bob's CounterRoll).",
        f"R{first + 1} (Bob's CounterRoll) is countered.",
        f"R{first} Fog stands again.",
    ]


@pytest.mark.parametrize(
    ("ruleset", "spite_table", "banner"),
    [
        (
            "classic",
            "chaos",
            "one roll on the Chaos List, where only a result that gains life counts",
        ),
        (
            "classic",
            "wacky",
            "one roll on the WackyLand list, where only a result that gains life counts",
        ),
        ("lists", "spite", "a roll on the Spite list"),
        ("deck", None, "a look at the top of the Chaos deck, to play one card face up"),
    ],
)
def test_the_spite_banner_names_the_list_actually_rolled(
    ruleset: str, spite_table: str | None, banner: str
) -> None:
    rules = find_ruleset(ruleset).ruleset
    if spite_table is not None:
        rules = dataclasses.replace(rules, spite_table=spite_table)
    game = new_game(rules, seed=1)
    game.act(Begin(actor="ann"))
    policy = rules.spite.value
    event: Event = {"type": "spite_started", "player": "bob", "policy": policy}
    assert render_events([event], Names.of(game)) == f"Bob would lose, and gets a spite: {banner}."
