"""The largest uploads the limits allow, for the autocomplete's tests and bench/autocomplete.py.

Two shapes, each just under :data:`~bot.tables.uploads.MAX_UPLOAD`: `many`, a 10d1000 list
(10,000 outcomes, the most a list may have) with as many results as fit, each a short name
(most bands, for a list read by number); and `wordy`, a d1000 list whose every entry has a name
and a text of thirty words (most words, for the ranked search). The words are the bundled
tables' own, so that what a member types finds plenty.
"""

from __future__ import annotations

import random
from functools import lru_cache

from bot.tables import load_bundled
from bot.tables.uploads import MAX_UPLOAD

SHAPES = ("many", "wordy")


@lru_cache(maxsize=1)
def vocabulary() -> tuple[str, ...]:
    found = set()
    for loaded in load_bundled().values():
        for table in loaded.ruleset.tables.values():
            for band in table.bands:
                for word in f"{band.entry.name} {band.entry.text}".split():
                    word = word.strip(".,;:!?()'\"").lower()
                    if word.isalpha():
                        found.add(word)
    return tuple(sorted(found))


@lru_cache(maxsize=2)
def maximal_table(shape: str, table_id: str = "huge") -> bytes:
    """A table file of the `shape` named, as large as an upload may be."""
    rnd = random.Random(22)
    words = vocabulary()
    dice, low, high, per_entry = (
        ("10d1000", 10, 10_000, 0) if shape == "many" else ("d1000", 1, 1000, 30)
    )
    head = f"schema: 1\nkind: table\nid: {table_id}\nname: Huge\nrevision: '1'\ndice: {dice}\n"
    lines = [head, "entries:\n"]
    size = len(head) + 10
    for at in range(low, high + 1):
        name = f"{rnd.choice(words)} {rnd.choice(words)}"
        text = " ".join(rnd.choice(words) for _ in range(per_entry))
        line = f"  - {{at: {at}, name: {name}{', text: ' + text if text else ''}}}\n"
        last = f"  - {{at: {at}-{high}, name: {name}}}\n"
        if size + len(line) + len(last) > MAX_UPLOAD or at == high:
            lines.append(last)
            break
        lines.append(line)
        size += len(line)
    data = "".join(lines).encode()
    assert len(data) <= MAX_UPLOAD
    return data
