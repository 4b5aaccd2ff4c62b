"""The console's read-only commands: status, log, export, rules, tables, effects, the middle,
card links, dice and help. None of them changes a game.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.commands import (
    Command,
    CommandError,
    card_link,
    help_text,
    picked_rule,
    roll_dice,
    rule_text,
    rules_answer,
)
from bot.commands.grammar import check_text
from bot.commands.house import (
    allow,
    chaos_from,
    deny,
    exclude,
    house_saved,
    house_show,
    include,
    repeats,
    veto,
)
from bot.commands.reference import WIDTH
from bot.commands.tables import lookup, table_list, table_show
from bot.console import tables
from bot.engine.house import HouseRules
from bot.engine.model import Ruleset
from bot.errors import NoGameError
from bot.render import Names, effect_lines, middle_lines, render_status
from bot.render.events import latest_actions
from bot.verify.running import Verifier
from bot.writing import write_regular

if TYPE_CHECKING:
    from bot.console.session import Console


PAGE_OFF = (
    "The live page is off at this console: start it with --web PORT"
    " (`chaos-referee play --web 8080`) and it prints the link."
)


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
            listed = table_list(await _ruleset(console))
            stored = await tables.stored_lines(console.service)
            out.reply(command.name, "\n".join([listed, *stored]))
        case "table show":
            out.reply(command.name, table_show(await _ruleset(console), args["table"]))
        case "table lookup":
            out.reply(command.name, lookup(await _ruleset(console), args["query"]))
        case "table validate":
            out.reply(command.name, await tables.validate(console.service, args["file"]))
        case "table import":
            ruleset = (await _ruleset(console)).id
            out.reply(command.name, await tables.store(console.service, args["file"], ruleset))
        case "table export":
            await _export_table(console, args["table"], args["file"])
        case "house show":
            settings = await console.service.settings(tables.CONSOLE_GUILD)
            out.reply(command.name, house_show(settings.house, await _ruleset(console)))
        case "house chaos_from":
            await _change_house(console, lambda h: chaos_from(h, args["round"]), args)
        case "house veto":
            await _change_house(console, lambda h: veto(h, args["veto"]), args)
        case "house repeats":
            await _change_house(console, lambda h: repeats(h, args["repeats"]), args)
        case "house deny" | "house allow":
            rules = await _ruleset(console)
            change = deny if command.name == "house deny" else allow
            await _change_house(
                console, lambda h: change(h, rules, args["list"], args["entry"]), args
            )
        case "house exclude":
            rules = await _ruleset(console)
            uploads = await console.service.uploaded_tables(tables.CONSOLE_GUILD)
            await _change_house(console, lambda h: exclude(h, rules, args["tag"], uploads), args)
        case "house include":
            await _change_house(console, lambda h: include(h, args["tag"]), args)
        case "chaos log":
            await _log(console, args["count"])
        case "game link":
            out.reply(command.name, console.page_link or PAGE_OFF)
        case "game export":
            await _export(console, args["file"])
        case "game verify":
            verifier = Verifier(console.service.store)
            path = Path(args["file"]).expanduser()
            verdict = await verifier.verify_file(path, expected=args["commitment"])
            out.reply(command.name, "\n".join(verdict.lines()))
        case _:
            await _board(console, command)


async def _change_house(
    console: Console, change: Callable[[HouseRules], HouseRules], args: Mapping[str, Any]
) -> None:
    """A house rule changed for the console's games: the console's database is its server."""
    house, running = await console.service.change_house(
        tables.CONSOLE_GUILD,
        change,
        scope=console.options.scope,
        next_game=args["next_game"],
    )
    shown = house_saved(house, running=running, ruleset=await _ruleset(console))
    console.out.reply("house", shown)


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
    return console.service.ruleset(console.options.ruleset).ruleset


async def _rules(console: Console, topic: str | None) -> str:
    """The rules on `topic`, wrapped to the terminal; a number alone picks from the topics the
    last lookup offered."""
    width = shutil.get_terminal_size((WIDTH, 24)).columns
    outcome = await console.current()
    if outcome is not None:
        ruleset = outcome.game.ruleset.id
        rules = await console.service.rules(console.options.scope)
    else:
        ruleset = console.options.ruleset
        rules = await console.service.rules(ruleset)
    picked = None if topic is None else picked_rule(console.offered_rules, topic)
    if picked is not None:
        return rule_text(picked, rules, width=width)
    answer = rules_answer(rules, topic, ruleset, width=width)
    if answer.offered:  # the last list shown stays to pick from, however many are read
        console.offered_rules = answer.offered
    return answer.text


async def _log(console: Console, count: int) -> None:
    game = (await console.service.latest(console.options.scope)).game
    console.show(list(latest_actions(game.events, count)), game, log=True)


async def _export_table(console: Console, table: str, file: str | None) -> None:
    """`table export`: a stored table's file, printed or written to FILE."""
    table_id, text = await tables.export(console.service, table)
    if file is None:
        console.out.raw("table export", text)
        return
    path = _write(file, text)
    console.out.reply("table export", f"Wrote {table_id} to {path}.")


def _write(file: str, text: str) -> Path:
    """Write `text` into the file the player named; CommandError if it can't be written."""
    path = Path(check_text(file, "a file's name")).expanduser()
    try:
        write_regular(path, text)
    except OSError as error:
        raise CommandError(f"can't write {file}: {error.strerror or error}") from None
    return path


async def _export(console: Console, file: str | None) -> None:
    text = await console.service.export(console.options.scope)
    if file is None:
        console.out.raw("game export", text)
        return
    path = _write(file, text)
    count = text.count("\n")
    console.out.reply("game export", f"Wrote the log ({count} events) to {path}.")
