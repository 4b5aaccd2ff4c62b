"""The commitment a game makes to its seed before the first roll.

Every die and every shuffle of a game follows from its seed (see :mod:`bot.engine.game`). At the
start the referee publishes ``commitment(seed, salt)``; at the end it reveals both, so anyone
can check that the seed they replay with is the one the game was committed to. The salt is a
random text the front end draws: without it, a seed a host chose from a small range could be
found from the commitment by trying every number.
"""

from __future__ import annotations

import hashlib

PREFIX = "chaos-referee"


def commitment(seed: int, salt: str) -> str:
    """SHA-256 of ``chaos-referee:SEED:SALT`` (the seed in decimal), as 64 hex digits."""
    return hashlib.sha256(f"{PREFIX}:{seed}:{salt}".encode()).hexdigest()
