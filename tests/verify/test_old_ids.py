"""A game logged before effects and middle cards were numbered as people count (issue 24).

`tests/data/old-ids/deck-middle.jsonl` was exported by the engine as it was before: its events
and actions carry the engine's ids, shared with rolls (effects 2, 9 and 14; middle cards 4, 6
and 7, where 6 came back under 7 after an undo took a card back), and its `effects end` and
`middle play` actions name those ids. It still loads, replays to the same log and verifies;
and it is shown with the numbers people count by: E1 to E3, M1 to M3.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.engine import Game
from bot.render import Names, render_lines
from bot.verify import verify
from tests.engine.rulesets import RULESETS
from tests.verify.test_verify import find

LOG = Path(__file__).parent.parent / "data" / "old-ids" / "deck-middle.jsonl"


def old_game() -> Game:
    return Game.from_export(RULESETS["deck"](), LOG.read_text(encoding="utf-8"))


def test_an_old_log_replays_exactly_and_verifies() -> None:
    game = old_game()
    assert Game.replay(game.ruleset, game.actions).events == game.events
    verdict = verify(LOG.read_bytes(), find)
    assert verdict.actions == game.seq
    assert "Verified" in "\n".join(verdict.lines())


def test_an_old_log_is_numbered_as_people_count() -> None:
    state = old_game().state
    assert state.effect_numbers == {2: 1, 9: 2, 14: 3}
    # The card an undo took back (id 7, Fog) left its number to the next card, under that id.
    assert state.middle_numbers == {4: 1, 6: 2, 7: 3}
    assert {card.number: card.name for card in state.middle.values()} == {
        2: "Shock",
        3: "Giant Growth",
    }
    # Its rolls on the stack too, R1 to R8, whatever their ids.
    assert list(state.roll_numbers.values()) == list(range(1, 9))
    assert sorted(state.roll_numbers) == list(state.roll_numbers)


def test_an_old_log_reads_with_the_new_numbers() -> None:
    game = old_game()
    lines = render_lines(game.events, Names.of(game), actions=True)
    text = "\n".join(lines)
    assert "» Ann: effects end E3" in text
    assert "» Bob: middle play M1" in text
    assert "plays M1 Black Lotus from the middle" in text
    assert "M3 Giant Growth goes into the middle" in text
    effects = [int(n) for n in re.findall(r"[+−] E([0-9]+) ", text)]
    assert sorted(set(effects)) == [1, 2, 3]
    assert not re.search(r"\b[EM](?:[4-9]|[1-9][0-9])\b", text), "an engine id shown as a number"
