"""Small, valid table files for the tests, and helpers that write them as real files.

The mini ruleset has every entry kind: an effect, a card with X, a link, multi-rolls (times,
keep, each), tokens, a world enchantment, durations, life, a turn change and inline dice.
"""

from __future__ import annotations

from pathlib import Path

RULESET = """\
schema: 1
kind: ruleset
id: mini
name: Mini Chaos
revision: "1"
chaos: {from: table, table: chaos}
start: {roll: world, table: ewl}
nesting: ignore_nested
spite: {policy: life_gain_roll, table: chaos}
tokens: true
budget: {rolls: 30, depth: 5}
life: 20
tables: [chaos, ewl, wacky]
rules:
  - id: chaos-phase
    title: The Chaos Phase
    keywords: [phase, when]
    text: Roll on the Chaos List at the start of your turn.
"""

CHAOS = """\
schema: 1
kind: table
id: chaos
name: Chaos List
revision: "1"
dice: d10
directions: Roll a d10.
entries:
  - at: 1
    name: Roll twice
    roll: {times: 2}
  - at: 2
    name: Wacky
    link: wacky
  - at: 3-4
    name: Fireball
    card: Fireball
    x: 1d6
  - at: 5
    name: Counters
    token: counter_roll
    count: 2
  - at: 6
    name: Healing rain
    text: Gain {1d6} life.
    gains_life: true
    life: 1d6
  - at: 7
    name: Fog
    text: Creatures deal no combat damage.
    lasts: next_turn
  - at: 8
    name: Backwards
    text: Play passes the other way.
    turn: reverse
  - at: 9
    name: Two, keep one
    roll: {times: 2, keep: 1}
  - at: 10
    name: Everything
    roll: {each: [ewl, wacky]}
"""

EWL = """\
schema: 1
kind: table
id: ewl
name: EnchantWorldLand
revision: "1"
dice: d4
entries:
  - {at: 1-4, name: Blue World, text: All lands are Islands., world: true}
"""

WACKY = """\
schema: 1
kind: table
id: wacky
name: WackyLand
revision: "1"
dice: 2d4
entries:
  - {at: 2-5, name: Slow time, text: Spells cost 1 more., lasts: {turns: 2}}
  - {at: 6-8, name: Back to chaos, link: chaos}
"""

MINI = {"ruleset.yaml": RULESET, "chaos.yaml": CHAOS, "ewl.yaml": EWL, "wacky.yaml": WACKY}


def write_folder(root: Path, files: dict[str, str], name: str = "mini") -> Path:
    """Write `files` into ``root/name/`` and return that folder."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    for file_name, text in files.items():
        (folder / file_name).write_text(text, encoding="utf-8")
    return folder


def table_file(dice: str, entries: str, table_id: str = "t") -> str:
    """A table file with the given dice and entries (YAML list items, indented two spaces)."""
    return (
        f"schema: 1\nkind: table\nid: {table_id}\nname: Test\nrevision: '1'\n"
        f"dice: {dice}\nentries:\n{entries}"
    )
