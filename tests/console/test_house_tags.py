"""Filters by tag at the real console (issue 26): `house exclude TAG` and `house include TAG`,
a game that keeps the tags it started with, `game verify` over it, and an export whose excluded
tags were changed refused."""

from __future__ import annotations

import json
from pathlib import Path

from tests.console.test_transcripts import assert_in_order, play

SESSION = [
    "house exclude fast",
    "house exclude swingy",
    "house exclude swingy",
    "house show",
    "as Ann: game start classic",
    "game join Bob",
    "game begin",
    *["chaos roll extra"] * 40,
    "house include swingy",
    "house include swingy next game",
    "game status",
    "game end",
    "game export game.jsonl",
    "game verify game.jsonl",
    "house include swingy",
]


def test_an_excluded_tag_at_the_console(tmp_path: Path) -> None:
    out = play(tmp_path, "--seed", "5", stdin="".join(f"{line}\n" for line in SESSION))
    assert_in_order(
        out,
        r"> house exclude fast",
        r"! There's no tag 'fast': the tags are slow, choice, swingy, mana or creature\.",
        r"> house exclude swingy",
        r"Saved\. Games started from now on play by them\.",
        r"Excluded tags: swingy\. An entry carrying one is rolled again at once when it comes"
        r" up, and a deck is shuffled without its cards \(29 entries in Classic Chaos\)\.",
        r"> house exclude swingy",
        r"! Entries tagged swingy are left out already\.",
        r"> house show",
        r"Excluded tags: swingy\. .*",
        r"Ann opens a classic game \(seed 5, 20 life, house rules: entries tagged swingy left"
        r" out\)\.",
        r"   denied by a house rule and rolled again: #\d+ .*",
        r"> house include swingy",
        r"! A game is running here, and it keeps the house rules it started with: .*",
        r"> house include swingy next game",
        r"Saved\. They apply from the next game: .*",
        r"Excluded tags: none \(`house exclude TAG` leaves out a tag: slow, choice, swingy,"
        r" mana or creature\)\.",
        r"> game status",
        r"House rules: entries tagged swingy left out\.",
        r"> game end",
        r"Played with house rules: entries tagged swingy left out\.",
        r"> game verify game.jsonl",
        r"Verified.*",
        r"Its commitment .* and its house rules \(entries tagged swingy left out\)\. .*",
        r"> house include swingy",
        r"! Entries tagged swingy aren't left out\.",
    )
    events = [json.loads(line) for line in (tmp_path / "game.jsonl").read_text().splitlines()]
    assert events[1]["house"] == {"exclude": ["swingy"]}
    swingy = {
        e["entry"]["id"]
        for e in events
        if e["type"] == "roll" and e["table"] == "chaos"
        for e in e.get("denied", [])
    }
    assert swingy  # the game met the rule
    rolled = [e for e in events if e["type"] == "roll" and e["table"] == "chaos"]
    assert not [r for r in rolled if r["entry"]["id"] in swingy]
    # Other excluded tags (or none) written into the export: the commitment says no.
    for other in (None, {"exclude": ["slow"]}, {"exclude": ["slow", "swingy"]}):
        forged = json.loads(json.dumps(events))
        for where in (forged[0]["action"], forged[1]):
            if other is None:
                where.pop("house")
            else:
                where["house"] = other
        (tmp_path / "forged.jsonl").write_text("".join(json.dumps(e) + "\n" for e in forged))
        checked = play(tmp_path, stdin="game verify forged.jsonl\n")
        assert_in_order(checked, r"> game verify forged.jsonl", r"! .*")


def test_an_exclude_that_would_leave_a_list_nothing_is_refused(tmp_path: Path) -> None:
    """The Musical list (lists) has six entries: deny the two that aren't swingy, and excluding
    swingy would leave it nothing to roll; a deny after the exclude is refused the same way."""
    stdin = "".join(
        f"{line}\n"
        for line in [
            "house deny musical 3",
            "house deny musical 5",
            "house exclude swingy",
            "house allow musical 5",
            "house exclude swingy",
            "house deny musical 5",
            "house show",
        ]
    )
    out = play(tmp_path, "--ruleset", "lists", stdin=stdin)
    assert_in_order(
        out,
        r"> house exclude swingy",
        r"! Excluding swingy would leave Musical nothing to roll: every entry of it is"
        r" tagged or denied\.",
        r"> house exclude swingy",
        r"Saved\. .*",
        r"> house deny musical 5",
        r"! Denying .* would leave Musical nothing to roll: allow another of its entries"
        r" first \(`house allow`, or `house include` for an excluded tag\)\.",
    )


DATA = Path(__file__).resolve().parents[1] / "data"
SLOWPOKE = (DATA / "slowpoke.yaml").read_text(encoding="utf-8")  # every entry tagged slow


def test_an_uploaded_table_is_never_left_nothing_to_roll(tmp_path: Path) -> None:
    """As a bundled list: `house exclude` that would empty a table the console stored is
    refused naming it, and a game with such a table won't start once the rule came first."""
    (tmp_path / "slowpoke.yaml").write_text(SLOWPOKE, encoding="utf-8")
    refused = [
        "table import slowpoke.yaml",
        "house exclude slow",
        "house exclude choice",
    ]
    out = play(tmp_path, "--seed", "5", stdin="".join(f"{line}\n" for line in refused))
    assert_in_order(
        out,
        r"> house exclude slow",
        r"! Excluding slow would leave the uploaded Slowpoke List \(slowpoke\) nothing to roll:"
        r" every entry of it is tagged or denied\.",
        r"> house exclude choice",
        r"Saved\. Games started from now on play by them\.",
    )
    later = [
        "house exclude slow",
        "table import slowpoke.yaml",  # stored after the rule
        "game start classic tables slowpoke",
        "game start classic",
    ]
    fresh = tmp_path / "fresh"  # a console of its own, without the table stored
    fresh.mkdir()
    (fresh / "slowpoke.yaml").write_text(SLOWPOKE, encoding="utf-8")
    out = play(fresh, stdin="".join(f"{line}\n" for line in later))
    assert_in_order(
        out,
        r"> house exclude slow",
        r"Saved\. Games started from now on play by them\.",
        r"> game start classic tables slowpoke",
        r"! The house rules would leave the uploaded Slowpoke List \(slowpoke\) nothing to roll:"
        r" every entry of it is tagged or denied\. Start the game without it, or change the"
        r" house rules \(`house include`, `house allow`\)\.",
        r"> game start classic",
        r".* opens a classic game \(.*house rules: entries tagged slow left out\)\.",
    )
