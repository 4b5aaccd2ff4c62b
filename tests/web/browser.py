"""Debian's Chromium, driven by Playwright: the real browser the live page is tested in.

Playwright never downloads a browser here: it launches the Chromium installed at
``/usr/bin/chromium`` (``CHAOS_CHROMIUM`` names another). Without one, a browser test fails
with a sentence saying how to install it: CI must run these tests, never skip them.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright

ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "artifacts"  # git-ignored


def chromium_path() -> Path:
    return Path(os.environ.get("CHAOS_CHROMIUM", "/usr/bin/chromium"))


def missing(path: Path) -> str:
    return (
        f"Chromium isn't installed at {path}, and the live page's browser tests need it:"
        " `make test` installs it when run as root on Debian; otherwise run"
        " `sudo apt-get install -y chromium chromium-driver` (or set CHAOS_CHROMIUM to another"
        " Chromium)."
    )


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """A headless Chromium for one test; fails the test (never skips) without one."""
    path = chromium_path()
    if not os.access(path, os.X_OK):
        pytest.fail(missing(path))
    # Chromium refuses to run as root without this; the page needs no sandbox from us.
    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(path), args=args)
        try:
            yield browser
        finally:
            await browser.close()


async def shows(page: Page, version: int, timeout: float = 5.0) -> None:
    """Wait until the page draws `version` of its game. (A selector, not a script: the
    page's Content-Security-Policy forbids evaluating strings, Playwright's included.)"""
    await page.wait_for_selector(
        f"body[data-version='{version}']", state="attached", timeout=timeout * 1000
    )


def free_port() -> int:
    """A port nothing listens on now, to restart the bot's pages on the same one."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
