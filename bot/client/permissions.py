"""Permission checks the engine can't make: who may change a server's settings and tables.

Turn actions and tokens are checked by the engine (it knows whose turn it is and who holds
what); the front end only tells it whether the caller referees. Settings and uploaded tables
belong to the server, so they need the Manage Server permission.
"""

from __future__ import annotations

from bot.client.interactions import Caller
from bot.errors import NotAllowedError

__all__ = ["NotAllowedError", "require_manager"]


def require_manager(who: Caller, what: str) -> None:
    if not who.manager:
        raise NotAllowedError(f"{what} needs the Manage Server permission.")
