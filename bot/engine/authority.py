"""Who may do what: one table, checked once for every action before it is carried out.

Five kinds of people act in a game:

* the **host**, who opened it;
* a **referee**: the front end says so with ``Action.referee`` (a Discord role or Manage Server;
  whoever types at the console);
* the **active** player, whose turn it is;
* a **seated** player, anyone with a seat;
* **anyone**, who may only join.

A vote to veto a result (a house rule) is a seated player's own, for the officials too: nobody
votes for another, and the roller doesn't vote on their own result.

The host and referees are the *officials*: they may do anything a player may, on anyone's
behalf. A few things are theirs alone, and three of those (turn-order changes, a new Global, a
roll on a named list) are the *turn powers* a guild may hand to the active player as well
(``Action.turn_powers``, from the guild's ``turn_powers`` setting).

Above all of that: a player who is away takes no action but coming back, whatever their role;
and a player who is out takes no part in the game, but to finish their spite roll (answer its
choice, take a roll it offered).
An official who is out still runs the game, for the others, but has no tokens or cards to play.

Each refusal is a sentence saying who may do it. The handlers check the rest: whether the game
is in a state where the action makes sense at all (a turn roll already made, a token not held).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from bot.engine import actions as a
from bot.engine import offered
from bot.engine.errors import GameNotStartedError, GameOverError, NotInGameError, NotYourTurnError
from bot.engine.model import PlayerId, Ruleset
from bot.engine.state import GameState, Phase, Status


class Who(StrEnum):
    """Who may do a thing, besides the officials (who may always)."""

    ANYONE = "anyone"  # outsiders too: joining
    SEATED = "seated"  # anyone with a seat
    PLAYER = "player"  # the player it is about (the one named, or who asks)
    ACTIVE = "active"  # the active player
    POWERS = "powers"  # officials; the active player too when the guild hands out turn powers
    OFFICIAL = "official"  # the host and referees only
    VOTER = "voter"  # a player at the table but the roller, for themselves: officials too


@dataclass(frozen=True)
class Ability:
    """Something a person may do, in the words a refusal uses ("roll on a named list")."""

    what: str
    who: Who
    in_play: bool = True  # needs the game to have begun (and not ended)
    own: bool = False  # done with what is the actor's own as a player (tokens, cards)
    when_out: bool = False  # a player who is out may still do it (see check())


# The table. Each action maps to its ability; a few actions mean different abilities depending
# on their options or on the game (see ability()).
ABILITIES: dict[str, Ability] = {
    ability.what: ability
    for ability in (
        Ability("join the game", Who.ANYONE, in_play=False),
        Ability("leave the game", Who.SEATED, in_play=False),
        Ability("begin the game", Who.OFFICIAL, in_play=False),
        Ability("end the game", Who.OFFICIAL, in_play=False),
        Ability("make the turn's chaos roll", Who.ACTIVE),
        Ability("ask for an extra roll", Who.OFFICIAL),
        Ability("roll on a named list", Who.POWERS),
        # A spite roll made on the way out may offer rolls: the player who is out takes them.
        Ability("take a roll a result offered", Who.PLAYER, when_out=True),
        # Declining rolls nothing, so the officials may do it for a player who is away.
        Ability("decline a roll a result offered", Who.PLAYER, when_out=True),
        Ability("roll a new Global", Who.POWERS),
        Ability("reveal the chaos card", Who.ACTIVE),
        Ability("spend a CounterRoll", Who.SEATED, own=True),
        Ability("spend a RollFork", Who.SEATED, own=True),
        # A vote is the voter's own: nobody votes for another, officials included.
        Ability("vote to veto a result", Who.VOTER, own=True),
        Ability("apply the spite rule to that player", Who.PLAYER),
        Ability("answer that choice", Who.PLAYER, when_out=True),
        Ability("undo", Who.OFFICIAL, in_play=False),
        Ability("end the turn", Who.ACTIVE),
        Ability("end a turn nobody is playing", Who.SEATED),
        Ability("end a turn without its chaos roll", Who.OFFICIAL),
        Ability("give an extra turn", Who.POWERS),
        Ability("make a player skip a turn", Who.POWERS),
        Ability("reverse the turn order", Who.POWERS),
        Ability("change the seating", Who.OFFICIAL),
        Ability("end that effect", Who.PLAYER),
        Ability("remove a world or the Global", Who.SEATED),
        Ability("put a card into the middle", Who.SEATED, own=True),
        Ability("play a card from the middle", Who.SEATED, own=True),
        Ability("change life totals", Who.SEATED),
        Ability("send that player away", Who.PLAYER),
        Ability("bring that player back", Who.PLAYER),
        # Not actions (nothing is logged), but the table's to share: see check_page().
        Ability("hand out a link to the game's live page", Who.OFFICIAL, in_play=False),
        Ability("turn off the links to the game's live page", Who.OFFICIAL, in_play=False),
    )
}

_PLAIN: dict[type[a.Action], str] = {
    a.Join: "join the game",
    a.Leave: "leave the game",
    a.Begin: "begin the game",
    a.End: "end the game",
    a.Decline: "decline a roll a result offered",
    a.Reveal: "reveal the chaos card",
    a.Counter: "spend a CounterRoll",
    a.Fork: "spend a RollFork",
    a.Veto: "vote to veto a result",
    a.Spite: "apply the spite rule to that player",
    a.RollGlobal: "roll a new Global",
    a.Choose: "answer that choice",
    a.Undo: "undo",
    a.ExtraTurn: "give an extra turn",
    a.SkipTurn: "make a player skip a turn",
    a.Reverse: "reverse the turn order",
    a.Seats: "change the seating",
    a.MiddleAdd: "put a card into the middle",
    a.MiddlePlay: "play a card from the middle",
    a.Life: "change life totals",
    a.Away: "send that player away",
    a.Back: "bring that player back",
}


def ability(state: GameState, action: a.Action) -> Ability:
    """What `action` asks to do, as a row of the table."""
    match action:
        case a.RollChaos(extra=True):
            return ABILITIES["ask for an extra roll"]
        case a.RollChaos(table=str() as table) if _offer_of(state, action, table):
            return ABILITIES["take a roll a result offered"]
        case a.RollChaos(table=str()):
            return ABILITIES["roll on a named list"]
        case a.RollChaos():
            return ABILITIES["make the turn's chaos roll"]
        case a.NextTurn(override=override):
            if state.active is None:
                return ABILITIES["end a turn nobody is playing"]
            if override and not state.rolled and not state.chaos_waits():
                return ABILITIES["end a turn without its chaos roll"]
            return ABILITIES["end the turn"]
        case a.EndEffect(effect=named, by_number=by_number):
            # 0 is no id (they start at 1): a number nothing has had names no effect.
            effect = state.effects.get(state.effect_named(named, by_number) or 0)
            if effect is not None and effect.owner is None:
                return ABILITIES["remove a world or the Global"]
            return ABILITIES["end that effect"]
    return ABILITIES[_PLAIN[type(action)]]


def subject(state: GameState, action: a.Action) -> PlayerId | None:
    """The player an action is about, for the abilities that belong to that player."""
    match action:
        case a.Choose():
            return state.pending.player if state.pending else None
        case a.EndEffect(effect=named, by_number=by_number):
            effect = state.effects.get(state.effect_named(named, by_number) or 0)
            return effect.owner if effect else None
        case a.Spite(player=player) | a.Away(player=player) | a.Back(player=player):
            return player or action.actor
        case a.RollChaos(table=str() as table):
            return _offer_of(state, action, table) or action.actor
        case a.Decline(table=table):
            return _offer_of(state, action, table) or action.actor
    return action.actor


def _offer_of(state: GameState, action: a.Action, table: str | None) -> PlayerId | None:
    """Whom the open offer on `table` (None: any list) that `action` settles was made to, or
    None when it settles none: a roll on `table` is then a roll on a named list.

    The offer is the one the handler then takes or declines (:func:`offered.settled_by`), so
    the ruling is about the very offer settled. When the actor settles none but another
    player's offer names the list, the action is about that offer (and refused naming its
    player), unless it is a roll the actor may make on a named list anyway: an active player
    with the turn powers rolls on any list, and another's offer stays theirs.

    A roll a result offered needs no turn powers: the result asked for it (see offers).
    """
    taking = isinstance(action, a.RollChaos)
    offer = offered.settled_by(state, action.actor, table, referee=action.referee, taking=taking)
    if offer is not None:
        return offer.player
    if taking and action.turn_powers and action.actor == state.active:
        return None
    others = [o for o in offered.in_turn(state) if table is None or table in o.tables]
    return others[0].player if others else None


def check(state: GameState, action: a.Action, ruleset: Ruleset | None = None) -> None:
    """Raise a ChaosError saying who may do it, unless `action`'s actor may do it now.

    `ruleset` is for rules that may one day depend on it; none does today.
    """
    del ruleset
    can = ability(state, action)
    if can.in_play:
        require_playing(state)
    actor = action.actor
    seat = state.players.get(actor)
    if seat is not None and seat.status is Status.AWAY and not _coming_back(state, action):
        raise NotYourTurnError(
            f"{seat.name} is away: the one thing a player who is away can do is come back"
            " (`player back`)"
        )
    if can.who is Who.VOTER:
        _voter(state, action, can)
        return
    official = action.referee or actor == state.host
    if seat is not None and seat.status is Status.OUT and not can.when_out:
        if not official:
            raise NotYourTurnError(
                f"{seat.name} is already out of the game and takes no part in it"
            )
        if can.own:
            raise NotYourTurnError(
                f"{seat.name} is already out of the game: they still run it, but can't {can.what}"
            )
    if official or can.who is Who.ANYONE:
        return
    if seat is None and can.who not in (Who.POWERS, Who.OFFICIAL):
        raise NotInGameError(f"you're not in this game: only its players can {can.what}")
    _RULES[can.who](state, action, can)


def check_page(state: GameState, actor: PlayerId, *, referee: bool, revoke: bool = False) -> None:
    """Raise a ChaosError saying who may, unless `actor` may hand out a link to the game's live
    page (or, with `revoke`, turn its links off). The page shows the table to anyone holding
    the link, spectators of a stream included, so sharing it is the officials' call, as
    running the game is; in the lobby, during play and after the end alike. `referee` is what
    the front end knows of the actor (a Discord role; whoever types at the console)."""
    can = ABILITIES[
        "turn off the links to the game's live page"
        if revoke
        else "hand out a link to the game's live page"
    ]
    if referee or actor == state.host:
        return
    raise NotYourTurnError(f"only the host or a referee can {can.what}")


def _coming_back(state: GameState, action: a.Action) -> bool:
    return isinstance(action, a.Back) and subject(state, action) == action.actor


def require_playing(state: GameState) -> None:
    """Raise unless the game has begun and hasn't ended."""
    if state.phase is Phase.LOBBY:
        raise GameNotStartedError("the game hasn't begun: use `game begin` once everyone joined")
    if state.phase is Phase.ENDED:
        raise GameOverError("this game is over")


def _seated(state: GameState, action: a.Action, can: Ability) -> None:
    pass  # checked in check(): the actor has a seat


def _player(state: GameState, action: a.Action, can: Ability) -> None:
    who = subject(state, action)
    if who is not None and who != action.actor:
        seat = state.players.get(who)
        name = seat.name if seat is not None else "that player"
        gone = seat is not None and seat.status is Status.AWAY
        away = f" ({name} is away for now)" if gone else ""
        raise NotYourTurnError(f"only {name}, the host or a referee can {can.what}{away}")


def _active(state: GameState, action: a.Action, can: Ability) -> None:
    if action.actor == state.active:
        return
    if state.active is None:
        # Nobody may: the turn of a player who isn't at the table has no chaos roll at all.
        who = state.players[state.current].name if state.current in state.players else "its player"
        raise NotYourTurnError(
            f"nobody is active this turn ({who} isn't at the table), so nobody can {can.what}:"
            " it ends without one; anyone at the table moves on with `turn next`"
        )
    name = state.players[state.active].name
    raise NotYourTurnError(f"it's {name}'s turn: only they, the host or a referee can {can.what}")


def _powers(state: GameState, action: a.Action, can: Ability) -> None:
    if action.turn_powers:
        if action.actor == state.active:
            return
        raise NotYourTurnError(f"only the active player, the host or a referee can {can.what}")
    raise NotYourTurnError(
        f"only the host or a referee can {can.what} (a server's `turn_powers` setting can hand"
        " it to the active player)"
    )


def _voter(state: GameState, action: a.Action, can: Ability) -> None:
    """A vote is a seated player's own, whatever their role: not a player who is out, and not
    the roller of the result voted on (see bot.engine.veto)."""
    seat = state.players.get(action.actor)
    if seat is None:
        raise NotInGameError(f"you're not in this game: only its players can {can.what}")
    if seat.status is Status.OUT:
        raise NotYourTurnError(f"{seat.name} is already out of the game and takes no part in it")
    item = next((i for i in state.stack if i.id == state.veto_item), None)
    if item is not None and item.player == action.actor:
        raise NotYourTurnError(
            f"{seat.name} rolled {state.roll_ref(item.id)}: a veto is the other players' vote,"
            " not the roller's"
        )


def _official(state: GameState, action: a.Action, can: Ability) -> None:
    raise NotYourTurnError(f"only the host or a referee can {can.what}")


_RULES: dict[Who, Callable[[GameState, a.Action, Ability], None]] = {
    Who.SEATED: _seated,
    Who.PLAYER: _player,
    Who.ACTIVE: _active,
    Who.POWERS: _powers,
    Who.OFFICIAL: _official,
    Who.VOTER: _voter,
}
