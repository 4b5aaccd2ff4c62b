"""Golden scenarios: scripted games whose whole logs are kept as the expected output.

Like the perft files of a chess engine, each file in ``tests/data/scenarios/`` holds a seed, the
actions of one game and every event they caused. ``test_golden.py`` replays the actions and
demands the same events, so any change in behaviour shows up as a failing test to review.

Regenerate (only after reviewing why the events changed) from the repository root::

    python -m tests.engine.make_golden

Each scenario is a deterministic script over :class:`Driver`: every turn the active player makes
the chaos roll, reveals a face-down card, answers pending choices with the first option, and
passes the turn; the script adds token plays, life changes and the edge it is there to cover.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, cast

from bot.engine import actions as a
from bot.engine.events import Event, Json
from bot.engine.game import Game
from bot.engine.model import Token
from bot.engine.state import Phase, Status
from tests.engine.rulesets import RULESETS

SCENARIOS = Path(__file__).resolve().parents[1] / "data" / "scenarios"
MAX_RESPONSES = 6  # token plays in answer to one roll, at most


class Driver:
    """Plays a game on behalf of everyone at the table, the same way every time."""

    def __init__(
        self,
        ruleset: str,
        seed: int,
        players: tuple[str, ...],
        *,
        life: int | None = None,
        salt: str = "",
    ) -> None:
        self.ruleset = ruleset
        self.seed = seed
        self.players = players
        host = players[0]
        self.game = Game.start(
            RULESETS[ruleset](), seed=seed, host=host, name=host.title(), life=life, salt=salt
        )
        for player in players[1:]:
            self.act(a.Join(actor=player, player_name=player.title()))
        self.act(a.Begin(actor=host))

    @property
    def host(self) -> str:
        return self.players[0]

    @property
    def over(self) -> bool:
        return self.game.state.phase is Phase.ENDED

    def act(self, action: a.Action) -> list[Event]:
        return self.game.act(action)

    def actor(self) -> str:
        """Who acts for the turn: the active player, or the host when nobody is active."""
        return self.game.state.active or self.host

    def answer(self, option: int | str = 0, *, holds: bool = True) -> None:
        """Answer every pending choice: the first option, or (once) the one given; asked whether
        a loss still holds, say `holds`."""
        while self.game.state.pending is not None and not self.over:
            pending = self.game.state.pending
            picked = option if isinstance(option, str) else pending.options[option][0]
            if pending.kind == "loss":
                picked = "yes" if holds else "no"
            self.act(a.Choose(actor=pending.player, option=picked))
            option = 0

    def roll(self) -> None:
        """The turn's chaos roll, the reveal of a face-down card, and the choices they ask for."""
        self.act(a.RollChaos(actor=self.actor()))
        self.answer()
        if self.game.state.face_down is not None:
            self.act(a.Reveal(actor=self.actor()))
            self.answer()

    def respond(self) -> int:
        """Players spend their tokens on the most recent live roll; returns how many they spent.

        In seat order from the active player, someone holding a RollFork copies a roll made by
        someone else; someone holding a CounterRoll counters anything that isn't theirs.
        """
        spent = 0
        for _ in range(MAX_RESPONSES):
            top = self.game.state.live_item()
            if top is None or self.over:
                break
            acted = False
            for player in self.seated_from_active():
                tokens = self.game.state.players[player].tokens
                if top.player == player:
                    continue
                if top.kind != "counter" and tokens.get(Token.FORK.value, 0) > 0:
                    self.act(a.Fork(actor=player))
                elif tokens.get(Token.COUNTER.value, 0) > 0:
                    self.act(a.Counter(actor=player))
                else:
                    continue
                self.answer()
                spent += 1
                acted = True
                break
            if not acted:
                break
        return spent

    def seated_from_active(self) -> list[str]:
        state = self.game.state
        seated = [p.id for p in state.seated() if p.status is Status.PLAYING]
        if state.current in seated:
            i = seated.index(state.current)
            seated = seated[i:] + seated[:i]
        return seated

    def life(self, player: str, mode: Literal["set", "gain", "lose"], amount: int) -> None:
        self.act(a.Life(actor=self.host, player=player, mode=mode, amount=amount))
        self.answer()

    def next_turn(self) -> None:
        self.act(a.NextTurn(actor=self.actor()))

    def turn(self, *, tokens: bool = False) -> None:
        """One ordinary turn: roll, maybe answer with tokens, pass."""
        self.roll()
        if tokens:
            self.respond()
        if not self.over:
            self.next_turn()

    def scenario(self, description: str) -> Json:
        return {
            "description": description,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "players": list(self.players),
            "actions": _plain(self.game.actions),
            "events": _plain(self.game.events),
        }


def _plain(value: Any) -> Any:
    """The value as JSON gives it back (tuples become lists)."""
    return json.loads(json.dumps(value))


def _events_of(driver: Driver, kind: str) -> list[Json]:
    return [cast(Json, e) for e in driver.game.events if e["type"] == kind]


def _check(condition: bool, what: str) -> None:
    """A scenario must cover its edge; if a change in the engine moves it, pick a new script."""
    if not condition:
        raise SystemExit(f"the scenario no longer covers {what}: adjust its script")


# -- the scenarios ------------------------------------------------------------------------------

PLAYERS = ("ann", "bob", "cy")


def twenty_turns(ruleset: str, seed: int, *, life: int | None = None) -> Driver:
    """Twenty turns of ordinary play, with token plays, life changes and a Global or two."""
    driver = Driver(ruleset, seed, PLAYERS, life=life)
    while driver.game.state.turn <= 20 and not driver.over:
        turn = driver.game.state.turn
        driver.roll()
        if turn % 3 == 0:
            driver.respond()
        if turn % 4 == 0 and driver.game.state.players[driver.actor()].life is not None:
            # The seat before the active one takes a little damage; nobody drops out here.
            victim = driver.seated_from_active()[-1]
            driver.life(victim, "lose", 3)
        if turn % 5 == 0 and driver.game.state.players[driver.actor()].life is not None:
            driver.life(driver.actor(), "gain", 2)
        if ruleset != "classic" and turn in (7, 15):
            driver.act(a.RollGlobal(actor=driver.host))  # a referee power: the host rolls it
            driver.answer()
        if ruleset == "deck" and turn == 11:
            global_ = next(e for e in driver.game.state.effects.values() if e.kind == "global")
            driver.act(a.EndEffect(actor=driver.host, effect=global_.id))
        if not driver.over:
            driver.next_turn()
    _check(driver.game.state.turn > 20, "twenty turns")
    return driver


def classic_20(seed: int = 13) -> Json:
    driver = twenty_turns("classic", seed)
    _check(any(e["ignored"] for e in _events_of(driver, "roll")), "an ignored nested multi-roll")
    return driver.scenario("Classic: twenty turns, three players, tokens spent when held.")


def lists_20(seed: int = 2) -> Json:
    driver = twenty_turns("lists", seed, life=20)
    _check(len(_events_of(driver, "list_changed")) >= 3, "list changes")
    return driver.scenario("Lists A-F: twenty turns, three players, Global rolled again twice.")


def deck_20(seed: int = 13) -> Json:
    driver = twenty_turns("deck", seed, life=20)
    shuffles = _events_of(driver, "deck_shuffled")
    _check(any(e["reshuffle"] for e in shuffles), "a reshuffle of the Chaos deck")
    return driver.scenario(
        "Deck: twenty turns, three players; the Chaos deck runs out and is reshuffled,"
        " the Global is replaced twice and ended once by hand."
    )


def classic_tokens_spite(seed: int = 3) -> Json:
    """Play until CounterRoll and RollFork have been traded over one roll, then a spite roll."""
    driver = Driver("classic", seed, PLAYERS)
    exchanged = False
    while not exchanged and driver.game.state.turn <= 40:
        driver.roll()
        exchanged = driver.respond() >= 2
        driver.next_turn()
    _check(exchanged, "a token exchange")
    kinds = {e["kind"] for e in _events_of(driver, "stack")}
    _check({"counter", "fork"} <= kinds or len(_events_of(driver, "countered")) >= 2, "counters")
    driver.roll()
    driver.life("cy", "lose", 25)
    _check(bool(_events_of(driver, "spite_started")), "a spite roll")
    return driver.scenario(
        "Classic: CounterRoll and RollFork traded over one roll, then Cy drops below 1 life"
        " and makes the spite roll, where only a life-gaining result counts."
    )


def lists_list_change(seed: int = 6) -> Json:
    """Play until a roll links from one A-F list to another mid-resolution; then a loss."""
    driver = Driver("lists", seed, PLAYERS)

    def linked() -> bool:
        rolls = _events_of(driver, "roll")
        by_id = {r["id"]: r for r in rolls}
        return any(
            r["parent"] is not None
            and r["table"] in "ABCDEF"
            and by_id[r["parent"]]["table"] != r["table"]
            for r in rolls
        )

    while not linked() and driver.game.state.turn <= 40:
        driver.turn()
    _check(linked(), "a link from one list to another")
    driver.roll()
    driver.act(a.Spite(actor=driver.host, player="bob"))
    _check(bool(_events_of(driver, "spite_started")), "a roll on the Spite list")
    return driver.scenario(
        "Lists A-F: a chaos roll links to another A-F list mid-resolution, so the current list"
        " moves; then Bob loses with two opponents left and rolls on Spite."
    )


def deck_split_spite(seed: int = 2) -> Json:
    """Play until a split card is revealed (a half picked by name), then three losses."""
    driver = Driver("deck", seed, PLAYERS, life=20)
    split = False
    while not split and driver.game.state.turn <= 30:
        driver.act(a.RollChaos(actor=driver.actor()))
        driver.act(a.Reveal(actor=driver.actor()))
        pending = driver.game.state.pending
        if pending is not None and pending.kind == "half":
            split = True
            driver.answer(pending.options[-1][1].lower())  # the second half, by name
        driver.next_turn()
    _check(split, "a split card")
    driver.roll()
    # Below 1 life: Bob spites instead of losing, plays a split card, and stays below 1.
    driver.act(a.Life(actor=driver.host, player="bob", mode="lose", amount=25))
    pending = driver.game.state.pending
    assert pending is not None
    splits = [name for _, name in pending.options if "//" in name]
    _check(bool(splits), "a split card in the spite look")
    driver.answer(splits[0])
    driver.act(a.Spite(actor=driver.host, player="cy", reason="card"))  # a card's effect
    driver.act(a.Life(actor="ann", player="cy", mode="set", amount=0))  # no second spite
    driver.act(a.Life(actor="ann", player="cy", mode="set", amount=4))
    driver.answer(holds=False)  # her card, then: the card's effect no longer makes her lose
    _check(not driver.over, "a spite Cy survives")
    driver.act(a.Spite(actor=driver.host, player="cy"))  # a second loss: Cy is out
    return driver.scenario(
        "Deck: a split card is revealed and its second half picked by name; Bob drops below 1"
        " life and spites a split card but stays below 1, so he is out; Cy spites for a card's"
        " effect (life changes during it don't start another), says the effect no longer holds"
        " and survives, then loses again and is out."
    )


def lists_authority(seed: int = 5) -> Json:
    """One roll a turn and who may roll (issue 9, items 1-4), as a recorded game."""
    driver = Driver("lists", seed, PLAYERS, life=20)
    ann, bob, cy = PLAYERS
    # The host rolls on a named list first: it isn't the turn's roll and leaves the list alone.
    driver.act(a.RollChaos(actor=ann, table="F"))
    driver.answer()
    _check(driver.game.state.current_list is None, "a named-list roll that moves nothing")
    driver.roll()  # the game's first chaos roll, on List A
    driver.act(a.RollChaos(actor=ann, extra=True))  # the host asks for an extra roll
    driver.answer()
    driver.next_turn()
    # Bob's turn: the host steps away; Bob rolls and passes; the host is passed over.
    driver.act(a.Away(actor=ann))
    driver.turn()
    _check(driver.game.state.active == cy, "the away host passed over")
    # Cy steps away on her own turn: it ends with no active player and no chaos roll.
    driver.act(a.Away(actor=cy))
    driver.act(a.NextTurn(actor=bob))
    driver.act(a.Back(actor=ann))
    driver.act(a.Back(actor=cy))
    while driver.game.state.turn <= 6 and not driver.over:
        driver.turn()
    purposes = [e["purpose"] for e in _events_of(driver, "stack")]
    _check({"list", "extra", "turn", "global"} <= set(purposes), "every purpose of a roll")
    return driver.scenario(
        "Lists A-F: the host rolls on F (not the turn's roll, the list stays), then the turn's"
        " roll on A and an extra roll; the host steps away and is passed over; Cy steps away on"
        " her own turn, which Bob ends with no chaos roll; both come back."
    )


SCRIPTS: dict[str, Callable[[], Json]] = {
    "classic-20": classic_20,
    "lists-20": lists_20,
    "deck-20": deck_20,
    "classic-tokens-spite": classic_tokens_spite,
    "lists-list-change": lists_list_change,
    "deck-split-spite": deck_split_spite,
    "lists-authority": lists_authority,
}


def dumps(scenario: Json) -> str:
    """A scenario as JSON with one action or event a line, so a diff reads event by event."""
    lines = ["{"]
    for key, value in scenario.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = [json.dumps(item, sort_keys=True) for item in value]
            lines.append(f"  {json.dumps(key)}: [")
            lines.extend(f"    {item}," for item in items[:-1])
            lines.append(f"    {items[-1]}")
            lines.append("  ],")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines[-1] = lines[-1].rstrip(",")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    SCENARIOS.mkdir(parents=True, exist_ok=True)
    for name, script in SCRIPTS.items():
        scenario = script()
        path = SCENARIOS / f"{name}.json"
        path.write_text(dumps(scenario), encoding="utf-8")
        print(f"{path}: {len(scenario['actions'])} actions, {len(scenario['events'])} events")


if __name__ == "__main__":
    main()
