"""Embeds for what an action did and for long text answers: pure functions, no I/O.

The words come from :mod:`bot.render`; this module only decides the look (colours, links) and
keeps every message inside Discord's size limits, cutting with a visible marker rather than
letting the API refuse the reply.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

import discord

from bot.client.wording import plain
from bot.engine.events import Event
from bot.engine.fairness import unseeded
from bot.engine.game import Game
from bot.engine.model import Ruleset, StartRoll
from bot.engine.state import Phase
from bot.render import Names, render_lines
from bot.render.announce import announcement, roll_title, unsaid
from bot.render.cards import card_image_url, card_page_url, rolled_card

# Discord's limits on one message's embeds.
TITLE_LIMIT = 256
AUTHOR_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_LIMIT = 1024
FIELDS_PER_EMBED = 25
EMBEDS_PER_MESSAGE = 10
MESSAGE_LIMIT = 6000  # summed over every embed of one message

# One colour per list, by the list's place in the ruleset: lists A-F take the first six, so a
# glance at the colour tells which list a result came from. The fixed colours below are kept out.
PALETTE = tuple(
    discord.Colour(value)
    for value in (
        0xE74C3C,  # red
        0xE67E22,  # orange
        0x2ECC71,  # green
        0x3498DB,  # blue
        0x9B59B6,  # purple
        0x1ABC9C,  # teal
        0xE91E63,  # pink
        0xAEEA00,  # lime
        0x3F51B5,  # indigo
        0x34495E,  # slate
    )
)
GLOBAL_COLOUR = discord.Colour(0xF1C40F)  # the start roll's list: the Global or a world
DECK_COLOUR = discord.Colour(0x8D6E63)  # a card from a deck: brown, like a card's back
BOARD_COLOUR = discord.Colour(0x5865F2)  # a status board with no current list
NEUTRAL_COLOUR = discord.Colour(0x99AAB5)  # results without a roll, help, rules, ended games

# Text from a table is never wrapped by us: Discord wraps to the reader's screen, and a line
# broken at a fixed column reads raggedly on every screen but one.
_NO_WRAP = DESCRIPTION_LIMIT
_MARKER_ROOM = 64  # kept free for the "… (N more lines)" marker
# The indent of a choice's options and texts (spaces at the start of a line; a console tree's
# box drawing too, which a log from elsewhere may carry).
_INDENT = re.compile(r"^[ │├└─]+")
_EN_SPACE = "\u2002"


def card_markdown(name: str) -> str:
    """The card's name as a markdown link to its Scryfall page."""
    # A bracket would end the link text early; card names don't need them.
    text = plain(name.replace("[", "(").replace("]", ")"))
    return f"[{text}]({card_page_url(name)})"


def list_colour(table_id: str | None, ruleset: Ruleset) -> discord.Colour:
    """The colour of a list's results: a palette colour by the list's place in the ruleset, a
    fixed one for decks and for the Global (or world) list, grey for anything else."""
    if table_id is None:
        return NEUTRAL_COLOUR
    if table_id == ruleset.start_table and ruleset.start is not StartRoll.NONE:
        return GLOBAL_COLOUR
    if table_id in ruleset.decks:
        return DECK_COLOUR
    order = _palette_order(ruleset)
    if table_id not in order:
        return NEUTRAL_COLOUR
    return PALETTE[order.index(table_id) % len(PALETTE)]


def _palette_order(ruleset: Ruleset) -> list[str]:
    """The lists that take a palette colour: the chaos lists first, then the rest by id (the
    load order of a ruleset's files is not something a colour should depend on)."""
    first = [*ruleset.lists, *([ruleset.chaos_table] if ruleset.chaos_table else [])]
    first = [t for t in dict.fromkeys(first) if t in ruleset.tables]
    rest = sorted(t for t in ruleset.tables if t not in first and t != ruleset.start_table)
    return first + rest


def result_embeds(
    events: Sequence[Event], game: Game, *, title: str | None = None, actions: bool = False
) -> list[discord.Embed]:
    """What an action did, for the public reply: the resolution, effects, tokens, turns, life
    and the end of the game, with links to the real cards it named.

    `game` is the game after the action (its log names the players and effects). The title
    announces the action ("Bob joined", "Turn 3 — Carol"); for a roll, it says what came up
    ("Carnival Ride → Life Rotation") under the announcement ("Ann rolls chaos"), and the
    roll's own line gives only its list and dice. With `actions`, each action is shown too
    (who did what), as a log reads best; `title` replaces the announcement.
    """
    events = _public(events, game)
    names = Names.of(game)
    ruleset = game.ruleset
    top = next((e for e in events if e["type"] == "roll" and e["parent"] is None), None)
    said = announcement(events, names)
    titled = top if title is None else None
    # No code block: Discord wraps prose to the screen (a code block would scroll), and the
    # card links stay clickable. Sub-rolls are steps, not a tree: box drawing lines up only in
    # a fixed-width font. Table and player text is escaped so a `*` or `_` in it prints as
    # itself instead of turning the rest of the line into italics.
    rendered = render_lines(
        events,
        names,
        actions=actions,
        width=_NO_WRAP,
        steps=True,
        titled=None if titled is None else titled["id"],
    )
    # A body says what the title doesn't, or nothing ("Turn 3 — Carol" has no body).
    told = unsaid(rendered, events, names, None if title else said)
    lines = [_indent(plain(line)) for line in told] or ([] if rendered else ["Nothing to show."])
    cards = list(dict.fromkeys(_cards(events, ruleset)))
    head = _Head(
        title=plain(title or (roll_title(events, titled) if titled else said) or "Chaos Referee"),
        colour=list_colour(top["table"] if top else None, ruleset),
        url=card_page_url(cards[0]) if len(cards) == 1 else None,
        author=said if titled is not None else None,
    )
    if cards:
        links = [card_markdown(name) for name in cards]
        head.fields.append(("Card" if len(cards) == 1 else "Cards", field_value(links)))
    return with_pictures(_pack(lines, head, more="`/chaos log`"), cards)


def with_pictures(embeds: list[discord.Embed], cards: Sequence[str]) -> list[discord.Embed]:
    """The cards' pictures, which Discord fetches from Scryfall (the bot never does).

    One card: its picture, full size, at the foot of the message, under the link to it. Several:
    one small embed each, its name linking to its page beside a small picture, as many as the
    message has room for (ten embeds, 6,000 characters); the field lists them all either way.
    If a picture doesn't load, every name is still a link to the card's page.
    """
    if len(cards) == 1:
        embeds[-1].set_image(url=card_image_url(cards[0]))
        return embeds
    used = sum(len(e) for e in embeds)  # what counts towards the 6,000
    for name in cards:
        title = clip(name, TITLE_LIMIT)
        if len(embeds) == EMBEDS_PER_MESSAGE or used + len(title) > MESSAGE_LIMIT:
            break
        picture = discord.Embed(colour=embeds[0].colour, title=title, url=card_page_url(name))
        embeds.append(picture.set_thumbnail(url=card_image_url(name)))
        used += len(title)
    return embeds


def _public(events: Sequence[Event], game: Game) -> list[Event]:
    """The events as the whole channel may read them.

    * The cards of a spite look are for the spiting player's eyes only (they pick from a
      private menu), so they aren't listed.
    * The seed stays unsaid until the game is over: every roll follows from it, so whoever
      knew it could work out what the next rolls will be and pick their moment. So does the
      salt: with it, a seed from a small range could be found from the commitment.
    """
    if game.state.phase is not Phase.ENDED:
        events = unseeded(events)
    shown: list[Event] = []
    for e in events:
        if e["type"] == "choice_offered" and e["kind"] == "spite":
            e = cast(Event, {**e, "options": []})
        shown.append(e)
    return shown


def text_embeds(
    title: str, text: str, *, colour: discord.Colour = NEUTRAL_COLOUR, code: bool = False
) -> list[discord.Embed]:
    """A long plain-text answer (rules, help, a table) split on line boundaries into as many
    embeds as one message allows; what doesn't fit is cut with a marker.

    The text is markdown as given. With `code`, each embed shows its part in a code block, for
    text whose columns must line up.
    """
    lines = text.splitlines() or [""]
    if code:
        # A backtick inside would close the block early; a look-alike accent can't.
        lines = [line.replace("`", "ˋ") for line in lines]
    return _pack(lines, _Head(title=title, colour=colour, code=code))


@dataclass
class _Head:
    """What a message's embeds carry besides the lines: title and link on the first embed,
    fields on the last."""

    title: str
    colour: discord.Colour
    url: str | None = None
    fields: list[tuple[str, str]] = field(default_factory=list)
    code: bool = False
    author: str | None = None  # a line above the title: who did what, when the title is a roll

    def size(self) -> int:
        fields = sum(
            len(clip(name, FIELD_NAME_LIMIT)) + len(clip(value, FIELD_LIMIT))
            for name, value in self.fields[:FIELDS_PER_EMBED]
        )
        author = len(clip(self.author, AUTHOR_LIMIT)) if self.author else 0
        return len(clip(self.title, TITLE_LIMIT)) + fields + author


def _pack(lines: list[str], head: _Head, *, more: str | None = None) -> list[discord.Embed]:
    """The lines as the descriptions of one message's embeds, within every limit."""
    budget = MESSAGE_LIMIT - head.size()
    fences = 8 if head.code else 0  # "```\n" and "\n```" around each description
    parts, left = _split(lines, budget, fences, reserve=0)
    marker = None
    if left:
        parts, left = _split(lines, budget, fences, reserve=_MARKER_ROOM)
        hint = f": {more}" if more else ""
        marker = f"… ({left} more line{'s' * (left != 1)}{hint})"
    embeds = []
    for n, part in enumerate(parts):
        text = "\n".join(part)
        if head.code and part:
            text = f"```\n{text}\n```"
        if marker and n == len(parts) - 1:
            text = f"{text}\n{marker}" if text else marker
        embed = discord.Embed(colour=head.colour, description=text or None)
        if n == 0:
            embed.title = clip(head.title, TITLE_LIMIT)
            embed.url = head.url
            if head.author:
                embed.set_author(name=clip(head.author, AUTHOR_LIMIT))
        embeds.append(embed)
    last = embeds[-1]
    for name, value in head.fields[:FIELDS_PER_EMBED]:
        last.add_field(
            name=clip(name, FIELD_NAME_LIMIT), value=clip(value, FIELD_LIMIT), inline=False
        )
    return embeds


def _split(
    lines: list[str], budget: int, fences: int, *, reserve: int
) -> tuple[list[list[str]], int]:
    """Lines grouped into descriptions (one message's worth at most) and how many didn't fit.

    `reserve` characters stay free in every description and in the budget, for the marker.
    """
    limit = DESCRIPTION_LIMIT - reserve
    budget -= reserve
    parts: list[list[str]] = [[]]
    size = used = 0
    for n, line in enumerate(lines):
        line = clip(line, limit - fences)
        if parts[-1] and size + 1 + len(line) > limit:
            if len(parts) == EMBEDS_PER_MESSAGE:
                return parts, len(lines) - n
            parts.append([])
            size = 0
        cost = len(line) + (1 if parts[-1] else fences)
        if used + cost > budget:
            if not parts[-1] and len(parts) > 1:
                parts.pop()
            return parts, len(lines) - n
        parts[-1].append(line)
        size += cost
        used += cost
    return parts, 0


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, ending in "…" when anything was cut."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def field_value(lines: Sequence[str], limit: int = FIELD_LIMIT) -> str:
    """Lines for one field: as many as fit, then how many more there were ("—" for none)."""
    kept: list[str] = []
    for n, line in enumerate(lines):
        rest = len(lines) - n - 1
        tail = f"\n… {rest} more" if rest else ""
        if len("\n".join([*kept, line])) + len(tail) > limit:
            if not kept:
                return clip(line, limit - len(tail)) + tail
            return "\n".join([*kept, f"… {len(lines) - n} more"])
        kept.append(line)
    return "\n".join(kept) or "—"


def _cards(events: Iterable[Event], ruleset: Ruleset) -> Iterable[str]:
    """The real Magic cards named by the honoured rolls, in order."""
    for event in events:
        if event["type"] == "roll" and not event["ignored"]:
            card = rolled_card(event, ruleset)
            if card:
                yield card


def _indent(line: str) -> str:
    """A line's indent with en spaces, which Discord never trims."""
    return _INDENT.sub(lambda m: m.group().replace(" ", _EN_SPACE), line)
