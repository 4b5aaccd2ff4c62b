"""The hosting files, each exercised: deploy/chaos-referee.service by `systemd-analyze verify`,
and the Dockerfile built with Podman, offline, and run as compose.yaml runs it: the offline
console answers `help` with its games on the volume (and on PostgreSQL when
CHAOS_DATABASE_URL says so), and the bot connects to the fake Discord on the host's network,
publishes its commands, passes compose.yaml's own health check and stops cleanly on SIGTERM.

How the image is built without a registry or a network is in tests/container.py. The whole
container part takes about a minute and a half on a fresh clone (debootstrap is most of it),
and about half a minute once build/container/ holds the base image.
"""

from __future__ import annotations

import json
import re
import secrets
import shlex
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import build_parser
from tests import container as c
from tests.e2e.test_bot_cli import FakeInAThread

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "chaos-referee.service"
INSTALL_DIR = "/srv/chaos-referee"
SYNCED_WITHIN = 90.0  # seconds from `podman run` to the commands published (a cold start)


# -- systemd -------------------------------------------------------------------------------------


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    assert shutil.which("systemd-analyze"), (
        "systemd-analyze checks the unit file: install systemd (apt-get install -y systemd);"
        " it verifies files without systemd running as PID 1"
    )
    return subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )


def placed(folder: Path, text: str) -> Path:
    """The unit as it would be installed, with this clone (and its .venv) as the install."""
    unit = folder / "chaos-referee.service"
    unit.write_text(text.replace(INSTALL_DIR, str(ROOT)), encoding="utf-8")
    return unit


def test_the_systemd_unit_runs_what_make_run_runs_and_verifies(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8")
    settings = dict(re.findall(r"^(\w+)=(.*)$", text, re.M))
    assert settings["WorkingDirectory"] == INSTALL_DIR  # where .env and the database are
    # make run's recipe, from the install's folder.
    assert "\n\t$(VENV)/bin/chaos-referee\n" in (ROOT / "Makefile").read_text()
    assert settings["ExecStart"] == f"{INSTALL_DIR}/.venv/bin/chaos-referee"
    assert settings["Restart"] == "on-failure"
    assert settings["KillSignal"] == "SIGTERM"  # the bot's clean stop
    assert settings["User"] != "root"
    result = verify(placed(tmp_path, text))
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == ""
    # The check bites: a mistyped setting or a missing program is reported.
    broken = text.replace("Restart=on-failure", "Restart=on-failur")
    assert "Failed to parse" in verify(placed(tmp_path, broken)).stderr
    gone = verify(placed(tmp_path, text.replace("/.venv/bin/", "/.venv/nowhere/")))
    assert gone.returncode != 0


# -- docs/hosting.md ------------------------------------------------------------------------------

# The shell lines docs/hosting.md shows that are the system's (users, git, systemd, Compose's own
# subcommands): each must still name only files the repository has.
SYSTEM = ("sudo useradd ", "sudo -u chaos git ", "cd /srv/", "sudo systemctl ", "journalctl ",
          "git pull", "docker compose up ", "docker compose logs ", "COMPOSE_PROFILES=",
          "CHAOS_DATABASE_URL=")  # fmt: skip


def test_every_command_docs_hosting_md_shows_is_one_the_project_has() -> None:
    text = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    lines = [
        line.split("  #")[0].strip()
        for block in re.findall(r"```sh\n(.*?)```", text, re.S)
        for line in block.splitlines()
        if line.strip()
    ]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    parser = build_parser()
    for line in lines:
        words = shlex.split(line)
        if words[:2] == ["sudo", "-u"]:
            words = words[3:]
        if words[:4] == ["docker", "compose", "run", "--rm"]:
            assert words[4] == "bot", line
            assert callable(parser.parse_args(words[5:]).func), line  # a chaos-referee command
        elif words[0] == ".venv/bin/chaos-referee":
            assert callable(parser.parse_args(words[1:]).func), line
        elif words[0] == "make":
            assert re.search(rf"^{words[1]}:", makefile, re.M), line
        elif words[0] in ("cp", "sudo") and words[1] in ("cp", ".env.example"):
            assert (ROOT / words[-2]).is_file(), line  # what is copied
        else:
            assert line.startswith(SYSTEM), f"docs/hosting.md shows a command no test knows: {line}"
    for name in re.findall(r"`((?:deploy/)?[\w.-]+\.(?:service|yaml)|Dockerfile)`", text):
        assert (ROOT / name).is_file(), name
    assert "postgresql://chaos:chaos@db:5432/chaos" in (ROOT / "compose.yaml").read_text()


# -- the container image -------------------------------------------------------------------------


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return loaded


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    missing = c.missing_tools()
    assert not missing, f"the container test needs {', '.join(missing)}: {c.INSTALL}"
    tag = f"localhost/chaos-referee-test:{secrets.token_hex(4)}"
    started = time.monotonic()
    base = c.base_image()
    based = time.monotonic()
    c.build(base, tag, c.build_context(tmp_path_factory.mktemp("context")))
    print(
        f"\ncontainer: base image {based - started:.1f} s, build {time.monotonic() - based:.1f} s"
    )
    try:
        yield tag
    finally:
        subprocess.run([*c.PODMAN, "rmi", "--force", tag], capture_output=True)


@pytest.fixture
def volume() -> Iterator[str]:
    name = f"chaos-referee-test-{secrets.token_hex(4)}"
    c.podman("volume", "create", name)
    try:
        yield name
    finally:
        subprocess.run([*c.PODMAN, "volume", "rm", "--force", name], capture_output=True)


def test_the_image_runs_as_its_own_user_with_the_games_on_a_volume(image: str) -> None:
    (config,) = json.loads(c.podman("image", "inspect", image).stdout)
    assert config["Config"]["User"] == "chaos"
    assert "/data" in config["Config"]["Volumes"]
    bot = compose()["services"]["bot"]
    assert bot["build"] == "."
    assert "data:/data" in bot["volumes"]
    who = c.container("--entrypoint", "id", image)
    assert who.returncode == 0, who.stderr
    assert who.stdout.startswith("uid=10001(chaos)")


def test_the_console_in_the_container_answers_help_and_keeps_its_game(
    image: str, volume: str
) -> None:
    first = c.container(
        "--interactive", "--network", "none", "--volume", f"{volume}:/data", image,
        "play", "--players", "Ann,Bob", "--seed", "1265", stdin="help\nchaos roll\n",
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert first.stderr == ""
    assert "Commands (type `help GROUP` for details):" in first.stdout  # help's answer
    assert "  chaos    chaos rolls, cards, tokens, spite, choices, the log, undo" in first.stdout
    assert "Ann rolls Chaos List d20×d10 [6, 7] = 67 → #67 Grand Tour" in first.stdout
    again = c.container(
        "--interactive", "--network", "none", "--volume", f"{volume}:/data", image,
        "play", stdin="game status\n",
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "Resuming the game at table 'default'." in again.stdout


def test_the_console_in_the_container_plays_on_postgresql(image: str, postgres_url: str) -> None:
    """compose.yaml's postgres profile: CHAOS_DATABASE_URL names the database, no volume."""
    assert compose()["services"]["db"]["profiles"] == ["postgres"]
    for typed, said in (
        ("chaos roll\n", "Ann rolls"),
        ("game status\n", "turn 1 · Ann's turn — chaos done (`turn next`)."),
    ):
        result = c.container(
            "--interactive", "--network", "host", "--env", f"CHAOS_DATABASE_URL={postgres_url}",
            image, "play", "--players", "Ann,Bob", stdin=typed,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert said in result.stdout, result.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_bot_in_the_container_publishes_its_commands_and_is_healthy(
    image: str, volume: str
) -> None:
    bot = compose()["services"]["bot"]
    # On the host's network, to reach the fake Discord on 127.0.0.1: the pages take a free
    # port rather than compose.yaml's 8080, which the host may be using.
    port = str(free_port())
    env = {key: str(value) for key, value in bot["environment"].items()}
    assert env["CHAOS_WEB_PORT"] == "8080"
    env.update(CHAOS_WEB_PORT=port, CHAOS_WEB_HOST="127.0.0.1")
    check = [part.replace(":8080/", f":{port}/") for part in bot["healthcheck"]["test"][1:]]
    name = f"chaos-referee-test-{secrets.token_hex(4)}"
    served = FakeInAThread()
    with served as fake:
        env.update(
            DISCORD_TOKEN="fake-token",
            DISCORD_API_BASE=fake.api_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
            CHAOS_DEV_GUILD_ID=fake.guild_id,
        )
        started = time.monotonic()
        c.detached(name, image, env, ["--network", "host", "--volume", f"{volume}:/data"])
        try:
            while not fake.guild_commands.get(fake.guild_id):
                assert time.monotonic() - started < SYNCED_WITHIN, logs(name)
                time.sleep(0.2)
            synced = time.monotonic() - started
            names = {command["name"] for command in fake.guild_commands[fake.guild_id]}
            assert {"game", "chaos", "sync"} <= names
            while True:  # ready comes a moment after the commands are published
                health = subprocess.run(
                    [*c.PODMAN, "exec", name, *check], capture_output=True, text=True
                )
                if health.returncode == 0:
                    break
                assert "unhealthy: gateway not connected" in health.stderr, health.stderr
                assert time.monotonic() - started < SYNCED_WITHIN, logs(name)
                time.sleep(0.5)
            print(f"\ncontainer: commands published {synced:.1f} s after podman run")
            assert health.stdout.startswith("ok: gateway connected, database "), health.stdout
            c.podman("stop", "--time", "30", name)
            state = json.loads(c.podman("inspect", name).stdout)[0]["State"]
            assert state["ExitCode"] == 0, logs(name)
            said = logs(name)
            assert "Traceback" not in said
            assert f"synced {len(names)} commands to {fake.guild_id}" in said
        finally:
            subprocess.run([*c.PODMAN, "rm", "--force", name], capture_output=True)
    listed = c.container("--volume", f"{volume}:/data", "--entrypoint", "ls", image, "/data")
    assert "chaos-referee.db" in listed.stdout.split()


def logs(name: str) -> str:
    result = subprocess.run([*c.PODMAN, "logs", name], capture_output=True, text=True)
    return result.stdout + result.stderr
