"""Deal's lists, imported and played through the real `chaos-referee` in a subprocess (issue 23):
the rolls his results demand are made, not left in their text."""

from __future__ import annotations

import re
from pathlib import Path

from tests.console.test_transcripts import play, run
from tests.tables.dealpete_samples import deal_list, dump, real_shaped

PLAYERS = ("--players", "Ann,Bob,Cy")


def imported(tmp_path: Path, text: str) -> Path:
    (tmp_path / "chaos.yaml").write_text(text, encoding="utf-8")
    result = run(tmp_path, "tables", "import", "--from", "dealpete", "chaos.yaml", "-o", "deal")
    assert result.returncode == 0, result.stderr
    assert ", 0 silent" in result.stdout
    return tmp_path / "deal"


def test_roll_again_on_the_vortex_makes_the_second_roll(tmp_path: Path) -> None:
    folder = imported(tmp_path, real_shaped())
    stdout = play(
        tmp_path, "--tables", str(folder), *PLAYERS, "--seed", "3", stdin="chaos roll vortex\n" * 12
    )
    lines = stdout.splitlines()
    again = [
        i
        for i, line in enumerate(lines)
        if re.match(r"Ann rolls The Vortex 3d8 \[.*\] = 1[2-5] → ", line)
    ]
    assert again, "seed 3 should land on 12-15 within twelve Vortex rolls"
    for i in again:
        # the result's text, then the roll it demands, nested under it (after any notes on
        # life totals the result makes unsure)
        block = lines[i : i + 9]
        assert any(re.match(r"│  .*Roll again on the (the )?Vortex\.$", line) for line in block)
        assert any(
            re.match(r"└─ The Vortex 3d8 \[\d, \d, \d\] = \d+ → #\d+ ", line) for line in block
        )


def test_a_random_chaos_list_is_picked_and_rolled_on(tmp_path: Path) -> None:
    lists = [
        deal_list(f"list{c}", f"Chaos List {c}", "Roll d2.", 1, [{"text": f"{c} happens."}] * 2)
        for c in "ABCDE"
    ]
    wheel = {"name": "Wheel of Chaos", "text": "Go to a random Chaos List."}
    lists.append(deal_list("listF", "Chaos List F", "Roll d2.", 1, [wheel, wheel]))
    folder = imported(tmp_path, dump(lists))
    stdout = play(
        tmp_path, "--tables", str(folder), *PLAYERS, "--seed", "5", stdin="chaos roll f\n"
    )
    match = re.search(
        r"^Ann rolls Chaos List F d2 \[\d\] = \d → #\d Wheel of Chaos\n"
        r"│  Go to a random Chaos List\.\n"
        r"│  Which list: 1d6 \[(\d)\] = \d\n"
        r"└─ Chaos List ([A-F]) d2 \[\d\] = \d → ",
        stdout,
        re.MULTILINE,
    )
    assert match, stdout
    assert "ABCDEF"[int(match[1]) - 1] == match[2]


def test_roll_chaos_three_times_starting_on_a_list(tmp_path: Path) -> None:
    spurt = {"name": "Chaos Spurt", "text": "Roll chaos three times, starting on [listB]."}
    lists = [deal_list("listA", "Chaos List A", "Roll d2.", 1, [spurt, spurt])]
    lists += [
        deal_list(f"list{c}", f"Chaos List {c}", "Roll d2.", 1, [{"text": f"{c} happens."}] * 2)
        for c in "BCDEF"
    ]
    folder = imported(tmp_path, dump(lists))
    stdout = play(tmp_path, "--tables", str(folder), *PLAYERS, "--seed", "2", stdin="chaos roll\n")
    assert re.search(
        r"^Ann rolls Chaos List A d2 \[\d\] = \d → #\d Chaos Spurt\n"
        r"(?:│  .*\n)+"
        r"├─ roll 1/3: Chaos List B d2 .*\n(?:│  .*\n)*"
        r"├─ roll 2/3: Chaos List B d2 .*\n(?:│  .*\n)*"
        r"└─ roll 3/3: Chaos List B d2 ",
        stdout,
        re.MULTILINE,
    ), stdout
