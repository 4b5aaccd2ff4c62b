"""Losing, and the last word a loser gets: the three spite rules, and life that triggers them."""

from __future__ import annotations

from bot.engine import actions as act
from bot.engine.chaos import record, resolver_for
from bot.engine.context import Context, require
from bot.engine.decks import spite_look
from bot.engine.model import PlayerId, SpitePolicy
from bot.engine.state import Status
from bot.engine.turns import knock_out

MAX_LIFE = 1_000_000


def spite(ctx: Context, action: act.Spite) -> None:
    """`player` would lose the game (poison, decking, a concession forced by a card...)."""
    ctx.require_playing()
    ctx.require_no_choice()
    player = ctx.player(action.player or action.actor)
    require(player.status is not Status.OUT, f"{player.name} is already out")
    require(not player.spiting, f"{player.name} is spiting right now and can't lose")
    lose(ctx, player.id, "lost the game")


def lose(ctx: Context, player_id: PlayerId, reason: str) -> None:
    """Apply the ruleset's spite rule to a player who would lose."""
    ruleset = ctx.ruleset
    player = ctx.state.players[player_id]
    match ruleset.spite:
        case SpitePolicy.NONE:
            knock_out(ctx, player_id, reason)
        case SpitePolicy.LIFE_GAIN_ROLL:
            if player.life is not None and player.life != 0:
                ctx.emit(
                    {
                        "type": "life",
                        "player": player_id,
                        "life": 0,
                        "delta": -player.life,
                        "reason": "healed to 0 before the spite roll",
                    }
                )
            ctx.emit({"type": "spite_started", "player": player_id, "policy": ruleset.spite.value})
            assert ruleset.spite_table is not None
            resolution = resolver_for(ctx, player_id).spite(ruleset.spite_table)
            record(ctx, resolution, kind="roll", purpose="spite")
            survived = any(s.honoured and s.entry.gains_life for s in resolution.steps)
            ctx.emit({"type": "spite_ended", "player": player_id, "survived": survived})
            if not survived:
                knock_out(ctx, player_id, f"{reason}: the spite roll gained no life")
        case SpitePolicy.SPITE_TABLE:
            opponents = [p for p in ctx.state.seated() if p.id != player_id]
            knock_out(ctx, player_id, reason)
            if len(opponents) >= 2:
                assert ruleset.spite_table is not None
                ctx.emit(
                    {"type": "spite_started", "player": player_id, "policy": ruleset.spite.value}
                )
                resolution = resolver_for(ctx, player_id).roll(ruleset.spite_table)
                record(ctx, resolution, kind="roll", purpose="spite")
                ctx.emit({"type": "spite_ended", "player": player_id, "survived": False})
        case SpitePolicy.DECK_LOOK:
            # The look is a choice of its own; one already open (a split half) comes first.
            ctx.require_no_choice()
            if player.spited:
                knock_out(ctx, player_id, f"{reason} (the spite was already used)")
                return
            ctx.emit({"type": "spite_started", "player": player_id, "policy": ruleset.spite.value})
            spite_look(ctx, player_id)


def life(ctx: Context, action: act.Life) -> None:
    """Set, gain or lose life; dropping below 1 starts the ruleset's spite rule."""
    ctx.require_playing()
    player = ctx.player(action.player or action.actor)
    require(player.status is not Status.OUT, f"{player.name} is out of the game")
    require(0 <= action.amount <= MAX_LIFE, f"life amounts go from 0 to {MAX_LIFE:,}")
    if action.mode == "set":
        new = action.amount
    else:
        require(
            player.life is not None,
            f"{player.name}'s life isn't tracked: set it first (`life set {player.name} 20`)",
        )
        assert player.life is not None
        new = player.life + (action.amount if action.mode == "gain" else -action.amount)
    new = max(-MAX_LIFE, min(MAX_LIFE, new))
    ctx.emit(
        {
            "type": "life",
            "player": player.id,
            "life": new,
            "delta": new - (player.life or 0),
            "reason": f"{action.mode} by {ctx.name(action.actor)}",
        }
    )
    if new < 1 and not player.spiting:
        lose(ctx, player.id, "dropped below 1 life")
