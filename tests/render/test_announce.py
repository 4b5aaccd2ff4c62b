"""Titles that announce (issue 24, section 2): every action the log can hold has words a games
master would say ("Bob joined", "Turn 3 — Carol"), and none of them echoes the command as typed
("Bob: game join Bob"); a roll's title says what it came to ("Carnival Ride → Life Rotation")."""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any, cast

import pytest

from bot.client.embeds import result_embeds
from bot.engine import (
    Away,
    Back,
    Begin,
    Choose,
    Counter,
    Decline,
    Duration,
    End,
    EndEffect,
    ExtraTurn,
    Fork,
    Game,
    Join,
    Kind,
    Lasts,
    Leave,
    Life,
    MiddleAdd,
    MiddlePlay,
    MultiMode,
    NextTurn,
    Offer,
    Reveal,
    Reverse,
    RollChaos,
    RollGlobal,
    Ruleset,
    Seats,
    SkipTurn,
    Spite,
    Token,
    Undo,
    Veto,
)
from bot.engine.actions import ACTIONS, Action
from bot.engine.events import Event, Roll
from bot.engine.house import HouseRules
from bot.render.announce import ANNOUNCED, announcement, roll_title
from bot.render.lines import describe_action
from bot.render.names import Names
from bot.tables import find_ruleset
from tests.engine.tiny import entry, faces, fixed, ruleset, times

# Stack item 3 is the game's second roll, R2, as players count (GameState.roll_numbers).
NAMES = Names({"ann": "Ann", "bob": "Bob", "cy": "Cy"}, roll_numbers={3: 2})
# A value for every field an action may have, as a player would give it.
SAMPLE: dict[str, Any] = {
    "player_name": "Bob",
    "order": ("bob", "ann"),
    "table": "vortex",
    "extra": False,
    "player": "bob",
    "reason": "life",
    "option": "12",
    "override": False,
    "effect": 2,
    "card": 1,
    "mode": "lose",
    "amount": 3,
    "turns": 2,
}


def sample(cls: type[Action]) -> Action:
    given = {f.name: SAMPLE[f.name] for f in fields(cls) if f.name in SAMPLE and f.init}
    return cls(actor="ann", **given)


def logged(action: dict[str, Any]) -> list[Event]:
    return [cast(Event, {"type": "action", "seq": 1, "action": action})]


def test_every_action_the_log_holds_has_words_of_its_own() -> None:
    assert {*ACTIONS, "game start"} == ANNOUNCED


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_no_title_echoes_the_command(name: str) -> None:
    action = sample(ACTIONS[name]).to_json()
    said = announcement(logged(action), NAMES)
    assert said is not None
    typed = describe_action(action, NAMES)
    assert typed not in said
    assert not re.match(r"^[^ ]+: ", said), said  # not "Ann: ..."
    if " " in name:  # the command's words, as words ("The game begins" doesn't echo them)
        assert not re.search(rf"\b{name}\b", said, re.IGNORECASE), said
    assert said[:1].isupper() or said.startswith(("E", "M")), said
    assert "`" not in said


def turn_started(turn: int, player: str, extra: bool = False) -> Event:
    return cast(Event, {"type": "turn_started", "turn": turn, "player": player, "extra": extra})


@pytest.mark.parametrize(
    ("action", "events", "said"),
    [
        ({"name": "game join", "actor": "bob", "player_name": "Bob"}, [], "Bob joined"),
        ({"name": "turn next", "actor": "ann"}, [turn_started(3, "cy")], "Turn 3 — Cy"),
        (
            {"name": "turn next", "actor": "ann"},
            [turn_started(4, "cy", extra=True)],
            "Turn 4 — Cy (extra turn)",
        ),
        ({"name": "chaos roll", "actor": "ann"}, [], "Ann rolls chaos"),
        ({"name": "chaos roll", "actor": "ann", "extra": True}, [], "An extra chaos roll for Ann"),
        (
            {"name": "life", "actor": "ann", "player": "bob", "mode": "gain", "amount": 2},
            [],
            "Bob gains 2 life",
        ),
        ({"name": "life", "actor": "ann", "mode": "set", "amount": 7}, [], "Ann is at 7 life"),
        ({"name": "player away", "actor": "cy"}, [], "Cy steps away"),
        (
            {"name": "chaos veto", "actor": "bob"},
            [{"type": "veto_vote", "item": 3, "player": "bob", "votes": 1, "needed": 2}],
            "Bob votes to veto R2 (1 of 2)",
        ),
        (
            {"name": "chaos veto", "actor": "cy"},
            [
                {"type": "veto_vote", "item": 3, "player": "cy", "votes": 2, "needed": 2},
                {"type": "vetoed", "item": 3, "voters": ["bob", "cy"]},
                {"type": "roll", "id": 5, "parent": None, "player": "ann"},
            ],
            "R2 is vetoed — Ann rolls again",
        ),
    ],
)
def test_announcements_read_aloud(action: dict[str, Any], events: list[Event], said: str) -> None:
    assert announcement([*logged(action), *events], NAMES) == said


def roll(roll_id: int, name: str, parent: int | None = None, ignored: bool = False) -> Roll:
    return cast(
        Roll,
        {
            "type": "roll",
            "id": roll_id,
            "parent": parent,
            "ignored": ignored,
            "entry": {"id": name, "name": name},
        },
    )


def test_a_chain_of_single_rolls_names_each_step() -> None:
    rolls = [roll(1, "Carnival Ride"), roll(2, "Life Rotation", parent=1)]
    assert roll_title(rolls, rolls[0]) == "Carnival Ride → Life Rotation"


def test_several_sub_rolls_are_counted_and_ignored_ones_dont_count() -> None:
    rolls = [roll(1, "Grand Tour"), *(roll(n, f"R{n}", parent=1) for n in (2, 3, 4))]
    assert roll_title(rolls, rolls[0]) == "Grand Tour → 3 rolls"
    rolls = [roll(1, "Twice"), roll(2, "Calm", parent=1), roll(3, "Again", 1, ignored=True)]
    assert roll_title(rolls, rolls[0]) == "Twice → Calm"
    assert roll_title(rolls[:1], rolls[0]) == "Twice"


def test_a_long_chain_keeps_its_start_and_end() -> None:
    rolls = [roll(1, "A"), *(roll(n, chr(64 + n), parent=n - 1) for n in range(2, 8))]
    assert roll_title(rolls, rolls[0]) == "A → … → F → G"
    # A chain that ends in several rolls ends with their count.
    rolls += [roll(8, "H", parent=7), roll(9, "I", parent=7)]
    assert roll_title(rolls, rolls[0]) == "A → … → G → 2 rolls"


# A body says what its title doesn't, or nothing (docs/discord.md): every action, played in a
# real game, is shown as the channel sees it and no line of its body only restates the title.

KEEP_ONE = MultiMode.KEEP
REALM = ruleset(
    fixed("chaos", entry("calm", "Calm", text="Nothing happens.")),
    fixed("tokens", entry("t", "A CounterRoll", kind=Kind.TOKEN, token=Token.COUNTER, count=2)),
    fixed("forks", entry("f", "A RollFork", kind=Kind.TOKEN, token=Token.FORK)),
    fixed("offer", entry("o", "Open Skies", offers=(Offer(("chaos",)),))),
    fixed("keep", entry("k", "Keep one", kind=Kind.MULTI, multi=times(2, "two", mode=KEEP_ONE))),
    faces("two", entry("1", "Wax", text="Wax on."), entry("2", "Wane", text="Wax off.")),
    fixed("lasting", entry("g", "Fog", text="No damage.", duration=Duration(Lasts.PERMANENT))),
    life=20,
)
# Words that say where something happens: a title's action happens there already.
PLACES = {"the", "a", "at", "to", "from", "in", "into", "game", "table", "lobby", "middle"}


def seated(rules: Ruleset = REALM, *, begun: bool = True, house: HouseRules | None = None) -> Game:
    game = Game.start(rules, seed=5, host="ann", name="Ann", house=house or HouseRules())
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Join(actor="cy", player_name="Cy"))
    if begun:
        game.act(Begin(actor="ann"))
    return game


def host_rolls(game: Game, table: str) -> None:
    game.act(RollChaos(actor="ann", table=table, referee=True))


def played(name: str) -> tuple[Game, list[Event]]:
    """A game and the events of one `name` action in it, as a table would play it."""
    game = seated(begun=name not in {"game start", "game join", "game begin", "game leave"})
    match name:
        case "game start":
            game = Game.start(REALM, seed=5, host="ann", name="Ann")
            return game, list(game.events)
        case "game join":
            action: Action = Join(actor="dee", player_name="Dee")
        case "game leave":
            game.act(Join(actor="dee", player_name="Dee"))
            action = Leave(actor="dee")
        case "game begin":
            action = Begin(actor="ann")
        case "game end":
            action = End(actor="ann")
        case "chaos roll":
            action = RollChaos(actor="ann")
        case "chaos decline":
            host_rolls(game, "offer")
            action = Decline(actor="ann")
        case "chaos reveal":
            game = seated(find_ruleset("deck").ruleset)
            game.act(RollChaos(actor="ann"))
            action = Reveal(actor="ann")
        case "chaos counter":
            host_rolls(game, "tokens")
            action = Counter(actor="ann")
        case "chaos fork":
            host_rolls(game, "forks")
            action = Fork(actor="ann")
        case "chaos spite":
            action = Spite(actor="bob", reason="poison")
        case "chaos global":
            game = seated(find_ruleset("classic").ruleset)
            action = RollGlobal(actor="ann", referee=True)
        case "chaos choose":
            host_rolls(game, "keep")
            assert game.state.pending is not None
            action = Choose(actor="ann", option=game.state.pending.options[0][0])
        case "chaos veto":
            game = seated(house=HouseRules(veto=True))
            game.act(RollChaos(actor="ann"))
            game.act(Veto(actor="bob"))
            action = Veto(actor="cy")
        case "chaos undo":
            game.act(Life(actor="bob", mode="lose", amount=2))
            action = Undo(actor="ann")
        case "turn next":
            game.act(RollChaos(actor="ann"))
            action = NextTurn(actor="ann")
        case "turn extra":
            action = ExtraTurn(actor="ann", player="bob", referee=True)
        case "turn skip":
            action = SkipTurn(actor="ann", player="cy", referee=True)
        case "turn reverse":
            action = Reverse(actor="ann", referee=True)
        case "turn seats":
            action = Seats(actor="ann", order=("ann", "cy", "bob"))
        case "effects end":
            host_rolls(game, "lasting")
            action = EndEffect(actor="ann", effect=1, by_number=True)
        case "middle add":
            game = seated(find_ruleset("lists").ruleset)
            action = MiddleAdd(actor="ann", card="Fog")
        case "middle play":
            game = seated(find_ruleset("lists").ruleset)
            game.act(MiddleAdd(actor="ann", card="Fog"))
            action = MiddlePlay(actor="ann", card=1, by_number=True)
        case "life":
            action = Life(actor="ann", player="bob", mode="lose", amount=3)
        case "player away":
            action = Away(actor="cy", turns=1)
        case "player back":
            game.act(Away(actor="cy"))
            action = Back(actor="cy")
        case _:
            raise AssertionError(f"no way to play {name!r} yet: teach played() it")
    return game, game.act(action)


def words(text: str) -> set[str]:
    """A line's words as one hears them: "joins" and "joined" alike, "left" as "leave"."""
    stems = {re.sub(r"(ed|es|s)$", "", w) for w in re.findall(r"[a-z0-9]+", text.lower())}
    return {"leav" if stem == "left" else stem for stem in stems}


@pytest.mark.parametrize("name", sorted(ANNOUNCED))
def test_no_body_only_restates_its_title(name: str) -> None:
    game, events = played(name)
    embed = result_embeds(events, game)[0].to_dict()
    title = " ".join(filter(None, (embed.get("author", {}).get("name"), embed.get("title"))))
    for line in embed.get("description", "").splitlines():
        assert words(line) - PLACES - words(title), f"{line!r} only restates {title!r}"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("effects end", "E1 Fog ends"),
        ("middle add", "M1 Fog goes into the middle"),
        ("middle play", "Ann plays M1 Fog"),
    ],
)
def test_titles_name_effects_and_cards_by_the_numbers_players_count(name: str, said: str) -> None:
    """The engine's ids count rolls and offers too (the first card in the middle may be id 4):
    a title names an effect or card as the board and the body do, number and name."""
    game, events = played(name)
    assert announcement(events, Names.of(game)) == said
    assert said in result_embeds(events, game)[0].to_dict()["title"]
