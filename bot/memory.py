"""How the process's garbage collector is set: for a server whose heap is mostly for keeps.

A bot's heap is mostly objects that live as long as the process (modules, rulesets and their
tables, compiled patterns) or as long as a game (its events, a few hundred dicts an hour),
and CPython's collector keeps walking them. With its default thresholds it ran about every
700 new containers: under a burst, once every few actions, and each time it looked again at
the events of every game in memory. Measured on the burst of ``bench/discord_bench.py``
(1,000 extra rolls across 100 games through the service), the collector took about a fifth of
the CPU (237 ms of 1.37 s); with :func:`settle` below, 45 ms of 1.12 s.

* :func:`settle` raises the first threshold from 700 to 10,000 new containers: young
  collections are rarer but no dearer (the young are still few), and the older generations are
  looked at less often in proportion. The events the bot logs hold no cycles, so nothing waits
  longer to be freed but the rare cyclic garbage of tracebacks and tasks: a few megabytes at
  most.
* :func:`settle` also shortens the interpreter's switch interval from 5 ms to 1 ms. Work the bot
  moves off the event loop runs on threads (replaying a log to verify, folding a long game), and
  a thread computing in Python holds the interpreter's lock (the GIL) until asked to give it up:
  the loop asks each time it comes back from a socket, and waited up to the whole interval for
  it each time. Under a flood of ``/game verify`` those waits added up to 0.1 to 0.2 s in which
  no server was answered (the loop watchdog, :mod:`bot.watchdog`, found them); at 1 ms they
  stay a few milliseconds, for a little more switching between the threads.
* :func:`freeze`, once the bot is ready, moves everything alive then (imports, rulesets,
  commands) out of the collector's sight for good: ``gc.freeze``, as CPython's documentation
  suggests for long-lived servers. They are never garbage, and never walked again.
"""

from __future__ import annotations

import gc
import sys

YOUNG = 10_000  # new containers between young collections (CPython's default: 700)
SWITCH = 0.001  # seconds a thread may hold the GIL while another asks for it (CPython: 0.005)


def settle() -> None:
    """Set the collector and the threads' turns for a long-running bot (see the module's
    notes)."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
    sys.setswitchinterval(SWITCH)


def freeze() -> None:
    """Take what is alive now out of the collector's sight: call once start-up is done."""
    gc.collect()
    gc.freeze()
