"""Losing, and the last word a loser gets: the three spite rules, and life that triggers them."""

from __future__ import annotations

from bot.engine import actions as act
from bot.engine import survival
from bot.engine.chaos import record, resolver_for
from bot.engine.context import Context, require
from bot.engine.decks import spite_look
from bot.engine.errors import RulesError
from bot.engine.lifegain import MAX_LIFE, card_x, text_roll
from bot.engine.model import PlayerId, SpitePolicy
from bot.engine.state import Phase, Player, Status
from bot.engine.turns import knock_out


def spite(ctx: Context, action: act.Spite) -> None:
    """`player` would lose the game, for the action's reason (poison, decking, a card...)."""
    ctx.require_playing()
    ctx.require_no_choice()
    survival.check_reason(action.reason)
    player = ctx.player(action.player or action.actor)
    require(player.status is not Status.OUT, f"{player.name} is already out")
    require(not player.spiting, f"{player.name} is spiting right now and can't lose")
    if (
        ctx.ruleset.spite is SpitePolicy.DECK_LOOK
        and action.reason == "life"
        and player.life is not None
        and player.life >= 1
    ):
        # The spite would be judged by this same total and "survive" at once: a free look at
        # seven chaos cards for anyone who says so. A loss of tracked life is the total's to say.
        raise RulesError(
            f"{player.name} has {player.life} life: a loss of life comes when their life drops"
            f" below 1 (`life lose {player.name} {player.life}`), or give another reason"
        )
    lose(ctx, player.id, action.reason)


def lose(ctx: Context, player_id: PlayerId, reason: str | None) -> None:
    """Apply the ruleset's spite rule to a player who would lose, for `reason` (see survival).

    An open choice comes first: a spite would ask its own, or roll one (a "keep one"), and the
    game holds one choice at a time.
    """
    ctx.require_no_choice()
    ruleset = ctx.ruleset
    player = ctx.state.players[player_id]
    lost = survival.LOST.get(reason or "", "lost the game")
    if ctx.state.chaos_waits() and ruleset.spite is not SpitePolicy.NONE:
        # A spite is chaos: before the round the house rules start chaos in, there is none.
        chaos_from = ctx.state.house.chaos_from
        knock_out(ctx, player_id, f"{lost} (no spite before chaos starts in round {chaos_from})")
        return
    match ruleset.spite:
        case SpitePolicy.NONE:
            knock_out(ctx, player_id, lost)
        case SpitePolicy.LIFE_GAIN_ROLL if reason not in (None, "life"):
            # The spite roll can only gain life, and life doesn't undo this loss.
            knock_out(ctx, player_id, f"{lost}: a spite roll only answers a loss of life")
        case SpitePolicy.LIFE_GAIN_ROLL:
            if player.life != 0:  # an untracked life total is counted from 0 from now on
                ctx.emit(
                    {
                        "type": "life",
                        "player": player_id,
                        "life": 0,
                        "delta": -(player.life or 0),
                        "reason": "healed to 0 before the spite roll",
                    }
                )
            if player.unsure:  # set to 0 by the rules: the bot knows it now
                why = "set to 0 for the spite roll"
                ctx.emit(
                    {"type": "life_unsure", "player": player_id, "unsure": False, "reason": why}
                )
            ctx.emit({"type": "spite_started", "player": player_id, "policy": ruleset.spite.value})
            assert ruleset.spite_table is not None
            resolution = resolver_for(ctx, player_id, "spite").spite(ruleset.spite_table)
            record(ctx, resolution, kind="roll", purpose="spite")
            step = resolution.steps[0]
            if not step.honoured:
                why = f"{survival.LOST['life']}: the spite roll gained no life"
                survival.end(ctx, player_id, survived=False, why=why)
                return
            x, rolled = card_x(step.roll["inline"]), text_roll(step.roll["inline"])
            table = step.roll["table"]
            survival.after_gain(ctx, player_id, table, step.entry, "life", x=x, rolled=rolled)
        case SpitePolicy.SPITE_TABLE:
            opponents = [p for p in ctx.state.seated() if p.id != player_id]
            knock_out(ctx, player_id, lost)
            if len(opponents) >= 2:
                assert ruleset.spite_table is not None
                ctx.emit(
                    {"type": "spite_started", "player": player_id, "policy": ruleset.spite.value}
                )
                resolution = resolver_for(ctx, player_id, "spite").roll(ruleset.spite_table)
                record(ctx, resolution, kind="roll", purpose="spite")
                ctx.emit({"type": "spite_ended", "player": player_id, "survived": False})
        case SpitePolicy.DECK_LOOK:
            # The look is a choice of its own; one already open (a split half) comes first.
            ctx.require_no_choice()
            if player.spited:
                knock_out(ctx, player_id, f"{lost} (the spite was already used)")
                return
            if reason is None and player.life is not None and player.life < 1:
                reason = "life"
            ctx.emit({"type": "spite_started", "player": player_id, "policy": ruleset.spite.value})
            spite_look(ctx, player_id, reason or "")


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
    why = f"{action.mode} by {ctx.name(action.actor)}"
    ctx.emit(
        {
            "type": "life",
            "player": player.id,
            "life": new,
            "delta": new - (player.life or 0),
            "reason": why,
        }
    )
    if action.mode == "set" and player.unsure:  # a player said what the total is
        ctx.emit({"type": "life_unsure", "player": player.id, "unsure": False, "reason": why})
    if below_one(player, said=True):
        lose(ctx, player.id, "life")


def below_one(player: Player, *, said: bool = False) -> bool:
    """Whether a player's total starts the ruleset's spite rule: tracked, below 1, of a player
    still in who isn't spiting already, and either one the bot is sure of or one a player `said`
    (`life lose`, `life set`). A result's change to an unsure total waits for a player: the bot
    can't know it is below 1."""
    return (
        player.life is not None
        and player.life < 1
        and (said or not player.unsure)
        and not player.spiting
        and player.status is not Status.OUT
    )


def settle_losses(ctx: Context) -> None:
    """After an action: a player a result left below 1 life loses, as after `life lose`, one at
    a time in seat order; while a choice is open they wait for it to be made."""
    state = ctx.state
    for _ in range(len(state.order)):
        if state.phase is not Phase.PLAYING or state.pending is not None:
            return
        due = next((p for p in state.order if below_one(state.players[p])), None)
        if due is None:
            return
        lose(ctx, due, "life")
