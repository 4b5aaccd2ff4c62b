"""Every command, with its usage line; each reader's docstring is the help players see.

The names and options are those of the slash commands. A reader turns the rest of the line
into arguments as typed; names of players and lists are resolved later, against the game.
"""

from __future__ import annotations

import re

from bot.commands.grammar import (
    MAX_LOG,
    Args,
    CommandError,
    Kind,
    command,
    name_list,
    nothing,
    player_name,
    ref_number,
    split_last_number,
    usage_of,
    whole_number,
)
from bot.commands.house import ROUNDS
from bot.engine.actions import LOSS_REASONS
from bot.engine.house import REPEATS
from bot.engine.tags import TAGS
from bot.render.ids import EFFECT, MIDDLE

MAX_TEXT = 100

# -- game ------------------------------------------------------------------------------------


@command("game start [RULESET] [tables A,B] [life N] [seed S]", Kind.START)
def game_start(rest: str) -> Args:
    """Open a new game at this table and host it: `as Ann: game start classic life 20`.
    Without a ruleset, the console's --ruleset is used. `tables` plays tables stored with
    `table import` in place of the ruleset's own. A seed makes every roll repeatable."""
    words = rest.split()
    args: Args = {"ruleset": None, "life": None, "seed": None, "tables": ()}
    while words:
        word = words.pop(0)
        key = word.lower()
        if key == "tables":
            if not words:
                raise CommandError(f"`tables` needs their ids after it ({usage_of('game start')})")
            args["tables"] = table_ids(words.pop(0))
        elif key in ("life", "seed"):
            if not words:
                raise CommandError(f"`{key}` needs a number after it ({usage_of('game start')})")
            low, high = (1, 10_000) if key == "life" else (0, 999_999_999)
            args[key] = whole_number(words.pop(0), key, "game start", low=low, high=high)
        elif args["ruleset"] is None:
            args["ruleset"] = key
        else:
            raise CommandError(f"unexpected {word!r} ({usage_of('game start')})")
    return args


@command("game join NAME")
def game_join(rest: str) -> Args:
    """Sit down at the game as NAME, before it begins."""
    name = player_name(rest)
    if name is None:
        raise CommandError(f"say who joins: `game join Bob` ({usage_of('game join')})")
    return {"name": name}


@command("game leave")
def game_leave(rest: str) -> Args:
    """Leave the lobby, or concede the game in progress."""
    return nothing("game leave", rest)


@command("game begin [A,B,C]")
def game_begin(rest: str) -> Args:
    """Lock the seats (in this order, or the order people joined) and make the start roll."""
    return {"order": name_list(rest, "game begin") if rest.strip() else ()}


@command("game status", Kind.QUERY)
def game_status(rest: str) -> Args:
    """The table at a glance: seats, life, tokens, whose turn, effects, the middle."""
    return nothing("game status", rest)


@command("game end")
def game_end(rest: str) -> Args:
    """End the game for everyone (host or referee)."""
    return nothing("game end", rest)


@command("game link", Kind.QUERY)
def game_link(rest: str) -> Args:
    """The link to this table's live page, when the console serves it (`play --web PORT`)."""
    return nothing("game link", rest)


@command("game export [FILE]", Kind.QUERY)
def game_export(rest: str) -> Args:
    """The whole log as JSON Lines, into FILE or printed here."""
    return {"file": rest.strip() or None}


@command("game verify FILE [commitment HEX]", Kind.QUERY)
def game_verify(rest: str) -> Args:
    """Check a finished game's exported log against the seed revealed at its end: every die,
    every card drawn, and the commitment shown when it started (give it to compare)."""
    path, found, expected = rest.strip().rpartition(" commitment ")
    if not found:
        path, expected = rest.strip(), ""
    if not path.strip():
        raise CommandError("`game verify` needs the file of an exported log: `game verify FILE`")
    return {"file": path.strip(), "commitment": expected.strip() or None}


# -- turn ------------------------------------------------------------------------------------


@command("turn next [override]")
def turn_next(rest: str) -> Args:
    """End the turn and start the next one. It waits for this turn's chaos roll; `override`
    ends it anyway (the console trusts you as referee, and the log says so)."""
    word = rest.strip().lower()
    if word not in ("", "override"):
        raise CommandError(f"`turn next` only takes `override`, got {rest!r}")
    return {"override": word == "override"}


@command("turn extra [PLAYER]")
def turn_extra(rest: str) -> Args:
    """PLAYER (the active player if left out) takes an extra turn after this one (referee)."""
    return {"player": player_name(rest)}


@command("turn skip [PLAYER]")
def turn_skip(rest: str) -> Args:
    """PLAYER (the active player if left out) skips their next turn (referee)."""
    return {"player": player_name(rest)}


@command("turn reverse")
def turn_reverse(rest: str) -> Args:
    """Play changes direction (referee)."""
    return nothing("turn reverse", rest)


@command("turn seats A,B,C")
def turn_seats(rest: str) -> Args:
    """Seat everyone in a new order, each player once (referee)."""
    if not rest.strip():
        raise CommandError(f"name every player in their new order ({usage_of('turn seats')})")
    return {"order": name_list(rest, "turn seats")}


# -- chaos -----------------------------------------------------------------------------------


@command("chaos roll [LIST | extra]")
def chaos_roll(rest: str) -> Args:
    """Make this turn's chaos roll (or draw the chaos card): one a turn. With LIST, roll once on
    that list; with `extra`, an extra roll made like the turn's, which doesn't count as it (both
    referee's calls: the console trusts you as referee, and the log says so)."""
    words = rest.split()
    if len(words) > 1:
        raise CommandError(f"one list at most ({usage_of('chaos roll')})")
    if words and words[0].lower() == "extra":
        return {"list": None, "extra": True}
    return {"list": words[0] if words else None, "extra": False}


@command("chaos reveal")
def chaos_reveal(rest: str) -> Args:
    """Turn the face-down chaos card face up once everyone has passed (deck)."""
    return nothing("chaos reveal", rest)


@command("chaos counter")
def chaos_counter(rest: str) -> Args:
    """Spend a CounterRoll on the most recent roll this turn."""
    return nothing("chaos counter", rest)


@command("chaos fork")
def chaos_fork(rest: str) -> Args:
    """Spend a RollFork to copy the most recent roll this turn."""
    return nothing("chaos fork", rest)


@command("chaos veto")
def chaos_veto(rest: str) -> Args:
    """Vote to veto the result just shown (with the house rule `veto` on), as yourself: the
    players at the table other than its roller vote until the next action, and a strict
    majority of the table takes it back and rolls it again. One veto a turn."""
    return nothing("chaos veto", rest)


@command("chaos spite [PLAYER] [life|poison|library|card]")
def chaos_spite(rest: str) -> Args:
    """PLAYER (you, if left out) would lose the game, for that reason: the ruleset's spite
    rule applies. Without a reason, classic takes it as a loss of life, and deck asks
    afterwards whether the loss still holds unless tracked life is below 1."""
    head, _, last = rest.strip().rpartition(" ")
    if last.lower() in LOSS_REASONS:
        return {"player": player_name(head), "reason": last.lower()}
    return {"player": player_name(rest), "reason": None}


@command("chaos global")
def chaos_global(rest: str) -> Args:
    """Roll on the start list again (referee). Classic: a new world enchantment joins those in
    play. Lists: a new Global replaces the old one. Deck: the next Global card replaces it."""
    return nothing("chaos global", rest)


@command("chaos choose OPTION")
def chaos_choose(rest: str) -> Args:
    """Answer the pending choice by its number or its name (as the player who has it)."""
    option = " ".join(rest.split())
    if not option:
        raise CommandError(f"say which option, by number or name ({usage_of('chaos choose')})")
    if len(option) > MAX_TEXT:
        raise CommandError("that option is too long")
    return {"option": option}


@command("chaos decline [LIST]")
def chaos_decline(rest: str) -> Args:
    """Pass up a roll a result offered (the one on LIST, or the only one open): nothing is
    rolled for it. A roll that waited for the offer goes on with its next roll."""
    words = rest.split()
    if len(words) > 1:
        raise CommandError(f"one list at most ({usage_of('chaos decline')})")
    return {"list": words[0] if words else None}


@command("chaos log [COUNT]", Kind.QUERY)
def chaos_log(rest: str) -> Args:
    """The last COUNT actions, each with all it did (20 if left out)."""
    count = whole_number(rest, "COUNT", "chaos log", low=1, high=MAX_LOG) if rest.strip() else 20
    return {"count": count}


@command("chaos undo")
def chaos_undo(rest: str) -> Args:
    """Take back the last action (referee; the log keeps what was undone)."""
    return nothing("chaos undo", rest)


# -- effects, middle, life, player -----------------------------------------------------------


@command("effects list", Kind.QUERY)
def effects_list(rest: str) -> Args:
    """Every effect in play, with its number and how long it lasts."""
    return nothing("effects list", rest)


@command("effects end ID")
def effects_end(rest: str) -> Args:
    """Remove the effect ID, like `effects end E2` (see `effects list`; effects are numbered
    E1, E2, …, apart from the #numbers of the lists' entries)."""
    return {"effect": ref_number(rest, EFFECT, "an effect")}


@command("middle add CARD NAME")
def middle_add(rest: str) -> Args:
    """Put a card into the middle, by its name."""
    card = " ".join(rest.split())
    if not card:
        raise CommandError(f"name the card ({usage_of('middle add')})")
    return {"card": card}


@command("middle play ID")
def middle_play(rest: str) -> Args:
    """Play the card ID from the middle, like `middle play M3` (see `middle list`; cards in the
    middle are numbered M1, M2, …)."""
    return {"card": ref_number(rest, MIDDLE, "a card in the middle")}


@command("middle list", Kind.QUERY)
def middle_list(rest: str) -> Args:
    """The cards in the middle and who may play them."""
    return nothing("middle list", rest)


def _life(mode: str, rest: str) -> Args:
    name = f"life {mode}"
    head, number = split_last_number(rest)
    if number is None:
        raise CommandError(f"say how much life ({usage_of(name)})")
    amount = whole_number(number, "N", name, high=1_000_000)
    return {"mode": mode, "player": player_name(head), "amount": amount}


@command("life set [PLAYER] N")
def life_set(rest: str) -> Args:
    """Set PLAYER's life (yours if left out) to N; below 1 starts the spite rule."""
    return _life("set", rest)


@command("life gain [PLAYER] N")
def life_gain(rest: str) -> Args:
    """PLAYER (you, if left out) gains N life."""
    return _life("gain", rest)


@command("life lose [PLAYER] N")
def life_lose(rest: str) -> Args:
    """PLAYER (you, if left out) loses N life; below 1 starts the spite rule."""
    return _life("lose", rest)


@command("player away [PLAYER] [TURNS|next]")
def player_away(rest: str) -> Args:
    """PLAYER (you, if left out) steps away: skipped and out of reach. TURNS is how many of
    their own turns they miss; `next` brings them back for their next turn (as `0` does);
    left out, they stay away until `player back`."""
    head, _, last = rest.rstrip().rpartition(" ")
    if last.casefold() == "next":
        return {"player": player_name(head), "turns": 0}
    head, number = split_last_number(rest)
    turns = None if number is None else whole_number(number, "TURNS", "player away", high=1000)
    return {"player": player_name(head), "turns": turns}


@command("player back [PLAYER]")
def player_back(rest: str) -> Args:
    """PLAYER (you, if left out) is back at the table."""
    return {"player": player_name(rest)}


# -- reference and tools ---------------------------------------------------------------------


@command("rules [TOPIC]", Kind.QUERY)
def rules(rest: str) -> Args:
    """The ruleset's rules on TOPIC (a rule's id, title or keyword, or a question); the topics
    if left out. When several match they are numbered: `rules 2` shows the second."""
    return {"topic": " ".join(rest.split()) or None}


@command("table list", Kind.QUERY)
def table_list(rest: str) -> Args:
    """The lists and decks of this game's ruleset."""
    return nothing("table list", rest)


@command("table show TABLE", Kind.QUERY)
def table_show(rest: str) -> Args:
    """A list or deck as players read it: dice, directions and every result."""
    if not rest.strip():
        raise CommandError(f"name a list or deck ({usage_of('table show')}; see `table list`)")
    return {"table": rest.strip()}


@command("table lookup [TABLE] NUMBER|NAME", Kind.QUERY)
def table_lookup(rest: str) -> Args:
    """One result of a list by its number (`table lookup chaos 158`), or an entry by its name
    in every list and deck (`table lookup tsunami`), or in one (`table lookup chaos fog`)."""
    if not rest.strip():
        raise CommandError(f"say what to look up ({usage_of('table lookup')})")
    return {"query": rest.strip()}


@command("table import FILE", Kind.QUERY)
def table_import(rest: str) -> Args:
    """Store a table or deck file (checked first) in this console's database, to play with
    `game start RULESET tables ID`. Storing it again makes a new revision."""
    return {"file": _file(rest, "table import")}


@command("table validate FILE", Kind.QUERY)
def table_validate(rest: str) -> Args:
    """Check a table or deck file as `table import` would, storing nothing: every problem with
    its file, line and key."""
    return {"file": _file(rest, "table validate")}


@command("table export TABLE [FILE]", Kind.QUERY)
def table_export(rest: str) -> Args:
    """A table stored with `table import`, as its file: into FILE, or printed here."""
    words = rest.split(maxsplit=1)
    if not words:
        raise CommandError(f"say which stored table ({usage_of('table export')})")
    return {"table": words[0], "file": words[1].strip() if len(words) > 1 else None}


def _file(rest: str, name: str) -> str:
    if not rest.strip():
        raise CommandError(f"name the file ({usage_of(name)})")
    return rest.strip()


def table_ids(text: str) -> tuple[str, ...]:
    """``house,fog`` (each once, in the order given)."""
    ids = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not ids or len(ids) > 20 or any(len(i) > 60 for i in ids):
        raise CommandError(f"`tables` takes ids separated by commas, like house,fog; got {text!r}")
    return ids


# -- house rules -----------------------------------------------------------------------------


@command("house show", Kind.QUERY)
def house_show(rest: str) -> Args:
    """The house rules games started here keep (the console's database is its server)."""
    return nothing("house show", rest)


@command("house chaos_from N [next game]", Kind.QUERY)
def house_chaos_from(rest: str) -> Args:
    """No chaos roll or card before round N (a round is one turn of each seated player); 1,
    the default, is chaos from the first turn. While a game is running, end with `next game`
    to say the change applies from the next one."""
    text, upcoming = _next_game(rest)
    low, high = ROUNDS
    return {
        "round": whole_number(text, "the round", "house chaos_from", low=low, high=high),
        "next_game": upcoming,
    }


@command("house veto on|off [next game]", Kind.QUERY)
def house_veto(rest: str) -> Args:
    """With `on`, the players at the table may vote to veto a result (`chaos veto`): a strict
    majority takes it back and rolls it again, once a turn. `off` is the default."""
    text, upcoming = _next_game(rest)
    word = text.strip().lower()
    if word not in ("on", "off"):
        raise CommandError(f"the veto is `on` or `off` ({usage_of('house veto')})")
    return {"veto": word == "on", "next_game": upcoming}


@command("house deny LIST ENTRY [next game]", Kind.QUERY)
def house_deny(rest: str) -> Args:
    """Deny an entry of a list (by its number, id or name): when it comes up it is rolled again
    at once, and the log says so. A deny that would leave a list nothing to roll is refused."""
    return _list_entry(rest, "house deny")


@command("house allow LIST ENTRY [next game]", Kind.QUERY)
def house_allow(rest: str) -> Args:
    """Take an entry off the deny-list."""
    return _list_entry(rest, "house allow")


@command("house repeats never|allowed [next game]", Kind.QUERY)
def house_repeats(rest: str) -> Args:
    """With `never`, a game gives no entry of a list twice until every entry of that list has
    come up; then the list starts over. `allowed` (the default) rolls every time afresh."""
    text, upcoming = _next_game(rest)
    word = text.strip().lower()
    if word not in REPEATS:
        raise CommandError(f"repeats are `never` or `allowed` ({usage_of('house repeats')})")
    return {"repeats": word, "next_game": upcoming}


@command(f"house exclude {'|'.join(TAGS)} [next game]", Kind.QUERY)
def house_exclude(rest: str) -> Args:
    """Leave out every entry carrying a tag (slow, choice, swingy, mana or creature): on a list
    it is rolled again at once when it comes up, and a deck is shuffled without it. An exclude
    that would leave a list nothing to roll is refused."""
    return _tag(rest, "house exclude")


@command(f"house include {'|'.join(TAGS)} [next game]", Kind.QUERY)
def house_include(rest: str) -> Args:
    """Play the entries carrying an excluded tag again."""
    return _tag(rest, "house include")


def _tag(rest: str, name: str) -> Args:
    text, upcoming = _next_game(rest)
    if not text.strip():
        raise CommandError(f"name the tag ({usage_of(name)})")
    if len(text) > MAX_TEXT:
        raise CommandError("that tag is too long")
    return {"tag": " ".join(text.split()), "next_game": upcoming}


def _list_entry(rest: str, name: str) -> Args:
    text, upcoming = _next_game(rest)
    words = text.split(maxsplit=1)
    if len(words) < 2:
        raise CommandError(f"name the list and the entry ({usage_of(name)})")
    if len(words[0]) > MAX_TEXT or len(words[1]) > MAX_TEXT:
        raise CommandError("that list or entry name is too long")
    return {"list": words[0], "entry": " ".join(words[1].split()), "next_game": upcoming}


def _next_game(rest: str) -> tuple[str, bool]:
    """The command's words without a closing ``next game``, and whether it was there."""
    words = rest.split()
    if [w.lower() for w in words[-2:]] == ["next", "game"]:
        return " ".join(words[:-2]), True
    return rest, False


@command("card NAME", Kind.QUERY)
def card(rest: str) -> Args:
    """A link to the card on Scryfall."""
    name = " ".join(rest.split())
    if not name:
        raise CommandError(f"name the card ({usage_of('card')})")
    if len(name) > MAX_TEXT:
        raise CommandError("that card name is too long")
    return {"name": name}


@command("roll dice EXPR", Kind.QUERY)
def roll_dice(rest: str) -> Args:
    """Roll any dice, like `roll dice 2d6+1`, or `roll 4d6kh3` without the word `dice`: keep
    and drop (`4d6kh3`, `2d20kl1`), `1d20 adv` or `dis`, rerolls (`2d6ro1`, `1d8rr<3`),
    exploding dice (`1d6!`, `3d6e6`), minimum and maximum (`3d6mi2`), arithmetic and
    parentheses (`(1d4+1)*3`). Not part of the game."""
    if not rest.strip():
        raise CommandError(f"say which dice, like `roll dice 2d6+1` ({usage_of('roll dice')})")
    return {"expr": rest.strip()}


@command("help [GROUP]", Kind.QUERY)
def help_(rest: str) -> Args:
    """The commands, or those of one group (`help chaos`)."""
    group = rest.strip().lower()
    if group and not re.fullmatch(r"[a-z]+( [a-z]+)?", group):
        raise CommandError(f"`help` takes a group name, like `help chaos`; got {rest!r}")
    return {"group": group or None}


@command("quit", Kind.QUIT)
def quit_(rest: str) -> Args:
    """Leave the console (`exit` and end-of-input too); the game is saved, and the same
    `--game` resumes it."""
    return nothing("quit", rest)
