"""House rules as both front ends show and change them (``/house`` and the console's
``house``): the words are the same, and the rules themselves are the engine's
(:mod:`bot.engine.house`)."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.house import MAX_ROUND, HouseRules


def house_show(house: HouseRules) -> str:
    """The house rules games started here keep, one a line, with what each does."""
    if house.chaos_from == 1:
        chaos = "Chaos from round: 1 (the default: chaos from the first turn)."
    else:
        chaos = (
            f"Chaos from round: {house.chaos_from}. No chaos roll or card is made, owed or"
            f" offered before round {house.chaos_from}; a round is one turn of each seated"
            " player."
        )
    return "\n".join(
        [
            "House rules for the games started here:",
            chaos,
            "A game keeps the house rules it started with (they are on its board).",
        ]
    )


def chaos_from(house: HouseRules, round_number: int) -> HouseRules:
    """The rules with chaos from `round_number` (checked by the engine's rules)."""
    return replace(house, chaos_from=round_number)


def house_saved(house: HouseRules, *, running: bool) -> str:
    """What a change answers: the rules now, and whom they reach."""
    reach = (
        "They apply from the next game: the game running here keeps the rules it started with."
        if running
        else "Games started from now on play by them."
    )
    return f"Saved. {reach}\n{house_show(house)}"


ROUNDS = (1, MAX_ROUND)  # what `chaos_from` takes
