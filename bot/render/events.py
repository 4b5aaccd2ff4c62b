"""Events as lines of text for a terminal: pure, no I/O, nothing about Discord.

A resolution is drawn as a tree: each roll under the roll that asked for it, with ``├─`` and
``└─``, and what an honoured roll leaves behind (its text, dice, effects, tokens) beneath it.
Box drawing lines up only in a fixed-width font, so a front end that shows proportional text
(Discord, on a phone too) asks for *steps* instead: each sub-roll starts a line of its own with
``↳`` and its number, indented a little more for each level, so nothing has to line up.
Events that only keep the books (the ``action`` record, a drawn card before it is revealed
again as a roll, a card to the discard pile) print nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bot.engine.events import Event, Roll
from bot.engine.model import ChaosSource
from bot.render.lines import WIDTH, action_line, choice_lines, event_line, wrap
from bot.render.names import Names


def latest_actions(events: Sequence[Event], count: int) -> Sequence[Event]:
    """The events of the last `count` actions, each whole: what the log shows for ``chaos log
    N``. Counting events instead would show a roll without the action that made it, or begin
    with the last sub-roll of a tree (``└─ roll 2/2``), and a few rolls hide many events."""
    if count <= 0:
        return events[:0]
    seen = 0
    for at in range(len(events) - 1, -1, -1):
        if events[at]["type"] == "action":
            seen += 1
            if seen == count:
                return events[at:]
    return events


def render_events(events: Iterable[Event], names: Names, *, actions: bool = False) -> str:
    """The events as text, one or more lines each ('' when none of them shows).

    With `actions`, each action is shown too (``» Ann: chaos roll``), as a log reads best.
    """
    return "\n".join(render_lines(list(events), names, actions=actions))


class _Tree:
    """Where each roll of a batch sits in its tree, and how the lines beneath it are indented."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.last_child: dict[int, int] = {}
        self.has_children: set[int] = set()
        for event in events:
            if event["type"] == "roll" and event["parent"] is not None:
                self.last_child[event["parent"]] = event["id"]
                self.has_children.add(event["parent"])
        self.base: dict[int, str] = {}  # by roll id: the prefix its children's lines start with
        self.indent = ""  # for the lines under the most recent roll; "" outside a resolution

    def place(self, roll: Roll) -> str:
        """The prefix of this roll's own line; remembers the indent of the lines under it."""
        parent = roll["parent"]
        if parent is None:
            prefix = base = ""
        else:
            # A parent missing from the batch is a resolution going on after a choice.
            above = self.base.get(parent, "")
            last = self.last_child.get(parent) == roll["id"]
            prefix = above + ("└─ " if last else "├─ ")
            base = above + ("   " if last else "│  ")
        self.base[roll["id"]] = base
        self.indent = base + ("│  " if roll["id"] in self.has_children else "   ")
        return prefix


# An em space: as wide as an "M" in any font, and never trimmed or collapsed by Discord.
STEP_INDENT = "\u2003"


class _Steps(_Tree):
    """Sub-rolls as steps: ``↳ 1/3 ...`` (the slot, or the step's number among its parent's
    sub-rolls), one em space further in for each level, and their lines one em space in from
    their own step. Nothing depends on characters lining up."""

    def __init__(self, events: Sequence[Event]) -> None:
        super().__init__(events)
        self.depth: dict[int, int] = {}
        self.count: dict[int | None, int] = {}

    def place(self, roll: Roll) -> str:
        parent = roll["parent"]
        depth = 0 if parent is None else self.depth.get(parent, 0) + 1
        self.depth[roll["id"]] = depth
        self.indent = STEP_INDENT * depth
        if parent is None:
            return ""
        self.count[parent] = number = self.count.get(parent, 0) + 1
        step = roll["slot"] or str(number)
        return f"{STEP_INDENT * (depth - 1)}↳ {step} · "


# Events that belong to the roll just shown, and are indented beneath it.
_UNDER_A_ROLL = frozenset(
    {
        "effect_started",
        "effect_ended",
        "tokens",
        "list_changed",
        "life",
        "life_unsure",
        "turn_order",
        "budget_exhausted",
        "offer_made",
    }
)


def render_lines(
    events: Sequence[Event],
    names: Names,
    *,
    actions: bool = False,
    width: int = WIDTH,
    steps: bool = False,
    titled: int | None = None,
) -> list[str]:
    """Each event's lines, in order (see :func:`render_events`).

    A roll's text is wrapped to `width` columns; a front end that wraps text itself (Discord)
    passes a width no text reaches, so each text stays on one line. With `steps`, sub-rolls are
    steps rather than a tree (see the module's docstring). `titled` is a roll whose player and
    entry a title above the lines names already: its own line gives only the list and dice.
    """
    tree = _Steps(events) if steps else _Tree(events)
    lines: list[str] = []
    directed: set[str] = set()  # the supplementary lists whose directions are shown already
    for event in events:
        if event["type"] == "action" and actions:
            lines.append(action_line(event["action"], names))
            tree.indent = ""
            continue
        if event["type"] == "roll":
            prefix = tree.place(event)
            directions = _directions(event, names, directed)
            lines += _roll(
                event, names, prefix, tree.indent, width, directions, event["id"] == titled
            )
            continue
        if event["type"] == "choice_offered":  # one line per option and per line of its text
            tree.indent = ""
            lines += choice_lines(event, names, width)
            continue
        text = event_line(event, names)
        if text is None:
            continue
        if event["type"] in _UNDER_A_ROLL:
            text = tree.indent + text
        else:
            tree.indent = ""
        lines.append(text)
    return lines


def house_notes(roll: Roll) -> list[str]:
    """What house rules did to a roll: results a deny-list denied and rolled again, a result
    that had come up already (no repeats), a list that started over."""
    notes = []
    if roll.get("fresh"):
        notes.append("every entry of this list has come up: it starts over (no repeats).")
    denied = roll.get("denied") or []
    if denied:
        shown = ", ".join(f"#{d['result']} {d['entry']['name']}" for d in denied[:5])
        more = f" and {len(denied) - 5} more" if len(denied) > 5 else ""
        notes.append(f"denied by a house rule and rolled again: {shown}{more}.")
    repeat = roll.get("repeat")
    if repeat is not None:
        notes.append(
            f"#{repeat['result']} {repeat['entry']['name']} came up already (no repeats): drawn"
            " by the dice's weights among the entries still to come."
        )
    elif roll.get("drawn"):
        notes.append("then drawn by the dice's weights among the results not denied.")
    return notes


def _directions(roll: Roll, names: Names, directed: set[str]) -> str:
    """The directions of a supplementary list (lists: Global, Vortex, Musical...) the first time
    the game rolls on it (the first time in the batch, when the names don't go back that far):
    the rules say each is read the way its own directions say, and once read they are known."""
    ruleset, table = names.ruleset, roll["table"]
    if ruleset is None or ruleset.chaos is not ChaosSource.PROGRESSION or roll["ignored"]:
        return ""
    if table in ruleset.lists or table not in ruleset.tables or table in directed:
        return ""
    if names.first_rolls.get(table, roll["id"]) != roll["id"]:
        return ""  # read out with the game's first roll on the list, once is enough
    directed.add(table)
    return ruleset.tables[table].directions


def _roll(
    roll: Roll,
    names: Names,
    prefix: str,
    indent: str,
    width: int,
    directions: str = "",
    titled: bool = False,
) -> list[str]:
    """A roll's line (who, list, dice, entry), the list's directions if given, and, when
    honoured, the result's text and its inline dice, each named by what it was for. A
    `titled` roll's line leaves out who and the entry: the title above says them."""
    who = names.player(roll["player"])
    top = roll["parent"] is None
    if names.ruleset is not None and roll["table"] in names.ruleset.decks:
        if titled:
            line = f"{prefix}A card from the {names.table(roll['table'])}"
        else:
            head = f"{who}'s card from the {names.table(roll['table'])}: " if top else ""
            line = f"{prefix}{head}{roll['entry']['name']}"
    else:
        rolled = f"{names.table(roll['table'])} {names.dice(roll)} → {names.band(roll)}"
        if titled:
            line = f"{prefix}{rolled}"
        elif "↳" in prefix:  # a step: what came up first, then how (its slot is its number)
            line = f"{prefix}{roll['entry']['name']} — {rolled}"
        else:
            head = f"{who} rolls " if top else ""
            slot = f"roll {roll['slot']}: " if roll["slot"] else ""
            line = f"{prefix}{head}{slot}{rolled} {roll['entry']['name']}"
    if roll["ignored"]:
        return [f"{line}  ✗ ignored: {names.reason(roll['reason'] or '')}"]
    if roll["reason"]:
        line += f" ({names.reason(roll['reason'])})"
    lines = [line]
    for note in house_notes(roll):
        lines += wrap(note, indent, width)
    if directions:
        lines += wrap(f"Directions: {directions}", indent, width)
    if roll["text"]:
        lines += wrap(roll["text"], indent, width)
    lines += [indent + line for line in inline_lines(roll, names)]
    return lines


# Inline dice the engine named when it rolled them (``X=1d6``), in the players' words.
_LABELS = {"X": "X", "times": "How many rolls", "list": "Which list"}
# A ``{...}`` holding a ``d`` in a result's text is rolled (bot.engine.dice reads it the same
# way); other braces are mana symbols.
_BRACES = re.compile(r"\{([^{}dD]*[dD][^{}]*)\}")
# Where the words about a die stop: punctuation, or the next clause.
_CLAUSE = re.compile(r"[.,;:()]| and | then | or ")
_AFTER_WORDS = 5
_BEFORE_WORDS = 3


def inline_lines(roll: Roll, names: Names) -> list[str]:
    """A result's inline dice, each named by what it was for:
    ``Damage to target creature: 1d6 [6] = 6``, ``How many rolls: 1d3 [2] = 2``."""
    labels = iter(text_dice_labels(roll, names))
    lines = []
    for rolled in roll["inline"]:
        label, named, expr = rolled["expr"].partition("=")
        if named:
            label = _LABELS.get(label, label)
        else:
            label, expr = next(labels, "Dice"), rolled["expr"]
        faces = ", ".join(map(str, rolled["faces"]))
        lines.append(f"{label}: {expr} [{faces}] = {rolled['total']}")
    return lines


def text_dice_labels(roll: Roll, names: Names) -> list[str]:
    """What each ``{...}`` in the rolled entry's text is for, read from the words around it:
    the words after it (``{1d6} damage to target creature`` → "Damage to target creature"),
    else the words before (``Scry {1d3},`` → "Scry"). Empty when the entry can't be found."""
    parts = _BRACES.split(_template_text(roll, names))
    labels = []
    for n in range(1, len(parts), 2):
        after = _CLAUSE.split(parts[n + 1], maxsplit=1)[0].split()[:_AFTER_WORDS]
        before = _CLAUSE.split(parts[n - 1])[-1].split()[-_BEFORE_WORDS:]
        words = " ".join(after or before) or "Dice"
        labels.append(words[:1].upper() + words[1:])
    return labels


def _template_text(roll: Roll, names: Names) -> str:
    """The rolled entry's text as the table writes it, with its ``{...}`` dice unrolled."""
    ruleset = names.ruleset
    if ruleset is None:
        return ""
    try:
        if roll["table"] in ruleset.tables:
            return ruleset.tables[roll["table"]].lookup(roll["result"]).text
        if roll["table"] in ruleset.decks:
            return ruleset.decks[roll["table"]].card(roll["entry"]["id"]).text
    except (KeyError, TypeError):  # a log from other tables: its dice go unnamed
        pass
    return ""
