"""discord.py's two hook points: where the client takes its REST base URL and its gateway URL.

discord.py 2.7 has no public option for either. Both are class attributes read at use time:
``discord.http.Route.BASE`` (every REST call, including the interaction webhooks, builds a
``Route`` from it) and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (``Client.connect``
uses it; resumes use READY's ``resume_gateway_url``, which the fake also points at itself).
Patch them before ``login()``; never call ``discord.http._set_api_version`` afterwards.
"""

from __future__ import annotations

import discord.gateway
import discord.http
import pytest
import yarl

REST_BASE_DEFAULT = "https://discord.com/api/v10"
GATEWAY_DEFAULT = "wss://gateway.discord.gg/"


def point_discord_at(monkeypatch: pytest.MonkeyPatch, api_base: str, gateway_url: str) -> None:
    """Point the whole process's discord.py at another server, undone by ``monkeypatch``."""
    monkeypatch.setattr(discord.http.Route, "BASE", api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(gateway_url))
