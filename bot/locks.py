"""Locks by name, created when first needed and forgotten when nobody holds or awaits them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class KeyedLocks:
    """One asyncio.Lock per key (a game's scope, say), so a bot with thousands of channels
    keeps locks only for those in use at the moment.
    """

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        """``async with locks.hold(key):`` runs the block while holding the lock of `key`."""
        lock, users = self._locks.get(key, (None, 0))
        lock = lock or asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def busy(self, key: str) -> bool:
        """Whether the lock of `key` is held or awaited right now."""
        return key in self._locks

    def __len__(self) -> int:
        """How many keys are held or awaited right now."""
        return len(self._locks)
