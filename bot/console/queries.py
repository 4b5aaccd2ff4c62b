"""The console's read-only commands: status, log, export, rules, tables, effects, the middle,
card links, dice and help. None of them changes a game.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import TYPE_CHECKING, cast

from bot.commands import Command, CommandError, card_link, help_text, roll_dice, rules_text
from bot.engine.errors import ChaosError
from bot.engine.events import Event
from bot.engine.model import Ruleset
from bot.errors import NoGameError
from bot.render import Names, effect_lines, middle_lines, render_status
from bot.tables import find_ruleset
from bot.tables.describe import render_deck, render_table

if TYPE_CHECKING:
    from bot.console.session import Console


async def answer(console: Console, command: Command) -> None:
    """Answer a query command on the console's output."""
    args = command.args
    out = console.out
    match command.name:
        case "help":
            out.reply(command.name, help_text(args["group"]))
        case "card":
            out.reply(command.name, card_link(args["name"]))
        case "roll dice":
            out.reply(command.name, roll_dice(args["expr"], console.dice))
        case "rules":
            out.reply(command.name, await _rules(console, args["topic"]))
        case "table list":
            out.reply(command.name, _table_list(await _ruleset(console)))
        case "table show":
            out.reply(command.name, _table_show(await _ruleset(console), args["table"]))
        case "chaos log":
            await _log(console, args["count"])
        case "game export":
            await _export(console, args["file"])
        case _:
            await _board(console, command)


async def _board(console: Console, command: Command) -> None:
    """game status, effects list, middle list: views of the game in progress."""
    outcome = await console.current()
    if outcome is None:
        raise NoGameError(f"There's no game in progress at table {console.options.game!r}.")
    game = outcome.game
    state, ruleset = game.state, game.ruleset
    names = Names.of(game)
    if command.name == "game status":
        text = render_status(state, ruleset)
    elif command.name == "effects list":
        found = effect_lines(state, names)
        text = "\n".join(["In play:", *found]) if found else "Nothing lasting is in play."
    else:
        cards = middle_lines(state, ruleset, names)
        text = "\n".join(["The middle:", *cards]) if cards else "The middle is empty."
    console.out.reply(command.name, text)


async def _ruleset(console: Console) -> Ruleset:
    """The ruleset of the game in progress, else the console's --ruleset."""
    outcome = await console.current()
    if outcome is not None:
        return outcome.game.ruleset
    return find_ruleset(console.options.ruleset).ruleset


async def _rules(console: Console, topic: str | None) -> str:
    outcome = await console.current()
    if outcome is not None:
        ruleset = outcome.game.ruleset.id
        rules = await console.service.rules(console.options.scope)
    else:
        ruleset = console.options.ruleset
        rules = await console.service.rules(ruleset)
    return rules_text(rules, topic, ruleset)


def _table_names(ruleset: Ruleset) -> dict[str, str]:
    names = {t.id: t.name for t in ruleset.tables.values()}
    names.update({d.id: d.name for d in ruleset.decks.values()})
    return names


def _table_list(ruleset: Ruleset) -> str:
    width = max(len(t) for t in _table_names(ruleset))
    lines = [f"Lists and decks of {ruleset.name} (`table show ID` prints one):"]
    for table in ruleset.tables.values():
        lines.append(f"  {table.id:<{width}}  {table.name} ({table.dice.notation})")
    for deck in ruleset.decks.values():
        count = sum(card.copies for card in deck.cards)
        lines.append(f"  {deck.id:<{width}}  {deck.name} ({count} cards)")
    return "\n".join(lines)


def _table_show(ruleset: Ruleset, wanted: str) -> str:
    names = _table_names(ruleset)
    key = wanted.casefold()
    found = next((i for i, n in names.items() if key in (i.casefold(), n.casefold())), None)
    if found is None:
        close = difflib.get_close_matches(key, [*names, *(n.casefold() for n in names.values())])
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise CommandError(
            f"{ruleset.name} has no list or deck {wanted!r}.{hint} (there are: {', '.join(names)})"
        )
    if found in ruleset.tables:
        return render_table(ruleset.tables[found], names)
    return render_deck(ruleset.decks[found], names)


async def _all_events(console: Console) -> tuple[list[Event], Names]:
    """The table's latest game (in progress or ended) and the names it uses."""
    outcome = await console.current()
    if outcome is not None:
        return outcome.game.events, Names.of(outcome.game)
    text = await console.service.export(console.options.scope)
    events = [cast(Event, json.loads(line)) for line in text.splitlines() if line]
    started = next((e for e in events if e["type"] == "game_started"), None)
    ruleset = None
    if started is not None:
        try:
            ruleset = find_ruleset(started["ruleset"]).ruleset
        except ChaosError:  # pragma: no cover - a ruleset no longer bundled: names stay ids
            ruleset = None
    return events, Names.collect(events, ruleset)


async def _log(console: Console, count: int) -> None:
    events = await console.service.log(console.options.scope, count)
    _, names = await _all_events(console)
    console.out.events(events, names, log=True)


async def _export(console: Console, file: str | None) -> None:
    text = await console.service.export(console.options.scope)
    if file is None:
        console.out.raw("game export", text)
        return
    path = Path(file).expanduser()
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise CommandError(f"can't write {file}: {error.strerror or error}") from None
    count = text.count("\n")
    console.out.reply("game export", f"Wrote the log ({count} events) to {path}.")
