"""A group's own tables: checking an uploaded file, and playing a ruleset with uploads in it.

A guild uploads one table or deck file at a time. It is checked on its own with the same loader
as the bundled files, and then inside the bundled rulesets it may be played in: those that have
a table or deck with the same id (so a link to a list that ruleset doesn't have is caught at
upload, not mid-game), or every ruleset when none has. It must fit at least one of them: a
group plays one ruleset, so an edited Chaos List needn't also fit the deck ruleset's Chaos deck.

A game started with uploaded tables plays its ruleset with each upload in place of the file
that declares the same id, or, for a new id, beside the others (added to the ruleset's tables,
so ``/chaos roll list:ID`` and links reach it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import yaml

from bot.engine.model import Deck, RollTable
from bot.tables.files import FileKind, FileResult, LoadedFile, inspect_document
from bot.tables.folders import LoadedRuleset, check_folder
from bot.tables.plain import detect, read_plain
from bot.tables.problems import TableFileError, TableProblems
from bot.tables.snapshot import read_texts
from bot.tables.yamlnodes import Document, parse_document

MAX_UPLOAD = 256 * 1024  # bytes; the biggest bundled file is a fraction of this
# Another format's file (bot.tables.plain) may be larger: zorgle's export of 944 effects is
# 1.2 MB of JSON, most of it fields we don't keep. What it becomes must fit MAX_UPLOAD.
MAX_IMPORT = 2 * 1024 * 1024


@dataclass(frozen=True)
class CheckedUpload:
    """What a valid upload holds, in a few plain words (a worker process sends it back)."""

    id: str
    kind: FileKind
    title: str
    what: str  # "a list of 6 entries (d6)", "a deck of 12 cards"
    converted: str | None = None  # read from another format: the table file that is stored
    preview: str | None = None  # and what was read, guessed and not read (bot.tables.plain)


def summarise(file: LoadedFile) -> CheckedUpload:
    """The plain facts of a valid file, for the answer to an upload."""
    if file.table is not None:
        what = f"a list of {_count(len(file.table.bands), 'entry', 'entries')}"
        what += f" ({file.table.dice.notation})"
    elif file.deck is not None:
        what = f"a deck of {_count(sum(c.copies for c in file.deck.cards), 'card', 'cards')}"
    else:
        what = "a ruleset"
    if file.warnings:  # entries that speak of life but declare no change (see Checker.warn)
        n = len(file.warnings)
        what += (
            f"; {_count(n, 'entry speaks', 'entries speak')} of life but"
            f" declare{'s' if n == 1 else ''} no change, so the bot shows every total as unsure"
            " when one comes up: give each a `life:` key (see the table format)"
        )
    return CheckedUpload(file.id, file.kind, file.title, what)


def check_any_upload(name: str, data: bytes, rulesets: Iterable[LoadedRuleset]) -> CheckedUpload:
    """What an upload holds, in any format a group may upload (:mod:`bot.tables.plain`): one of
    our files as :func:`check_upload` checks it, or a list in another format read into one,
    which is then checked the same way; TableProblems naming every problem."""
    every = list(rulesets)
    kind = detect(name, data) if len(data) <= MAX_IMPORT else None
    if kind is None:
        return summarise(check_upload(name, data, every))
    imported = read_plain(name, data, list_names(every))
    text = imported.text
    checked = summarise(check_upload(f"{imported.id}.yaml", text.encode(), every))
    return replace(checked, converted=text, preview=imported.preview())


def stored_table(table_id: str, text: str) -> RollTable | Deck | None:
    """The list or deck a stored upload holds, read alone (it was checked when it was stored);
    None for one that no longer reads."""
    try:
        doc = parse_document(text.encode(), f"{table_id}.yaml")
    except TableFileError:
        return None
    loaded = inspect_document(doc).loaded
    if loaded is None:
        return None
    return loaded.table or loaded.deck


def list_names(rulesets: Iterable[LoadedRuleset]) -> dict[str, str]:
    """The lists a link may go to, by lower-case id and name ("wacky", "wackyland"), and by
    name without "the" or "list" ("vortex" for "The Vortex", "b" for "List B")."""
    names: dict[str, str] = {}
    for loaded in rulesets:
        for file in loaded.files:
            if file.kind is not FileKind.TABLE:
                continue
            title = file.title.lower()
            said = (file.id.lower(), title, title.removeprefix("the "), title.removeprefix("list "))
            for name in said:
                names.setdefault(name.strip(), file.id)
    return names


def check_upload(name: str, data: bytes, rulesets: Iterable[LoadedRuleset]) -> LoadedFile:
    """The table or deck an upload holds; TableProblems naming every problem (file:line key).

    `rulesets` are those the upload may be played in. It must fit at least one of those that
    have a table or deck with its id (or of all of them, when none has). The upload is parsed
    once: each ruleset is checked with its files as already loaded and the upload put in.
    """
    if len(data) > MAX_UPLOAD:
        size = f"{len(data) / 1024:.0f} KB"
        raise TableProblems(
            [TableFileError(name, 1, "", f"the file is {size}; {MAX_UPLOAD // 1024} KB at most")]
        )
    try:
        doc = parse_document(data, name)
    except TableFileError as error:
        raise TableProblems([error]) from None
    result = inspect_document(doc)
    if result.loaded is None:
        if _looks_like_dealpete(doc):
            message = (
                "this looks like Peter Deal's chaos.yaml, a file of many lists: the bot's host"
                " converts it with `chaos-referee tables import --from dealpete` (see the table"
                " authors' guide); upload one of our table files here"
            )
            raise TableProblems([TableFileError(name, 1, "", message)])
        raise TableProblems(result.problems)
    file = result.loaded
    if file.kind is FileKind.RULESET:
        message = "a ruleset file can't be uploaded; upload its tables and decks one by one"
        raise TableProblems([file.doc.error(("kind",), message)])
    every = list(rulesets)
    declaring = [r for r in every if _declares(r, file.id)]
    problems: list[TableFileError] = []
    for loaded in declaring or every:
        try:
            check_folder(loaded.folder, _results_with(loaded, file, name))
        except TableProblems as error:
            problems += error.problems  # each names the ruleset's folder: classic/house.yaml:12
        else:
            return file
    if problems:
        raise TableProblems(problems)
    return file


def _results_with(loaded: LoadedRuleset, upload: LoadedFile, shown: str) -> list[FileResult]:
    """The ruleset's files as loaded, named as a snapshot names them, with `upload` in place of
    the file that declares its id (or added to the ruleset's tables): what :func:`freeze` of
    :func:`with_uploads` would check, without reading or parsing anything again."""
    folder = loaded.folder.name
    head, *rest = loaded.files  # the ruleset file comes first
    spec = head.ruleset
    assert spec is not None
    if not _declares(loaded, upload.id):
        head = replace(head, ruleset=replace(spec, tables=(*spec.tables, upload.id)))
    kept = [head, *(f for f in rest if f.id != upload.id)]
    files = [_renamed(f, _snapshot_name(folder, f.name)) for f in kept]
    name = _snapshot_name(folder, shown)
    if name in {f.name for f in files}:  # another file has that name: keep both
        name = _snapshot_name(folder, f"uploaded-{upload.id}.yaml")
    files.append(_renamed(upload, name))
    return [FileResult(f.name, f, (), f.id, f.refs) for f in sorted(files, key=lambda f: f.name)]


def _renamed(file: LoadedFile, name: str) -> LoadedFile:
    """`file` as if it had been read under `name` (problems and references say that name)."""
    refs = tuple(replace(ref, file=name) for ref in file.refs)
    spec = file.ruleset
    if spec is not None:
        spec = replace(spec, refs=[replace(ref, file=name) for ref in spec.refs])
    return replace(file, name=name, doc=replace(file.doc, file=name), refs=refs, ruleset=spec)


def with_uploads(
    loaded: LoadedRuleset, uploads: Mapping[str, str], *, shown: str | None = None
) -> dict[str, str]:
    """The ruleset's file texts (by snapshot name) with each upload in place of the file that
    declares the same id, or added to the ruleset's tables. `shown` names a single upload in
    messages."""
    texts = read_texts(loaded)
    folder = loaded.folder.name
    for file in loaded.files:
        if file.kind is not FileKind.RULESET and file.id in uploads:
            texts.pop(_snapshot_name(folder, file.name), None)
    head = loaded.files[0]  # the ruleset file comes first
    head_name = _snapshot_name(folder, head.name)
    for table_id in uploads:
        if not _declares(loaded, table_id):
            texts[head_name] = _add_table(texts[head_name], table_id)
    for table_id, text in uploads.items():
        name = f"uploaded-{table_id}.yaml"
        if shown is not None and len(uploads) == 1:
            name = shown.replace("\\", "/").rsplit("/", 1)[-1]
        key = f"{folder}/{name}" if folder else name
        if key in texts:  # another file has that name: keep both
            key = f"{folder}/uploaded-{table_id}.yaml" if folder else f"uploaded-{table_id}.yaml"
        texts[key] = text
    return texts


def _looks_like_dealpete(doc: Document) -> bool:
    """A YAML list of mappings with Deal's keys (``short_name``, ``rolls``)."""
    lists = doc.data
    return (
        isinstance(lists, list)
        and bool(lists)
        and all(isinstance(item, dict) and "rolls" in item for item in lists)
    )


def _declares(loaded: LoadedRuleset, table_id: str) -> bool:
    return any(f.id == table_id and f.kind is not FileKind.RULESET for f in loaded.files)


def _add_table(ruleset_text: str, table_id: str) -> str:
    """The ruleset file's text with `table_id` added to its top-level ``tables:`` list.

    The text is edited in place (comments and the other lines stay as they were), so a problem
    in the ruleset file is still reported at its own line. The ruleset file is one of ours and
    already loaded, so composing it whole is safe.
    """
    root = yaml.compose(ruleset_text, Loader=yaml.SafeLoader)
    if not isinstance(root, yaml.MappingNode):
        return ruleset_text
    found = next((v for k, v in root.value if k.value == "tables"), None)
    if not isinstance(found, yaml.SequenceNode):
        return ruleset_text  # the ruleset's own check says what is wrong
    quoted = json.dumps(table_id)  # a YAML string whatever the id looks like
    if found.flow_style or not found.value:
        at = ruleset_text.rindex("]", 0, found.end_mark.index)
        added = f", {quoted}" if found.value else quoted
        return ruleset_text[:at] + added + ruleset_text[at:]
    first, last = found.value[0], found.value[-1]
    line_start = ruleset_text.rfind("\n", 0, first.start_mark.index) + 1
    prefix = ruleset_text[line_start : first.start_mark.index]  # like "  - "
    at = last.end_mark.index
    return ruleset_text[:at] + "\n" + prefix + quoted + ruleset_text[at:]


def _snapshot_name(folder: str, file_name: str) -> str:
    base = file_name.replace("\\", "/").rsplit("/", 1)[-1]
    return f"{folder}/{base}" if folder else base


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"
