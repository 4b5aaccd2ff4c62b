"""/game link: the host or a referee gets the live page's link, others are refused with a
sentence; revoke turns the links off; without CHAOS_WEB_PORT the command says how to turn the
pages on."""

from __future__ import annotations

import re
from typing import Any

import aiohttp

from bot.web.links import OFF
from tests.e2e.table import Table, is_ephemeral, refused, text_of
from tests.fakediscord.plugin import aio

LINK = re.compile(r"http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_-]{32}")


def link_in(body: dict[str, Any]) -> str:
    text = text_of(body)
    assert is_ephemeral(body), text
    found = LINK.search(text)
    assert found, text
    return found.group(0)


async def status_of(url: str) -> int:
    async with aiohttp.ClientSession() as http, http.get(url + "/view") as answer:
        return answer.status


@aio
async def test_the_host_and_a_referee_get_a_link_and_a_player_is_refused(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path, web=True) as t:
        owner, player = await t.game("lists")
        await t.slash("settings", {"referee_role": t.fake.referee_role_id}, user=owner)

        host_link = link_in(await t.slash("game link", user=owner))
        ref_link = link_in(await t.slash("game link", user=t.fake.referee))
        assert host_link != ref_link
        for url in (host_link, ref_link):
            assert await status_of(url) == 200
        game_id = (await t.current()).game_id
        assert await t.service.store.links(game_id) == 2

        no = await t.slash("game link", user=player)
        refused(no, "only the host or a referee can hand out a link to the game's live page")
        assert not LINK.search(text_of(no))
        no = await t.slash("game link", {"revoke": True}, user=player)
        refused(no, "only the host or a referee can turn off the links to the game's live page")
        assert await t.service.store.links(game_id) == 2

        done = await t.slash("game link", {"revoke": True}, user=t.fake.referee)
        assert is_ephemeral(done)
        assert "Turned off 2 links" in text_of(done)
        for url in (host_link, ref_link):
            assert await status_of(url) == 404


@aio
async def test_without_a_web_port_the_command_says_how_to_turn_the_pages_on(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic")
        answer = await t.slash("game link", user=owner)
        assert refused(answer, "CHAOS_WEB_PORT") == OFF
        assert t.bot.pages is None


@aio
async def test_no_game_no_link(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path, web=True) as t:
        refused(await t.slash("game link", user=t.fake.owner), "no game in progress")
