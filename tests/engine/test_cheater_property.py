"""Whatever players without referee powers do, the game stays whole (issue 9, red team).

Hypothesis plays random sequences of every action a player can send, by the three players who
are not the host (some with the guild's turn powers), over a tiny classic-like ruleset whose
lists each do one thing: an extra turn, a skip, a reversal, an absence, life, tokens, a Global, a
lasting effect, an offered roll, a "roll twice, keep one". Whatever happens:

- every refusal is a ChaosError (a sentence), never another exception;
- after each action the state is the fold of the log;
- a turn has at most one turn roll, and nothing only a referee may ask for happens;
- a player who is out stays out, owns no effect and no offer, and is never active;
- nobody holds fewer than no tokens;
- at the end, replaying the actions rebuilds the same log.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Action,
    Away,
    Back,
    ChaosError,
    Choose,
    Counter,
    Duration,
    EndEffect,
    ExtraTurn,
    Fork,
    Game,
    Kind,
    Lasts,
    Leave,
    Life,
    LifeGain,
    MultiMode,
    NextTurn,
    Offer,
    Reverse,
    RollChaos,
    RollGlobal,
    Ruleset,
    SkipTurn,
    Spite,
    SpitePolicy,
    Token,
    TurnChange,
    Undo,
    fold,
    parse_expr,
)
from bot.engine.state import Status
from tests.engine.tiny import (
    assert_consistent,
    entry,
    faces,
    fixed,
    new_game,
    of_type,
    ruleset,
    times,
)

PLAYERS = ("ann", "bob", "cy", "dan")  # Ann hosts; the others act
# Ann, the host, only plays her own turns as any player would: the turn's roll, then its end.
HOST_PLAYS = Back(actor="ann", player="nobody")
LISTS = ("extra", "skip", "reverse", "away", "gain", "ask", "grant", "fork", "global", "fog")


def rules() -> Ruleset:
    """The chaos list is a d4 over the other lists' results, so turn rolls vary too."""
    results = {
        "extra": entry("x", "Extra turn", turn=TurnChange.EXTRA),
        "skip": entry("s", "Skip", turn=TurnChange.SKIP),
        "reverse": entry("r", "Reverse", turn=TurnChange.REVERSE),
        "away": entry("a", "Leave until your next turn", turn=TurnChange.AWAY),
        "gain": entry("g", "Gain 5", gains_life=True, life=LifeGain(amount=parse_expr("5"))),
        "ask": entry("q", "Gain some", gains_life=True, life=LifeGain()),
        "grant": entry("c", "2 CounterRolls", kind=Kind.TOKEN, token=Token.COUNTER, count=2),
        "fork": entry("f", "A RollFork", kind=Kind.TOKEN, token=Token.FORK),
        "global": entry("gl", "A Global", kind=Kind.GLOBAL, text="Rule."),
        "fog": entry("fog", "Fog", duration=Duration(Lasts.NEXT_TURN), text="No damage."),
    }
    portal = entry("p", "Portal", offers=(Offer(("grant",)), Offer(("extra", "skip"))))
    twice = entry("t", "Roll twice, keep one", multi=times(2, "gain", mode=MultiMode.KEEP))
    chaos = faces("chaos", results["grant"], portal, twice, results["fog"])
    tables = [fixed(name, item) for name, item in results.items()]
    rules = ruleset(chaos, *tables, life=20)
    return replace(rules, spite=SpitePolicy.LIFE_GAIN_ROLL, spite_table="chaos")


RULES = rules()
# "@" stands for the active player when that is not the host (a player acting on their turn).
ACTORS = st.sampled_from((*PLAYERS[1:], "@", "@", "@"))
CHOOSERS = st.sampled_from((*PLAYERS[1:], "?", "?"))  # "?": the player the choice is put to
ANYONE = st.sampled_from((*PLAYERS, None))
POWERS = st.booleans()


def _move() -> st.SearchStrategy[Action]:
    return st.one_of(
        st.builds(lambda p, t: RollChaos(actor=p, turn_powers=t), ACTORS, POWERS),
        st.builds(
            lambda p, t, table: RollChaos(actor=p, turn_powers=t, table=table),
            ACTORS,
            POWERS,
            st.sampled_from(LISTS),
        ),
        st.builds(lambda p: RollChaos(actor=p, extra=True), ACTORS),
        st.builds(lambda p, t: RollGlobal(actor=p, turn_powers=t), ACTORS, POWERS),
        st.builds(lambda p: Counter(actor=p), ACTORS),
        st.builds(lambda p: Fork(actor=p), ACTORS),
        # "#N" stands for the open choice's Nth option.
        *[
            st.builds(
                lambda p, o: Choose(actor=p, option=o), CHOOSERS, st.sampled_from(("#0", "#1"))
            )
        ]
        * 3,
        st.builds(lambda p: Choose(actor=p, option="7 life"), ACTORS),
        st.builds(lambda p, o: NextTurn(actor=p, override=o), ACTORS, st.booleans()),
        st.builds(
            lambda p, q, t: ExtraTurn(actor=p, player=q, turn_powers=t), ACTORS, ANYONE, POWERS
        ),
        st.builds(
            lambda p, q, t: SkipTurn(actor=p, player=q, turn_powers=t), ACTORS, ANYONE, POWERS
        ),
        st.builds(lambda p, t: Reverse(actor=p, turn_powers=t), ACTORS, POWERS),
        st.builds(lambda p, n: EndEffect(actor=p, effect=n), ACTORS, st.integers(1, 40)),
        st.builds(
            lambda p, q, m, n: Life(actor=p, player=q, mode=m, amount=n),
            ACTORS,
            ANYONE,
            st.sampled_from(("set", "gain", "lose")),
            st.sampled_from((0, 3, 25)),
        ),
        st.builds(
            lambda p, q, r: Spite(actor=p, player=q, reason=r),
            ACTORS,
            ANYONE,
            st.sampled_from((None, "life", "poison")),
        ),
        st.builds(lambda p, n: Away(actor=p, turns=n), ACTORS, st.sampled_from((None, 0, 1))),
        st.builds(lambda p, q: Back(actor=p, player=q), ACTORS, ANYONE),
        st.builds(lambda p: Leave(actor=p), ACTORS),
        st.builds(lambda p: Undo(actor=p), ACTORS),
        # What moves a game on comes up more often than what ends a player.
        *[st.just(HOST_PLAYS)] * 3,
        *[st.builds(lambda p: RollChaos(actor=p), ACTORS)] * 2,
        *[st.builds(lambda p: NextTurn(actor=p), ACTORS)] * 2,
        *[st.builds(lambda p: Counter(actor=p), ACTORS)] * 2,
        st.builds(lambda p: Fork(actor=p), ACTORS),
        *[
            st.builds(
                lambda p, t: RollChaos(actor=p, turn_powers=True, table=t),
                ACTORS,
                st.sampled_from(LISTS),
            )
        ]
        * 3,
    )


def check(game: Game, out_at: dict[str, int]) -> None:
    """The invariants; `out_at` is the next id when each player who is out went out."""
    state = game.state
    assert fold(game.events) == state
    out = {p.id for p in state.players.values() if p.status is Status.OUT}
    assert out_at.keys() <= out, f"{out_at.keys() - out} came back"
    for player in state.players.values():
        assert all(n >= 0 for n in player.tokens.values()), (player.id, player.tokens)
    assert not [e for e in state.effects.values() if e.owner in out], "an out player's effect"
    # An out player keeps no offer from before; their spite roll's may follow.
    assert not [o for o in state.offers.values() if o.source < out_at.get(o.player, o.source)]
    assert state.active is None or state.players[state.active].status is Status.PLAYING
    assert len([i for i in state.stack if i.purpose == "turn"]) <= 1


def resolve_choice(game: Game, move: Choose) -> Choose:
    pending = game.state.pending
    if pending is None:
        return move
    actor = pending.player if move.actor == "?" else move.actor
    if move.option.startswith("#"):
        options = pending.options
        return replace(move, actor=actor, option=options[int(move.option[1:]) % len(options)][0])
    return replace(move, actor=actor)


def host_plays(game: Game) -> None:
    if game.state.active != "ann":
        return
    if not game.state.rolled:
        game.act(RollChaos(actor="ann"))
    game.act(NextTurn(actor="ann"))


def play(game: Game, move: Action) -> None:
    """Make one of the generated moves: the host's, a choice, or the active player's ("@")."""
    if move is HOST_PLAYS:
        host_plays(game)
    elif isinstance(move, Choose):
        game.act(resolve_choice(game, move))
    elif move.actor == "@":
        active = game.state.active
        game.act(replace(move, actor=active if active not in (None, "ann") else "bob"))
    else:
        game.act(move)


def referee_only(game: Game) -> list[dict[str, Any]]:
    """Events only an official could have caused, among those the non-referees made."""
    return [
        e
        for e in of_type(game.events, "stack")
        if e.get("purpose") == "extra" or (e.get("purpose") == "list" and e["table"] not in LISTS)
    ] + of_type(game.events, "roll_waived")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=st.lists(_move(), min_size=10, max_size=70), seed=st.integers(0, 2**16))
def test_nothing_players_do_breaks_the_game(moves: list[Action], seed: int) -> None:
    game = new_game(RULES, seed=seed, players=PLAYERS)
    out_at: dict[str, int] = {}
    for move in moves:
        try:
            play(game, move)
        except ChaosError:
            continue
        check(game, out_at)
        for player in game.state.players.values():
            if player.status is Status.OUT:
                out_at.setdefault(player.id, game.state.next_id)
    assert referee_only(game) == []
    assert_consistent(game)
