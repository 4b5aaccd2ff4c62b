"""Tables as data: YAML lists, decks and rulesets, loaded safely and checked strictly.

The engine never reads files; this package turns ``tables/<ruleset>/*.yaml`` into the engine's
:class:`~bot.engine.model.Ruleset`. Every problem names its file, line and key path
(:class:`TableFileError`); a load reports all of them at once (:class:`TableProblems`).

* :func:`find_ruleset` / :func:`load_bundled`: the rulesets under ``tables/``, by id.
* :func:`load_ruleset`: one ruleset folder; :func:`load_folder` any folder of table files.
* :func:`load_file` / :func:`load_text`: one file (a path, or uploaded text).
* :func:`check_paths`: what ``chaos-referee tables check`` runs.
* :func:`simulate`: play many turns of chaos and count what comes up.
"""

from bot.tables.check import CheckResult, check_paths
from bot.tables.files import FileKind, LoadedFile, load_file, load_text
from bot.tables.folders import Folder, LoadedRuleset, load_folder, load_ruleset
from bot.tables.problems import TableFileError, TableProblems, UnknownRulesetError
from bot.tables.registry import bundled_dir, find_ruleset, load_bundled, ruleset_folders
from bot.tables.rulesets import Rule
from bot.tables.simulate import SimulationReport, simulate

__all__ = [
    "CheckResult",
    "FileKind",
    "Folder",
    "LoadedFile",
    "LoadedRuleset",
    "Rule",
    "SimulationReport",
    "TableFileError",
    "TableProblems",
    "UnknownRulesetError",
    "bundled_dir",
    "check_paths",
    "find_ruleset",
    "load_bundled",
    "load_file",
    "load_folder",
    "load_ruleset",
    "load_text",
    "ruleset_folders",
    "simulate",
]
