"""The console shows no Discord markdown (issue 24).

A terminal prints ``~~1~~`` and ``**6**`` as they are typed. Texts shared with Discord are
written plainly where the console shows them: a dropped die says ``1 dropped``, and backticks
only quote what a player types (``chaos roll``, ``/table import``, ``E2``), never mark a number
or a word up. This plays a whole varied game in each bundled ruleset through the real console:
every command of the console's grammar (generated from it, so a new command is played here too),
dice with keep, drop, advantage and rerolls, rules answers, every list shown, the status board,
the log and the recap at the game's end; and reads every line it printed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.commands.grammar import SPECS
from bot.tables import find_ruleset
from tests.console.test_transcripts import play

# What each word of a command's usage stands for, when the command needs it. A new command
# whose usage has a word not here fails test_every_command_is_played: add the word.
FILL = {
    "NAME": "Dan",
    "A,B,C": "Ann,Bob,Cy",
    "PLAYER": "Bob",
    "N": "3",
    "OPTION": "1",
    "EXPR": "4d6kh3",
    "never|allowed": "never",
    "CARD NAME": "Black Lotus",
    "NUMBER|NAME": "5",
    "slow|choice|swingy|mana|creature": "slow",  # house exclude / include: a tag
    "on|off": "on",  # house veto
}
# Usage words filled per command: an id, a list, a file.
BY_COMMAND = {
    "effects end": {"ID": "E1"},
    "middle play": {"ID": "M1"},
    "card": {"NAME": "Black Lotus"},
}
# Commands played last, in this order (the game ends, then it is exported and checked).
LAST = ("game leave", "game end", "game export", "game verify", "game start", "quit")
# Dice of every kind a table rolls: keep and drop, advantage, rerolls, explosions, sets.
DICE = (
    "roll 4d6kh3",
    "roll 2d20kl1",
    "roll 1d20+5 adv",
    "roll 1d20 dis",
    "roll 4d6p1",
    "roll 2d6ro1",
    "roll 1d8rr<3",
    "roll 1d6!",
    "roll 3d6mi3",
    "roll (1d6, 2d6)kh1",
    "roll (1d4+1)*3",
    "roll dice 10d6kh2",
)
RULESETS = ("classic", "lists", "deck")


def usage_words(name: str) -> list[str]:
    """The words a command's usage needs after its name (optional parts left out)."""
    rest = SPECS[name].usage.removeprefix(name)
    rest = re.sub(r"\[[^\]]*\]", " ", rest)
    words = rest.split()
    # Two-word placeholders read as one.
    joined = " ".join(words)
    for double in ("CARD NAME",):
        joined = joined.replace(double, double.replace(" ", "\0"))
    return [w.replace("\0", " ") for w in joined.split()]


def command_line(name: str, table: str, folder: Path) -> str:
    """`name` with every word its usage needs filled in."""
    files = {
        "game export": {"FILE": str(folder / "game.jsonl")},
        "game verify": {"FILE": str(folder / "game.jsonl")},
        "table export": {"TABLE": table, "FILE": str(folder / "list.yaml")},
        "table import": {"FILE": str(folder / "list.yaml")},
        "table validate": {"FILE": str(folder / "list.yaml")},
        "table show": {"TABLE": table},
        "house deny": {"LIST": table, "ENTRY": "5"},
        "house allow": {"LIST": table, "ENTRY": "5"},
    }
    fill = {**FILL, **BY_COMMAND.get(name, {}), **files.get(name, {})}
    words = [fill[word] for word in usage_words(name)]  # KeyError: teach FILL the word
    return " ".join([name, *words])


def session(ruleset: str, folder: Path) -> list[str]:
    rules = find_ruleset(ruleset).ruleset
    lists = sorted(rules.tables) or sorted(rules.decks)
    first = rules.chaos_table or lists[0]
    names = [n for n in SPECS if n not in LAST]
    lines = [
        "game status",
        "chaos roll",
        "chaos reveal",
        "chaos choose 1",
        "middle add Black Lotus",
        *DICE,
        "rules",
        "rules counter",
        "rules spite",
        "rules global",
        *(f"table show {table}" for table in lists),
        *(f"help {group}" for group in sorted({n.split()[0] for n in SPECS})),
        *(command_line(name, first, folder) for name in names),
        "turn next override",
        "chaos roll",
        "chaos reveal",
        "game status",
        "effects list",
        "middle list",
        *(command_line(name, first, folder) for name in LAST if name != "quit"),
        "game status",
        "chaos log 200",
        "quit",
    ]
    return lines


def test_every_command_is_played(tmp_path: Path) -> None:
    """Each command of the grammar has a line in the session (so a new one is read too)."""
    played = " \n".join(session("classic", tmp_path))
    for name in SPECS:
        assert re.search(rf"^{re.escape(name)}\b", played, re.MULTILINE), name


# Backticks quote what a player types: a console command or any literal word of the grammar's
# usages (`chaos roll`, `extra`, `next game`), the program and its options (`chaos-referee
# play --web 8080`, `exit`), a Discord command or option named as such (`/table import`,
# "on Discord `next_game:True`"), a number as typed (`#17`, `E2`, `M1`, `0`), dice notation
# (`4d6kh3`, `dis`), or the `as NAME:` prefix. Anything else in backticks is markup.
TYPED_WORDS = {
    word
    for spec in SPECS.values()
    for word in re.split(r"[^a-z_-]+", f"{spec.name} {spec.usage}")
    if word
} | {"as", "chaos-referee", "play", "exit", "adv", "dis"}
TYPED = re.compile(
    r"(?:/|--)[a-z]|#[0-9]|[EMR][0-9]+$|[0-9(][0-9a-z!<>()+*/%,. -]*$|[a-z_]+:[A-Za-z0-9]+$"
)


def markup(line: str) -> list[str]:
    """What in `line` is Discord markdown rather than plain text."""
    found = [mark for mark in ("~~", "**", "__", "\\*", "\\_", "\\`", "\\~", "||") if mark in line]
    if line.count("`") % 2:
        found.append("an odd backtick")
    for quoted in re.findall(r"`([^`]*)`", line):
        words = quoted.split()
        if not words or (words[0] not in TYPED_WORDS and not TYPED.match(quoted)):
            found.append(f"`{quoted}`")
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_console_shows_no_discord_markdown(ruleset: str, tmp_path: Path) -> None:
    stdin = "\n".join(session(ruleset, tmp_path)) + "\n"
    stdout = play(
        tmp_path, "--players", "Ann,Bob,Cy", "--ruleset", ruleset, "--seed", "24", stdin=stdin
    )
    shown = [line for line in stdout.splitlines() if not line.startswith("> ")]
    # The session reached what it set out to show: dice with dropped dice, a rules answer, a
    # list, the board, and the recap.
    text = "\n".join(shown)
    assert re.search(r"^4d6kh3 \(.*\b[1-6] dropped\b.*\) = [0-9]+$", text, re.MULTILINE)
    assert re.search(r"^2d20kh1 \(.*dropped.*\) \+ 5 = [0-9]+$", text, re.MULTILINE)
    assert "How the bot handles it" in text
    assert "Seats (play goes" in text
    assert "Recap: " in text
    bad = {line: markup(line) for line in shown if markup(line)}
    assert not bad, "\n".join(f"{marks}: {line}" for line, marks in bad.items())
