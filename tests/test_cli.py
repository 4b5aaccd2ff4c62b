"""The `chaos-referee` command, run as a real process."""

from __future__ import annotations

import subprocess
import sys

from bot import __version__


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=60
    )


def test_version_is_printed() -> None:
    result = run_cli("--version")
    assert result.returncode == 0
    assert __version__ in result.stdout


def test_unknown_option_is_a_usage_error_not_a_traceback() -> None:
    result = run_cli("--no-such-option")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "usage:" in result.stderr


def test_numbers_are_written_with_the_digits_0_to_9() -> None:
    """argparse's `type=int` took `--seed ٣` as 3 and `sync --guild ٣` as server 3."""
    for args in (("play", "--seed", "٣"), ("sync", "--guild", "١٢")):
        result = run_cli(*args)
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
        assert "expected a whole number written with the digits 0 to 9" in result.stderr


def test_output_cut_short_by_the_reader_is_not_an_error() -> None:
    """`chaos-referee ... | head` closes the pipe early; that's not a bug to report."""
    with subprocess.Popen(
        [sys.executable, "-m", "bot", "tables", "simulate", "classic", "--turns", "400"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.readline()
        process.stdout.close()
        stderr = process.stderr.read()
        assert process.wait(timeout=60) == 0
    assert "internal error" not in stderr
