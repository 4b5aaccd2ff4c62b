"""The shared zone (the middle world, or the middle) and ending effects by hand."""

from __future__ import annotations

from bot.engine import actions as act
from bot.engine.context import Context, require
from bot.engine.errors import RulesError
from bot.engine.model import ZonePolicy
from bot.engine.state import Status
from bot.engine.turns import end_effect

MAX_CARD_NAME = 100


def end_effect_by_hand(ctx: Context, action: act.EndEffect) -> None:
    """Someone removed an effect (a Tranquility on a world enchantment, say)."""
    ctx.require_playing()
    state = ctx.state
    named = state.effect_named(action.effect, action.by_number)
    effect = state.effects.get(named) if named is not None else None
    if effect is None:
        # E2 and M1 are how players write these numbers (bot.render.ids); #N is a list's entry.
        number = state.effect_numbers.get(named) if named is not None else None
        if number is not None:
            raise RulesError(f"E{number} isn't in play any more: it has ended")
        if action.by_number:
            raise RulesError(f"there's no effect E{action.effect} in play")
        raise RulesError("there's no such effect in play")
    end_effect(ctx, effect.id, f"ended by {ctx.name(action.actor)}")


def middle_add(ctx: Context, action: act.MiddleAdd) -> None:
    ctx.require_playing()
    require(ctx.ruleset.zone is not ZonePolicy.NONE, _no_middle(ctx))
    ctx.player(action.actor)  # the card is someone's: a referee without a seat has none to add
    name = action.card.strip()
    require(0 < len(name) <= MAX_CARD_NAME, f"a card name has 1 to {MAX_CARD_NAME} characters")
    ctx.emit(
        {
            "type": "middle_added",
            "card": ctx.state.next_id,
            "name": name,
            "player": action.actor,
            "turn": ctx.state.turn,
        }
    )


def middle_play(ctx: Context, action: act.MiddlePlay) -> None:
    ctx.require_playing()
    zone = ctx.ruleset.zone
    require(zone is not ZonePolicy.NONE, _no_middle(ctx))
    named = ctx.state.card_named(action.card, action.by_number)
    card = ctx.state.middle.get(named) if named is not None else None
    if card is None:
        number = ctx.state.middle_numbers.get(named) if named is not None else None
        if number is not None:
            raise RulesError(f"M{number} isn't in the middle any more: it has been played")
        if action.by_number:
            raise RulesError(f"there's no card M{action.card} in the middle")
        raise RulesError("there's no such card in the middle")
    player = ctx.player(action.actor)
    require(player.status is Status.PLAYING, f"{player.name} isn't at the table right now")
    if zone is ZonePolicy.MIDDLE_WORLD:
        plays = ctx.state.middle_plays.get(player.id, 0)
        limit = ctx.ruleset.zone_plays
        require(
            plays < limit,
            f"{player.name} has already played {limit} card{'s' if limit != 1 else ''}"
            " from the middle world this turn",
        )
    else:
        require(
            card.id in ctx.state.middle_ready,
            f"{card.name} arrived in the middle this turn: it can be played from next turn on",
        )
    ctx.emit({"type": "middle_played", "card": card.id, "player": player.id})


def _no_middle(ctx: Context) -> str:
    return f"{ctx.ruleset.name} has no middle: no cards are shared between players in it"
