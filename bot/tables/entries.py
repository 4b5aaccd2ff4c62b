"""Reading what a table is made of: its dice, its entries (and deck cards), and its coverage.

Each function notes problems on a :class:`Checker` and returns what it could build (or None),
so one pass over a file reports every problem in it.
"""

from __future__ import annotations

import re

from bot.engine import limits
from bot.engine.dice import Dice, DiceExpr, Die, Sum, TensUnits, inline_exprs, parse_expr
from bot.engine.errors import DiceError, TableError
from bot.engine.model import (
    Duration,
    Entry,
    Kind,
    Lasts,
    MultiMode,
    MultiRoll,
    Offer,
    OfferTo,
    Token,
    TurnChange,
)
from bot.tables.outcomekeys import life_key, mentions_life, removes
from bot.tables.problems import KeyPath, format_path
from bot.tables.schema import (
    DOES,
    MAX_NAME,
    MAX_OFFERS,
    MAX_OUTCOMES,
    MAX_TIMES,
    ROLL_KEYS,
    TENS_KEYS,
    Checker,
    Reference,
    Wants,
    describe,
)

# Spaces around the count only when there is one: with both optional, `\s*\s*` split a run of
# spaces n^2 ways before failing.
_DIE = re.compile(r"\s*(?:([0-9]{1,6})\s*)?[dD]\s*([0-9]{1,6})\s*")
_BAND = re.compile(r"\s*([0-9]{1,7})\s*(?:-\s*([0-9]{1,7})\s*)?")
_DICE_HINT = "dice like d20, 2d10 or {tens: d8}"
_KINDS = {
    "card": Kind.CARD,
    "link": Kind.LINK,
    "roll": Kind.MULTI,
    "token": Kind.TOKEN,
    "world": Kind.WORLD,
    "global": Kind.GLOBAL,
}


def table_dice(ck: Checker, value: object, path: KeyPath) -> Dice | None:
    """``d20``, ``2d10``, or ``{tens: d20, max_tens_is_zero: true, zero_units_is_ten: true}``."""
    try:
        dice = _dice(ck, value, path)
    except DiceError as error:
        ck.add(path, str(error))
        return None
    if dice is None:
        return None
    low, high = span(dice)
    if high - low + 1 > MAX_OUTCOMES:
        ck.add(
            path,
            f"{dice.notation} makes {high - low + 1:,} different results;"
            f" a table may have at most {MAX_OUTCOMES:,}",
        )
        return None
    return dice


def _dice(ck: Checker, value: object, path: KeyPath) -> Dice | None:
    if isinstance(value, str) and (match := _DIE.fullmatch(value)):
        count = int(match[1]) if match[1] else 1
        return Die(int(match[2])) if count == 1 else Sum(count, int(match[2]))
    if isinstance(value, dict):
        ck.keys(value, path, TENS_KEYS, ("tens",), "tens-and-units dice")
        tens = value.get("tens")
        match = _DIE.fullmatch(tens) if isinstance(tens, str) else None
        if "tens" in value and (match is None or match[1] not in (None, "1")):
            ck.add((*path, "tens"), f"expected one die like d20 for the tens, got {describe(tens)}")
        flags = [ck.flag(value[k], (*path, k)) if k in value else False for k in TENS_KEYS[1:]]
        if match is None or None in flags:
            return None
        return TensUnits(int(match[2]), bool(flags[0]), bool(flags[1]))
    ck.add(path, f"expected {_DICE_HINT}, got {describe(value)}")
    return None


def span(dice: Dice) -> tuple[int, int]:
    """The lowest and highest result (every number between can come up)."""
    outcomes = dice.outcomes()
    return outcomes[0], outcomes[-1]


def band(ck: Checker, value: object, path: KeyPath) -> tuple[int, int] | None:
    """An entry's ``at``: a number, or a band like ``"2-3"``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    match = _BAND.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        ck.add(path, f"expected a number or a band like 2-3, got {describe(value)}")
        return None
    low = int(match[1])
    high = int(match[2]) if match[2] else low
    if low > high:
        ck.add(path, f"the band {low}-{high} runs backwards; write {high}-{low}")
        return None
    return low, high


def label(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def entry(
    ck: Checker,
    raw: dict[str, object],
    path: KeyPath,
    *,
    entry_id: str,
    table_id: str,
    allowed: tuple[str, ...],
    required: tuple[str, ...],
    what: str,
    refs: list[Reference],
) -> Entry | None:
    """One table entry, deck card or half of a split card; references go into `refs`."""
    before = len(ck.problems)
    ck.keys(raw, path, allowed, required, what)
    name = ck.text(raw, "name", path, required=True, limit=MAX_NAME)
    text = ck.text(raw, "text", path) or ""
    if "{" in text:
        try:
            inline_exprs(text)
        except DiceError as error:
            ck.add(
                (*path, "text"),
                f"{error} Braces with a d in them are rolled as dice when the entry comes up"
                " (mana symbols like {2}{R} are left as they are)",
            )
    fields: dict[str, object] = {}
    does = [k for k in DOES if k in raw and k in allowed and raw[k] is not False]
    if len(does) > 1:
        ck.add(
            (*path, does[1]),
            f"an entry does one thing at most, but this one has {' and '.join(does)};"
            " split it into separate entries or keep one",
        )
    elif does:
        fields["kind"] = _KINDS[does[0]]
        _does(ck, does[0], raw[does[0]], (*path, does[0]), table_id, fields, refs)
    _modifiers(ck, raw, path, fields, refs, has_card="card" in does, has_token="token" in does)
    if fields.get("life_undeclared"):
        ck.warn(
            (*path, "text"),
            f"{name or 'this entry'}: its text speaks of life but it declares no life change"
            " (life:): when it comes up the bot shows every life total as unsure; declare what"
            " it does, like life: {lose: 2, who: each opponent}, or life: {unsure: each player}",
        )
    if name is None or len(ck.problems) > before:
        return None
    try:
        made = Entry(id=entry_id, name=name, text=text, **fields)  # type: ignore[arg-type]
    except TableError as error:  # the engine's own checks, should ours have missed one
        ck.add(path, str(error))
        return None
    too_many = limits.entry_problem(made)
    if too_many is not None:
        ck.add(path, too_many)
        return None
    return made


def _does(
    ck: Checker,
    key: str,
    value: object,
    path: KeyPath,
    table_id: str,
    fields: dict[str, object],
    refs: list[Reference],
) -> None:
    """The one thing an entry does: a card, a link, a multi-roll, tokens, a world or Global."""
    match key:
        case "card":
            if isinstance(value, str) and value.strip() and len(value) <= MAX_NAME:
                fields["card"] = value.strip()
            else:
                ck.add(path, f"expected the name of a Magic card, got {describe(value)}")
        case "link":
            if (target := ck.ident(value, path, "the id of a list")) is not None:
                fields["link"] = target
                refs.append(ck.reference(target, Wants.LIST, path, source=table_id))
        case "roll":
            fields["multi"] = multi_roll(ck, value, path, table_id, refs)
        case "token":
            fields["token"] = ck.choice(value, path, Token)
        case _:  # world, global
            if value is not True:
                ck.add(path, f"expected true (or leave the key out), got {describe(value)}")


def _modifiers(
    ck: Checker,
    raw: dict[str, object],
    path: KeyPath,
    fields: dict[str, object],
    refs: list[Reference],
    *,
    has_card: bool,
    has_token: bool,
) -> None:
    """What may be added to any entry: X, count, duration, life, removals, next list, turn,
    offers and tags."""
    if "x" in raw:
        if not has_card:
            ck.add((*path, "x"), "x is the X of a card's cost, so it needs card: NAME")
        else:
            fields["x"] = ck.expr(raw["x"], (*path, "x"), "dice like 2d6 for X")
    if "count" in raw:
        if not has_token:
            ck.add((*path, "count"), "count says how many tokens, so it needs token")
        else:
            fields["count"] = ck.integer(raw["count"], (*path, "count"), 1, 20)
    if "lasts" in raw:
        fields["duration"] = duration(ck, raw["lasts"], (*path, "lasts"))
    if "gains_life" in raw:
        fields["gains_life"] = ck.flag(raw["gains_life"], (*path, "gains_life"))
    if "life" in raw:
        read = life_key(ck, raw["life"], (*path, "life"), has_x="x" in raw)
        gain, changes = read if read is not None else (None, ())
        if gain is not None and raw.get("gains_life", True) is not True:
            ck.add((*path, "life"), "life says how much life is gained: drop gains_life: false")
        elif gain is not None:
            fields["gains_life"] = True
            fields["life"] = gain
        fields["life_changes"] = changes
    lasting = "lasts" in raw or raw.get("world") is True or raw.get("global") is True
    undeclared = "life" not in raw and "gains_life" not in raw and not lasting
    if undeclared and mentions_life(str(raw.get("text") or "")):
        fields["life_undeclared"] = True  # the bot shows every total as unsure
    if "removes" in raw:
        fields["removes"] = removes(ck, raw["removes"], (*path, "removes"))
    if "next_list" in raw:
        at = (*path, "next_list")
        if (target := ck.ident(raw["next_list"], at, "the id of a list")) is not None:
            fields["next_list"] = target
            refs.append(ck.reference(target, Wants.CHAOS_LIST, at))
    if "turn" in raw:
        fields["turn"] = ck.choice(raw["turn"], (*path, "turn"), TurnChange)
    if "offers" in raw:
        fields["offers"] = offers(ck, raw["offers"], (*path, "offers"), refs)
    if "tags" in raw:
        fields["tags"] = ck.tags(raw["tags"], (*path, "tags"))


def offers(ck: Checker, value: object, path: KeyPath, refs: list[Reference]) -> tuple[Offer, ...]:
    """``[vortex, {one_of: [mild, strong]}]``: rolls the roller may take, each once."""
    items = ck.items(value, path, "lists to offer, like [vortex, {one_of: [mild, strong]}]")
    if items is not None and not 1 <= len(items) <= MAX_OFFERS:
        ck.add(path, f"offer 1 to {MAX_OFFERS} rolls, not {len(items)}")
    found: list[Offer] = []
    seen: dict[str, KeyPath] = {}
    for i, item in enumerate(items or ()):
        at: KeyPath = (*path, i)
        to = OfferTo.ROLLER
        if isinstance(item, dict):
            ck.keys(item, at, _OFFER_KEYS, (), "an offer: {list: x} or {one_of: [a, b]}, to: whom")
            if ("one_of" in item) == ("list" in item):
                ck.add(at, "an offer names one list (list: x) or several to pick from (one_of)")
                continue
            if "to" in item:
                to = _offered_to(ck, item["to"], (*at, "to"))
            if "list" in item:
                target = ck.ident(item["list"], (*at, "list"), "the id of a list")
                lists = [(target, (*at, "list"))] if target is not None else []
            else:
                lists = ck.ids(item["one_of"], (*at, "one_of"), "lists")
                named = item["one_of"]
                if isinstance(named, list) and not 2 <= len(named) <= MAX_OFFERS:
                    ck.add((*at, "one_of"), f"one_of names 2 to {MAX_OFFERS} lists to choose from")
        else:
            target = ck.ident(item, at, "the id of a list")
            lists = [(target, at)] if target is not None else []
        for target, where in lists:
            if target in seen:
                ck.add(where, f"{target!r} is offered twice (also at {format_path(seen[target])})")
            seen[target] = where
            refs.append(ck.reference(target, Wants.LIST, where))  # no source: not rolled at once
        found.append(Offer(tuple(t for t, _ in lists), to))
    return tuple(found)


_OFFER_KEYS = ("list", "one_of", "to")


def _offered_to(ck: Checker, value: object, path: KeyPath) -> OfferTo:
    """``to: roller`` (the default) or ``to: killer``."""
    if isinstance(value, str) and value in {to.value for to in OfferTo}:
        return OfferTo(value)
    words = " or ".join(to.value for to in OfferTo)
    ck.add(path, f"expected {words}, got {describe(value)}")
    return OfferTo.ROLLER


def duration(ck: Checker, value: object, path: KeyPath) -> Duration | None:
    """``end_of_turn``, ``next_turn``, ``permanent``, ``until_removed`` or ``{turns: N}``."""
    if isinstance(value, dict):
        ck.keys(value, path, ("turns",), ("turns",), "a duration in turns")
        turns = ck.integer(value["turns"], (*path, "turns"), 1, 100) if "turns" in value else None
        return Duration(Lasts.TURNS, turns) if turns is not None else None
    words = [lasts.value for lasts in Lasts if lasts is not Lasts.TURNS]
    if isinstance(value, str) and value in words:
        return Duration(Lasts(value))
    hint = "; write {turns: 3} for a number of turns" if value == "turns" else ""
    ck.add(path, f"expected {', '.join(words)} or {{turns: N}}, got {describe(value)}{hint}")
    return None


def multi_roll(
    ck: Checker, value: object, path: KeyPath, table_id: str, refs: list[Reference]
) -> MultiRoll | None:
    """``{times: N}``, ``{times: N, list: LIST}``, ``{times: N, keep: 1}``, ``{each: [...]}``
    or ``{random: [...]}``."""
    raw = ck.mapping(value, path, "a multi-roll like {times: 2}")
    if raw is None:
        return None
    before = len(ck.problems)
    ck.keys(raw, path, ROLL_KEYS, (), "a multi-roll")
    _other_keys(ck, raw, path)
    if "random" in raw:
        return _random(ck, raw, path, table_id, refs, before)
    if "chaos" in raw:
        return _chaos(ck, raw, path, table_id, refs, before)
    if "each" in raw:
        lists = ck.ids(raw["each"], (*path, "each"), "lists")
        if not lists and raw["each"] == []:
            ck.add((*path, "each"), "name at least one list to roll on")
        refs.extend(ck.reference(t, Wants.LIST, p, source=table_id) for t, p in lists)
        if len(ck.problems) > before:
            return None
        return MultiRoll(MultiMode.EACH, parse_expr("1"), tuple(t for t, _ in lists))
    if "times" not in raw:
        ck.add(path, "a multi-roll needs times (how many rolls) or each (which lists)")
        return None
    times = roll_times(ck, raw["times"], (*path, "times"))
    tables: tuple[str, ...] = ()
    if "list" in raw:
        if (target := ck.ident(raw["list"], (*path, "list"), "the id of a list")) is not None:
            tables = (target,)
            refs.append(ck.reference(target, Wants.LIST, (*path, "list"), source=table_id))
    else:  # rolling again on its own list: a loop the cycle check must see
        refs.append(ck.reference(table_id, Wants.LIST, path, source=table_id))
    mode = MultiMode.TIMES
    if "keep" in raw:
        mode = MultiMode.KEEP
        if raw["keep"] != 1 or isinstance(raw["keep"], bool):
            ck.add((*path, "keep"), f"only keep: 1 is supported, got {describe(raw['keep'])}")
        elif times is not None and times.bounds()[1] < 2:
            ck.add((*path, "keep"), "keep: 1 needs times of 2 or more to choose from")
    if times is None or len(ck.problems) > before:
        return None
    return MultiRoll(mode, times, tables)


# The kinds of multi-roll, in the order a mapping is read as one, each with the keys it takes
# and what it does, for the refusal of a key it doesn't take.
_MULTI_KINDS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("random", ("random",), "random rolls once on one of the lists it names"),
    ("chaos", ("chaos", "starting"), "chaos rolls chaos the number of times it says"),
    ("each", ("each",), "each rolls once on every list it names"),
    ("times", ("times", "list", "keep"), "times rolls that many times"),
)


def _other_keys(ck: Checker, raw: dict[str, object], path: KeyPath) -> None:
    """A key the multi-roll's kind doesn't take is a problem, never quietly left unread: the
    kind is the first of :data:`_MULTI_KINDS` whose key is there (none: times, which says so)."""
    _, takes, does = next((kind for kind in _MULTI_KINDS if kind[0] in raw), _MULTI_KINDS[-1])
    for key in ROLL_KEYS:
        if key in raw and key not in takes:
            ck.add((*path, key), f"{does}: drop this key")


def _random(
    ck: Checker,
    raw: dict[str, object],
    path: KeyPath,
    table_id: str,
    refs: list[Reference],
    before: int,
) -> MultiRoll | None:
    """``{random: [a, b, c]}``: one roll on one of 2 to MAX_OFFERS lists, picked by a die."""
    lists = ck.ids(raw["random"], (*path, "random"), "lists")
    names = [t for t, _ in lists]
    if len(ck.problems) == before and not 2 <= len(names) <= MAX_OFFERS:
        ck.add((*path, "random"), f"name 2 to {MAX_OFFERS} lists to pick from, got {len(names)}")
    elif len(set(names)) != len(names):
        ck.add((*path, "random"), "name each list once: every list has the same chance")
    refs.extend(ck.reference(t, Wants.LIST, p, source=table_id) for t, p in lists)
    if len(ck.problems) > before:
        return None
    return MultiRoll(MultiMode.RANDOM, parse_expr("1"), tuple(names))


def _chaos(
    ck: Checker,
    raw: dict[str, object],
    path: KeyPath,
    table_id: str,
    refs: list[Reference],
    before: int,
) -> MultiRoll | None:
    """``{chaos: N}``: roll chaos N times; ``starting: LIST`` makes the first roll there."""
    times = roll_times(ck, raw["chaos"], (*path, "chaos"))
    tables: tuple[str, ...] = ()
    if "starting" in raw:
        at = (*path, "starting")
        if (target := ck.ident(raw["starting"], at, "the id of a list")) is not None:
            tables = (target,)
            refs.append(ck.reference(target, Wants.LIST, at, source=table_id))
    if times is None or len(ck.problems) > before:
        return None
    return MultiRoll(MultiMode.CHAOS, times, tables)


def roll_times(ck: Checker, value: object, path: KeyPath) -> DiceExpr | None:
    """How many rolls: a whole number, or dice like ``1d3``."""
    expected = f"expected a positive integer or dice like 1d3, got {describe(value)}"
    if isinstance(value, bool) or not isinstance(value, int | str):
        ck.add(path, expected)
        return None
    try:
        times = parse_expr(str(value))
    except DiceError:
        ck.add(path, expected)
        return None
    low, high = times.bounds()
    if low < 0 or high < 1:
        ck.add(path, f"{times.text} can make {low}; the number of rolls must be 1 or more")
    elif high > MAX_TIMES:
        ck.add(path, f"{times.text} can ask for {high} rolls; at most {MAX_TIMES} are allowed")
    else:
        return times
    return None
