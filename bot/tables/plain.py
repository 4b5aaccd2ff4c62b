"""A group's own list in the shape they already keep it, read into one of our table files.

Groups keep their lists in a document, a spreadsheet or another chaos tool, not in YAML. An
upload (``/table import``, the console's ``table import FILE``) may be one of three more
formats, told apart by what the file holds (:func:`detect`):

* **numbered text**, as pasted from a document: an entry a line, ``1. Name — text``,
  ``1-3: Name: text`` or ``4) text``; a title line, a dice line ("Roll a d20") or both before
  them; a line that doesn't start with a number goes on with the entry above; an entry may end
  with its tags, ``[tags: slow, mana]``;
* **CSV** from a spreadsheet: a header naming the columns in any order and case (the number or
  range, the name, the text; optional card, lasts and tags), a row an entry;
* **zorgle's JSON export** (``{"effects": [...]}``, from the Chaos Magic web app): its rarities
  become weights (common 3, uncommon 2, rare 1, as the app draws them) and its durations
  ``lasts`` where they mean one of ours; an effect's ``tags``, where a group added them, are
  ours (the app's own schools and themes are not).

Tags are those of our vocabulary (:mod:`bot.engine.tags`); an unknown one is a problem named
by the line (and column) it is on, like any other.

Each becomes a table file of our format (:class:`Imported`), which is then checked like any
upload. Problems of the file as written are named by its own line (and column, for CSV): a
number used twice, a gap, ranges that overlap, an empty text. What the reader guessed is said in
its preview (the dice, durations, rolls it recognised: "roll twice", "roll on List B" where
such a list exists), and so is every sentence about rolls or lists it could not turn into
anything the bot does: nothing is left unsaid.
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser

import yaml

from bot.engine.tags import TAGS, tag_words
from bot.tables.dealpete_reading import _DICE_ROLL, _MENTION
from bot.tables.problems import TableFileError, TableProblems

NUMBERED = "numbered text"
SPREADSHEET = "CSV"
ZORGLE = "zorgle's JSON"
RARITY = {"common": 3, "uncommon": 2, "rare": 1}  # the web app's weights
ZORGLE_LASTS: dict[str, object] = {
    "turn": "end_of_turn",
    "round": "next_turn",
    "ongoing": "until_removed",
}
MAX_ENTRIES = 5000
SHOWN = 5  # entries shown in a preview
LISTED = 12  # guesses, and sentences not read, shown in a preview
MAX_NAME = 60

# The number or range that starts an entry's line: "12", "3-5", "3 – 5".
_NUMBER = re.compile(r"(\d{1,5})(?:[ \t]*[-–—][ \t]*(\d{1,5}))?")
# A line that only says which dice: "Roll a d20", "roll 2d10", "d100".
_DICE_LINE = re.compile(r"(?:roll[ \t]+)?(?:an?[ \t]+)?(\d{1,2})?d(\d{1,5})")
_TIMES = re.compile(
    r"roll (twice|thrice|again|(?:two|three|four|(\d)) (?:more )?times)\b", re.IGNORECASE
)
_ROLL_ON = re.compile(r"roll(?: once)? on ", re.IGNORECASE)
_FOR_TURNS = re.compile(r"\bfor (two|three|four|five|\d) turns\b", re.IGNORECASE)
_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "twice": 2, "thrice": 3, "again": 1}
OWN_NAMES = ("this list", "this table", "the chaos list", "chaos list")  # the list read
_SPLITS = (" — ", " – ", " - ", ": ")
_LASTS = (
    ("until the end of your turn", "end_of_turn"),
    ("until end of your turn", "end_of_turn"),
    ("until the end of turn", "end_of_turn"),
    ("until end of turn", "end_of_turn"),
    ("until the end of this turn", "end_of_turn"),
    ("until your next turn", "next_turn"),
    ("for the rest of the game", "permanent"),
)
_COLUMNS = {
    "at": ("at", "number", "roll", "result", "#", "no", "range", "d"),
    "name": ("name", "title", "effect", "effect name"),
    "text": ("text", "description", "desc", "effect text", "rules"),
    "card": ("card",),
    "lasts": ("lasts", "duration"),
    "tags": ("tags", "tag"),
}
# An entry's tags at the end of its numbered line: "[tags: slow, mana]" (or in parentheses).
_TAGGED = re.compile(r"[\[(]tags?:([^\])]{0,200})[\])]", re.IGNORECASE)


def _tagged(text: str) -> tuple[int, str] | None:
    """Where the "[tags: …]" that ends `text` starts, and what it lists; None without one.

    Tried from the last "[tag" or "(tag" only: searched for from every position, with the
    spaces before it in the pattern, a long line of spaces took seconds (tests/
    test_regex_guard.py)."""
    body = text.rstrip()
    lower = body.lower()
    at = max(lower.rfind("[tag"), lower.rfind("(tag"))
    if at < 0:
        return None
    found = _TAGGED.fullmatch(body, at)
    return None if found is None else (at, found[1])


@dataclass
class Imported:
    """A list read from another format, as our table file, and what the reading took."""

    format: str
    id: str
    name: str
    document: dict[str, object]
    guessed: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The table file (YAML) that is checked and stored."""
        return yaml.safe_dump(
            self.document, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
        )

    @property
    def entries(self) -> list[dict[str, object]]:
        entries = self.document["entries"]
        assert isinstance(entries, list)
        return entries

    def preview(self) -> str:
        """What was read, for the person uploading it: the count, the first entries, what was
        guessed and what wasn't read."""
        entries = self.entries
        lines = [
            f"Read as {self.format}: {self.name} ({self.id}), {len(entries)} entries,"
            f" dice {self.document['dice']}."
        ]
        for entry in entries[:SHOWN]:
            lines.append(f"  {entry['at']}. {entry['name']}: {_short(str(entry.get('text', '')))}")
        if len(entries) > SHOWN:
            lines.append(f"  … and {len(entries) - SHOWN} more")
        tagged = [tags for e in entries if isinstance(tags := e.get("tags"), list)]
        if tagged:
            counts = {tag: sum(tag in tags for tags in tagged) for tag in TAGS}
            kinds = ", ".join(f"{tag} {count}" for tag, count in counts.items() if count)
            lines.append(f"Tags: {kinds} ({len(tagged)} of the {len(entries)} entries tagged).")
        for title, said in (
            ("Guessed:", self.guessed),
            ("Not read (kept as text: the players carry it out):", self.unread),
        ):
            if said:
                lines.append(title)
                lines += [f"  {words}" for words in said[:LISTED]]
                if len(said) > LISTED:
                    lines.append(f"  … and {len(said) - LISTED} more")
        return "\n".join(lines)


def detect(name: str, data: bytes) -> str | None:
    """Which of the formats above `data` is in, or None for one of our YAML files (and for a
    file that isn't UTF-8 text, which the YAML reader refuses with its own sentence)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    head = text.lstrip()
    lower = name.lower()
    if lower.endswith((".yaml", ".yml")):
        return None  # ours, even written as JSON (which is YAML too)
    if lower.endswith(".csv"):
        return SPREADSHEET
    if head.startswith("{") and '"effects"' in head[:4096]:
        return ZORGLE
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if any(line.startswith(("schema:", "kind:")) for line in lines[:20]):
        return None
    if lines and "," in lines[0] and _header(lines[0].split(",")) is not None:
        return SPREADSHEET
    entries = sum(_entry_start(line) is not None for line in lines)
    if entries >= 2 or (entries and lower.endswith(".txt")):
        return NUMBERED
    return None


def read_plain(name: str, data: bytes, lists: Mapping[str, str]) -> Imported:
    """The table in `data` (a format :func:`detect` names); TableProblems naming each problem by
    line. `lists` maps the lower-case names and ids of lists a link may go to, to their ids."""
    kind = detect(name, data)
    text = _decoded(name, data)
    if kind == ZORGLE:
        return _zorgle(name, text, lists)
    if kind == SPREADSHEET:
        return _spreadsheet(name, text, lists)
    if kind == NUMBERED:
        return _numbered(name, text, lists)
    raise TableProblems([TableFileError(name, 1, "", "this isn't a list the bot can read")])


# -- numbered text ----------------------------------------------------------------------------


@dataclass
class _Row:
    line: int
    low: int
    high: int
    name: str
    text: str
    column: str = ""  # CSV: where the text came from
    extra: dict[str, object] = field(default_factory=dict)


def _numbered(name: str, text: str, lists: Mapping[str, str]) -> Imported:
    title, dice, rows = "", None, []
    problems: list[TableFileError] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        start = _entry_start(line)
        if start is not None:
            low, high, rest = start
            entry_name, entry_text = _split(rest)
            rows.append(_Row(number, low, high, entry_name, entry_text))
        elif rows:
            rows[-1].text = f"{rows[-1].text} {line}".strip()
        elif (found := _DICE_LINE.fullmatch(line.lower().rstrip(".:!"))) is not None:
            count = int(found[1] or 1)
            dice = f"d{int(found[2])}" if count == 1 else f"{count}d{int(found[2])}"
        elif not title:
            title = line.strip("#*= ")[:MAX_NAME]
        else:
            problems.append(
                TableFileError(
                    name, number, "", f"expected an entry like '1. Name — text': {line[:60]!r}"
                )
            )
    for row in rows:
        if (tagged := _tagged(row.text)) is not None:
            row.text = row.text[: tagged[0]].strip()
            row.extra["tags"] = _tags(tagged[1], problems, name, row.line, "")
    return _table(name, NUMBERED, title, dice, rows, problems, lists)


def _entry_start(line: str) -> tuple[int, int, str] | None:
    """The number or range an entry's line starts with, and the rest; None for another line."""
    found = _NUMBER.match(line)
    if found is None:
        return None
    rest = line[found.end() :]
    if rest[:1] in (".", ":", ")", "]"):
        rest = rest[1:]
    elif found[2] is None:
        return None  # "3 damage to…": a number alone is text going on, not an entry
    if rest[:1] not in (" ", "\t", ""):
        return None
    low = int(found[1])
    return low, int(found[2]) if found[2] else low, rest.strip()


def _split(rest: str) -> tuple[str, str]:
    """An entry's name and text: "Name — text", "Name: text"; a line with neither is all text,
    named by its first words."""
    spaced = rest + " "  # "Name —" with no text after it is split too (and found empty)
    for mark in _SPLITS:
        at = spaced.find(mark)
        if 0 < at <= MAX_NAME:
            return spaced[:at].strip(), spaced[at + len(mark) :].strip()
    words = rest.split()
    named = ""
    for word in words:
        if len(named) + len(word) + 1 > 30:
            break
        named = f"{named} {word}".strip()
    return (named or rest[:30]).rstrip(".,;:"), rest


# -- CSV ------------------------------------------------------------------------------------------


def _header(cells: list[str]) -> dict[str, int] | None:
    """Which column holds what, from a header row; None if it names no text or name column."""
    found: dict[str, int] = {}
    for index, cell in enumerate(cells):
        word = cell.strip().strip('"').lower()
        for key, names in _COLUMNS.items():
            if word in names and key not in found:
                found[key] = index
                break
    if "name" not in found and "text" not in found:
        return None
    return found


def _cell(cells: list[str], columns: Mapping[str, int], key: str) -> str:
    index = columns.get(key)
    return cells[index].strip() if index is not None and index < len(cells) else ""


def _spreadsheet(name: str, text: str, lists: Mapping[str, str]) -> Imported:
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    problems: list[TableFileError] = []
    rows: list[_Row] = []
    columns: dict[str, int] | None = None
    names: list[str] = []
    for cells in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in cells):
            continue
        if columns is None:
            columns = _header(cells)
            names = [cell.strip() for cell in cells]
            if columns is None:
                raise TableProblems(
                    [
                        TableFileError(
                            name,
                            line,
                            "",
                            "the first row must name the columns: number, name and text",
                        )
                    ]
                )
            if "at" not in columns:
                problems.append(
                    TableFileError(
                        name, line, "", "no column names the number or range (number, at or range)"
                    )
                )
            continue

        number = _cell(cells, columns, "at")
        start = _NUMBER.fullmatch(number)
        if start is None:
            problems.append(
                TableFileError(
                    name,
                    line,
                    f"column {names[columns.get('at', 0)]}",
                    f"expected a number or a range like 3-5, got {number!r}",
                )
            )
            continue
        low = int(start[1])
        row = _Row(
            line,
            low,
            int(start[2]) if start[2] else low,
            _cell(cells, columns, "name"),
            _cell(cells, columns, "text"),
        )
        row.column = names[columns["text"]] if "text" in columns else ""
        if card := _cell(cells, columns, "card"):
            row.extra["card"] = card
        if lasts := _cell(cells, columns, "lasts"):
            row.extra["lasts_words"] = lasts
        if said := _cell(cells, columns, "tags"):
            column = f"column {names[columns['tags']]}"
            row.extra["tags"] = _tags(said, problems, name, line, column)
        if not row.name:
            row.name = _split(row.text)[0]
        rows.append(row)
    if columns is None:
        raise TableProblems([TableFileError(name, 1, "", "the file is empty")])
    return _table(name, SPREADSHEET, "", None, rows, problems, lists)


# -- zorgle's JSON --------------------------------------------------------------------------------


def _zorgle(name: str, text: str, lists: Mapping[str, str]) -> Imported:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        line = getattr(error, "lineno", 1)
        raise TableProblems([TableFileError(name, line, "", f"not JSON: {error}")]) from None
    effects = data.get("effects") if isinstance(data, dict) else None
    if not isinstance(effects, list) or not effects:
        raise TableProblems(
            [TableFileError(name, 1, "effects", 'expected zorgle\'s export: {"effects": [...]}')]
        )
    if len(effects) > MAX_ENTRIES:
        raise TableProblems(
            [TableFileError(name, 1, "effects", f"{len(effects)} effects; {MAX_ENTRIES} at most")]
        )
    problems: list[TableFileError] = []
    entries: list[dict[str, object]] = []
    guessed: list[str] = []
    unread: list[str] = []
    ident = _ident(name)
    weights: dict[str, int] = {}
    lasting: dict[str, int] = {}
    at = 1
    for index, effect in enumerate(effects):
        key = f"effects[{index}]"
        if not isinstance(effect, dict):
            problems.append(TableFileError(name, 1, key, "expected an effect with effectName"))
            continue
        title = str(effect.get("effectName") or "").strip()
        words = " ".join(_zorgle_text(effect.get(k)) for k in ("shortDesc", "fullDesc")).strip()
        if not title or not words:
            problems.append(
                TableFileError(
                    name, 1, key, f"an effect needs a name and a text (effect {index + 1})"
                )
            )
            continue
        rarity = str(effect.get("rarity") or "common").lower()
        weight = RARITY.get(rarity)
        if weight is None:
            problems.append(
                TableFileError(
                    name, 1, f"{key}.rarity", f"unknown rarity {rarity!r}: common, uncommon or rare"
                )
            )
            continue
        weights[rarity] = weights.get(rarity, 0) + 1
        entry: dict[str, object] = {"at": at if weight == 1 else f"{at}-{at + weight - 1}"}
        entry["name"] = title[:MAX_NAME]
        entry["text"] = words
        _read_rolls(f"effect {index + 1}", words, entry, lists, ident, guessed, unread)
        said = effect.get("tags")
        if said is not None:
            if not isinstance(said, list) or not all(isinstance(t, str) for t in said):
                problems.append(
                    TableFileError(name, 1, f"{key}.tags", 'expected tags like ["slow"]')
                )
            elif tags := _tags(",".join(said), problems, name, 1, f"{key}.tags"):
                entry["tags"] = tags
        lasts = ZORGLE_LASTS.get(str(effect.get("duration") or "").lower())
        if lasts is not None:
            entry["lasts"] = lasts
            lasting[str(lasts)] = lasting.get(str(lasts), 0) + 1
        entries.append(entry)
        at += weight
    if problems:
        raise TableProblems(problems)
    guessed.append(
        "weights from rarity (common 3, uncommon 2, rare 1): "
        + ", ".join(f"{count} {rarity}" for rarity, count in sorted(weights.items()))
    )
    if lasting:
        guessed.append(
            "lasts from durations (Turn: end_of_turn, Round: next_turn, Ongoing: until_removed): "
            + ", ".join(f"{count} {lasts}" for lasts, count in sorted(lasting.items()))
        )
    document = _document(ident, "Chaos List (zorgle)", f"d{at - 1}", entries)
    return Imported(ZORGLE, ident, str(document["name"]), document, guessed, unread)


class _Markup(HTMLParser):
    """zorgle's texts, whose markup draws dice buttons and mana symbols, as plain text: a dice
    button becomes dice the bot rolls (``{1d10}``), a mana symbol ``{R}``, a list item a line
    of its own after a dash."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in.append(tag)
        if tag == "li":
            self.parts.append(" - ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._in:
            del self._in[len(self._in) - 1 - self._in[::-1].index(tag) :]

    def handle_data(self, data: str) -> None:
        inside = self._in[-1] if self._in else ""
        if inside == "z-is":
            self.parts.append("{" + data.strip() + "}")
        elif inside == "z-rb":
            said = data.strip()
            dice = said.replace(" ", "").lower()
            is_dice = "d" in dice and dice.replace("d", "").replace("+", "").isdigit()
            self.parts.append("{" + dice + "}" if is_dice else f"a random {said}")
        else:
            self.parts.append(data)


def _zorgle_text(raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        return ""
    markup = _Markup()
    markup.feed(raw)
    markup.close()
    text = " ".join("".join(markup.parts).split())
    return text.removeprefix("SPECIAL EFFECT").strip()


# -- shared ---------------------------------------------------------------------------------------


def _table(
    name: str,
    kind: str,
    title: str,
    dice: str | None,
    rows: list[_Row],
    problems: list[TableFileError],
    lists: Mapping[str, str],
) -> Imported:
    if not rows and not problems:
        problems.append(TableFileError(name, 1, "", "no entries: each line like '1. Name — text'"))
    if len(rows) > MAX_ENTRIES:
        problems.append(
            TableFileError(name, rows[MAX_ENTRIES].line, "", f"more than {MAX_ENTRIES} entries")
        )
    taken: dict[int, _Row] = {}
    for row in rows:
        where = row.column and f"column {row.column}"
        if row.high < row.low:
            problems.append(
                TableFileError(name, row.line, "", f"the range {row.low}-{row.high} runs backwards")
            )
            continue
        if not row.text:
            problems.append(TableFileError(name, row.line, where, f"entry {row.low} has no text"))
        for number in range(row.low, min(row.high, row.low + 10_000) + 1):
            if number in taken:
                other = taken[number]
                what = (
                    "used twice"
                    if (other.low, other.high) == (row.low, row.high)
                    else "in two ranges"
                )
                problems.append(
                    TableFileError(
                        name, row.line, "", f"number {number} is {what}: also on line {other.line}"
                    )
                )
                break
            taken[number] = row
    guessed: list[str] = []
    if taken and not problems:
        low, high = min(taken), max(taken)
        missing = [n for n in range(low, high + 1) if n not in taken]
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (" …" if len(missing) > 10 else "")
            problems.append(
                TableFileError(
                    name, 1, "", f"no entry for {shown} (a gap between {low} and {high})"
                )
            )
        if dice is None:
            if low != 1:
                problems.append(
                    TableFileError(
                        name,
                        1,
                        "",
                        f"the numbers start at {low}: add a dice line such as 'Roll 2d10'",
                    )
                )
            dice = f"d{high}"
            guessed.append(f"dice {dice}: the numbers run from 1 to {high}")
    if problems:
        raise TableProblems(sorted(problems, key=lambda p: p.line))
    ident = _ident(name)
    entries: list[dict[str, object]] = []
    unread: list[str] = []
    for row in sorted(rows, key=lambda r: r.low):
        entry: dict[str, object] = {
            "at": row.low if row.low == row.high else f"{row.low}-{row.high}",
            "name": row.name[:MAX_NAME] or f"Result {row.low}",
            "text": row.text,
        }
        if "card" in row.extra:
            entry["card"] = row.extra["card"]
        if row.extra.get("tags"):
            entry["tags"] = row.extra["tags"]
        _read_rolls(f"line {row.line}", row.text, entry, lists, ident, guessed, unread)
        _read_lasts(row, entry, guessed, unread)
        entries.append(entry)
    document = _document(ident, title or ident, str(dice), entries)
    return Imported(kind, ident, str(document["name"]), document, guessed, unread)


def _read_rolls(
    where: str,
    text: str,
    entry: dict[str, object],
    lists: Mapping[str, str],
    own: str,
    guessed: list[str],
    unread: list[str],
) -> None:
    """Turn a sentence that is only a roll into ours: "Roll twice.", "Roll again on the
    Vortex." (times), "Roll on List B." (a link, where such a list exists). Every other
    sentence about rolls or lists (a roll with conditions, a choice, a list nobody has) is said
    to be unread: the players carry it out."""
    for sentence in _sentences(text):
        if _MENTION.search(sentence) is None or _DICE_ROLL.search(sentence) is not None:
            continue
        done = None
        if "roll" not in entry and "link" not in entry and "card" not in entry:
            done = _roll_of(sentence, entry, lists, own)
        if done is not None:
            guessed.append(f"{where}: {done} ({_short(sentence)!r})")
        else:
            unread.append(f"{where}: {_short(sentence)!r}")


def _roll_of(
    sentence: str, entry: dict[str, object], lists: Mapping[str, str], own: str
) -> str | None:
    """Read `sentence` into `entry` if it is a roll and nothing more; what it does, or None."""
    if not sentence.lower().startswith("roll"):
        return None
    if (times := _TIMES.match(sentence)) is not None:
        count = int(times[2]) if times[2] else _WORDS[times[1].lower().split()[0]]
        rest = sentence[times.end() :].lstrip()
        target: str | None = own
        if rest.lower().startswith("on "):
            target, rest = _list_named(rest[3:], lists, own)
        if target is None or not _ends(rest):
            return None
        entry["roll"] = {"times": count} if target == own else {"times": count, "list": target}
        return (
            f"rolls {count} time{'s' * (count != 1)} on {'this list' if target == own else target}"
        )
    if (on := _ROLL_ON.match(sentence)) is not None:
        target, rest = _list_named(sentence[on.end() :], lists, own)
        if target is None or not _ends(rest):
            return None
        if target == own:
            entry["roll"] = {"times": 1}
        else:
            entry["link"] = target
        return f"rolls on {'this list' if target == own else target}"
    return None


def _ends(rest: str) -> bool:
    """Nothing but a full stop (or "list") is left of a roll's sentence."""
    return rest.strip(" .!;,]").lower() in ("", "list", "table")


def _list_named(rest: str, lists: Mapping[str, str], own: str) -> tuple[str | None, str]:
    """The list whose name or id `rest` starts with ("List B", "[Wacky]", "the Vortex"), and
    what follows it; (None, `rest`) when no list has that name."""
    tail = rest.lower().lstrip("[").removeprefix("the ").removeprefix("list ").lstrip()
    words, skipped = tail.rstrip(), len(rest) - len(tail)
    for named in OWN_NAMES:
        if words.startswith(named):
            return own, rest[skipped + len(named) :]
    for named in sorted(lists, key=len, reverse=True):
        if words.startswith(named) and not words[len(named) : len(named) + 1].isalnum():
            return lists[named], rest[skipped + len(named) :]
    return None, rest


def _read_lasts(row: _Row, entry: dict[str, object], guessed: list[str], unread: list[str]) -> None:
    said = str(row.extra.get("lasts_words", ""))
    lower = f"{said} {row.text}".lower()
    lasts: object = None
    for words, value in _LASTS:
        if words in lower:
            lasts = value
            break
    if lasts is None and (turns := _FOR_TURNS.search(lower)) is not None:
        count = _WORDS.get(turns[1]) or int(turns[1])
        lasts = {"turns": count}
    if lasts is None and said:
        plain = said.lower().replace(" ", "_")
        if plain in ("end_of_turn", "next_turn", "permanent", "until_removed"):
            lasts = plain
    if lasts is not None:
        entry["lasts"] = lasts
        guessed.append(f"line {row.line}: lasts {lasts}")
    elif said:
        unread.append(f"line {row.line}: lasts {said!r}")


def _sentences(text: str) -> list[str]:
    parts, start = [], 0
    for index, char in enumerate(text):
        if char in ".!?;" and (index + 1 == len(text) or text[index + 1] == " "):
            parts.append(text[start : index + 1].strip())
            start = index + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def _tags(said: str, problems: list[TableFileError], name: str, line: int, where: str) -> list[str]:
    """``slow, mana`` (commas, semicolons or spaces between) as tags of our vocabulary, each
    once, in its order; a problem for each word that isn't one."""
    found: list[str] = []
    for word in re.split(r"[\s,;|]+", said.strip().lower())[:50]:
        if not word or word in found:
            continue
        if word in TAGS:
            found.append(word)
        else:
            close = difflib.get_close_matches(word[:40], list(TAGS), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(
                TableFileError(
                    name,
                    line,
                    where,
                    f"unknown tag {word[:40]!r}{hint}; the tags are {tag_words()}",
                )
            )
    return [tag for tag in TAGS if tag in found]


def _document(
    ident: str, title: str, dice: str, entries: list[dict[str, object]]
) -> dict[str, object]:
    return {
        "schema": 1,
        "kind": "table",
        "id": ident,
        "name": title[:MAX_NAME],
        "revision": "1",
        "dice": dice,
        "entries": entries,
    }


def _ident(name: str) -> str:
    stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    ident = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in stem)
    ident = "-".join(part for part in ident.split("-") if part)[:40]
    return ident or "imported"


def _decoded(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise TableProblems(
            [TableFileError(name, line, "", "the file isn't UTF-8 text: save it as UTF-8")]
        ) from None


def _short(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"
