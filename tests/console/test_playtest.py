"""Play-test findings, through the real `chaos-referee play`: what the board and the refusals
tell ordinary players to do must be something they are allowed to do right then."""

from __future__ import annotations

from pathlib import Path

from tests.console.test_transcripts import assert_in_order, play


def test_a_table_where_everyone_stepped_away_is_told_to_come_back_not_to_pass(
    tmp_path: Path,
) -> None:
    stdout = play(
        tmp_path,
        "--players",
        "Ann,Bob,Cy",
        "--seed",
        "10",
        stdin="as Bob: player away\nas Cy: player away\nchaos roll\nplayer away\n"
        "game status\nturn next\nas Ann: player back\nturn next\n",
    )
    assert_in_order(
        stdout,
        r"> game status",
        r".* · turn 1 · Ann's turn, but they've left the table — everyone has stepped away, so"
        r" someone must come back first \(`player back`\)\.",
        r"> turn next",
        r"! Ann is away: the one thing a player who is away can do is come back \(`player back`\)",
        r"> as Ann: player back",
        r"Ann is back at the table\.",
        r"> turn next",
        r"── Turn 2 — Ann ──",  # Bob and Cy are still away: passed over
    )


def test_a_turn_whose_player_left_says_anyone_may_pass_it(tmp_path: Path) -> None:
    stdout = play(
        tmp_path,
        "--players",
        "Ann,Bob,Cy",
        "--seed",
        "1",
        stdin="chaos roll\nturn next\nas Bob: player away\ngame status\nas Cy: turn next\n",
    )
    assert_in_order(
        stdout,
        r"> game status",
        r".* · turn 2 · Bob's turn, but they've left the table — anyone at the table may move on"
        r" \(`turn next`\)\.",
        r"> as Cy: turn next",
        r"── Turn 3 — Cy ──",
    )


def test_an_away_spiting_player_is_told_to_come_back_before_the_turn_moves_on(
    tmp_path: Path,
) -> None:
    stdout = play(
        tmp_path,
        "--ruleset",
        "deck",
        "--players",
        "Ann,Bob,Cy",
        "--seed",
        "1",
        stdin="chaos roll\nchaos roll\nchaos reveal\nturn next\nas Bob: chaos spite\n"
        "as Bob: player away\ngame status\nturn next\nas Bob: player back\n"
        "as Bob: chaos choose 2\n",
    )
    assert_in_order(
        stdout,
        r"> chaos roll",
        r"> chaos roll",
        r"! reveal the face-down chaos card first \(`chaos reveal`\)",
        r"> game status",
        r".* · turn 2 · Bob's turn, but they've left the table — it moves on once Bob comes back"
        r" and chooses \(`player back`\)\.",
        r"> turn next",
        r"! Bob must choose first \(.*\): they're away, so `player back` comes first",
        r"> as Bob: player back",
        r"> as Bob: chaos choose 2",
        r"Bob chooses .*\.",
    )


def test_a_roll_offered_to_a_player_who_stepped_away_waits_for_them(tmp_path: Path) -> None:
    stdout = play(
        tmp_path,
        "--ruleset",
        "lists",
        "--players",
        "Ann,Bob,Cy",
        "--seed",
        "17",
        stdin="chaos roll\nas Ann: player away\ngame status\nas Bob: chaos roll vortex\n"
        "as Ann: player back\nas Ann: chaos roll vortex\n",
    )
    assert_in_order(
        stdout,
        r" +\? Ann may roll on The Vortex \(offered by Gift Economy\): `chaos roll vortex`\.",
        r"> game status",
        r"Offered to Ann by Gift Economy: a roll on The Vortex \(Ann is away: it waits for them"
        r" until the turn ends\)",
        r"> as Bob: chaos roll vortex",
        r"! only Ann, the host or a referee can take a roll a result offered \(Ann is away for"
        r" now\)",
        r"> as Ann: chaos roll vortex",
        r"Ann takes the offered roll on The Vortex\.",
    )
