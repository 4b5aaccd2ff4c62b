"""The status board's look: one embed with the whole table at a glance (pure, no I/O).

The words are the console's status board (:mod:`bot.render.status`), section by section; this
module lays them out as a description and fields. Posting and editing the board is the keeper's.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.client.embeds import (
    BOARD_COLOUR,
    DECK_COLOUR,
    FIELD_LIMIT,
    NEUTRAL_COLOUR,
    card_markdown,
    clip,
    field_value,
    list_colour,
)
from bot.client.wording import plain
from bot.engine.game import Game
from bot.engine.model import ChaosSource
from bot.engine.state import GameState, Phase
from bot.render import (
    Names,
    chaos_lines,
    effect_lines,
    effect_section,
    middle_ref,
    middle_section,
    offer_lines,
    pending_line,
    seat_lines,
    turn_summary,
)
from bot.render.status import fairness_note, house_lines, lobby_lines

# The board is read at a glance; a description this long is already more than that. It also
# keeps the whole embed under the 6000-character message limit with three full fields.
_DESCRIPTION_CAP = 1500
_NAME_CAP = 100  # a ruleset's name, in the title and again in the footer
_EFFECT_TEXT = "      "  # effect_lines puts an effect's text under it with this indent


def board_embed(game: Game, game_id: int | None = None) -> discord.Embed:
    """The board of `game`: whose turn and where its chaos stands, the seats, what's in play,
    the middle and any pending choice. The footer names the ruleset, the turn, the game's
    number (`game_id`, when given) and its seed commitment, shortened."""
    state, ruleset = game.state, game.ruleset
    names = Names.of(game)
    title = clip(ruleset.name, _NAME_CAP)
    if state.phase is Phase.LOBBY:
        embed = discord.Embed(
            title=title,
            description=plain("\n".join(lobby_lines(state, ruleset) + house_lines(state))),
            colour=BOARD_COLOUR,
        )
        embed.set_footer(text=_footer(title, "lobby", game_id, state))
        return embed
    about = [f"**{plain(turn_summary(state, ruleset, names))}**"]
    about += map(plain, house_lines(state))  # the rules in force, under the headline
    if state.phase is Phase.PLAYING:
        about += map(plain, chaos_lines(state, ruleset, names))
        pending = _pending(state, names)
        if pending is not None:
            about.append(plain(pending))
        about += map(plain, offer_lines(state, names))
    embed = discord.Embed(
        title=title,
        description=clip("\n".join(about), _DESCRIPTION_CAP),
        colour=_colour(game),
    )
    seats = seat_lines(state, ruleset, names)
    embed.add_field(name=_heading(seats[0]), value=_code(seats[1:]), inline=False)
    if state.phase is Phase.PLAYING:
        effects = effect_section(state, names)
        embed.add_field(name=_heading(effects[0]), value=_effects(effects), inline=False)
        middle = middle_section(state, ruleset, names)
        if middle:
            embed.add_field(name=_heading(middle[0]), value=_middle(middle, state), inline=False)
    embed.set_footer(text=_footer(title, f"turn {state.turn}", game_id, state))
    return embed


def _footer(title: str, when: str, game_id: int | None, state: GameState) -> str:
    """The ruleset, the turn, the fairness note, and last the game's number (which tells a
    board from other messages). The commitment is for whoever checks the game afterwards, not
    for reading every turn: the footer has its first digits (all `/game verify` needs), and the
    start message has the whole of it."""
    number = None if game_id is None else f"game {game_id}"
    return " · ".join(filter(None, [title, when, fairness_note(state), number]))


def _pending(state: GameState, names: Names) -> str | None:
    """The choice the game waits for; a spite look's cards are the spiting player's secret."""
    if state.pending is not None and state.pending.kind == "spite":
        who = names.player(state.pending.player)
        return f"Waiting for {who} to pick a card from their spite look (only they see it)."
    return pending_line(state, names)


def _colour(game: Game) -> discord.Colour:
    """The current list's colour, so the board matches the results rolled on it."""
    state, ruleset = game.state, game.ruleset
    if state.phase is Phase.ENDED:
        return NEUTRAL_COLOUR
    if ruleset.chaos is ChaosSource.PROGRESSION:
        return list_colour(state.current_list or ruleset.lists[0], ruleset)
    if ruleset.chaos is ChaosSource.DECK:
        return DECK_COLOUR
    return BOARD_COLOUR


def _heading(line: str) -> str:
    """A section's first line as a field name: ``Seats (play goes →):`` → ``Seats (play goes →)``;
    a one-line section (``In play: nothing lasting.``) keeps only what comes before its colon."""
    return plain(line.rstrip(":").partition(": ")[0])


def _inline(line: str) -> str | None:
    """What a one-line section says after its heading (``nothing lasting.``), capitalised."""
    _, colon, rest = line.partition(": ")
    return rest[:1].upper() + rest[1:] if colon and rest else None


def _code(lines: Sequence[str]) -> str:
    """Lines in a code block: the seats are padded into columns, which only a fixed-width font
    keeps; a backtick in a name becomes a look-alike so it can't close the block."""
    body = field_value([line.replace("`", "ˋ") for line in lines], FIELD_LIMIT - 8)
    return f"```\n{body}\n```"


def _effects(section: list[str]) -> str:
    """One effect per line with its duration, its text in italics beneath; without the texts
    when they don't all fit."""
    empty = _inline(section[0])
    if empty is not None:
        return plain(empty)
    effects = effect_items(section[1:])
    full = [f"{head}\n{text}" if text else head for head, text in effects]
    if len("\n".join(full)) <= FIELD_LIMIT:
        return "\n".join(full)
    return field_value([head for head, _ in effects])


def effect_items(lines: Sequence[str]) -> list[tuple[str, str]]:
    """`effect_lines` as (heading in bold, text in italics) per effect: the text whole, for
    Discord to wrap to the reader's screen."""
    effects: list[tuple[str, str]] = []
    for line in lines:
        if line.startswith(_EFFECT_TEXT) and effects:
            head, text = effects[-1]
            effects[-1] = (head, f"{text} {line.strip()}".strip())
        else:
            effects.append((line.strip(), ""))
    return [(f"**{plain(head)}**", f"*{plain(text)}*" if text else "") for head, text in effects]


def effects_text(game: Game) -> str:
    """Every effect in play, for `/effects list`; '' when nothing lasting is in play."""
    items = effect_items(effect_lines(game.state, Names.of(game)))
    return "\n".join(f"{head}\n{text}" if text else head for head, text in items)


def _middle(section: list[str], state: GameState) -> str:
    """The middle's cards, each name a link to the card on Scryfall."""
    empty = _inline(section[0])
    if empty is not None:
        return plain(empty)
    cards = sorted(state.middle.values(), key=lambda card: card.id)
    lines = []
    for card, line in zip(cards, section[1:], strict=False):
        # middle_lines starts each line with the card's id and name: link the name.
        shown = f"{middle_ref(card.number)} {card.name}"
        if line.strip().startswith(shown):
            rest = line.strip().removeprefix(shown)
            lines.append(f"{middle_ref(card.number)} {card_markdown(card.name)}{plain(rest)}")
        else:
            lines.append(plain(line.strip()))
    return field_value(lines)
