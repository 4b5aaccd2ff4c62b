"""What the table reads on Discord (issue 24, section 2), through discord.py and the fake Discord,
which checks every payload against Discord's OpenAPI description: titles that announce, a roll
titled by what it came to with its sub-rolls as steps, and the board's commitment in its
footer."""

from __future__ import annotations

from typing import Any

from bot.engine import actions as a
from tests.e2e.table import Table, board_of, embed, seed_where
from tests.fakediscord.plugin import aio

BOX_DRAWING = set("│├└─")


def several_sub_rolls(game: Any, seats: list[str]) -> bool:
    """The first chaos roll makes more than one further roll, and no choice."""
    events = game.act(a.RollChaos(actor=seats[0]))
    top = next(e for e in events if e["type"] == "roll")
    subs = [e for e in events if e["type"] == "roll" and e["parent"] == top["id"]]
    return len(subs) > 1 and not any(e["ignored"] for e in subs) and game.state.pending is None


@aio
async def test_titles_announce_and_a_nested_roll_reads_as_steps(fake_discord, tmp_path):
    seed = seed_where("classic", several_sub_rolls)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = t.fake.owner, t.fake.player
        started = await t.slash("game start", {"ruleset": "classic", "seed": seed}, user=owner)
        assert embed(started)["title"] == "owner opens a Classic Chaos game"
        joined = await t.slash("game join", user=player)
        assert embed(joined)["title"] == "player joined"
        begun = await t.slash("game begin", user=owner)
        assert embed(begun)["author"]["name"] == "The game begins — owner goes first"

        rolled = await t.slash("chaos roll", user=owner)
        shown = embed(rolled)
        game = (await t.current()).game
        top = next(e for e in reversed(game.events) if e["type"] == "roll" and not e["parent"])
        subs = [e for e in game.events if e["type"] == "roll" and e["parent"] == top["id"]]
        assert shown["author"]["name"] == "owner rolls chaos"
        assert shown["title"] == f"{top['entry']['name']} → {len(subs)} rolls"
        lines = shown["description"].splitlines()
        assert lines[0].startswith("Chaos List d20×d10 [")  # the dice, not the title again
        steps = [line for line in lines if line.startswith("↳ ")]
        assert [step.split(" · ")[0] for step in steps] == [
            f"↳ {n}/{len(subs)}" for n in range(1, len(subs) + 1)
        ]
        assert not BOX_DRAWING & set(shown["description"])

        turned = await t.slash("turn next", user=owner)
        assert embed(turned)["title"] == "Turn 2 — player"
        assert "description" not in embed(turned)  # the title says it all, once
        lost = await t.slash("life lose", {"amount": 3, "player": "player"}, user=player)
        assert embed(lost)["title"] == "player loses 3 life"

        board = (await board_of(t))["embeds"][0]
        assert board["description"].startswith("**player's turn — roll chaos**")
        assert "`" not in board["description"].splitlines()[0]
        assert [f["name"] for f in board["fields"]] == ["Seats (play goes →)", "In play"]
        commitment = game.state.commitment
        assert f"Seed commitment {commitment[:16]}…" in board["footer"]["text"]
