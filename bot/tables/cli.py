"""``chaos-referee tables ...``: check, show and simulate tables from the command line.

Each subcommand registers itself through :data:`COMMANDS`; a new one (``tables import``, say)
is a function taking the ``tables`` subparsers, added to that tuple. Handlers return an exit
code and let ChaosError through: :mod:`bot.cli` turns it into exit 1 and its message.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from bot.arguments import SubParsers, whole
from bot.engine.errors import TableError
from bot.tables.check import check_paths
from bot.tables.dealpete import MAX_INPUT_BYTES, convert_dealpete, write_conversion
from bot.tables.describe import render_deck, render_table
from bot.tables.files import load_file
from bot.tables.folders import LoadedRuleset, load_ruleset
from bot.tables.problems import UnknownRulesetError
from bot.tables.registry import RULESET_FILE, load_bundled
from bot.tables.report import render_report
from bot.tables.simulate import simulate
from bot.tables.yamlnodes import read_regular

# The same codes as bot.cli (which imports this module, so it can't be imported from here).
EXIT_OK = 0
EXIT_PROBLEMS = 1


def add_tables_parser(commands: SubParsers) -> None:
    """Add ``tables`` and its subcommands to the top-level command's subparsers."""
    parser = commands.add_parser(
        "tables",
        help="check, show and simulate table files",
        description="Work with the YAML tables, decks and rulesets (see docs/tables.md).",
    )
    sub = parser.add_subparsers(dest="tables_command", metavar="SUBCOMMAND", required=True)
    for register in COMMANDS:
        register(sub)


def _check_command(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "check",
        help="validate files or folders; one line per problem",
        description="Validate table, deck and ruleset files. Exit 0 when all are valid, 1 with"
        " one line per problem otherwise.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.set_defaults(func=run_check)


def _show_command(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "show",
        help="print a table or deck as players read it",
        description="Print a list or deck: its dice, directions and every result.",
    )
    parser.add_argument("table", metavar="TABLE", help="a list or deck id, or a .yaml file")
    parser.add_argument("--ruleset", metavar="R", help="the ruleset to look in")
    parser.add_argument("--path", type=Path, metavar="DIR", help="tables folder to use instead")
    parser.set_defaults(func=run_show)


def _simulate_command(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "simulate",
        help="play many turns of chaos and count what comes up",
        description="Play N turns of chaos with four players and report, for each table, how"
        " often each entry came up, with the share of meta results, rolls per turn, nesting"
        " depth, budget exhaustions, turns on each list and deck reshuffles.",
    )
    parser.add_argument("ruleset", metavar="RULESET", help="a ruleset id, or its folder")
    parser.add_argument("--turns", type=whole(1, 100_000), default=100, metavar="N")
    parser.add_argument("--seed", type=whole(), default=1, metavar="S")
    parser.add_argument("--players", type=whole(1, 12), default=4, metavar="P")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--path", type=Path, metavar="DIR", help="tables folder to use instead")
    parser.set_defaults(func=run_simulate)


def _import_command(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "import",
        help="convert lists from another format into a ruleset folder",
        description="Convert a list file from another format into our YAML, ready to play."
        " Each quirk of the source is reported as a warning with how it was resolved.",
    )
    parser.add_argument("file", type=Path, metavar="FILE")
    parser.add_argument(
        "--from",
        dest="source_format",
        choices=["dealpete"],
        required=True,
        help="the format of FILE (dealpete: Peter Deal's chaos.yaml)",
    )
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="DIR")
    parser.add_argument("--overwrite", action="store_true", help="replace files already in DIR")
    parser.set_defaults(func=run_import)


COMMANDS: tuple[Callable[[SubParsers], None], ...] = (
    _check_command,
    _show_command,
    _simulate_command,
    _import_command,
)


def run_import(args: argparse.Namespace) -> int:
    """Convert, report every warning, write the folder, then check it like any other."""
    data = read_regular(args.file, str(args.file), MAX_INPUT_BYTES)
    if len(data) > MAX_INPUT_BYTES:
        raise TableError(f"{args.file}: the file is over {MAX_INPUT_BYTES:,} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TableError(f"{args.file}: can't read it: it isn't UTF-8 text ({error})") from None
    conversion = convert_dealpete(text, args.file.name)
    for warning in conversion.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    written = write_conversion(conversion, args.output, overwrite=args.overwrite)
    result = check_paths([args.output])
    print(
        f"wrote {len(written)} files to {args.output} (ruleset {conversion.ruleset_id!r},"
        f" {len(conversion.warnings)} warnings)"
    )
    named = conversion.named
    account = named.account
    for report in account.reported:
        print(f"not read: {report}", file=sys.stderr)
    for report in account.silent:
        print(f"silent: {report}", file=sys.stderr)
    if named.results:
        print(
            f"{len(named.results)} results name other lists in their text: rolled at once,"
            f" {named.links} as links, {named.times} as {{times: N}}, {named.each} as"
            f" {{each: [...]}}, {named.random} as {{random: [...]}} and {named.chaos} as"
            f" {{chaos: N}}; {named.offers} offer rolls"
        )
    converted, reported, silent = account.counts
    print(
        f"results whose text speaks of rolls or lists: {converted} converted, {reported}"
        f" reported (the words not read are listed above as 'not read'), {silent} silent"
    )
    for problem in result.problems:
        print(problem)
    print(result.summary())
    return EXIT_PROBLEMS if result.problems else EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    result = check_paths(args.paths)
    for problem in result.problems:
        print(problem)
    for warning in result.warnings:
        print(f"warning: {warning}")
    if result.problems:
        print(f"chaos-referee: {result.summary()}", file=sys.stderr)
        return EXIT_PROBLEMS
    print(result.summary())
    return EXIT_OK


def _rulesets(path: Path | None) -> dict[str, LoadedRuleset]:
    """The rulesets in a tables folder (or the one in a ruleset folder), bundled by default."""
    if path is not None and (path / RULESET_FILE).is_file():
        loaded = load_ruleset(path)
        return {loaded.id: loaded}
    if path is not None and not path.is_dir():
        raise TableError(f"{path} is not a folder")
    return load_bundled(path)


def _pick(rulesets: dict[str, LoadedRuleset], name: str) -> LoadedRuleset:
    if name not in rulesets:
        known = ", ".join(sorted(rulesets)) or "none"
        raise UnknownRulesetError(f"there is no ruleset {name!r} (rulesets: {known})")
    return rulesets[name]


def run_show(args: argparse.Namespace) -> int:
    name: str = args.table
    if name.endswith((".yaml", ".yml")) or Path(name).is_file():
        loaded = load_file(Path(name))
        if loaded.table is not None:
            print(render_table(loaded.table, {loaded.id: loaded.title}))
        elif loaded.deck is not None:
            print(render_deck(loaded.deck, {loaded.id: loaded.title}))
        else:
            raise TableError(f"{name} is a ruleset; show one of its tables: {loaded.id}")
        return EXIT_OK
    rulesets = _rulesets(args.path)
    if args.ruleset is not None:
        rulesets = {args.ruleset: _pick(rulesets, args.ruleset)}
    holders = [r for r in rulesets.values() if name in r.ruleset.tables or name in r.ruleset.decks]
    if not holders:
        known = sorted(
            {t for r in rulesets.values() for t in (*r.ruleset.tables, *r.ruleset.decks)}
        )
        raise TableError(f"there is no list or deck {name!r} (there are: {', '.join(known)})")
    if len(holders) > 1:
        which = ", ".join(r.id for r in holders)
        raise TableError(f"{name!r} is in several rulesets ({which}); pick one with --ruleset")
    ruleset = holders[0].ruleset
    names = {t.id: t.name for t in ruleset.tables.values()}
    names.update({d.id: d.name for d in ruleset.decks.values()})
    if name in ruleset.tables:
        print(render_table(ruleset.tables[name], names))
    else:
        print(render_deck(ruleset.decks[name], names))
    return EXIT_OK


def run_simulate(args: argparse.Namespace) -> int:
    folder = Path(args.ruleset)
    if (folder / RULESET_FILE).is_file():
        loaded = load_ruleset(folder)
    else:
        loaded = _pick(_rulesets(args.path), args.ruleset)
    report = simulate(loaded.ruleset, turns=args.turns, seed=args.seed, players=args.players)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(render_report(report, loaded.ruleset))
    return EXIT_OK
