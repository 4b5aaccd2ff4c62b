"""Importing Peter Deal's ``chaos.yaml``: his lists, converted into our table format.

Deal's file is a YAML list of lists (``short_name``, ``full_name``, ``desc``, ``first_index``,
``format``, ``rolls``); a roll is a card (``card``, optional ``Xdice: [count, sides, bonus]``,
``times``, creature ``mana_cost``/``type``/``power``/``toughness``), a custom effect (``name``
and/or ``text``) or a link (``list``), numbered from ``first_index`` unless it has an ``index``.
:func:`convert_dealpete` turns it into one table file per list plus a ``ruleset.yaml`` that
plays as our ``lists`` ruleset; every guess and repair is reported in ``warnings``. The dice
and the numbering quirks are handled in :mod:`bot.tables.dealpete_dice`. ``docs/tables.md``
("Importing Peter Deal's chaos.yaml") describes every mapping for users.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from bot.engine.errors import TableError
from bot.tables import dealpete_dice as dd
from bot.tables import dealpete_entries as de
from bot.tables import dealpete_named as dn
from bot.tables.registry import bundled_dir
from bot.tables.schema import MAX_NAME, MAX_TEXT, describe
from bot.writing import write_regular

MAX_INPUT_BYTES = 2_000_000
MAX_LISTS = 500
MAX_ROLLS = 10_000  # in one list
RULESET_FILE = "ruleset.yaml"

_ROLL_KEYS = ("card", "Xdice", "times", "color", "name", "text", "list", "index")
_LIST_KEYS = ("short_name", "full_name", "desc", "first_index", "format", "rolls")
_CHAOS = re.compile(r"list([a-f])", re.IGNORECASE)


@dataclass
class Conversion:
    """The converted files (name -> YAML text) and what was guessed or repaired on the way."""

    files: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    ruleset_id: str = "dealpete"
    named: dn.Named = field(default_factory=dn.Named)


@dataclass
class _List:
    short: str
    id: str
    title: str
    desc: str
    first: int
    rolls: list[object]


def convert_dealpete(
    text: str, source: str = "chaos.yaml", *, rules_file: Path | None = None
) -> Conversion:
    """Convert the text of a Deal ``chaos.yaml``; bad input raises TableError saying where.

    `rules_file` is the ruleset whose ``rules:`` are copied (our bundled ``lists`` one when
    None).
    """
    if len(text) > MAX_INPUT_BYTES or len(text.encode("utf-8", "replace")) > MAX_INPUT_BYTES:
        raise TableError(f"{source}: the file is over {MAX_INPUT_BYTES:,} bytes")
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise TableError(f"{source}: not valid YAML: {error.problem}{where}") from None
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError) as error:
        raise TableError(f"{source}: not valid YAML: {str(error)[:200]}") from None
    result = Conversion(ruleset_id=_ruleset_id(source))
    lists = _lists(data, source, result)
    for item in lists:
        table = _table(item, lists, source, result.warnings, result.named)
        result.files[f"{item.id}.yaml"] = _dump(table)
    result.files[RULESET_FILE] = _dump(_ruleset(lists, result, source, rules_file))
    return result


def write_conversion(
    conversion: Conversion, out_dir: Path, *, overwrite: bool = False
) -> list[Path]:
    """Write the files into `out_dir` (created if needed) and return their paths.

    Refuses (TableError) a folder holding other table files, which would join the ruleset,
    and files it would replace unless `overwrite`.
    """
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        present = {p.name for p in out_dir.iterdir() if p.suffix in (".yaml", ".yml")}
        strangers = sorted(present - conversion.files.keys())
        if strangers:
            raise TableError(
                f"{out_dir} already holds other table files ({', '.join(strangers)}); they"
                " would join the imported ruleset: use an empty folder"
            )
        clashes = sorted(present & conversion.files.keys())
        if clashes and not overwrite:
            raise TableError(f"{out_dir} already has {', '.join(clashes)}; not overwriting them")
        paths = []
        for name, content in conversion.files.items():
            path = out_dir / name
            write_regular(path, content)
            paths.append(path)
    except OSError as error:
        raise TableError(f"can't write to {out_dir}: {error.strerror or error}") from None
    return paths


# -- the lists -----------------------------------------------------------------------------------


def _lists(data: object, source: str, result: Conversion) -> list[_List]:
    shape = "a list of lists, each with short_name, full_name, desc, first_index and rolls"
    if not isinstance(data, list) or not data:
        raise TableError(f"{source}: expected {shape}, got {describe(data)}")
    if len(data) > MAX_LISTS:
        raise TableError(f"{source}: {len(data)} lists; at most {MAX_LISTS} are imported")
    lists: list[_List] = []
    taken = {result.ruleset_id, RULESET_FILE.removesuffix(".yaml")}
    for i, raw in enumerate(data):
        if not isinstance(raw, dict):
            raise TableError(
                f"{source}: lists[{i}]: expected a list (a mapping), got {describe(raw)}"
            )
        short = raw.get("short_name")
        if not isinstance(short, str) or not short.strip():
            raise TableError(f"{source}: lists[{i}] has no short_name (got {describe(short)})")
        short = short.strip()
        where = f"{source}: list {short!r}"
        if any(other.short == short for other in lists):
            raise TableError(f"{where}: two lists have this short_name")
        extra = [describe(k) for k in raw if k not in _LIST_KEYS]
        if extra:
            result.warnings.append(f"{short}: ignored unknown keys {', '.join(extra)}")
        rolls = raw.get("rolls")
        if rolls == []:
            raise TableError(f"{where}: it has no rolls (its rolls list is empty)")
        if not isinstance(rolls, list):
            raise TableError(f"{where}: expected rolls (a list of entries), got {describe(rolls)}")
        if len(rolls) > MAX_ROLLS:
            raise TableError(f"{where}: {len(rolls):,} rolls; at most {MAX_ROLLS:,} are imported")
        first = raw.get("first_index", 1)
        if isinstance(first, bool) or not isinstance(first, int):
            raise TableError(
                f"{where}: first_index should be a whole number, got {describe(first)}"
            )
        if not 0 <= first <= dd.MAX_INDEX:
            raise TableError(f"{where}: first_index should be from 0 to {dd.MAX_INDEX:,}")
        if "first_index" not in raw:
            result.warnings.append(f"{short}: no first_index; numbering its entries from 1")
        ident = _unique(_slug(short) or f"list-{i + 1}", taken, short, result.warnings)
        title = de.text_of(raw.get("full_name"), where, "full_name") or short
        desc = de.text_of(raw.get("desc"), where, "desc")
        lists.append(
            _List(
                short,
                ident,
                de.fit(title, MAX_NAME, short, "full_name", result.warnings),
                desc,
                first,
                rolls,
            )
        )
    return lists


def _slug(short: str) -> str:
    if match := _CHAOS.fullmatch(short):
        return match[1].lower()
    kebab = re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", short)
    return re.sub(r"[^a-z0-9_-]+", "-", kebab.lower()).strip("-_")[:40].strip("-_")


def _unique(ident: str, taken: set[str], short: str, warnings: list[str]) -> str:
    final, n = ident, 2
    while final in taken:
        final, n = f"{ident[:36]}-{n}", n + 1
    if final != ident:
        warnings.append(f"{short}: the id {ident!r} is taken; this list is {final!r}")
    taken.add(final)
    return final


def _table(
    item: _List, lists: list[_List], source: str, warnings: list[str], named: dn.Named
) -> dict[str, object]:
    where = f"{source}: list {item.short!r}"
    placed: list[dd.Placed] = []
    bodies: list[dict[str, object]] = []
    unknown: dict[str, list[int]] = {}
    targets = {t.short: de.Target(t.id, t.title) for t in lists}
    is_global = item.short.casefold() == "global"
    number = item.first
    for pos, roll in enumerate(item.rolls):
        at = f"{where} rolls[{pos}]"
        if not isinstance(roll, dict):
            raise TableError(
                f"{at}: expected a card, a custom effect or a link, got {describe(roll)}"
            )
        if "index" in roll:
            band = dd.parse_index(roll["index"])
            if isinstance(band, str):
                raise TableError(f"{at}: index {describe(roll['index'])}: {band}")
            low, high = band
        else:
            low = high = number
        number = high + 1
        placed.append(dd.Placed(low, high, pos))
        where_roll = de.Where(at, item.short, pos, warnings, dd.label(low, high))
        bodies.append(de.entry(roll, where_roll, targets, is_global=is_global))
        own = tuple(str(roll[k]) for k in ("name", "card") if isinstance(roll.get(k), str))
        dn.name_lists(bodies[-1], where_roll, targets, named, own)
        for key in roll:
            if key not in _ROLL_KEYS and key not in de.CREATURE:
                unknown.setdefault(describe(key), []).append(pos)
    for key, where_used in unknown.items():
        warnings.append(
            f"{item.short}: ignored unknown key {key} (in rolls[{dd.ranges(where_used)}])"
        )
    choice = dd.choose(item.short, item.desc, placed, item.first)
    if isinstance(choice, str):
        raise TableError(f"{where}: {choice}")
    warnings += choice.warnings
    shape = choice.shape
    shifted = [dd.Placed(b.low + choice.shift, b.high + choice.shift, b.pos) for b in placed]
    names = [f"rolls[{pos}] {describe(body['name'])}" for pos, body in enumerate(bodies)]
    settled = dd.settle(item.short, shape, shifted, names)
    if isinstance(settled, str):
        raise TableError(f"{where}: {settled}")
    warnings += settled.warnings
    rows = [(p.low, p.high, bodies[p.pos]) for p in settled.pieces]
    if settled.gaps:
        numbers = ", ".join(dd.label(low, high) for low, high in settled.gaps)
        warnings.append(
            f"{item.short}: {shape} can roll {numbers} but no entry covers it; added a"
            f" 'Roll again' entry there (a link back to {item.id})"
        )
        again: dict[str, object] = {
            "name": "Roll again",
            "text": "Nothing here: roll on this list again.",
            "link": item.id,
        }
        rows += [(low, high, again) for low, high in settled.gaps]
    rows.sort(key=lambda row: row[0])
    directions = de.fit(item.desc, MAX_TEXT, item.short, "desc", warnings)
    return {
        "schema": 1,
        "kind": "table",
        "id": item.id,
        "name": item.title,
        "revision": "imported",
        "dice": shape.value,
        **({"directions": directions} if directions else {}),
        "entries": [
            {"at": low if low == high else f"{low}-{high}", **body} for low, high, body in rows
        ],
    }


# -- the ruleset ---------------------------------------------------------------------------------


def _ruleset_id(source: str) -> str:
    stem = _slug(Path(source).stem)
    return "dealpete" if stem in ("", "chaos") else f"dealpete-{stem}"[:40].strip("-_")


def _ruleset(
    lists: list[_List], result: Conversion, source: str, rules_file: Path | None
) -> dict[str, object]:
    by_id = {item.id: item for item in lists}
    chaos_lists = [
        letter for letter in "abcdef" if letter in by_id and _CHAOS.fullmatch(by_id[letter].short)
    ]
    special = {item.short.casefold(): item.id for item in lists}
    if chaos_lists:
        chaos: dict[str, object] = {"from": "lists", "lists": chaos_lists}
        missing = [f"list{c.upper()}" for c in "abcdef" if c not in chaos_lists]
        if missing:
            result.warnings.append(
                f"{source}: no {', '.join(missing)}; chaos moves between the others"
            )
    else:
        chaos = {"from": "table", "table": lists[0].id}
        result.warnings.append(f"{source}: no listA-listF; every chaos roll is on {lists[0].short}")
    return {
        "schema": 1,
        "kind": "ruleset",
        "id": result.ruleset_id,
        "name": f"Peter Deal's Chaos Lists ({Path(source).name})"[:MAX_NAME],
        "revision": "imported",
        "chaos": chaos,
        "start": {"roll": "global", "table": special["global"]}
        if "global" in special
        else {"roll": "none"},
        "nesting": "sequential",
        "spite": {"policy": "spite_table", "table": special["spite"]}
        if "spite" in special
        else {"policy": "none"},
        "zone": {"policy": "middle_world", "plays": 1},
        "tokens": False,
        "budget": {"rolls": 80, "depth": 12},
        "life": 20,
        "tables": [item.id for item in lists],
        "rules": _rules(rules_file, result.warnings),
    }


def _rules(rules_file: Path | None, warnings: list[str]) -> list[dict[str, object]]:
    """The rules sections of our bundled ``lists`` ruleset (or `rules_file`), checked lightly."""
    if rules_file is None:
        rules_file = bundled_dir() / "lists" / RULESET_FILE
    try:
        rules = yaml.safe_load(rules_file.read_text(encoding="utf-8")).get("rules")
        if not isinstance(rules, list) or not all(
            isinstance(r, dict)
            and all(isinstance(r.get(k), str) for k in ("id", "title", "text"))
            and all(isinstance(w, str) for w in r.get("keywords", []))
            for r in rules
        ):
            raise ValueError("no rules sections")
    except (OSError, yaml.YAMLError, ValueError, AttributeError, TypeError) as error:
        warnings.append(
            f"could not copy the rules text from {rules_file} ({error}); no rules sections"
        )
        return []
    keys = ("id", "title", "keywords", "text")
    return [{k: r[k] for k in keys if k in r} for r in rules]


class _Flow(dict[str, object]):
    """A small mapping written on one line: ``dice: {tens: d8}``."""


class _FlowList(list[object]):
    """A list of words written on one line: ``tables: [a, b, c]``."""


def _small(value: object) -> bool:
    if isinstance(value, dict):
        return all(_small(v) and not isinstance(v, dict) for v in value.values())
    if isinstance(value, list):
        return all(not isinstance(v, dict | list) for v in value)
    return True


def _styled(value: object) -> object:
    """Mapping values that hold only words and lists of words go on one line."""
    if isinstance(value, dict):
        return {
            k: _Flow(v) if isinstance(v, dict) and _small(v) else _styled(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return _FlowList(value) if _small(value) else [_styled(v) for v in value]
    return value


class _Dumper(yaml.SafeDumper):
    """SafeDumper, writing multi-line text as ``|`` blocks and small mappings on one line."""


def _text_block(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    style = "|" if "\n" in data.strip() else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


def _flow(dumper: yaml.SafeDumper, data: _Flow) -> yaml.MappingNode:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True)


def _flow_list(dumper: yaml.SafeDumper, data: _FlowList) -> yaml.SequenceNode:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


_Dumper.add_representer(str, _text_block)
_Dumper.add_representer(_Flow, _flow)
_Dumper.add_representer(_FlowList, _flow_list)


def _dump(document: dict[str, object]) -> str:
    """YAML as safe_dump writes it (no tags, keys in our order), easier on the eye."""
    return yaml.dump(
        _styled(document), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100
    )
