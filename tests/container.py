"""Building and running the bot's container image with Podman, offline, for tests/test_hosting.py.

No image registry is reachable where the tests run, so the image is built ``FROM`` a local Debian
image instead of the official Python one (the Dockerfile's ``BASE`` argument): ``debootstrap``
makes a minimal Debian with Python from Debian's packages, and ``podman import`` makes it an
image. Debootstrap takes most of a minute, so its tarball is kept under ``build/container/``,
named by a hash of what it holds, and the image is imported once per tag. The Python packages
reach the build as files downloaded on the host against ``requirements.lock`` (the lock's hashes
are checked inside, as ``make run`` checks them), and the build has no network at all.

Podman runs containers here with the ``runc`` runtime. Its default resource limits are the
host's maximum, which a runtime without CAP_SYS_RESOURCE may not set on the container's
process (runc: "error setting rlimits"), so every container gets explicit, smaller ones.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "build" / "container"
# Debian releases by their Python: the wheels downloaded on the host must fit the image's.
SUITES = {(3, 11): "bookworm", (3, 13): "trixie"}
MIRROR = os.environ.get("CHAOS_DEBIAN_MIRROR", "http://deb.debian.org/debian")
PACKAGES = ("python3", "python3-venv")
PODMAN = ("podman", "--runtime", "runc")
LIMITS = ("--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096")
TOOLS = ("podman", "runc", "debootstrap")
INSTALL = "apt-get install -y podman runc debootstrap (make test does it when run as root)"


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def run(*args: str, timeout: float = 600, **kw: object) -> subprocess.CompletedProcess[str]:
    """`args`, which must succeed; its output, as text."""
    result = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)  # type: ignore[call-overload]
    assert result.returncode == 0, (
        f"{' '.join(args)}:\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
    )
    return result  # type: ignore[no-any-return]


def podman(*args: str, timeout: float = 600, **kw: object) -> subprocess.CompletedProcess[str]:
    return run(*PODMAN, *args, timeout=timeout, **kw)


def suite() -> str:
    version = sys.version_info[:2]
    assert version in SUITES, (
        f"the container test downloads wheels for this Python ({version[0]}.{version[1]}), and"
        f" no Debian release has it as python3 ({', '.join(f'{a}.{b}' for a, b in SUITES)} do)"
    )
    return SUITES[version]


def base_image() -> str:
    """The local Debian image's tag, made (and its tarball cached) if need be."""
    release = suite()
    key = hashlib.sha256(f"{release} {MIRROR} {' '.join(PACKAGES)}".encode()).hexdigest()[:12]
    tag = f"localhost/chaos-referee-base:{release}-{key}"
    if subprocess.run([*PODMAN, "image", "exists", tag]).returncode == 0:
        return tag
    tarball = CACHE / f"base-{release}-{key}.tar"
    if not tarball.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=CACHE) as work:
            root = Path(work) / "root"
            run(
                "debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}",
                release, str(root), MIRROR,
            )  # fmt: skip
            run("tar", "-C", str(root), "-cf", str(Path(work) / "base.tar"), ".")
            (Path(work) / "base.tar").rename(tarball)
    podman("import", str(tarball), tag)
    return tag


def build_context(into: Path) -> Path:
    """The repository's files as a fresh clone has them (plus files not yet committed), and
    beside them `wheels/`: every package of requirements.lock, and what builds its one
    source-only package (lark-parser)."""
    listed = run(
        "git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", cwd=ROOT
    ).stdout
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    lock = (ROOT / "requirements.lock").read_bytes()
    wheels = CACHE / f"wheels-{hashlib.sha256(lock).hexdigest()[:12]}"
    if not wheels.exists():
        part = CACHE / f"{wheels.name}.part"
        shutil.rmtree(part, ignore_errors=True)
        pip = (sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q")
        run(*pip, "--require-hashes", "-r", str(ROOT / "requirements.lock"), "-d", str(part))
        run(*pip, "-d", str(part), "setuptools", "wheel")
        part.rename(wheels)
    shutil.copytree(wheels, into / "wheels")
    return into


def build(base: str, tag: str, context: Path) -> None:
    podman(
        # --layers=false: no stage or layer is kept as an image once the build is done (each
        # run would leave its build stage behind, a few hundred MB).
        "build", "--pull=never", "--layers=false", "--network", "none",
        "--build-arg", f"BASE={base}", "--build-arg", "PIP_NO_INDEX=1",
        "--build-arg", "PIP_FIND_LINKS=/src/wheels",
        "--tag", tag, str(context),
    )  # fmt: skip


def container(
    *args: str, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``podman run --rm`` with the limits above; its result, whatever its exit status."""
    return subprocess.run(
        [*PODMAN, "run", "--rm", *LIMITS, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def detached(name: str, image: str, env: dict[str, str], options: Sequence[str] = ()) -> None:
    settings = [part for key, value in env.items() for part in ("--env", f"{key}={value}")]
    podman("run", "--detach", "--name", name, *LIMITS, *settings, *options, image)
