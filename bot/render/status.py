"""The status board: the whole table at a glance, as text (pure, no I/O)."""

from __future__ import annotations

from bot.engine.fairness import named
from bot.engine.model import ChaosSource, Lasts, Ruleset, SpitePolicy, ZonePolicy
from bot.engine.offered import awaited, held_away, waits_for
from bot.engine.state import ActiveEffect, GameState, PendingOffer, Phase, Player, Status
from bot.engine.turns import nobody_can_play
from bot.render.ids import effect_ref, middle_ref
from bot.render.lines import TOKENS, commitment_line, offered, wrap
from bot.render.names import Names
from bot.render.votes import ballot_lines


def render_status(state: GameState, ruleset: Ruleset) -> str:
    """Seats with life, tokens and marks; whose turn; the chaos source; effects; the middle;
    any pending choice; and whether this turn's chaos roll has been made."""
    names = Names({pid: p.name for pid, p in state.players.items()}, ruleset)
    if state.phase is Phase.LOBBY:
        return "\n".join(lobby_lines(state, ruleset) + fairness_lines(state))
    lines = [_headline(state, ruleset, names)]
    lines += seat_lines(state, ruleset, names)
    lines += chaos_lines(state, ruleset, names)
    lines += effect_section(state, names)
    lines += middle_section(state, ruleset, names)
    pending = pending_line(state, names)
    if pending is not None:
        lines.append(pending)
    lines += offer_lines(state, names)
    lines += fairness_lines(state)
    return "\n".join(lines)


def lobby_lines(state: GameState, ruleset: Ruleset) -> list[str]:
    """Before the game begins: who is at the table, and how more join and the game begins."""
    joined = ", ".join(
        p.name + (" (host)" if p.id == state.host else "") for p in state.players.values()
    )
    return [
        f"{ruleset.name}: waiting to begin. At the table: {joined}.",
        "More players: `game join NAME`; then `game begin` locks the seats.",
    ]


def offer_lines(state: GameState, names: Names) -> list[str]:
    """The rolls results have offered and nobody has taken yet (they lapse at turn end, but a
    multi-roll that waits for one holds the turn until it is taken or declined)."""
    return [
        f"Offered to {names.player(o.player)} by {o.name}: a roll on {offered(o.tables, names)}"
        + (
            f" ({names.player(o.player)} is away: it waits for them until the turn ends)"
            if held_away(state, o) and not awaited(state, o)
            else f" ({names.player(o.player)} is away: the host or a referee may decline it"
            f" with `chaos decline {o.tables[0]}`; {_waiting(state, o)}'s next roll waits)"
            if held_away(state, o)
            else f" (`chaos roll {o.tables[0]}`, or `chaos decline {o.tables[0]}`:"
            f" {_waiting(state, o)}'s next roll waits for it)"
            if awaited(state, o)
            else f" (`chaos roll {o.tables[0]}`)"
        )
        for o in state.offers.values()
    ]


def _waiting(state: GameState, offer: PendingOffer) -> str:
    """The newest multi-roll that waits for `offer`, as players read it (R2)."""
    return state.roll_ref(next(p.item for p in reversed(state.paused) if waits_for(p, offer)))


def house_lines(state: GameState) -> list[str]:
    """The house rules the game keeps, which its commitment covers (none: no line)."""
    house = state.house
    if house.default:
        return []
    rules = house.summary()
    if house.deny:  # the deny-list's part is the one after chaos_from's (if any)
        at = 1 if house.chaos_from != 1 else 0
        rules[at] += f", rolled again when {'it comes' if len(house.deny) == 1 else 'they come'} up"
    return [f"House rules: {'; '.join(rules)}."]


def fairness_lines(state: GameState) -> list[str]:
    """The house rules the game started with, the commitment to the seed, and once the game
    is over the seed and salt it was over (nothing for a game logged before games committed
    to their seed)."""
    if state.commitment is None:
        return []
    lines = [*house_lines(state), commitment_line(state.commitment)]
    if state.phase is Phase.ENDED:
        lines.append(f"Revealed: seed {state.seed}, salt {state.salt}.")
    elif named(state.seed):
        lines.append(NAMED_SEED)
    return lines


# The digits of the commitment a footer shows: the fewest `game verify --commitment` takes.
SHORT_COMMITMENT = 16


def fairness_note(state: GameState) -> str:
    """The fairness lines in one short line, for a footer: the commitment's first digits (what
    `game verify` needs; the whole of it is on the start message), whether the seed was named,
    and once the game is over the seed. '' for a game logged before games committed."""
    if state.commitment is None:
        return ""
    note = f"Seed commitment {state.commitment[:SHORT_COMMITMENT]}…"
    if state.phase is Phase.ENDED:
        return f"{note} · revealed: seed {state.seed}"
    if named(state.seed):
        return f"{note} · the seed was named, not drawn: whoever named it can work out every roll"
    return note


# Shown while the game goes on: the table can't see the seed, but must know someone can.
NAMED_SEED = (
    "This game's seed was named when it started, not drawn: whoever named it can work out every"
    " roll."
)


def _headline(state: GameState, ruleset: Ruleset, names: Names) -> str:
    """The console's first line: the ruleset, the turn, the headline, and the command that
    moves the game on (a terminal has no buttons)."""
    if state.phase is Phase.ENDED:
        return f"{ruleset.name}: {turn_summary(state, ruleset, names)}."
    hint = next_command(state, ruleset)
    after = f" (`{hint}`)" if hint else ""
    return f"{ruleset.name} · turn {state.turn} · {turn_summary(state, ruleset, names)}{after}."


def turn_summary(state: GameState, ruleset: Ruleset, names: Names) -> str:
    """The headline the board and the live page lead with, a sentence anyone at the table can
    read aloud: whose turn it is and what it waits for (``Ann's turn — roll chaos``), or how
    the game ended (``Game over after 9 turns — Bob won``). No commands in it: Discord has
    buttons for them, and the console adds the one to type (see :func:`next_command`)."""
    if state.phase is Phase.ENDED:
        winner = f" — {names.player(state.winner)} won" if state.winner else ""
        turns = f"{state.turn} turn{'s' * (state.turn != 1)}"
        return f"Game over after {turns}{winner}"
    extra = " extra" if state.extra_turn else ""
    if state.active is None:
        whose = f"{names.player(state.current)}'s{extra} turn, but they've left the table"
        return f"{whose} — {_moving_on(state, names)}"
    whose = f"{names.player(state.active)}'s{extra} turn"
    if ruleset.chaos is ChaosSource.DECK and state.face_down is not None:
        roll = "reveal the chaos card"
    elif state.rolled:
        roll = "chaos done"
    elif state.chaos_waits():
        roll = f"no chaos before round {state.house.chaos_from}"
    elif ruleset.chaos is ChaosSource.DECK:
        roll = "draw a chaos card"
    else:
        roll = "roll chaos"
    return f"{whose} — {roll}"


def next_command(state: GameState, ruleset: Ruleset) -> str | None:
    """The console command the headline asks for, if it asks for one."""
    if state.phase is not Phase.PLAYING:
        return None
    if state.active is None:
        pending = state.pending
        if pending is not None:
            return "player back" if _away(state.players.get(pending.player)) else None
        if not any(p.status is Status.PLAYING for p in state.players.values()):
            return "player back"
        return "turn next"
    if ruleset.chaos is ChaosSource.DECK and state.face_down is not None:
        return "chaos reveal"
    if state.rolled or state.chaos_waits():
        return "turn next"
    return "chaos roll"


def _moving_on(state: GameState, names: Names) -> str:
    """How a turn nobody is playing ends, in words that name only what would be allowed now:
    a pending choice comes first (its player comes back to make it, if they are away), and
    when everyone still in the game is away, someone must come back (a referee may move on
    only if someone's absence ends by itself)."""
    pending = state.pending
    if pending is not None:
        chooser = state.players.get(pending.player)
        back = " comes back and" if _away(chooser) else ""
        return f"it moves on once {names.player(pending.player)}{back} chooses"
    if nobody_can_play(state):
        return "everyone has stepped away, so someone must come back first"
    if not any(p.status is Status.PLAYING for p in state.players.values()):
        return "everyone has stepped away: someone comes back, or a referee moves on"
    return "anyone at the table may move on"


def _away(player: Player | None) -> bool:
    return player is not None and player.status is Status.AWAY


def seat_marks(state: GameState, player: Player, once: bool) -> list[str]:
    """Short notes on a seat, the host's last: out, away, skips, extra turns, spite. `once` is
    true where a spite can be used only once a game. The board and the live page both show
    them."""
    marks: list[str] = []
    if player.status is Status.OUT:
        marks.append("out")
    elif player.status is Status.AWAY:
        left = player.away_turns
        if left == 0:
            marks.append("away until their next turn")
        else:
            marks.append(f"away ({left} turn{'s' * (left != 1)})" if left is not None else "away")
    if state.skips.get(player.id, 0):
        marks.append("skips next turn")
    extra = state.extra_queue.count(player.id)
    if extra:
        marks.append(f"extra turn ×{extra}")
    if player.spiting:
        marks.append("spiting")
    elif once and player.spited and player.status is not Status.OUT:
        marks.append("spite used")
    if player.id == state.host:
        marks.append("host")
    return marks


def _marks(state: GameState, player: Player, once: bool) -> str:
    marks = seat_marks(state, player, once)
    return f"  [{', '.join(marks)}]" if marks else ""


def seat_lines(state: GameState, ruleset: Ruleset, names: Names) -> list[str]:
    """A heading, then one line per seat in play order: ▶ on the active player, life when
    tracked, tokens held and marks (host, away, skips...), padded to line up in a fixed font."""
    once = ruleset.spite is SpitePolicy.DECK_LOOK
    order = list(state.order)
    arrow = "→" if state.direction > 0 else "←"
    lines = [f"Seats (play goes {arrow}):"]
    width = max((len(state.players[p].name) for p in order), default=0)
    tracked = any(state.players[p].life is not None for p in order)
    for pid in order:
        player = state.players[pid]
        turn = "▶" if pid == state.active else " "
        life = (
            ""
            if not tracked
            else "        "
            if player.life is None
            else f"{life_total(player):>4} life"
        )
        tokens = "  ".join(
            f"{TOKENS.get(t, t)} ×{n}" for t, n in sorted(player.tokens.items()) if n > 0
        )
        tokens = f"  {tokens}" if tokens else ""
        line = f" {turn} {player.name:<{width}} {life}{tokens}{_marks(state, player, once)}"
        lines.append(line.rstrip())
    if any(state.players[p].unsure for p in order):
        lines.append(UNSURE_NOTE)
    return lines


UNSURE_NOTE = (
    "A ? after a total: a result changed it in a way the bot can't count;"
    " `life set NAME N` says what it is."
)


def life_total(player: Player) -> str:
    """A tracked life total as the board shows it: "20", or "20?" when the bot isn't sure."""
    return f"{player.life}?" if player.unsure else str(player.life)


def chaos_lines(state: GameState, ruleset: Ruleset, names: Names) -> list[str]:
    """Where this turn's chaos comes from: the list rolled on, the current list, or the decks;
    before the round the house rules start chaos in, when it starts; a vote to veto a result
    while one is open."""
    return [*_source_lines(state, ruleset, names), *ballot_lines(state, ruleset, names)]


def _source_lines(state: GameState, ruleset: Ruleset, names: Names) -> list[str]:
    if state.chaos_waits():
        return [
            f"Chaos starts in round {state.house.chaos_from} (a house rule);"
            f" this is round {state.round}: no chaos roll yet."
        ]
    if ruleset.chaos is ChaosSource.DECK:
        lines = []
        for deck_id, deck in sorted(state.decks.items()):
            lines.append(
                f"{names.table(deck_id)}: {len(deck.draw)} to draw, {len(deck.discard)} discarded"
            )
        return lines
    if ruleset.chaos is ChaosSource.PROGRESSION:
        current = state.current_list or ruleset.lists[0]
        line = f"Current list: {names.table(current)}"
        if state.forced_list is not None:
            line += f"; the next chaos roll goes to {names.table(state.forced_list)}"
        return [line]
    return [f"Chaos roll on: {names.table(ruleset.chaos_table)}"]


def remaining(effect: ActiveEffect, names: Names) -> str:
    """How much longer an effect lasts, as the board shows it."""
    match effect.lasts:
        case Lasts.END_OF_TURN:
            return "until end of turn"
        case Lasts.NEXT_TURN:
            return f"until {names.player(effect.owner)}'s next turn"
        case Lasts.TURNS:
            left = effect.turns_left
            return f"{left} turn{'s' * (left != 1)} left, this one included"
        case Lasts.PERMANENT:
            return "permanent"
        case Lasts.UNTIL_REMOVED:
            return "until removed"


def effect_lines(state: GameState, names: Names) -> list[str]:
    """One line per effect in play: worlds and the Global first, then timed effects."""
    ordered = sorted(state.effects.values(), key=lambda e: (e.kind == "effect", e.id))
    lines = []
    for effect in ordered:
        if effect.kind == "effect":
            what = f"{names.player(effect.owner)}'s, {remaining(effect, names)}"
        else:
            what = "world enchantment" if effect.kind == "world" else "the Global"
        lines.append(f"  {effect_ref(effect.number)} {effect.name} ({what})")
        if effect.text:
            lines += wrap(effect.text, "      ")
    return lines


def effect_section(state: GameState, names: Names) -> list[str]:
    """The "In play:" heading and the effect lines, or one line saying nothing lasts."""
    found = effect_lines(state, names)
    return ["In play:", *found] if found else ["In play: nothing lasting."]


def middle_lines(state: GameState, ruleset: Ruleset, names: Names) -> list[str]:
    """The cards in the middle, and whether each may be played now."""
    lines = []
    for card in sorted(state.middle.values(), key=lambda c: c.id):
        ready = ""
        if ruleset.zone is ZonePolicy.MIDDLE and card.id not in state.middle_ready:
            ready = ", playable from next turn"
        came = f"from {names.player(card.player)}, turn {card.turn}{ready}"
        lines.append(f"  {middle_ref(card.number)} {card.name} ({came})")
    return lines


def middle_section(state: GameState, ruleset: Ruleset, names: Names) -> list[str]:
    """The shared zone's heading and cards (one line when empty); nothing without a zone."""
    if ruleset.zone is ZonePolicy.NONE:
        return []
    cards = middle_lines(state, ruleset, names)
    title = "The middle world" if ruleset.zone is ZonePolicy.MIDDLE_WORLD else "The middle"
    return [f"{title}:", *cards] if cards else [f"{title}: empty."]


def pending_line(state: GameState, names: Names) -> str | None:
    """The choice the game is waiting for, with numbered options; None when there's none."""
    if state.pending is None:
        return None
    options = "  ".join(f"{n}) {name}" for n, (_, name) in enumerate(state.pending.options, 1))
    question = state.pending.context.get("question")  # what a spite asks
    about = f" ({question})" if question else ""
    return f"Waiting for {names.player(state.pending.player)} to choose{about}: {options}"
