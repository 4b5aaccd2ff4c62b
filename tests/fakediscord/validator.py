"""A small validator for the part of JSON Schema that Discord's OpenAPI description uses.

The description (``openapi/openapi.json``) uses ``$ref``, ``type`` (one or a list), ``const``,
``enum``, ``allOf``, ``oneOf``, ``anyOf``, ``properties``, ``required``, ``additionalProperties``,
``maxProperties``, ``items``, ``minItems``, ``maxItems``, ``uniqueItems``, ``minLength``,
``maxLength``, ``pattern``, ``minimum``, ``maximum`` and the formats ``int32``/``int64``. Each
schema node is compiled once into a closure and cached by identity, so checking a request costs a
walk over the request, not over the 1 MB description.

A problem is ``(path, code, message)`` with Discord's own error codes and wording (the ones it puts
in the ``errors`` object of a 400 "Invalid Form Body"), so the fake's answer reads like Discord's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Path = tuple[str | int, ...]
Problem = tuple[Path, str, str]
Check = Callable[[Any, Path, list[Problem]], None]

CHOICES = "BASE_TYPE_CHOICES"
REQUIRED = "BASE_TYPE_REQUIRED"
RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
# The codes and words Discord answers a wrong JSON type with.
TYPE_ERRORS = {
    "string": ("BASE_TYPE_STRING", "Must be a string."),
    "integer": ("NUMBER_TYPE_COERCE", "Value is not int."),
    "number": ("NUMBER_TYPE_COERCE", "Value is not a number."),
    "boolean": ("BASE_TYPE_BOOLEAN", "Must be either true or false."),
    "array": ("BASE_TYPE_ARRAY", "Must be an array."),
    "object": ("DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"),
    "null": ("BASE_TYPE_NULL", "Must be null."),
}
TYPE_CODES = {code for code, _ in TYPE_ERRORS.values()}


def json_type(value: object) -> str:
    """The JSON Schema type of a decoded JSON value ("integer" for 2.0 too)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    raise TypeError(f"not a JSON value: {value!r}")


class Validator:
    """Compiles schemas of one document (``root``) into checks, each compiled once."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self._compiled: dict[int, Check] = {}
        self._keep: list[object] = []  # keeps compiled schemas alive, so their ids stay theirs

    def check(self, schema: dict[str, Any], value: Any, path: Path = ()) -> list[Problem]:
        """Every problem of `value` against `schema`; empty when it fits."""
        problems: list[Problem] = []
        self.compile(schema)(value, path, problems)
        return problems

    def compile(self, schema: dict[str, Any]) -> Check:
        key = id(schema)
        found = self._compiled.get(key)
        if found is not None:
            return found
        # A placeholder first: a schema that refers to itself (components inside containers)
        # compiles to a check that calls the finished one.
        done: list[Check] = []
        self._compiled[key] = lambda value, path, out: done[0](value, path, out)
        self._keep.append(schema)
        check = self._build(schema)
        done.append(check)
        self._compiled[key] = check
        return check

    def resolve(self, ref: str) -> dict[str, Any]:
        if not ref.startswith("#/"):
            raise ValueError(f"only local references are supported: {ref}")
        node: Any = self.root
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node  # type: ignore[no-any-return]

    def _build(self, schema: dict[str, Any]) -> Check:
        checks: list[Check] = []
        if "$ref" in schema:
            checks.append(self.compile(self.resolve(schema["$ref"])))
        for sub in schema.get("allOf", ()):
            checks.append(self.compile(sub))
        if "oneOf" in schema or "anyOf" in schema:
            checks.append(self._union(schema.get("oneOf") or schema["anyOf"], "oneOf" in schema))
        if "const" in schema:
            checks.append(_choices([schema["const"]]))
        if "enum" in schema:
            checks.append(_choices(schema["enum"]))
        checks += _string_checks(schema) + _number_checks(schema) + _array_checks(self, schema)
        checks += _object_checks(self, schema)
        types = schema.get("type")
        allowed = (types,) if isinstance(types, str) else tuple(types or ())

        def check(value: Any, path: Path, out: list[Problem]) -> None:
            if allowed:
                kind = json_type(value)
                if kind not in allowed and not (kind == "integer" and "number" in allowed):
                    code, message = TYPE_ERRORS[allowed[0]]
                    out.append((path, code, message))
                    return
            for one in checks:
                one(value, path, out)

        return check

    def _union(self, schemas: list[dict[str, Any]], exactly_one: bool) -> Check:
        """A ``oneOf``/``anyOf``, read the way Discord reads its unions where it can: a list of
        constants (an enum's named values) is one lookup, and objects told apart by their
        ``type`` field are checked against the one schema that ``type`` names."""
        resolved = [self._target(s) for s in schemas]
        if all("const" in r and set(r) <= {"const", "title", "description"} for r in resolved):
            return _choices([r["const"] for r in resolved])
        by_type: dict[Any, Check] = {}
        for branch, target in zip(schemas, resolved, strict=True):
            kinds = _type_values(target)
            if not kinds or any(k in by_type for k in kinds):
                return _union([self.compile(s) for s in schemas], exactly_one=exactly_one)
            by_type.update(dict.fromkeys(kinds, self.compile(branch)))
        general = _union([self.compile(s) for s in schemas], exactly_one=exactly_one)
        words = "(" + ", ".join(str(k) for k in by_type) + ",)"

        def check(value: Any, path: Path, out: list[Problem]) -> None:
            kind = value.get("type") if isinstance(value, dict) else None
            if isinstance(kind, bool) or not isinstance(kind, int | str):
                general(value, path, out)
            elif kind in by_type:
                by_type[kind](value, path, out)
            else:
                message = f'Value of field "type" must be one of {words}.'
                out.append(((*path, "type"), "UNION_TYPE_CHOICES", message))

        return check

    def _target(self, schema: dict[str, Any]) -> dict[str, Any]:
        while set(schema) == {"$ref"}:
            schema = self.resolve(schema["$ref"])
        return schema


def _type_values(schema: dict[str, Any]) -> list[Any]:
    """The values an object schema's ``type`` property may take, if it names them."""
    kind = (schema.get("properties") or {}).get("type")
    if schema.get("type") != "object" or not isinstance(kind, dict):
        return []
    if "const" in kind:
        return [kind["const"]]
    return list(kind.get("enum") or [])


def _choices(values: list[Any]) -> Check:
    # bool is an int in Python: compare types too, so True is not the 1 of an enum.
    allowed = {(type(v), v) for v in values}
    words = "{" + ", ".join(repr(v) for v in values) + "}"

    def check(value: Any, path: Path, out: list[Problem]) -> None:
        if isinstance(value, dict | list):
            fits = False
        else:
            fits = (type(value), value) in allowed or (
                isinstance(value, float) and (int, value) in allowed
            )
        if not fits:
            out.append((path, CHOICES, f"Value must be one of {words}."))

    return check


def _union(branches: list[Check], *, exactly_one: bool) -> Check:
    def check(value: Any, path: Path, out: list[Problem]) -> None:
        failures: list[list[Problem]] = []
        for branch in branches:
            problems: list[Problem] = []
            branch(value, path, problems)
            failures.append(problems)
        fitting = sum(1 for problems in failures if not problems)
        if fitting == 1 or (fitting and not exactly_one):
            return
        if fitting > 1:
            out.append((path, "UNION_TYPE_AMBIGUOUS", f"Value fits {fitting} of the forms."))
            return
        # Report the branch the value was meant for: not one whose type or discriminator
        # (a "type" property's const) it misses, and of those the one with the fewest problems.
        meant = [p for p in failures if not any(_discriminates(path, q) for q in p)]
        if meant:
            fewest = min(len(p) for p in meant)
            out.extend(next(p for p in meant if len(p) == fewest))
        else:
            out.append((path, "UNION_TYPE_CHOICES", "Value matches none of the allowed forms."))

    return check


def _discriminates(at: Path, problem: Problem) -> bool:
    where, code, _ = problem
    if where == at:
        return code == CHOICES or code in TYPE_CODES
    return len(where) == len(at) + 1 and where[-1] == "type" and code == CHOICES


def _string_checks(schema: dict[str, Any]) -> list[Check]:
    low, high = schema.get("minLength"), schema.get("maxLength")
    pattern = re.compile(schema["pattern"]) if "pattern" in schema else None
    if low is None and high is None and pattern is None:
        return []

    def check(value: Any, path: Path, out: list[Problem]) -> None:
        if not isinstance(value, str):
            return
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            out.append(_length_problem(path, low, high))
        if pattern is not None and not pattern.search(value):
            out.append((path, "STRING_TYPE_REGEX", "String value did not match validation regex."))

    return [check]


def _length_problem(path: Path, low: int | None, high: int | None) -> Problem:
    if low is not None and high is not None:
        return (path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
    if high is not None:
        return (path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
    return (path, "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length.")


def _number_checks(schema: dict[str, Any]) -> list[Check]:
    low, high = RANGES.get(schema.get("format", ""), (None, None))
    low = schema.get("minimum", low)
    high = schema.get("maximum", high)
    if low is None and high is None:
        return []

    def check(value: Any, path: Path, out: list[Problem]) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return
        if low is not None and value < low:
            out.append(
                (path, "NUMBER_TYPE_MIN", f"Value should be greater than or equal to {low}.")
            )
        if high is not None and value > high:
            message = f"Value should be less than or equal to {high}."
            out.append((path, "NUMBER_TYPE_MAX", message))

    return [check]


def _array_checks(validator: Validator, schema: dict[str, Any]) -> list[Check]:
    items = validator.compile(schema["items"]) if "items" in schema else None
    low, high = schema.get("minItems"), schema.get("maxItems")
    unique = schema.get("uniqueItems", False)
    if items is None and low is None and high is None and not unique:
        return []

    def check(value: Any, path: Path, out: list[Problem]) -> None:
        if not isinstance(value, list):
            return
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            out.append(_length_problem(path, low, high))
        if unique and len({repr(v) for v in value}) < len(value):
            out.append((path, "BASE_TYPE_UNIQUE", "Values must be unique."))
        if items is not None:
            for n, item in enumerate(value):
                items(item, (*path, n), out)

    return [check]


def _object_checks(validator: Validator, schema: dict[str, Any]) -> list[Check]:
    properties = {k: validator.compile(v) for k, v in (schema.get("properties") or {}).items()}
    required = tuple(schema.get("required", ()))
    extra = schema.get("additionalProperties", True)
    others = validator.compile(extra) if isinstance(extra, dict) else None
    most = schema.get("maxProperties")
    if not properties and not required and extra is True and most is None:
        return []

    def check(value: Any, path: Path, out: list[Problem]) -> None:
        if not isinstance(value, dict):
            return
        for name in required:
            if name not in value:
                out.append(((*path, name), REQUIRED, "This field is required"))
        if most is not None and len(value) > most:
            out.append((path, "BASE_TYPE_MAX_LENGTH", f"Must be {most} or fewer in length."))
        for name, item in value.items():
            known = properties.get(name)
            if known is not None:
                known(item, (*path, name), out)
            elif others is not None:
                others(item, (*path, name), out)
            elif extra is False:
                out.append(((*path, name), "BASE_TYPE_UNKNOWN", "Unknown field."))

    return [check]
