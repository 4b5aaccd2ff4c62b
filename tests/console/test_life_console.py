"""Life on the board, from outside the engine (issue 23): the bundled results that change life
totals, played in the real console on lists of their own, change the totals the board shows;
what the bot can't count is shown as "20?" until a player sets it; and the game verifies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bot.tables import bundled_dir
from tests.console.test_transcripts import assert_in_order, block, play, run

# (list id, bundled file, bundled result): each becomes a d2 list of that one result, copied
# from the bundled classic tables as they stand, so these tests play the bundled declarations.
RESULTS = (
    ("tithe", "chaos.yaml", "Blood Tithe"),
    ("tutor", "chaos.yaml", "Vampiric Tutor"),
    ("rotation", "wacky.yaml", "Life Rotation"),
    ("chairs", "wacky.yaml", "Musical Chairs"),
    ("pox", "chaos.yaml", "Pox"),
    ("swords", "chaos.yaml", "Swords to Plowshares"),
    ("swap", "chaos.yaml", "Life Swap"),
)


def result_lines(source: str, name: str) -> list[str]:
    """The YAML of one bundled result, without its `- at:` line."""
    lines = source.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == f"name: {name}")
    start = max(i for i in range(at) if lines[i].startswith("  - "))
    end = next(
        (i for i in range(at + 1, len(lines)) if not lines[i].startswith("    ")), len(lines)
    )
    return lines[start + 1 : end]


def folder(tmp_path: Path) -> Path:
    """The bundled classic tables, with a one-result list for each of RESULTS."""
    own = tmp_path / "life"
    shutil.copytree(bundled_dir() / "classic", own)
    for table, source, name in RESULTS:
        body = result_lines((bundled_dir() / "classic" / source).read_text("utf-8"), name)
        head = f'schema: 1\nkind: table\nid: {table}\nname: {name}\nrevision: "1"\ndice: d2\n'
        (own / f"{table}.yaml").write_text(
            head + "entries:\n  - at: 1-2\n" + "\n".join(body) + "\n", encoding="utf-8"
        )
    ruleset = own / "ruleset.yaml"
    tables = ", ".join(table for table, _, _ in RESULTS)
    ruleset.write_text(
        ruleset.read_text("utf-8").replace(
            "tables: [chaos, ewl, wacky, persona]",
            f"tables: [chaos, ewl, wacky, persona, {tables}]",
        ),
        encoding="utf-8",
    )
    return own


def lines(*commands: str) -> str:
    return "".join(f"{command}\n" for command in commands)


def test_seed_11_blood_tithe_and_vampiric_tutor_leave_ann_18_and_bob_20(tmp_path: Path) -> None:
    stdin = lines(
        "chaos roll",
        "turn next",
        "as Bob: chaos roll tithe",
        "as Bob: chaos roll tutor",
        "game status",
    )
    out = play(
        tmp_path,
        "--tables",
        str(folder(tmp_path)),
        "--players",
        "Ann,Bob",
        "--seed",
        "11",
        stdin=stdin,
    )
    assert_in_order(
        out,
        r"Bob rolls Blood Tithe d2 \[\d\] = \d → #1-2 Blood Tithe",
        r"   Ann: 18 life \(-2, Blood Tithe\)\.",
        r"   Bob: 22 life \(\+2, Blood Tithe\)\.",
        r"Bob rolls Vampiric Tutor d2 \[\d\] = \d → #1-2 Vampiric Tutor",
        r"   Bob: 20 life \(-2, Vampiric Tutor\)\.",
    )
    board = block(out, "game status")
    assert "   Ann   18 life  [host]" in board
    assert " ▶ Bob   20 life" in board


def test_seed_7_life_rotation_and_musical_chairs_move_the_totals(tmp_path: Path) -> None:
    stdin = lines(
        "life lose Bob 3",
        "life lose Cy 5",
        "chaos roll rotation",
        "game status",
        "chaos roll chairs",
        "game status",
    )
    own = folder(tmp_path)
    out = play(
        tmp_path, "--tables", str(own), "--players", "Ann,Bob,Cy", "--seed", "7", stdin=stdin
    )
    assert_in_order(
        out,
        # Life Rotation: each takes the total the player on their left (the next seat) had.
        r"Ann rolls Life Rotation .*",
        r"   Ann: 17 life \(-3, Life Rotation\)\.",
        r"   Bob: 15 life \(-2, Life Rotation\)\.",
        r"   Cy: 20 life \(\+5, Life Rotation\)\.",
        r" ▶ Ann   17 life  \[host\]",
        r"   Bob   15 life",
        r"   Cy    20 life",
        r"Ann rolls Musical Chairs .*",
        # Musical Chairs: each takes over the total of the player on their right.
        r"   Ann: 20 life \(\+3, Musical Chairs\)\.",
        r"   Bob: 17 life \(\+2, Musical Chairs\)\.",
        r"   Cy: 15 life \(-5, Musical Chairs\)\.",
        r" ▶ Ann   20 life  \[host\]",
        r"   Bob   17 life",
        r"   Cy    15 life",
    )


def test_an_unsure_total_shows_as_20_question_until_a_player_sets_it(tmp_path: Path) -> None:
    stdin = lines(
        "chaos roll swords",
        "game status",
        "life lose Bob 3",  # counted on the unsure total, which stays unsure
        "life set Bob 14",
        "game status",
    )
    own = folder(tmp_path)
    out = play(
        tmp_path, "--tables", str(own), "--players", "Ann,Bob,Cy", "--seed", "7", stdin=stdin
    )
    unsure = block(out, "game status")
    assert " ▶ Ann  20? life  [host]" in unsure
    assert "   Bob  20? life" in unsure
    assert "   Cy   20? life" in unsure
    assert any(line.startswith("A ? after a total:") for line in unsure)
    assert (
        "Ann's life is unsure now (Swords to Plowshares): `life set Ann N` once you know it." in out
    )
    lost = block(out, "life lose Bob 3")
    assert lost == ["Bob: 17 life (-3, lose by Ann)."]
    assert block(out, "life set Bob 14") == [
        "Bob: 14 life (-3, set by Ann).",
        "Bob's life is sure again (set by Ann).",
    ]
    after = out.split("> game status")[-1].splitlines()  # the last board
    assert "   Bob   14 life" in after
    assert "   Cy   20? life" in after


def test_a_game_with_life_changes_verifies(tmp_path: Path) -> None:
    own = folder(tmp_path)
    stdin = lines(
        "chaos roll tithe",
        "chaos roll pox",
        "chaos roll swap",
        "chaos roll swords",
        "life set Ann 19",
        "chaos roll",
        "turn next",
        "as Bob: chaos roll rotation",
        "game end",
        "game export game.jsonl",
    )
    out = play(
        tmp_path, "--tables", str(own), "--players", "Ann,Bob,Cy", "--seed", "5", stdin=stdin
    )
    assert "Ann's life is sure again (set by Ann)." in out
    assert "   Ann: 16 life (-8, Pox)." in out  # a third of 24, rounded up
    events = [json.loads(line) for line in (tmp_path / "game.jsonl").read_text().splitlines()]
    assert {e["type"] for e in events} >= {"life", "life_unsure"}
    verified = run(tmp_path, "verify", "game.jsonl", "--tables", str(own))
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith("Verified: this classic game replays exactly")
    # A total changed by hand in the log is caught.
    index = next(i for i, e in enumerate(events) if e["type"] == "life")
    events[index]["life"] += 1
    (tmp_path / "bad.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    bad = run(tmp_path, "verify", "bad.jsonl", "--tables", str(own))
    assert bad.returncode == 2
    assert f"Event {index + 1} (life" in bad.stderr
