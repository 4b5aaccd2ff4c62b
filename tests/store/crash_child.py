"""Games played as fast as they go against a database file, until someone kills the process.

Run on its own, it plays until killed::

    python tests/store/crash_child.py DB SCOPE [TABLES]

``test_crash.py`` runs ``python tests/store/crash_child.py --fork`` instead: a server that
imports the bot once and then starts a child per line on its stdin, ``DB SCOPE TABLES OUT
ERR``, by forking. The child's stdout goes to the named pipe OUT and its stderr to the file
ERR; the server prints the child's pid, and how it ended (``ended -9``) once it has. The test
kills sixty children, and a fresh interpreter spent about half a second importing the bot
each time: most of what the test took.

DB is a SQLite file or a PostgreSQL URL. TABLES games (1 unless given) are played at once, in
scopes ``SCOPE:0``, ``SCOPE:1``, …, so their saves are committed together, in batches (see
``Database._drain``): a kill lands inside a batch as often as inside a save.

It plays through the service, like any front end: three players join, the game begins, and
every turn has its chaos roll, its choices and a life change; after ``MAX_ACTIONS`` actions the
host ends the game and a new one starts in the same scope. After each action is acknowledged
(the service returned, so the action is committed) it prints ``GAME_ID VERSION`` and flushes,
and ``batch N`` whenever a batch of N > 1 saves was committed since.
"""

from __future__ import annotations

import asyncio
import os
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from bot.engine import Action, Begin, ChaosError, End, Join, Life, NextTurn, Phase  # noqa: E402
from bot.errors import NoGameError  # noqa: E402
from bot.service import GameService, Outcome  # noqa: E402
from tests.store.helpers import next_action, open_service  # noqa: E402

MAX_ACTIONS = 150
PLAYERS = {"bob": "Bob", "cy": "Cy"}


def choose(outcome: Outcome) -> Action:
    """The next action of this scripted table."""
    game = outcome.game
    state = game.state
    if outcome.version >= MAX_ACTIONS:
        return End(actor=state.host)
    if state.phase is Phase.LOBBY:
        waiting = [pid for pid in PLAYERS if pid not in state.players]
        if waiting:
            return Join(actor=waiting[0], player_name=PLAYERS[waiting[0]])
        return Begin(actor=state.host)
    action = next_action(game)
    if isinstance(action, NextTurn) and outcome.version % 3 == 0:
        return Life(actor=state.host, player=state.active, mode="gain", amount=1)
    return action or End(actor=state.host)


async def step(service: GameService, scope: str) -> list[Outcome]:
    """One acknowledged action (a new game first, when there is none); returns what the
    service acknowledged.
    """
    acknowledged = []
    try:
        outcome = await service.current(scope)
    except NoGameError:
        outcome = await service.start(scope, "classic", host="ann", host_name="Ann")
        acknowledged.append(outcome)
    try:
        outcome = await service.act(scope, choose(outcome))
    except ChaosError:
        # Whatever the script didn't foresee: the host passes the turn by force.
        host = outcome.game.state.host
        outcome = await service.act(scope, NextTurn(actor=host, referee=True, override=True))
    return [*acknowledged, outcome]


def scopes(scope: str, tables: int) -> list[str]:
    """The scopes of `tables` games played at once under the name `scope`."""
    return [f"{scope}:{n}" for n in range(tables)]


async def play(service: GameService, scope: str) -> None:
    batches = service.store.writer.batches
    while True:
        for outcome in await step(service, scope):
            print(outcome.game_id, outcome.version, flush=True)
        if batches:
            print("batch", max(batches), flush=True)
            batches.clear()


async def main(db: str, scope: str, tables: int) -> None:
    async with open_service(db) as service:
        service.store.writer.batches = []
        await asyncio.gather(*(play(service, s) for s in scopes(scope, tables)))


def serve() -> None:
    """Fork a child per line of stdin (see the module's notes), until stdin ends."""
    import bot.store.postgres  # noqa: F401  (imported by Store.open on first use: here, once)

    for line in sys.stdin:
        db, scope, tables, out, err = line.split()
        pid = os.fork()
        if pid == 0:
            try:
                os.dup2(os.open(out, os.O_WRONLY), 1)
                os.dup2(os.open(err, os.O_WRONLY | os.O_APPEND | os.O_CREAT), 2)
                asyncio.run(main(db, scope, int(tables)))
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stderr.flush()
                os._exit(1)  # never back into the server's loop
        print(pid, flush=True)
        _, status = os.waitpid(pid, 0)
        print("ended", os.waitstatus_to_exitcode(status), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--fork"]:
        serve()
    else:
        asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1))
