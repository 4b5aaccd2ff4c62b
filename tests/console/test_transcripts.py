"""The real `chaos-referee` as a subprocess: a transcript per ruleset, resuming, and --json.

Each test feeds stdin to a fresh process with its own database in a temporary folder and checks
the meaningful lines of stdout, in order. Seeds make every run play the same game.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import DISCORD_HINT
from bot.commands import find_rules
from bot.tables import find_ruleset

SETTINGS = ("DISCORD_TOKEN", "CHAOS_DB_PATH", "CHAOS_LOG_LEVEL", "CHAOS_IDLE_DAYS")


def run(
    folder: Path, *args: str, stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` in `folder`, with no settings from the caller's environment."""
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=folder,
        env={**clean, **(env or {})},
    )


def play(folder: Path, *args: str, stdin: str, env: dict[str, str] | None = None) -> str:
    """A console session that must end cleanly; its stdout."""
    result = run(folder, "play", "--db", str(folder / "games.db"), *args, stdin=stdin, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "Traceback" not in result.stdout
    assert "internal error" not in result.stdout
    return result.stdout


def assert_in_order(stdout: str, *patterns: str) -> list[re.Match[str]]:
    """Each pattern matches a whole line of stdout, each after the line the previous one matched."""
    lines = stdout.splitlines()
    at = 0
    found = []
    for pattern in patterns:
        for i in range(at, len(lines)):
            if match := re.fullmatch(pattern, lines[i]):
                found.append(match)
                at = i + 1
                break
        else:
            shown = "\n".join(lines[at:])
            raise AssertionError(f"no line matches {pattern!r} after line {at}:\n{shown}")
    return found


def block(stdout: str, command: str) -> list[str]:
    """The lines a command printed: after its echo, up to the next echo or the goodbye."""
    lines = stdout.splitlines()
    start = lines.index(f"> {command}") + 1
    end = start
    while end < len(lines) and not lines[end].startswith(("> ", "The game is saved")):
        end += 1
    return lines[start:end]


CLASSIC = """\
turn next
chaos roll
chaos rol
as Zed: chaos roll
turn next
as Bob: chaos roll
as Bob: chaos counter
life lose Cy 25
chaos undo
turn next override
game status
rules spite
help turn
"""


def test_classic_transcript(tmp_path: Path) -> None:
    stdout = play(tmp_path, "--players", "Ann,Bob,Cy", "--seed", "3", stdin=CLASSIC)
    assert_in_order(
        stdout,
        r"Ann opens a classic game \(seed 3, 20 life\)\.",
        r"Seats are locked: Ann, Bob, Cy\.",
        r"Ann rolls EnchantWorldLand d20 \[\d+\] = \d+ → #\d+ .+",
        r" +\+ E\d+ .+ stays in play as a world enchantment\.",
        r"── Turn 1 — Ann ──",
        r"> turn next",
        r"! Ann hasn't made this turn's chaos roll yet: `chaos roll` first \(a referee may end"
        r" the turn without it: `turn next override`\)",
        r"> chaos roll",
        r"Ann rolls Chaos List d20×d10 \[\d+, \d+\] = \d+ → #\d+ .+",
        r"> chaos rol",
        r"! `chaos` has no 'rol': did you mean `chaos roll`\? .*",
        r"> as Zed: chaos roll",
        r"! there's no player 'Zed' in this game \(players: Ann, Bob, Cy\)",
        r"> turn next",
        r"── Turn 2 — Bob ──",
        r"Bob rolls Chaos List d20×d10 .+",
        r"> as Bob: chaos counter",
        r"! Bob has no CounterRoll",
        r"> life lose Cy 25",
        r"Cy: -5 life \(-25, lose by Bob\)\.",
        r"Cy would lose, and gets a spite: one roll on the Chaos List, .+",
        r"Cy rolls Chaos List d20×d10 .+",
        r"Cy (is out: .+|survives the spite)\.",
        r"> chaos undo",
        r"Undone: life lose Cy 25 \(by Bob\)\.",
        r"> turn next override",
        r"── Turn 3 — Cy ──",
        r"> game status",
        r"Classic Chaos · turn 3 · Cy's turn — roll chaos \(`chaos roll`\)\.",
        r" ▶ Cy +20 life",
        r"> rules spite",
        r"The Spite Roll \(spite-roll\)",
        r"> help turn",
        r"turn next \[override\]",
        r"The game is saved: `chaos-referee play --game default` picks it up\.",
    )
    # The same seed and the same commands play the same game.
    again = tmp_path / "again"
    again.mkdir()
    assert play(again, "--players", "Ann,Bob,Cy", "--seed", "3", stdin=CLASSIC) == stdout


LISTS = """\
as Ann: game start lists seed 11
game join Bob
game join Cy
game begin
chaos roll
middle add Black Lotus
middle list
turn next
as cy: player away 1
chaos roll
game status
turn next
chaos roll Vortex
table show nowhere
game end
game status
game export log.jsonl
"""


def test_lists_transcript_started_by_commands(tmp_path: Path) -> None:
    stdout = play(tmp_path, "--game", "friday", stdin=LISTS)
    found = assert_in_order(
        stdout,
        r"No game at table 'friday' yet\. Start one with .+",
        r"Ann opens a lists game \(seed 11, 20 life\)\.",
        r"Bob joins the game\.",
        r"Seats are locked: Ann, Bob, Cy\.",
        r"Ann rolls Global d12×d10 \[\d+, \d+\] = \d+ → #\d+-\d+ .+",
        r" +\+ E\d+ .+ stays in play as the Global\.",
        r"── Turn 1 — Ann ──",
        r"Ann rolls List A d8×d10 .+",
        r"M(\d+) Black Lotus goes into the middle \(Ann\)\.",
        r"> middle list",
        r"  M(\d+) Black Lotus \(from Ann, turn 1\)",
        r"── Turn 2 — Bob ──",
        r"Cy steps away and misses their next turn\.",
        r"Bob rolls List [AB] d8×d10 .+",
        r"Chaos Lists A–F · turn 2 · Bob's turn — chaos done \(`turn next`\)\.",
        r"   Cy +20 life  \[away \(1 turn\)\]",
        r"Current list: List [AB]",
        r"The middle world:",
        r"Cy is away: their turn is passed over\.",
        r"── Turn 3 — Ann ──",
        r"Ann rolls The Vortex 3d8 \[\d+, \d+, \d+\] = \d+ → #\d+ .+",
        r"! Chaos Lists A–F has no list or deck 'nowhere'\. .+",
        r"Game over: ended by Ann\.",
        # The recap: who was left, the counts, the seed and how to check it.
        r"Recap: Game over \(ended by Ann\)\. Still in at the end: Ann, Bob, Cy\.",
        r"  Ann: still in at the end",
        r"  Bob: still in at the end",
        r"  Cy: still in at the end",
        r"3 turns played, (\d+) rolls made\.",
        r"Seed 11, salt [0-9a-f]+: export the log and check every roll against them with"
        r" `game verify`\.",
        r"! There's no game in progress at table 'friday'\.",
        r"Wrote the log \((\d+) events\) to log\.jsonl\.",
    )
    assert found[8].group(1) == found[10].group(1)  # the card keeps its number
    exported = (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(exported) == int(found[-1].group(1))
    events = [json.loads(line) for line in exported]
    assert events[0]["action"]["name"] == "game start"
    assert [e["type"] for e in events[-2:]] == ["game_ended", "seed_revealed"]
    assert int(found[-4].group(1)) == sum(1 for e in events if e["type"] == "roll")
    assert "The game is saved" not in stdout  # nothing left in progress to come back to


DECK = """\
chaos roll
turn next
chaos reveal
chaos choose 1
as Cy: chaos spite poison
chaos choose 1
chaos choose 2
chaos choose 2
game status
as Cy: chaos spite
"""


def test_deck_transcript(tmp_path: Path) -> None:
    stdout = play(
        tmp_path, "--ruleset", "deck", "--players", "Ann,Bob,Cy", "--seed", "9", stdin=DECK
    )
    assert_in_order(
        stdout,
        r"Ann opens a deck game \(seed 9\)\.",
        r"The Chaos deck is shuffled \(\d+ cards\)\.",
        r"The Global deck is shuffled \(\d+ cards\)\.",
        r"Ann's card from the Global deck: .+ \(the next Global\)",
        r"── Turn 1 — Ann ──",
        r"> chaos roll",
        r"Ann draws a chaos card face down; `chaos reveal` turns it up once everyone has passed\.",
        r"> turn next",
        r"! the face-down chaos card must be revealed first \(`chaos reveal`\)",
        r"> chaos reveal",
        r"Ann's card from the Chaos deck: .+",
        r"> as Cy: chaos spite poison",
        r"Cy would lose, and gets a spite: a look at the top of the Chaos deck, .+",
        r"\? Cy picks a card to play face up — `chaos choose N`:",
        r"   1\) .+",
        r"> chaos choose 1",
        r"Cy chooses .+\.",
        r"\d+ cards go to the bottom of the Chaos deck\.",
        # With this seed, the card Cy picks is a split card: Cy picks a half too.
        r"\? Cy picks a half of the split card — `chaos choose N`:",
        r"> chaos choose 2",
        r"Cy's card from the Chaos deck: .+ \(played as a spite: it can't be countered\)",
        # Poison isn't judged by life: the bot asks, and Cy's poison is gone.
        r"\? Does Cy still have 10 or more poison counters\? \(Cy answers\) — `chaos choose N`:",
        r"   1\) yes: Cy loses",
        r"   2\) no: Cy plays on",
        r"> chaos choose 2",
        r"Cy chooses no: Cy plays on\.",
        r"Cy survives the spite\.",
        r"> game status",
        r"   Cy +\[spite used\]",
        r"Chaos deck: \d+ to draw, \d+ discarded",
        r"> as Cy: chaos spite",
        r"Cy is out: .*the spite was already used.*",
    )


RESUME_FIRST = """\
chaos roll
turn next
chaos roll
effects list
"""
RESUME_SECOND = """\
effects list
game status
turn next
"""


def test_a_second_process_resumes_the_game(tmp_path: Path) -> None:
    first = play(
        tmp_path, "--game", "club", "--players", "Ann,Bob", "--seed", "4", stdin=RESUME_FIRST
    )
    assert_in_order(first, r"── Turn 2 — Bob ──", r"Bob rolls .+")
    effects = block(first, "effects list")
    assert effects[0] == "In play:"
    assert len(effects) >= 2

    second = play(tmp_path, "--game", "club", stdin=RESUME_SECOND)
    assert_in_order(
        second,
        r"Resuming the game at table 'club'\.",
        r"Classic Chaos · turn 2 · Bob's turn — chaos done \(`turn next`\)\.",
        r"> turn next",
        r"── Turn 3 — Ann ──",
    )
    assert block(second, "effects list") == effects  # the effects carried over, ids and all

    third = play(tmp_path, "--game", "club", "--players", "Cy,Dee", stdin="game status\n")
    assert third.startswith("Resuming the game at table 'club' (--players is ignored).\n")
    assert_in_order(third, r"Classic Chaos · turn 3 · Ann's turn — .+")

    other = play(tmp_path, "--game", "other", stdin="game status\n")
    assert other.startswith("No game at table 'other' yet.")
    assert "! There's no game in progress at table 'other'." in other


AWAY = """\
chaos roll
turn next
player away Cy next
player back Cy
player away Ann
as Bob: player away Cy 2
player away
"""


def test_a_player_named_steps_away_or_back_on_anyone_s_turn(tmp_path: Path) -> None:
    """README: `player away Bob next` sends Bob away. At a shared keyboard a line that names
    the player stepping away (or coming back) is that player's own, on anyone's turn; someone
    else sending them away says so with `as NAME:` and needs the host's say."""
    stdout = play(tmp_path, "--players", "Ann,Bob,Cy", "--seed", "3", stdin=AWAY)
    assert block(stdout, "player away Cy next") == ["Cy steps away until their next turn."]
    assert block(stdout, "player back Cy") == ["Cy is back at the table."]
    assert block(stdout, "player away Ann") == ["Ann steps away until they're back."]
    assert block(stdout, "as Bob: player away Cy 2") == [
        "! only Cy, the host or a referee can send that player away"
    ]
    # Unnamed, it is still the active player's own: Bob's.
    assert block(stdout, "player away")[0].startswith("Bob steps away")


def test_a_deck_game_s_turn_waits_for_its_chaos_card_in_the_console(tmp_path: Path) -> None:
    stdout = play(
        tmp_path, "--ruleset", "deck", "--players", "Ann,Bob", "--seed", "9", stdin="turn next\n"
    )
    assert block(stdout, "turn next") == [
        "! Ann hasn't drawn this turn's chaos card yet: draw it first with `chaos roll`"
        " (a referee may end the turn without it: `turn next override`)"
    ]


def test_quit_ends_the_session_and_later_lines_are_not_read(tmp_path: Path) -> None:
    stdout = play(tmp_path, "--players", "Ann", "--seed", "1", stdin="quit\nchaos roll\n")
    assert "Ann rolls Chaos List" not in stdout
    assert stdout.rstrip().endswith("picks it up.")


JSON_SESSION = "\n".join(
    [
        "chaos roll",
        "this is garbage",
        "turn next",
        '{"json": "is not a command"}',
        "as Zed: chaos roll",
        "x" * 600,
        "",
        "game status",
        "chaos log 3",
        "quit",
        "chaos roll",
    ]
)


def test_json_mode_writes_one_object_per_line_and_survives_bad_lines(tmp_path: Path) -> None:
    stdout = play(tmp_path, "--json", "--players", "Ann,Bob", "--seed", "2", stdin=JSON_SESSION)
    objects = [json.loads(line) for line in stdout.splitlines()]
    assert all(isinstance(o, dict) and isinstance(o.get("type"), str) for o in objects)
    errors = [o for o in objects if o["type"] == "error"]
    assert [e["line"] for e in errors] == [2, 4, 5, 6]
    assert errors[0]["message"].startswith("unknown command 'this'")
    assert errors[1]["message"].startswith("unknown command '{\"json\":'")
    assert "no player 'Zed'" in errors[2]["message"]
    assert "500 at most" in errors[3]["message"]
    types = [o["type"] for o in objects]
    # Processing went on after the garbage: the next turn started.
    assert types.index("turn_started", types.index("error")) > types.index("error")
    rolls = [o for o in objects if o["type"] == "roll"]
    assert set(rolls[0]) >= {"id", "turn", "player", "table", "dice", "result", "entry", "depth"}
    status = next(o for o in objects if o["type"] == "reply")
    assert status["command"] == "game status"
    assert "turn 2 · Bob's turn — roll chaos" in status["text"]
    # Every object says which line it answers (0: starting the game), and every line read has
    # an answer: the blank line and `quit` an "ok". `quit` ended the session before line 11.
    by_line = [o["line"] for o in objects]
    assert by_line == sorted(by_line)
    assert set(by_line) == set(range(11))
    assert [o["type"] for o in objects if o["line"] in (7, 10)] == ["ok", "ok"]
    logged = [o["type"] for o in objects if o["line"] == 9]  # `chaos log 3`: three actions
    assert logged[0] == "action"
    assert logged.count("action") == 3
    assert not {"reply", "error", "info"} & set(logged)
    # The start roll and the first chaos roll, once as they happened and once in the log.
    assert types.count("roll") == 4
    assert logged.count("roll") == 2


def test_without_a_token_the_bare_command_opens_the_console(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={
            **{k: v for k, v in os.environ.items() if k not in SETTINGS},
            "CHAOS_DB_PATH": str(tmp_path / "x.db"),
        },
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == DISCORD_HINT
    assert sum("DISCORD_TOKEN" in line for line in lines) == 1
    assert "No game at table 'default' yet." in result.stdout
    assert (tmp_path / "x.db").exists()


def test_with_a_token_from_dotenv_the_bare_command_connects_to_discord(tmp_path: Path) -> None:
    """With a token, the bare command is the bot: here Discord can't be reached (nothing
    listens at the REST base), which ends in one line, not the console and not a traceback."""
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=abc\nDISCORD_API_BASE=http://127.0.0.1:9/api/v10\n", encoding="utf-8"
    )
    result = run(tmp_path, stdin="")
    assert result.returncode == 1, result.stderr
    assert "Discord can't be reached" in result.stderr
    assert "Traceback" not in result.stderr
    assert DISCORD_HINT not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "Ann", "--ruleset", "nope"), "there is no ruleset 'nope'"),
        (("--players", "Ann,ann"), "--players names someone twice"),
        (("--players", "Ann,,Bob"), "a player needs a name"),
    ],
)
def test_bad_options_exit_1_with_a_message(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    result = run(tmp_path, "play", "--db", str(tmp_path / "g.db"), *args)
    assert result.returncode == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_game_start_without_a_name_is_hosted_by_whoever_types(tmp_path: Path) -> None:
    """`game start classic`, as PRODUCT writes it, works: the login name hosts."""
    login = {"LOGNAME": "dana", "USER": "dana", "LNAME": "dana", "USERNAME": "dana"}
    result = run(
        tmp_path,
        "play",
        "--db",
        str(tmp_path / "games.db"),
        stdin="game start classic seed 3\ngame join Bob\ngame begin\ngame status\n",
        env=login,
    )
    assert result.returncode == 0, result.stderr
    assert_in_order(
        result.stdout,
        r"Dana opens a classic game \(seed 3, 20 life\)\.",
        r"Bob joins the game\.",
        r"── Turn 1 — Dana ──",
        r" ▶ Dana +20 life  \[host\]",
    )


def test_a_drawn_seed_stays_unsaid_until_the_game_ends(tmp_path: Path) -> None:
    # Everyone at the table reads the console: whoever saw a drawn seed could work out every
    # coming roll, so only the commitment shows until `game end` reveals seed and salt.
    stdout = play(tmp_path, "--players", "Ann,Bob", stdin="chaos roll\nchaos log 40\ngame end\n")
    before, after = stdout.split("> game end")
    assert re.search(r"^Seed commitment \(SHA-256\): [0-9a-f]{64}$", before, re.MULTILINE)
    assert "Ann opens a classic game (20 life)." in before
    assert "» Ann: game start\n" in before
    assert "seed" not in before.replace("Seed commitment", "")
    assert "salt" not in before
    revealed = re.search(r"^The seed was (\d+), the salt ([0-9a-f]+):", after, re.MULTILINE)
    assert revealed
    assert int(revealed[1]) >= 2**64


def test_rules_numbers_several_matches_and_a_number_picks_from_the_last_list(
    tmp_path: Path,
) -> None:
    ranked = find_rules(find_ruleset("classic").rules, "life")
    assert len(ranked) == 3
    first, second, third = ranked
    stdin = "rules 1\nrules life\nrules 2\nrules spite-roll\nrules 1\nrules 4\nrules 0\nquit\n"
    stdout = play(tmp_path, "--ruleset", "classic", stdin=stdin)
    # No list shown yet: a number is a search like any other words (and its list is replaced
    # by the next one shown).
    assert block(stdout, "rules 1")[0].startswith("Several rules are about '1'")
    assert block(stdout, "rules life") == [
        "Several rules are about 'life', best first; pick one with `rules NUMBER`:",
        f"  1  {first.title} ({first.id})",
        f"  2  {second.title} ({second.id})",
        f"  3  {third.title} ({third.id})",
    ]
    assert_in_order(
        stdout,
        r"> rules 2",
        re.escape(f"{second.title} ({second.id})"),
        r"> rules spite-roll",
        r"> rules 1",  # the list stays to pick from after reading one of its topics
        re.escape(f"{first.title} ({first.id})"),
        r"> rules 4",
        re.escape("! the last list has 3 topics: pick one with `rules 1` to `rules 3`"),
        r"> rules 0",
        re.escape("! the last list has 3 topics: pick one with `rules 1` to `rules 3`"),
    )


@pytest.mark.parametrize("columns", [44, 72, 130])
def test_a_rules_answer_is_wrapped_to_the_terminal(tmp_path: Path, columns: int) -> None:
    """The console wraps a topic to the terminal's width (COLUMNS, as a shell sets it), never
    breaking an id or command at its hyphens; the answer comes first and see-also last."""
    rules = find_ruleset("deck").rules
    topic = next(r for r in rules if r.id == "chaos-step")
    stdin = "rules chaos-step\nquit\n"
    lines = block(
        play(tmp_path, "--ruleset", "deck", stdin=stdin, env={"COLUMNS": str(columns)}),
        "rules chaos-step",
    )
    assert lines[0] == f"{topic.title} ({topic.id})"
    assert all(len(line) <= columns for line in lines), max(lines, key=len)
    assert max(len(line) for line in lines) > columns - 15  # it uses the width it has
    paragraphs = "\n".join(lines[1:]).split("\n\n")
    assert " ".join(paragraphs[0].split()) == topic.answer
    assert "turning-face-up" in " ".join(" ".join(paragraphs).split())
    assert not any(line.endswith("-") for line in lines)
    assert " ".join(paragraphs[-1].split()).startswith("See also: Face Down on the Stack")


def test_effects_are_written_e_apart_from_entry_numbers(tmp_path: Path) -> None:
    """`→ #13` is the entry the dice read, `E2` the effect it left; `effects end` takes E2,
    e2, #1 and 1 alike and names the effect the same way in its answer. Effects are numbered
    as people count them, E1, E2, E3, in the order they came, and a number stays with its
    effect after it ends (issue 24)."""
    stdin = (
        "chaos roll\neffects list\neffects end e2\neffects end #1\neffects end E2\n"
        "effects end M5\neffects end 4\nquit\n"
    )
    stdout = play(tmp_path, "--players", "Ann,Bob", "--seed", "1265", stdin=stdin)
    assert_in_order(
        stdout,
        r"Ann rolls EnchantWorldLand d20 \[18\] = 18 → #18 Patience Rewarded",
        r"   \+ E1 Patience Rewarded stays in play as a world enchantment\.",
        r"├─ roll 1/3: EnchantWorldLand d20 \[13\] = 13 → #13 Twinned Tokens",
        r"│     \+ E2 Twinned Tokens stays in play as a world enchantment\.",
        r"│     \+ E3 Rainbow Lands \(effect, Ann's\) lasts until Ann's next turn\.",
        r"> effects list",
        r"  E1 Patience Rewarded \(world enchantment\)",
        r"  E2 Twinned Tokens \(world enchantment\)",
        r"  E3 Rainbow Lands \(Ann's, until Ann's next turn\)",
        r"> effects end e2",
        r"− E2 Twinned Tokens ends: ended by Ann\.",
        r"> effects end #1",
        r"− E1 Patience Rewarded ends: ended by Ann\.",
        r"> effects end E2",
        r"! E2 isn't in play any more: it has ended",
        r"> effects end M5",
        r"! an effect is written like E2 \(or just 2\); got 'M5'",
        r"> effects end 4",
        r"! there's no effect E4 in play",
    )
    assert not re.search(r"[+−] #\d", stdout)  # no effect is written like an entry any more


def test_cards_in_the_middle_are_written_m(tmp_path: Path) -> None:
    """The first card in the middle is M1, the next M2, whatever was rolled before them."""
    stdin = (
        "chaos roll\nmiddle add Black Lotus\nmiddle add Shock\nmiddle list\nmiddle play #1\n"
        "middle play M2\nmiddle list\nquit\n"
    )
    stdout = play(
        tmp_path, "--players", "Ann,Bob", "--ruleset", "lists", "--seed", "1", stdin=stdin
    )
    assert_in_order(
        stdout,
        r"M1 Black Lotus goes into the middle \(Ann\)\.",
        r"M2 Shock goes into the middle \(Ann\)\.",
        r"> middle list",
        r"  M1 Black Lotus \(from Ann, turn 1\)",
        r"  M2 Shock \(from Ann, turn 1\)",
        r"> middle play #1",
        r"Ann plays M1 Black Lotus from the middle\.",
        r"> middle play M2",
        r"! Ann has already played 1 card from the middle world this turn",
        r"> middle list",
        r"  M2 Shock \(from Ann, turn 1\)",
    )
