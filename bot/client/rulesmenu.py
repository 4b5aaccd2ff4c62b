"""/rules answered on Discord: one topic, every topic, or a private menu of the topics a lookup
could mean.

The menu survives a restart: its ``custom_id`` (``cr:rules:{ruleset}``) names the ruleset and
each option's value is a topic's id, so discord.py rebuilds it from the id whenever someone
picks (:class:`discord.ui.DynamicItem`). A pick answers as /rules does, privately, with a
"Show everyone" button (:mod:`bot.client.sharing`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.client import choices
from bot.client.embeds import text_embeds
from bot.client.errors import report
from bot.client.interactions import reply
from bot.client.presses import TakesTurns
from bot.client.sharing import share_view
from bot.client.wording import slashed
from bot.commands import CommandError, rule_text, rules_answer
from bot.tables import Rule, load_bundled

if TYPE_CHECKING:
    from bot.client.bot import ChaosBot

PREFIX = "cr:rules"
LIMIT = 25  # a select menu holds at most 25 options
_RULESET = r"[A-Za-z0-9_-]{1,40}"  # a ruleset's id, as its file must write it; a topic's too


def _slash(text: str) -> str:
    """A rules answer as Discord shows it: the console's command hints in the rules texts
    (`` `chaos roll` ``, `` `turn next override` ``) become slash commands."""
    return slashed(text.replace("`rules TOPIC`", "/rules topic").replace("`rules`", "/rules"))


def _label(title: str) -> str:
    return title if len(title) <= 100 else title[:99] + "…"


class RulesMenu(
    TakesTurns,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"{PREFIX}:(?P<ruleset>{_RULESET})",
):
    """A private menu of the topics a /rules lookup could mean, best first."""

    def __init__(self, ruleset: str, topics: Sequence[Rule] = ()) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"{PREFIX}:{ruleset}",
                placeholder="Choose a topic",
                options=[
                    discord.SelectOption(label=_label(r.title), value=r.id) for r in topics[:LIMIT]
                ],
            )
        )
        self.ruleset = ruleset

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RulesMenu:
        return cls(match["ruleset"])

    async def pressed(self, interaction: discord.Interaction[Any]) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = data.get("values") or []
        try:
            if not values:
                raise CommandError("pick a topic from the menu")
            rule, rules = await _topic(interaction, self.ruleset, str(values[0]))
            await _answer(interaction, rule_text(rule, rules, bold=True), share_view())
        except Exception as error:  # a component has no command tree to report to
            await report(interaction, error)


async def _rules_here(interaction: discord.Interaction[Any]) -> tuple[str, str, Sequence[Rule]]:
    """The ruleset in play here (else the server's default): its id, its name and its rules."""
    ruleset, loaded = await choices.game_ruleset(interaction)
    if loaded is not None:
        return ruleset.id, ruleset.name, loaded.rules
    bot = cast("ChaosBot", interaction.client)
    rules = await bot.service.rules(f"{interaction.guild_id}:{interaction.channel_id}")
    return ruleset.id, ruleset.name, rules


async def _topic(
    interaction: discord.Interaction[Any], ruleset: str, topic: str
) -> tuple[Rule, Sequence[Rule]]:
    """The topic picked from a menu drawn for `ruleset`, and the rules it is one of: those in
    play here when they are still that ruleset's, else the bundled ruleset of that id."""
    here, _, rules = await _rules_here(interaction)
    if here != ruleset:
        bundled = load_bundled().get(ruleset)
        if bundled is None:
            raise CommandError("those rules aren't here any more: ask /rules again")
        rules = bundled.rules
    rule = next((r for r in rules if r.id == topic), None)
    if rule is None:
        raise CommandError(f"there's no rules topic {topic!r} any more: /rules lists them")
    return rule, rules


async def _answer(
    interaction: discord.Interaction[Any], text: str, view: discord.ui.View | None = None
) -> None:
    text = _slash(text)
    title, _, body = text.partition("\n")
    await reply(interaction, embeds=text_embeds(title, body or title), view=view, ephemeral=True)


async def answer_rules(interaction: discord.Interaction[Any], topic: str | None) -> None:
    """Answer /rules privately: one topic in full, every topic, or a menu of the topics the
    lookup could mean."""
    ruleset, name, rules = await _rules_here(interaction)
    try:
        found = rules_answer(rules, topic, name, bold=True)
    except CommandError as error:  # its words are the console's: say the slash command
        raise CommandError(_slash(str(error))) from None
    if not found.offered:
        # One topic can be shown to the table ("Show everyone"); the list of every topic is
        # only a way in.
        await _answer(interaction, found.text, share_view() if topic is not None else None)
        return
    view = discord.ui.View(timeout=None)
    view.add_item(RulesMenu(ruleset, found.offered))
    head = f"Several rules are about {topic!r}"
    more = len(found.offered) - LIMIT
    body = "Pick one from the menu, best first."
    if more > 0:
        body += f" It shows the best {LIMIT}; {more} more match: try more words."
    await reply(interaction, embeds=text_embeds(head, body), view=view, ephemeral=True)
