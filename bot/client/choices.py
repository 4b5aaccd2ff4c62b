"""Autocomplete: at most 25 suggestions for what the player is typing.

Every function here has the signature discord.py expects of an autocomplete callback. They never
raise: a suggestion that can't be made is simply left out (an autocomplete answer is shown to
nobody if it fails, and the player may still type anything; the command checks it).

Each is wrapped in :func:`latest_only` (a member's newest keystroke is worked on, the older ones
left unanswered: :mod:`bot.client.keystrokes`), and none does work on the event loop that grows
with the tables: ranked searches and lists longer than :data:`ON_LOOP` go to the searches'
thread (:mod:`bot.client.searches`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine.errors import ChaosError
from bot.engine.game import Game
from bot.engine.model import Ruleset
from bot.engine.offered import in_turn
from bot.render.ids import effect_ref, middle_ref
from bot.tables import LoadedRuleset, load_bundled

if TYPE_CHECKING:
    from bot.client.bot import ChaosBot
    from bot.engine.state import ActiveEffect, MiddleCard

log = logging.getLogger(__name__)

LIMIT = 25  # Discord shows at most 25 choices
ON_LOOP = 300  # (name, value) pairs picked from on the event loop; longer lists go to the thread
MAX_TYPED = 200  # characters read of what is typed; Discord's options here take at most 100
Choice = app_commands.Choice[str]
Callback = Callable[[discord.Interaction[Any], str], Awaitable[list[Choice]]]
LATEST_ONLY = "__latest_only__"  # set on a wrapped callback (a test checks every one is)


def latest_only(callback: Callback) -> Callback:
    """`callback` for the newest keystroke of each member in each option only (an older one
    is left unanswered, at once), with what is typed cut to a length no option exceeds."""

    @functools.wraps(callback)
    async def answer(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
        key = (interaction.user.id, *_focused(interaction.data or {}))
        typed = typed[:MAX_TYPED]
        found = await _bot(interaction).keystrokes.latest(
            key, lambda: callback(interaction, typed), None
        )
        if found is None:
            leave_unanswered(interaction)
            return []
        return found

    setattr(answer, LATEST_ONLY, True)
    return answer


def leave_unanswered(interaction: discord.Interaction[Any]) -> None:
    """Send no answer to an outdated request. Discord shows the answer to a member's newest
    request only, and each answer is a web request the event loop makes: in a flood, most of
    the loop's work. discord.py answers whatever an autocomplete returns unless the response
    is already done, and offers no public way to say so; its own mark is set here, as it sets
    it (tests/client/test_keystrokes.py checks discord.py still reads it). Without the mark,
    the request is answered with no suggestions, which is only slower."""
    response = interaction.response
    if hasattr(response, "_response_type"):
        response._response_type = discord.InteractionResponseType.autocomplete_result


def _focused(data: Any) -> tuple[str, ...]:
    """The command's name, its subcommand's, and the option being typed into."""
    path = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options:
        sub = next((o for o in options if o.get("type") in (1, 2)), None)
        if sub is None:
            focused: Any = next((o for o in options if o.get("focused")), {})
            return (*path, str(focused.get("name", "")))
        path.append(str(sub.get("name", "")))
        options = sub.get("options") or []
    return (*path, "")


async def pick_any(
    interaction: discord.Interaction[Any],
    pairs: Callable[[], Sequence[tuple[str, str]]],
    size: int,
    typed: str,
) -> list[Choice]:
    """:func:`pick` over `size` pairs, made by `pairs()`: on the event loop for a short list,
    on the searches' thread for a long one."""
    if size <= ON_LOOP:
        return pick(pairs(), typed)
    return await _bot(interaction).searches.run(lambda: pick(pairs(), typed), [])


def pick(pairs: Iterable[tuple[str, str]], typed: str) -> list[Choice]:
    """(name, value) pairs whose name or value contains what was typed, starts first."""
    wanted = typed.casefold().strip()
    starts: list[Choice] = []
    inside: list[Choice] = []
    for name, value in pairs:
        shown = _shown(name)
        text = f"{name} {value}".casefold()
        if not wanted or name.casefold().startswith(wanted) or value.casefold().startswith(wanted):
            starts.append(Choice(name=shown, value=value[:100]))
        elif wanted in text:
            inside.append(Choice(name=shown, value=value[:100]))
        if len(starts) >= LIMIT:
            break
    return (starts + inside)[:LIMIT]


def _shown(name: str) -> str:
    return name if len(name) <= 100 else name[:99] + "…"


def _bot(interaction: discord.Interaction[Any]) -> ChaosBot:
    return interaction.client  # type: ignore[no-any-return]


def _scope(interaction: discord.Interaction[Any]) -> str | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    return f"{interaction.guild_id}:{interaction.channel_id}"


async def game_ruleset(
    interaction: discord.Interaction[Any],
) -> tuple[Ruleset, LoadedRuleset | None]:
    """The ruleset of the game here, else the guild's default ruleset."""
    bot = _bot(interaction)
    scope = _scope(interaction)
    if scope is not None:
        try:
            outcome = await bot.service.current(scope)
            return outcome.game.ruleset, None
        except ChaosError:
            pass
    default = "classic"
    if interaction.guild_id is not None:
        default = (await bot.service.settings(str(interaction.guild_id))).default_ruleset
    loaded = load_bundled().get(default) or next(iter(load_bundled().values()))
    return loaded.ruleset, loaded


@latest_only
async def rulesets(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    found = load_bundled()
    return pick(((f"{r.ruleset.name} ({i})", i) for i, r in found.items()), typed)


async def _game_here(interaction: discord.Interaction[Any]) -> Game | None:
    """The game in progress where the interaction happened, if any."""
    scope = _scope(interaction)
    if scope is None:
        return None
    try:
        return (await _bot(interaction).service.current(scope)).game
    except ChaosError:
        return None


@latest_only
async def players(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    game = await _game_here(interaction)
    if game is None:
        return []
    state = game.state
    order = [p for p in state.order if p in state.players]
    order += [p for p in state.players if p not in order]
    return pick(((state.players[p].name, p) for p in order), typed)


@latest_only
async def options(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    """The options of the choice the game waits for, by number. A spite look's cards are the
    top of a deck: they are suggested to the spiting player alone, as its menu is."""
    game = await _game_here(interaction)
    pending = None if game is None else game.state.pending
    if pending is None or (pending.private and pending.player != str(interaction.user.id)):
        return []
    return pick(((f"{n}) {name}", str(n)) for n, (_, name) in enumerate(pending.options, 1)), typed)


@latest_only
async def offered(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    """The lists of the rolls on offer now (a multi-roll's wait first), for /chaos decline."""
    game = await _game_here(interaction)
    if game is None:
        return []
    tables = game.ruleset.tables
    found = [
        (f"{tables[t].name if t in tables else t} (offered by {offer.name})", t)
        for offer in in_turn(game.state)
        for t in offer.tables
    ]
    return pick(found, typed)


@latest_only
async def effects(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    """The effects in play, as ``E2 Fog``; the value is ``E2``, which /effects end reads."""
    game = await _game_here(interaction)
    return [] if game is None else _refs(game.state.effects.values(), effect_ref, typed)


@latest_only
async def middle_cards(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    """The cards in the middle, as ``M3 Fog``; the value is ``M3``, which /middle play reads."""
    game = await _game_here(interaction)
    return [] if game is None else _refs(game.state.middle.values(), middle_ref, typed)


def _refs(
    things: Iterable[ActiveEffect | MiddleCard], ref: Callable[[int], str], typed: str
) -> list[Choice]:
    """Things with a number and a name, in number order, offered by the number as written
    (`ref`)."""
    found = sorted(things, key=lambda thing: thing.number)
    return pick(((f"{ref(t.number)} {t.name}", ref(t.number)) for t in found), typed)


@latest_only
async def lists(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    ruleset, _ = await game_ruleset(interaction)
    found = ruleset.tables.values()
    return await pick_any(
        interaction,
        lambda: [(f"{t.name} ({t.dice.notation})", t.id) for t in found],
        len(found),
        typed,
    )


@latest_only
async def tables(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    """Lists and decks of the ruleset in play (or the default one)."""
    ruleset, _ = await game_ruleset(interaction)

    def pairs() -> list[tuple[str, str]]:
        found = [(t.name, t.id) for t in ruleset.tables.values()]
        return found + [(d.name, d.id) for d in ruleset.decks.values()]

    return await pick_any(interaction, pairs, len(ruleset.tables) + len(ruleset.decks), typed)


@latest_only
async def entries(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    """The results of the list (by number) or the cards of the deck named in `table` (or
    `list`: /house deny); with no table, the best entries of every list and deck for the name
    typed, by the ranked search."""
    ruleset, _ = await game_ruleset(interaction)
    namespace = interaction.namespace
    named = getattr(namespace, "table", "") or getattr(namespace, "list", "") or ""
    wanted = str(named)[:MAX_TYPED].casefold()
    if not wanted.strip():
        found = await _bot(interaction).searches.entries(ruleset, typed[:100])
        return [Choice(name=_shown(p.title), value=p.value[:100]) for p in found]
    table = next(
        (t for t in ruleset.tables.values() if wanted in (t.id.casefold(), t.name.casefold())),
        None,
    )
    if table is not None:
        bands = table.bands
        return await pick_any(
            interaction,
            lambda: [(f"{b.label} {b.entry.name}", str(b.low)) for b in bands],
            len(bands),
            typed,
        )
    deck = next(
        (d for d in ruleset.decks.values() if wanted in (d.id.casefold(), d.name.casefold())),
        None,
    )
    if deck is not None:
        cards = deck.cards
        return await pick_any(
            interaction, lambda: [(c.entry.name, c.entry.name) for c in cards], len(cards), typed
        )
    return []


@latest_only
async def topics(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    _, loaded = await game_ruleset(interaction)
    scope = _scope(interaction)
    try:
        if loaded is not None:
            rules = loaded.rules
        elif scope is not None:
            rules = await _bot(interaction).service.rules(scope)
        else:
            return []
    except ChaosError:
        return []
    found = await _bot(interaction).searches.topics(tuple(rules), typed)
    return [Choice(name=_shown(f"{r.title} ({r.id})"), value=r.id[:100]) for r in found]


@latest_only
async def uploads(interaction: discord.Interaction[Any], typed: str) -> list[Choice]:
    """The tables this server uploaded. `typed` may name several, separated by commas: the
    last one is completed and the others kept."""
    if interaction.guild_id is None:
        return []
    stored = await _bot(interaction).service.guild_table_revisions(str(interaction.guild_id))
    head, _, last = typed.rpartition(",")
    chosen = [part.strip() for part in head.split(",") if part.strip()]
    before = "".join(f"{part}, " for part in chosen)
    pairs = [
        (f"{table} (revision {revision})", table)
        for table, revision in stored
        if table not in chosen
    ]
    found = await pick_any(interaction, lambda: pairs, len(pairs), last)
    return [
        Choice(name=(before + c.name)[:100], value=before + c.value)
        for c in found
        if len(before + c.value) <= 100
    ]
