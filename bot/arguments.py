"""Whole numbers on the command line, written with the digits 0 to 9.

Python's ``int()`` also reads other scripts' digits (``int("٣") == 3``), which nobody types
into a shell meaning a count or a seed; argparse's ``type=int`` took them. These parsers take
ASCII digits only and say what they expected otherwise.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import TypeAlias

# argparse's type for what add_subparsers() returns; private in name only, and stable.
SubParsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

_WHOLE = re.compile(r"[+-]?[0-9]+")


def whole(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number in ASCII digits, within `low`..`high` if given."""

    def parse(text: str) -> int:
        if not _WHOLE.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(
                f"expected a whole number written with the digits 0 to 9, got {text!r}"
            )
        try:
            value = int(text)
        except ValueError:  # more digits than Python converts
            raise argparse.ArgumentTypeError(f"{text[:20]}… is too long a number") from None
        if (low is not None and value < low) or (high is not None and value > high):
            span = (
                f"{low} to {high}"
                if low is not None and high is not None
                else (f"at least {low}" if low is not None else f"at most {high}")
            )
            raise argparse.ArgumentTypeError(f"expected {span}, got {value}")
        return value

    return parse
