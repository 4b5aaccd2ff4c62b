""" "Your killer rolls on [x]" from outside the engine: a table file with `to: killer`, played in
the real console (issue 23, rulings)."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.tables import bundled_dir
from tests.console.test_transcripts import assert_in_order, play, run

SPITE = """\
schema: 1
kind: table
id: spite
name: Spite
revision: "1"
dice: d2
entries:
  - at: 1-2
    name: Vengeance
    text: "Your killer rolls on the Vortex."
    offers: [{list: vortex, to: killer}]
"""


def folder(tmp_path: Path) -> Path:
    own = tmp_path / "vengeful"
    shutil.copytree(bundled_dir() / "lists", own)
    (own / "spite.yaml").write_text(SPITE, encoding="utf-8")
    return own


def test_the_killer_the_player_out_names_is_offered_the_roll(tmp_path: Path) -> None:
    own = folder(tmp_path)
    stdin = "".join(
        f"{line}\n"
        for line in (
            "chaos spite Bob",
            "as Dee: chaos choose 2",
            "as Bob: chaos choose Cy",
            "as Cy: chaos roll vortex",
        )
    )
    out = play(
        tmp_path, "--tables", str(own), "--players", "Ann,Bob,Cy,Dee", "--seed", "4", stdin=stdin
    )
    assert_in_order(
        out,
        r"Bob rolls Spite d2 \[\d\] = \d → #1-2 Vengeance",
        r"\? Vengeance gives Bob's killer a roll: who was it\? \(Bob answers\) — `chaos choose N`:",
        r"   1\) Ann",
        r"   2\) Cy",
        r"   3\) Dee",
        r"> as Dee: chaos choose 2",
        r"! .*",  # a suspect doesn't name the killer
        r"> as Bob: chaos choose Cy",
        r"Bob chooses Cy\.",
        r".*Cy.*Vortex.*",  # the offer, to Cy
        r"> as Cy: chaos roll vortex",
        r"Cy rolls The Vortex 3d8 .*",
    )


def test_tables_check_reads_the_killer_offer_and_refuses_a_stranger(tmp_path: Path) -> None:
    own = folder(tmp_path)
    assert run(tmp_path, "tables", "check", str(own)).returncode == 0
    spite = own / "spite.yaml"
    spite.write_text(SPITE.replace("to: killer", "to: everyone"), encoding="utf-8")
    result = run(tmp_path, "tables", "check", str(own))
    assert result.returncode == 1
    assert "spite.yaml:" in result.stdout + result.stderr
    assert (
        "entries[0].offers[0].to: expected roller or killer, got 'everyone'"
        in result.stdout + result.stderr
    )
    shown = run(tmp_path, "tables", "show", str(folder(tmp_path / "again")) + "/spite.yaml")
    assert "your killer may roll on" in shown.stdout.lower()
