"""A server owner's first evening, as docs/discord.md writes it: every command of its numbered
steps runs as written (`make X` as the Makefile's recipe for X), a real bot process against the
fake Discord, from a copied `.env.example` to `/game start` in a channel.

What Discord is sent is checked from the fake's record: the invite link's id and permissions,
one plain line at the first start naming the command that publishes the commands, and a global
sync that publishes every command for servers only, without the owner's /sync.
"""

from __future__ import annotations

import base64
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import discord
import pytest

from bot.client.invite import PERMISSIONS, permission_names
from tests.e2e.test_bot_cli import CONNECT_WITHIN, STOP_WITHIN, FakeInAThread, clean_env
from tests.fakediscord.plugin import assert_no_unknown_routes
from tests.fakediscord.recorder import Call
from tests.watchdog import assert_no_stall_in

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "discord.md"
VENV = Path(sys.executable).parent.parent  # the .venv `make` made, which runs this test
IDENTIFY_WAIT = 5.0
UNPUBLISHED = "No slash commands are published yet, so Discord shows none: run `chaos-referee sync`"


# What each request the bot makes needs of the server's permissions (`bot/client/invite.py`
# asks for them). Answers to interactions go through the interaction's webhook: none.
NEEDS: dict[str, set[str]] = {
    "POST /channels/*/messages": {"view_channel", "send_messages"},  # the status board
    "PATCH /channels/*/messages/*": {"view_channel"},  # editing its own board
    "DELETE /channels/*/messages/*": {"view_channel"},  # deleting its own old board
    "GET /channels/*/messages/*": {"view_channel", "read_message_history"},
    "POST /interactions/*": set(),
    "* /webhooks/*": set(),
    "* /applications/*": set(),
    "GET /users/@me": set(),
    "GET /oauth2/applications/@me": set(),
    "GET /gateway*": set(),
}


def needed(calls: list[Call]) -> set[str]:
    """The permissions the bot's requests needed; a request of a kind not above fails."""
    wanted: set[str] = set()
    for call in calls:
        kinds = [pattern for pattern in NEEDS if call.matches(pattern)]
        assert kinds, f"{call.method} {call.path}: say in NEEDS what it needs of a server"
        wanted |= NEEDS[kinds[0]]
        if call.matches("POST /channels/*/messages"):
            if (call.json or {}).get("embeds"):
                wanted.add("embed_links")
            if call.files:
                wanted.add("attach_files")
    return wanted


def section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    assert f"\n## {title}\n" in text, f"docs/discord.md has no section {title!r}"
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def commands_of(title: str) -> list[str]:
    """The shell lines of a section's ```sh blocks, in order."""
    blocks = re.findall(r"```sh\n(.*?)```", section(title), re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def recipe(target: str) -> list[str]:
    """What `make TARGET` runs once installed: its recipe's one line, with $(VENV) filled in."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(rf"^{target}: .*\n\t(.+)$", makefile, re.M)
    assert found, f"the Makefile has no one-line recipe for {target}"
    return shlex.split(found[1].replace("$(VENV)", str(VENV)))


def argv(line: str) -> list[str]:
    words = shlex.split(line)
    if words[0] == "make":
        return recipe(words[1])
    assert words[0] == ".venv/bin/chaos-referee", line
    return [str(VENV / "bin" / "chaos-referee"), *words[1:]]


def bot_token(app_id: str) -> str:
    """A token in Discord's shape: the application's id in base64, then two parts."""
    head = base64.b64encode(app_id.encode()).decode().rstrip("=")
    return f"{head}.GhIjKl.not-a-secret-but-shaped-like-one"


def run(folder: Path, line: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        argv(line), cwd=folder, env=clean_env(), capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, f"{line}:\n{result.stderr}"
    assert "Traceback" not in result.stderr
    return result


@contextmanager
def running(folder: Path, line: str, served: FakeInAThread) -> Iterator[list[str]]:
    """The bot started by `line`, connected; on the way out stopped with Ctrl-C, and the list
    yielded is filled with its log lines."""
    log: list[str] = []
    before = len(served.fake.identifies)
    process = subprocess.Popen(
        argv(line), cwd=folder, env=clean_env(), stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + CONNECT_WITHIN
        while len(served.fake.identifies) == before:
            assert process.poll() is None, process.communicate()[1]
            assert time.monotonic() < deadline, "the bot didn't connect"
            time.sleep(0.05)
        served.wait_connected(CONNECT_WITHIN)
        yield log
    finally:
        process.send_signal(signal.SIGINT)
        try:
            # A bot stopped within 5 s of connecting waits out the rest (Discord's identify
            # limit, docs/discord.md), so its successor isn't refused.
            _, stderr = process.communicate(timeout=STOP_WITHIN + IDENTIFY_WAIT)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert_no_stall_in(stderr)
    log.extend(stderr.splitlines())


def test_the_owners_path_in_docs_discord_md_runs_as_written(tmp_path: Path) -> None:
    steps = commands_of("From nothing to a game on your server")
    assert steps == [
        "cp .env.example .env",
        "make invite",
        "make run",
        ".venv/bin/chaos-referee sync",
    ]
    served = FakeInAThread()
    with served as fake:
        # 2. The token into .env, copied from .env.example as a clone has it. The fake's
        # addresses are the lines a real owner doesn't write.
        (tmp_path / ".env.example").write_bytes((ROOT / ".env.example").read_bytes())
        subprocess.run(shlex.split(steps[0]), cwd=tmp_path, check=True)
        env = (tmp_path / ".env").read_text(encoding="utf-8")
        assert "\nDISCORD_TOKEN=\n" in env
        env = env.replace("\nDISCORD_TOKEN=\n", f"\nDISCORD_TOKEN={bot_token(fake.app_id)}\n")
        env += f"DISCORD_API_BASE={fake.api_base}\nDISCORD_GATEWAY_URL={fake.gateway_url}\n"
        (tmp_path / ".env").write_text(env, encoding="utf-8")

        # 3. The invite link: this application, both scopes, the permissions the bot uses.
        said = run(tmp_path, steps[1]).stdout
        (link,) = [line for line in said.splitlines() if line.startswith("https://")]
        url = urllib.parse.urlsplit(link)
        assert (url.netloc, url.path) == ("discord.com", "/oauth2/authorize")
        query = urllib.parse.parse_qs(url.query)
        assert query["client_id"] == [fake.app_id]
        assert query["scope"] == ["bot applications.commands"]
        assert query["permissions"] == [str(PERMISSIONS.value)]
        for name in permission_names():  # named as docs/discord.md names them
            assert name in said
            assert name in section("From nothing to a game on your server")

        # 4. The first start: one plain line says the commands aren't published, and how.
        with running(tmp_path, steps[2], served) as first:
            # 5. Publishing them, while the bot runs.
            published = run(tmp_path, steps[3]).stdout.strip()
            (sync,) = fake.calls_to(f"PUT /applications/{fake.app_id}/commands")
            count = len(sync.json)
            assert (
                published == f"Published {count} commands to every server (may take up to an hour)."
            )
            assert f"`{published}`" in section("From nothing to a game on your server")
            # 6. /game start in a channel.
            _, body = served.call(fake.slash("game start", {"ruleset": "classic"}), 10)
            assert body["type"] in (4, 5), body
            # ...and its status board, a message of the bot's own in the channel.
            served.call(fake.wait_for_call("POST /channels/*/messages"), 10)
        (line,) = [line for line in first if "No slash commands" in line]
        assert UNPUBLISHED in line, line

        # What was published: every command, for servers only; never the owner's /sync.
        names = {command["name"] for command in sync.json}
        assert {"game", "chaos", "turn", "help"} <= names
        assert "sync" not in names
        for command in sync.json:
            assert command["contexts"] == [0], command["name"]
            assert command["dm_permission"] is False, command["name"]

        # Every request the bot made needed only what the invite asks for.
        used = needed(fake.calls)
        assert discord.Permissions(**dict.fromkeys(used, True)).is_subset(PERMISSIONS), used
        assert "embed_links" in needed(fake.calls)  # the board went out

        # Updating: the next start finds this version's commands published, and says nothing.
        assert commands_of("Updating")[1:] == [steps[2], steps[3]]  # after `git pull`
        with running(tmp_path, steps[2], served) as second:
            pass
        assert not [line for line in second if "slash commands" in line.lower()], second
        assert_no_unknown_routes(fake)


def test_an_update_that_changed_the_commands_is_told_at_start(tmp_path: Path) -> None:
    served = FakeInAThread()
    with served as fake:
        (tmp_path / ".env").write_text(
            f"DISCORD_TOKEN={bot_token(fake.app_id)}\nDISCORD_API_BASE={fake.api_base}\n"
            f"DISCORD_GATEWAY_URL={fake.gateway_url}\n"
        )
        run(tmp_path, ".venv/bin/chaos-referee sync")
        # An older version's commands: one more, and one less.
        fake.global_commands = [c for c in fake.global_commands if c["name"] != "roll"]
        fake.global_commands.append({**fake.global_commands[0], "name": "retired", "id": "1"})
        with running(tmp_path, "make run", served) as log:
            pass
    (line,) = [line for line in log if "slash commands" in line]
    assert (
        "The slash commands Discord shows aren't this version's (new or changed: /roll;"
        " no longer: /retired): run `chaos-referee sync`"
    ) in line, line


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ("", "DISCORD_TOKEN is not set: put it in .env (see .env.example), or give the"),
        ("DISCORD_TOKEN=not-a-token\n", "DISCORD_TOKEN doesn't look like a bot token"),
    ],
    ids=["no-token", "not-a-token"],
)
def test_invite_without_a_usable_token_says_what_to_do(tmp_path: Path, env: str, said: str) -> None:
    (tmp_path / ".env").write_text(env)
    result = subprocess.run(
        argv("make invite"), cwd=tmp_path, env=clean_env(), capture_output=True, text=True
    )
    assert result.returncode == 1
    assert result.stderr.startswith(f"chaos-referee: {said}"), result.stderr
    assert "--client-id" in result.stderr
    assert "not-a-token" not in result.stderr  # a token is never repeated
    given = subprocess.run(
        [*argv("make invite"), "--client-id", "42"],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
    )
    assert given.returncode == 0, given.stderr
    assert "client_id=42&" in given.stdout
