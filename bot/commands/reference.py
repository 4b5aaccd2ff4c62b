"""Answers that need no game: help, rules lookups, card links, and dice rolled for fun.

Each returns text for a player; none does any I/O (a card link is built here, never fetched).
"""

from __future__ import annotations

import difflib
import random
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.commands.grammar import SPECS, CommandError, check_text, groups
from bot.render.cards import card_page_url
from bot.rules_search import search, suggest
from bot.tables.rulesets import Rule

WIDTH = 100
MIN_WIDTH = 30  # a terminal narrower than this is wrapped as if it were this wide

GROUP_HELP = {
    "game": "open, join, begin, show and end a game",
    "turn": "pass the turn; extra and skipped turns, reversal, seating",
    "chaos": "chaos rolls, cards, tokens, spite, choices, the log, undo",
    "effects": "what stays in play, and removing it",
    "middle": "the shared zone of the lists and deck rulesets",
    "life": "optional life tracking (dropping below 1 starts spite)",
    "player": "stepping away from the table and coming back",
    "rules": "the ruleset's rules, by topic",
    "table": "the lists and decks of the ruleset",
    "card": "a link to a card on Scryfall",
    "roll": "dice that aren't part of the game",
    "help": "this help",
    "house": "house rules: chaos from round N, the deny-list, no repeats, filters by tag, the veto",
    "settings": "the server's choices: referee role, default ruleset, auto-roll, secret rolls,"
    " turn powers",
    "quit": "leave (the game is saved)",
}

CONSOLE_NOTES = (
    "Start a line with `as NAME:` to act as that player (`as Bob: chaos counter`); otherwise the"
    " active player acts (the host when nobody is active), a choice is answered by the"
    " player who has it, and `player away NAME` or `player back NAME` is that player's own.",
    "The console has no roles: whoever types is trusted as the referee for `turn next override`,"
    " `turn extra|skip|reverse|seats`, `chaos global`, `chaos roll extra`, `chaos roll LIST` (on a"
    " list no result offered),"
    " `chaos undo` and `game end`.",
    "Numbers: `#17` is an entry on a list (what the dice read). Effects are numbered E1, E2,"
    " E3 and cards in the middle M1, M2, M3, in the order they came into the game, and keep their"
    " number: `effects end E2` and `middle play M1` take them (`effects end 2` works too)."
    " Rolls, counters and forks are R1, R2, R3 the same way, in the order they went on the"
    " stack.",
)


def help_text(group: str | None = None) -> str:
    """The commands by group, or one group's (or one command's) usage and help."""
    known = groups()
    if group is None:
        lines = ["Commands (type `help GROUP` for details):"]
        width = max(map(len, known))
        lines += [f"  {name:<{width}}  {GROUP_HELP.get(name, '')}" for name in known]
        return "\n".join([*lines, "", *CONSOLE_NOTES])
    specs = known.get(group) or ([SPECS[group]] if group in SPECS else None)
    if specs is None:
        close = difflib.get_close_matches(group, list(known), n=1)
        hint = f" Did you mean `help {close[0]}`?" if close else ""
        raise CommandError(f"there's no command group {group!r}.{hint} (`help` lists them)")
    lines = []
    for spec in specs:
        lines += [spec.usage, f"    {spec.help}"]
    return "\n".join(lines)


def find_rules(rules: Sequence[Rule], topic: str) -> list[Rule]:
    """The rules about `topic`, from the ranked search: the one answer when there's no doubt,
    else the topics it could mean, best first (none when nothing matches)."""
    found = search(rules, topic)
    return [found.answer] if found.answer is not None else list(found.candidates())


@dataclass(frozen=True)
class RulesAnswer:
    """A rules lookup's answer: its text, and the topics it offers to pick from when several
    match (best first; none otherwise)."""

    text: str
    offered: tuple[Rule, ...] = ()


def rules_answer(
    rules: Sequence[Rule],
    topic: str | None,
    ruleset: str,
    *,
    width: int | None = None,
    bold: bool = False,
) -> RulesAnswer:
    """One rule in full, the list of topics (when none is asked for), or the numbered topics a
    lookup could mean, to pick one from. `width` and `bold` are as :func:`rule_text` takes
    them."""
    if not rules:
        return RulesAnswer(f"the {ruleset} ruleset has no rules text")
    if topic is None:
        return RulesAnswer(_topics(rules, f"Rules of {ruleset} (`rules TOPIC` shows one):"))
    found = find_rules(rules, topic)
    if len(found) == 1:
        return RulesAnswer(rule_text(found[0], rules, width=width, bold=bold))
    if found:
        head = f"Several rules are about {topic!r}, best first; pick one with `rules NUMBER`:"
        width = len(str(len(found)))
        lines = [f"  {n:>{width}}  {r.title} ({r.id})" for n, r in enumerate(found, 1)]
        return RulesAnswer("\n".join([head, *lines]), tuple(found))
    close = suggest(rules, topic)
    hint = f" Did you mean {', '.join(f'{r.title} ({r.id})' for r in close[:3])}?" if close else ""
    raise CommandError(f"no rule about {topic!r}.{hint} (`rules` lists the topics)")


def rules_text(
    rules: Sequence[Rule], topic: str | None, ruleset: str, *, width: int | None = WIDTH
) -> str:
    """One rule in full, or the list of topics (when none is asked for, or several match)."""
    return rules_answer(rules, topic, ruleset, width=width).text


def rule_text(
    rule: Rule, rules: Sequence[Rule] = (), *, width: int | None = None, bold: bool = False
) -> str:
    """One rule in full: its title and id; its one-line answer; the detail; then the topics it
    points to ("see also", by title and id, looked up in `rules`).

    With `width`, paragraphs are wrapped to it (a terminal); without, each paragraph is one line
    and the reader wraps it (Discord wraps embeds to the screen, and a hard break there splits
    lines in the middle on a phone). Ids and command hints are never broken at their hyphens.
    With `bold`, the answer is set in markdown bold.
    """
    paragraphs = [" ".join(p.split()) for p in rule.text.split("\n\n") if p.strip()]
    if rule.answer:
        paragraphs.insert(0, f"**{rule.answer}**" if bold else rule.answer)
    titles = {r.id: r.title for r in rules}
    if rule.see:
        named = "; ".join(f"{titles[t]} ({t})" if t in titles else t for t in rule.see)
        paragraphs.append(f"See also: {named}.")
    if width is not None:
        paragraphs = [_fill(p, width) for p in paragraphs]
    return f"{rule.title} ({rule.id})\n" + "\n\n".join(paragraphs)


def _fill(paragraph: str, width: int) -> str:
    return textwrap.fill(
        paragraph, max(width, MIN_WIDTH), break_on_hyphens=False, break_long_words=False
    )


def picked_rule(offered: Sequence[Rule], topic: str) -> Rule | None:
    """The topic numbered `topic` in the list last `offered`; None when `topic` isn't a number
    alone or no list was offered (then it is a search)."""
    number = topic.strip()
    if not offered or not number.isdecimal() or not number.isascii():
        return None
    index = int(number)
    if not 1 <= index <= len(offered):
        raise CommandError(
            f"the last list has {len(offered)} topics: pick one with `rules 1`"
            f" to `rules {len(offered)}`"
        )
    return offered[index - 1]


def _topics(rules: Iterable[Rule], head: str) -> str:
    rules = list(rules)
    width = max(len(r.id) for r in rules)
    return "\n".join([head, *(f"  {r.id:<{width}}  {r.title}" for r in rules)])


def card_link(name: str) -> str:
    """A Scryfall search for the card with exactly this name (built here, never fetched)."""
    check_text(name, "a card's name")
    return f"{name}: {card_page_url(name)}"


def roll_dice(
    expr: str, rng: random.Random, *, markdown: bool = False, limit: int | None = None
) -> str:
    """Roll dice notation such as ``4d6kh3``: ``4d6kh3 (1 dropped, 4, 5, 6) = 15``, every die
    shown and the dropped ones marked (:mod:`bot.notation` reads and limits it). With
    `markdown`, Discord's look (dropped dice struck through); with `limit`, a roll too long to
    show die by die gives its notation, count of dice and total instead."""
    # d20 builds its parser when it is first imported (about half a second): a console that
    # rolls no dice doesn't wait for it.
    from bot.notation import roll
    from bot.render.dice import dice_markdown, dice_plain

    rolled = roll(expr, rng)
    return dice_markdown(rolled, limit) if markdown else dice_plain(rolled, limit)
