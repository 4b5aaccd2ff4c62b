"""The answers that need no game, through Discord: /rules, /card, /roll dice, /help, /ping and
the owner's /sync."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.client.wording import slashed
from bot.commands import find_rules
from bot.tables import load_bundled
from tests.e2e.table import JSON, Table, components, final_answer, is_ephemeral, text_of
from tests.fakediscord.components import STRING_SELECT
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

BUNDLED = load_bundled()
EMBED_TOTAL = 6000  # Discord refuses a message whose embeds hold more characters than this


def rule_ids(ruleset: str) -> list[str]:
    return [r.id for r in BUNDLED[ruleset].rules]


def calls_since(fake: FakeDiscord, start: int) -> list[str]:
    return [f"{c.method} {c.path}" for c in fake.calls[start:]]


def embed_size(body: JSON) -> int:
    embeds = (body.get("data") or {}).get("embeds") or []
    return sum(
        len(e.get("title") or "")
        + len(e.get("description") or "")
        + len((e.get("footer") or {}).get("text") or "")
        + sum(len(f["name"]) + len(f["value"]) for f in e.get("fields") or [])
        for e in embeds
    )


# -- /rules --------------------------------------------------------------------------------------


@aio
async def test_rules_lists_the_topics_and_shows_one(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await t.slash("rules")
        assert is_ephemeral(body)
        text = text_of(body)
        assert text.startswith("Rules of Classic Chaos (/rules topic shows one):")
        for rule in BUNDLED["classic"].rules:
            assert rule.id in text
            assert rule.title in text

        spite = next(r for r in BUNDLED["classic"].rules if r.id == "spite-roll")
        body = await t.slash("rules", {"topic": "spite-roll"})
        assert is_ephemeral(body)
        title, _, rest = text_of(body).partition("\n")
        assert title == "The Spite Roll (spite-roll)"
        # The answer first, in bold; then the detail, a paragraph a line (Discord wraps it to
        # the screen); then the topics it points to.
        answer, *detail, see = rest.split("\n\n")
        assert answer == f"**{spite.answer}**"
        paragraphs = [" ".join(p.split()) for p in spite.text.split("\n\n")]
        # The texts name commands as the console types them; Discord shows them as slash commands.
        assert detail == [slashed(p) for p in paragraphs]
        assert "`/chaos spite`" in rest
        assert "`chaos spite`" not in rest
        assert see.startswith("See also: Conceding, or Stepping Away (conceding);")

        sentence = text_of(await t.slash("rules", {"topic": "what happens when I die?"}))
        assert sentence.startswith("The Spite Roll (spite-roll)")
        typo = text_of(await t.slash("rules", {"topic": "splte"}))
        assert "Did you mean The Spite Roll (spite-roll)" in typo
        unknown = await t.slash("rules", {"topic": "banana"})
        assert is_ephemeral(unknown)
        assert "no rule about 'banana'" in text_of(unknown)
        assert "/rules lists the topics" in text_of(unknown)


def topic_menu(message: JSON) -> JSON:
    (menu,) = [c for c in components(message) if c["type"] == STRING_SELECT]
    return menu


# The bot restarts at once on the same fake; the 5 s between IDENTIFYs is tested in test_shards.
@pytest.mark.parametrize("fake_discord", [{"identify_interval": 0}], indirect=True)
@aio
async def test_several_matching_topics_become_a_private_menu_that_answers_the_pick(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    ranked = find_rules(BUNDLED["classic"].rules, "life")
    assert len(ranked) > 1
    async with fake:
        async with Table.open(fake, tmp_path, db="games.db") as t:
            body = await t.slash("rules", {"topic": "life"})
            assert is_ephemeral(body)
            assert text_of(body).startswith("Several rules are about 'life'")
            (asked,) = fake.ephemeral_messages(user=fake.player)
            menu = topic_menu(asked)
            assert menu["custom_id"] == "cr:rules:classic"
            assert [o["label"] for o in menu["options"]] == [r.title for r in ranked]
            assert [o["value"] for o in menu["options"]] == [r.id for r in ranked]

            _, picked = await fake.select(menu["custom_id"], ["spite-roll"], message=asked)
            assert is_ephemeral(picked)
            title, _, rest = text_of(picked).partition("\n")
            assert title == "The Spite Roll (spite-roll)"
            assert "`/chaos spite`" in rest
            # the topic alone, with the button that shows it to the table (test_sharing.py)
            assert [c["label"] for c in components(picked["data"])] == ["Show everyone"]

        # A menu drawn before a restart still answers: its id names the ruleset.
        async with Table.open(fake, tmp_path, db="games.db"):
            _, again = await fake.select(menu["custom_id"], [ranked[0].id], message=asked)
            assert is_ephemeral(again)
            assert text_of(again).startswith(f"{ranked[0].title} ({ranked[0].id})")

            # A pick no menu offered (hostile, or a topic since removed) gets a sentence.
            hand_made = fake._interaction(
                3,
                {"custom_id": menu["custom_id"], "component_type": 3, "values": ["nope"]},
                None,
                asked["channel_id"],
                asked,
            )
            _, gone = await fake.send_interaction(hand_made)
            assert is_ephemeral(gone)
            assert "no rules topic 'nope'" in text_of(gone)


@aio
async def test_rules_topics_come_from_the_game_here_else_the_servers_default(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        fake = t.fake

        async def offered(typed: str) -> list[str]:
            _, body = await fake.autocomplete("rules", {"topic": typed}, focused="topic")
            choices: list[JSON] = body["data"]["choices"]
            assert len(choices) <= 25
            return [c["value"] for c in choices]

        assert await offered("") == rule_ids("classic")
        assert (await offered("spite"))[0] == "spite-roll"
        # Keywords and text count, best first, and a word still being typed is completed.
        assert (await offered("hexproof"))[0] == "control-and-color"
        assert (await offered("roll 3 ti"))[0] == "multiple-rolls"
        assert (await offered("what happens when I die"))[0] == "spite-roll"

        await t.slash("settings", {"default_ruleset": "deck"}, user=fake.owner)
        assert await offered("") == rule_ids("deck")
        assert "Rules of Chaos Deck" in text_of(await t.slash("rules"))

        await t.slash("game start", {"ruleset": "lists"}, user=fake.owner)
        assert await offered("") == rule_ids("lists")
        assert "Rules of" in text_of(await t.slash("rules"))
        assert BUNDLED["lists"].rules[0].title in text_of(await t.slash("rules"))

        # Another channel has no game: the server's default again.
        elsewhere = fake.add_channel("other-table")
        _, body = await fake.autocomplete(
            "rules", {"topic": ""}, focused="topic", channel=elsewhere
        )
        assert [c["value"] for c in body["data"]["choices"]] == rule_ids("deck")


# -- /card ---------------------------------------------------------------------------------------


@aio
async def test_card_links_to_the_exact_name_on_scryfall_without_fetching_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        before = len(t.fake.calls)
        body = await t.slash("card", {"name": "  Jace,   the Mind Sculptor "})
        (embed,) = body["data"]["embeds"]
        assert embed["title"] == "Jace, the Mind Sculptor"
        assert embed["url"] == (
            "https://scryfall.com/search?q=%21%22Jace%2C%20the%20Mind%20Sculptor%22"
        )
        assert not is_ephemeral(body)
        # One answer to Discord and nothing else: no request to Scryfall or anywhere.
        (only,) = calls_since(t.fake, before)
        assert only.startswith("POST /interactions/")
        assert only.endswith("/callback")


# -- /roll dice ----------------------------------------------------------------------------------


@aio
async def test_roll_dice_shows_the_faces_and_the_total(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        for _ in range(5):
            body = await t.slash("roll dice", {"expr": "2d6+1"})
            assert not is_ephemeral(body)
            shown = re.fullmatch(r"🎲 2d6 \((\S+), (\S+)\) \+ 1 = `(\d+)`", text_of(body))
            assert shown, text_of(body)
            first, second, total = (int(g.strip("*")) for g in shown.groups())
            assert 1 <= first <= 6
            assert 1 <= second <= 6
            assert total == first + second + 1


@aio
async def test_roll_dice_keeps_the_highest_and_strikes_the_dropped_die_through(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """4d6kh3 as on Discord's dice bots: four dice shown, the lowest struck through, and the
    total the other three."""
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        for _ in range(5):
            body = await t.slash("roll dice", {"expr": "4d6kh3"})
            assert not is_ephemeral(body)
            shown = re.fullmatch(r"🎲 4d6kh3 \((.*)\) = `(\d+)`", text_of(body))
            assert shown, text_of(body)
            dice = shown.group(1).split(", ")
            assert len(dice) == 4
            struck = [d for d in dice if d.startswith("~~") and d.endswith("~~")]
            assert len(struck) == 1, dice
            faces = [int(d.strip("~*")) for d in dice]
            dropped = int(struck[0].strip("~*"))
            assert dropped == min(faces)
            assert int(shown.group(2)) == sum(faces) - dropped


@aio
async def test_roll_dice_reads_parentheses_advantage_and_exploding_dice(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        times = await t.slash("roll dice", {"expr": "(1d4+1)*3"})
        shown = re.fullmatch(r"🎲 \(1d4 \((\S+)\) \+ 1\) \\\* 3 = `(\d+)`", text_of(times))
        assert shown, text_of(times)
        assert int(shown.group(2)) == (int(shown.group(1).strip("*")) + 1) * 3
        advantage = await t.slash("roll dice", {"expr": "1d20+2 adv"})
        assert re.fullmatch(r"🎲 2d20kh1 \(.*~~.*\) \+ 2 = `\d+`", text_of(advantage))
        exploding = await t.slash("roll dice", {"expr": "1d6!"})
        assert re.fullmatch(r"🎲 1d6e6 \(.+\) = `\d+`", text_of(exploding)), text_of(exploding)


@aio
async def test_roll_dice_refuses_a_dice_bomb_and_nonsense_in_a_sentence(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        bomb = await t.slash("roll dice", {"expr": "1000d1000"})
        assert is_ephemeral(bomb)
        assert text_of(bomb) == "'1000d1000': it throws 1000 dice; one roll may throw at most 200."
        runaway = await t.slash("roll dice", {"expr": "1d6e>0"})
        assert is_ephemeral(runaway)
        assert "more than 200 dice" in text_of(runaway)
        for nonsense in ("banana", "((1d6!)!)", "1d6/0", "٣d6"):
            body = await t.slash("roll dice", {"expr": nonsense})
            assert is_ephemeral(body)
            assert nonsense in text_of(body)
            assert "Sorry" not in text_of(body)  # a sentence about the dice, not an apology


# -- /help ---------------------------------------------------------------------------------------


@aio
async def test_help_lists_every_command_group(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await t.slash("help")
        assert is_ephemeral(body)
        assert embed_size(body) <= EMBED_TOTAL
        text = text_of(body)
        assert "…" not in text  # nothing was cut to fit
        assert "/game start" in text
        for command in t.fake.synced_commands():
            if command["name"] == "sync":  # the owner's, in the development server only
                continue
            assert f"/{command['name']}" in text, command["name"]
            for sub in command.get("options") or []:
                if sub["type"] == 1:  # a subcommand
                    assert f"/{command['name']} {sub['name']}" in text


@aio
async def test_help_for_one_group_shows_only_its_commands(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await t.slash("help", {"group": "chaos"})
        assert is_ephemeral(body)
        text = text_of(body)
        usages = re.findall(r"\*\*(/[^*]+)\*\*", text)
        assert usages
        assert all(u.startswith("/chaos ") for u in usages), usages
        assert "/chaos roll [list] [extra]" in usages
        assert "/chaos undo" in usages
        assert "/game" not in text


# -- /ping and /sync -----------------------------------------------------------------------------


@aio
async def test_ping_answers_at_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await t.slash("ping")
        assert body["type"] == 4
        assert text_of(body) == "pong"
        assert is_ephemeral(body)


@aio
async def test_sync_is_for_the_bots_owner(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        fake = t.fake
        synced = f"PUT /applications/{fake.app_id}/guilds/{fake.guild_id}/commands"
        published = len(fake.calls_to(synced))  # once at start, to the dev guild
        for who in (fake.player, fake.referee):
            refused = await t.slash("sync", {"where": "here"}, user=who)
            assert is_ephemeral(refused)
            assert text_of(refused) == "Only the bot's owner can publish its commands."
        assert len(fake.calls_to(synced)) == published

        body = await final_answer(t, "sync", {"where": "here"}, user=fake.owner)
        assert is_ephemeral(body)
        count = len(fake.synced_commands())
        assert text_of(body) == f"Published {count} commands to this server."
        assert len(fake.calls_to(synced)) == published + 1
        assert fake.calls_to(f"PUT /applications/{fake.app_id}/commands") == []

        body = await final_answer(t, "sync", {"where": "everywhere"}, user=fake.owner)
        assert "every server" in text_of(body)
        (everywhere,) = fake.calls_to(f"PUT /applications/{fake.app_id}/commands")
        # Every command but /sync, which stays the development server's own.
        assert {c["name"] for c in everywhere.json} == {
            c["name"] for c in fake.synced_commands()
        } - {"sync"}
        (here, *_) = fake.calls_to(synced)
        assert "sync" in {c["name"] for c in here.json}
        for command in [*everywhere.json, *here.json]:  # offered in servers only, never in DMs
            assert command["contexts"] == [0], command["name"]
            assert command["dm_permission"] is False, command["name"]
