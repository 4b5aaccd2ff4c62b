"""The recap of a game that just ended, as one more embed of the answer that ended it.

The words are :mod:`bot.render.recap`'s; this module only lays them out (the standings in
bold names, one line per moment) and keeps the whole message inside Discord's limits: the
recap has the last embed, and card pictures give way to it first.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.client.embeds import (
    DESCRIPTION_LIMIT,
    EMBEDS_PER_MESSAGE,
    MESSAGE_LIMIT,
    TITLE_LIMIT,
    clip,
)
from bot.client.wording import plain
from bot.engine.events import Event
from bot.engine.game import Game
from bot.render import Names
from bot.render.recap import Recap, counts, headline, moments, recap, standings, verify_line

RECAP_COLOUR = discord.Colour(0xF1C40F)  # gold: the end of the story


def recap_embed(summary: Recap, names: Names) -> discord.Embed:
    """The recap as one embed: the headline as its title; standings, counts, moments and the
    seed as its description."""
    rows = [f"**{plain(name)}** — {plain(how)}" for name, how in standings(summary, names)]
    lines = [*rows, "", plain(counts(summary)), *(plain(line) for line in moments(summary, names))]
    checked = verify_line(summary)
    if checked is not None:
        lines += ["", plain(checked)]
    text = clip("\n".join(lines), DESCRIPTION_LIMIT)
    title = clip(plain(headline(summary, names)), TITLE_LIMIT)
    return discord.Embed(colour=RECAP_COLOUR, title=title, description=text)


def with_recap(
    embeds: list[discord.Embed], events: Sequence[Event], game: Game
) -> list[discord.Embed]:
    """`embeds` with the recap added when these events ended the game; picture embeds (the
    ones after the first with no description) make room for it, then the recap is cut."""
    if not any(e["type"] == "game_ended" for e in events):
        return embeds
    summary = recap(game.events)
    if summary is None:
        return embeds
    told = recap_embed(summary, Names.of(game))
    kept = list(embeds)
    while len(kept) > 1 and (
        len(kept) >= EMBEDS_PER_MESSAGE or sum(map(len, kept)) + len(told) > MESSAGE_LIMIT
    ):
        pictures = [n for n, e in enumerate(kept) if n and e.description is None]
        if not pictures:
            break
        del kept[pictures[-1]]
    room = MESSAGE_LIMIT - sum(map(len, kept)) - len(told.title or "")
    if len(kept) >= EMBEDS_PER_MESSAGE or room < 200:
        return kept  # the answer fills the message: the board and the log tell the end
    told.description = clip(told.description or "", min(room, DESCRIPTION_LIMIT))
    return [*kept, told]
