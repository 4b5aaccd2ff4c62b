"""The Discord side of /house that isn't option parsing: whose ruleset a deny names, who may
change the house rules, and the answer (:mod:`cogs.house` stays thin)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.client.embeds import text_embeds
from bot.client.interactions import guild_key, reply, scope_of
from bot.client.permissions import require_manager
from bot.client.wording import plain
from bot.commands.house import exclude, house_saved, house_show
from bot.engine.house import HouseRules
from bot.engine.model import Ruleset
from bot.errors import NoGameError

if TYPE_CHECKING:
    from bot.client.bot import ChaosBot

Change = Callable[[HouseRules], HouseRules]


async def house_ruleset(bot: ChaosBot, interaction: discord.Interaction[Any]) -> Ruleset:
    """The ruleset whose lists a deny names: the game's here, else the server's default."""
    try:
        return (await bot.service.current(scope_of(interaction))).game.ruleset
    except NoGameError:
        settings = await bot.service.settings(guild_key(interaction))
        return bot.service.ruleset(settings.default_ruleset).ruleset


async def show_house(bot: ChaosBot, interaction: discord.Interaction[Any]) -> None:
    """`/house show`, for anyone."""
    settings = await bot.service.settings(guild_key(interaction))
    shown = house_show(settings.house, await house_ruleset(bot, interaction))
    await reply(interaction, embeds=text_embeds("House rules", plain(shown)))


async def change_house(
    bot: ChaosBot,
    interaction: discord.Interaction[Any],
    change: Callable[[Ruleset], Change],
    next_game: bool,
) -> None:
    """A change of the house rules by one of the server's managers; `change` is given the
    ruleset whose lists a deny names."""
    ruleset = await _as_manager(bot, interaction)
    await _save(bot, interaction, change(ruleset), next_game, ruleset)


async def exclude_tag(
    bot: ChaosBot, interaction: discord.Interaction[Any], tag: str, next_game: bool
) -> None:
    """`/house exclude`, checked against the ruleset and against every table the server
    uploaded (a game may play any of them), which are read once the caller may change them."""
    ruleset = await _as_manager(bot, interaction)
    uploads = await bot.service.uploaded_tables(guild_key(interaction))

    def change(house: HouseRules) -> HouseRules:
        return exclude(house, ruleset, tag, uploads)

    await _save(bot, interaction, change, next_game, ruleset)


async def _as_manager(bot: ChaosBot, interaction: discord.Interaction[Any]) -> Ruleset:
    """The ruleset the change is checked against, once the caller may change the rules."""
    who, _ = await bot.play.caller(interaction)
    require_manager(who, "Changing the house rules")
    return await house_ruleset(bot, interaction)


async def _save(
    bot: ChaosBot,
    interaction: discord.Interaction[Any],
    change: Change,
    next_game: bool,
    ruleset: Ruleset,
) -> None:
    house, running = await bot.service.change_house(
        guild_key(interaction),
        change,
        scope=scope_of(interaction),
        next_game=next_game,
    )
    text = house_saved(house, running=running, ruleset=ruleset)
    await reply(interaction, embeds=text_embeds("House rules", plain(text)), ephemeral=True)
