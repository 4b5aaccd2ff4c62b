"""``chaos-referee verify GAME.jsonl``: check a finished game's exported log.

Exit 0 when it verifies, 2 when it doesn't (the sentence names the first event that differs),
and 1 when it can't be checked (not a log, not over yet, other tables): :mod:`bot.cli` turns
the ChaosError into that exit code and its message.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.arguments import SubParsers
from bot.verify import MismatchError, verify
from bot.verify.read import read_path
from bot.verify.tables import folder_finder

EXIT_OK = 0
EXIT_MISMATCH = 2


def add_verify_parser(commands: SubParsers) -> None:
    parser = commands.add_parser(
        "verify",
        help="check a finished game's exported log against its revealed seed",
        description="Replay an exported game log (`/game export`) from the seed revealed at"
        " its end: the commitment made at the start, every die and every card drawn must"
        " match. Exit 0 if they do, 2 naming the first event that doesn't, 1 if the file"
        " can't be checked.",
    )
    parser.add_argument("log", type=Path, metavar="GAME.jsonl", help="the exported log")
    parser.add_argument(
        "--commitment",
        metavar="HEX",
        help="the commitment shown when the game started (at least its first 16 digits)",
    )
    parser.add_argument(
        "--tables",
        type=Path,
        metavar="DIR",
        help="the folder of the ruleset the game was played with (default: the bundled one)",
    )
    parser.set_defaults(func=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    data = read_path(args.log)
    try:
        verdict = verify(data, folder_finder(args.tables), expected=args.commitment)
    except MismatchError as error:
        print(f"chaos-referee: verification failed: {error}", file=sys.stderr)
        return EXIT_MISMATCH
    print("\n".join(verdict.lines()))
    return EXIT_OK
