"""The README's console transcript, typed literally into the real `chaos-referee play`: the
output must be the README's, line for line, up to its `...`."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.console.test_transcripts import play

README = Path(__file__).parents[2] / "README.md"
PROMPT = re.compile(r"^\w+ \(turn \d+\)> (?P<line>.*)$")


def transcript() -> tuple[list[str], list[str], list[str]]:
    """The README's `$ chaos-referee play ...` block: its arguments, the lines typed at the
    prompts, and every line it shows (a prompt shown as the piped console echoes it, `> `)."""
    text = README.read_text(encoding="utf-8")
    block = re.search(
        r"```text\n\$ chaos-referee play (?P<args>[^\n]*)\n(?P<body>.*?)\n```", text, re.S
    )
    assert block, "the README has no console transcript"
    typed: list[str] = []
    shown: list[str] = []
    for line in block["body"].splitlines():
        if line == "...":
            break
        prompt = PROMPT.match(line)
        if prompt:
            typed.append(prompt["line"])
            line = f"> {prompt['line']}"
        shown.append(line)
    return shlex.split(block["args"]), typed, shown


def test_the_readme_transcript_is_what_the_console_prints(tmp_path: Path) -> None:
    args, typed, shown = transcript()
    assert typed, "the transcript types nothing"
    stdout = play(tmp_path, *args, stdin="".join(f"{line}\n" for line in typed))
    assert stdout.splitlines()[: len(shown)] == shown
