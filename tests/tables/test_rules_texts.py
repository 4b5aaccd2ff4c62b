"""The bundled rules texts answer the same questions in every ruleset, find a concept by the same
keywords in each, and name commands so that the console and Discord can both follow them.

The texts name a command as the console types it (`` `turn next` ``); Discord's wording layer
shows it as the slash command (`` `/turn next` ``). A topic that says what the bot does is only
true while the engine does it, so the rulings behind the new topics are played here too.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.client.wording import slashed
from bot.commands import SPECS
from bot.engine import Begin, Choose, Game, Join, Leave, Ruleset, Spite
from bot.engine.state import Status
from bot.tables import load_bundled
from bot.tables.rulesets import Rule

BUNDLED = load_bundled()
RULESETS = ("classic", "lists", "deck")

# Every bundled ruleset has these topics, by the same id.
EVERYWHERE = ("glossary", "buttons", "turn-order", "undo", "conceding", "house")

# A concept, the keywords that find it in every ruleset, and its topic in each ruleset.
CONCEPTS: dict[str, tuple[set[str], dict[str, str]]] = {
    "the turn's chaos": (
        {"mandatory", "must", "forgot", "waiver", "override", "extra roll"},
        {"classic": "mandatory-roll", "lists": "chaos-step", "deck": "chaos-step"},
    ),
    "spite": (
        {"spite", "die", "dying", "dead", "death", "lose", "losing", "out"},
        {"classic": "spite-roll", "lists": "spite", "deck": "spite"},
    ),
    "durations": (
        {"duration", "lasts", "next turn", "until your next turn", "end of turn", "turns"}
        | {"expire", "effects"},
        {"classic": "durations", "lists": "durations", "deck": "lasting-cards"},
    ),
    "turn order": (
        {"turn order", "extra turn", "skip", "skipped turn", "reverse", "direction", "seats"},
        dict.fromkeys(RULESETS, "turn-order"),
    ),
    "glossary": (
        {"glossary", "terms", "words", "meaning", "jargon", "host", "referee", "official"}
        | {"effect"},
        dict.fromkeys(RULESETS, "glossary"),
    ),
    "buttons": (
        {"button", "buttons", "press", "click", "who may press", "permissions"},
        dict.fromkeys(RULESETS, "buttons"),
    ),
    "undo": (
        {"undo", "mistake", "take back", "wrong", "misclick", "fix"},
        dict.fromkeys(RULESETS, "undo"),
    ),
    "conceding": (
        {"concede", "conceding", "give up", "scoop", "game leave"},
        dict.fromkeys(RULESETS, "conceding"),
    ),
    "away": (
        {"away"},
        {"classic": "conceding", "lists": "leaving-temporarily", "deck": "conceding"},
    ),
    "nesting": (
        {"nesting", "multiple", "several", "multi-roll", "roll twice", "roll three times"}
        | {"keep one"},
        {"classic": "multiple-rolls", "lists": "multiple-rolls"},
    ),
    "roll budget": (
        {"budget", "roll budget"},
        {"classic": "roll-budget", "lists": "multiple-rolls"},
    ),
}

# Hints only one front end has: Discord's own settings and uploads, and the console's spelling
# of an option Discord names otherwise.
DISCORD_ONLY = {"/settings turn_powers", "/table import"}
CONSOLE_ONLY = {"player away next"}


def rules(ruleset: str) -> dict[str, Rule]:
    return {rule.id: rule for rule in BUNDLED[ruleset].rules}


def keywords(rule: Rule) -> set[str]:
    return {k.casefold() for k in rule.keywords}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ruleset_has_the_topics_groups_ask_for(ruleset: str) -> None:
    missing = [topic for topic in EVERYWHERE if topic not in rules(ruleset)]
    assert not missing, f"{ruleset} lacks {missing}"


def test_deck_says_what_to_do_when_poison_still_kills_after_a_spite() -> None:
    topic = rules("deck")["still-losing"]
    assert {"poison", "after spite", "loss still holds"} <= keywords(topic)
    text = " ".join(topic.text.split())
    assert "`chaos spite` with the reason poison" in text
    assert "does Bob still have 10 or more poison counters?" in text


@pytest.mark.parametrize("concept", CONCEPTS)
def test_a_concept_has_the_same_keywords_in_every_ruleset(concept: str) -> None:
    core, topics = CONCEPTS[concept]
    for ruleset, topic in topics.items():
        found = rules(ruleset)
        assert topic in found, f"{ruleset} has no topic {topic!r} ({concept})"
        lacking = core - keywords(found[topic])
        assert not lacking, f"{ruleset}'s {topic} lacks the keywords {sorted(lacking)}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_concepts_keyword_leads_to_its_topic_alone(ruleset: str) -> None:
    """`rules next turn` is about durations, not the roll a turn needs: no other topic of the
    ruleset claims a concept's keyword."""
    for concept, (core, topics) in CONCEPTS.items():
        if ruleset not in topics:
            continue
        for rule in BUNDLED[ruleset].rules:
            if rule.id == topics[ruleset]:
                continue
            shared = core & keywords(rule)
            assert not shared, f"{ruleset}'s {rule.id} claims {sorted(shared)} of {concept}"


def hints(text: str) -> list[str]:
    return [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", text)]


GROUPS = {spec.group for spec in SPECS.values()}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_commands_are_named_the_way_both_front_ends_follow(ruleset: str) -> None:
    for rule in BUNDLED[ruleset].rules:
        text = " ".join(rule.text.split())
        # A slash command outside code, or one typed as Discord's, would mislead the console.
        bare = re.findall(r"(?<![`\w])/(?:" + "|".join(sorted(GROUPS)) + r")\b[\w ]*", text)
        assert not bare, f"{ruleset}'s {rule.id} names {bare} outside code"
        for hint in hints(text):
            if hint.startswith("/"):
                assert hint in DISCORD_ONLY, f"{ruleset}'s {rule.id}: `{hint}` is Discord's"
                continue
            words = hint.split()
            if words[0] not in GROUPS:
                continue  # not a command (a value such as `seed:`)
            named = " ".join(words[:2]) in SPECS or words[0] in SPECS or hint in GROUPS
            assert named, f"{ruleset}'s {rule.id}: `{hint}` is no command"
            if hint not in CONSOLE_ONLY:
                shown = slashed(f"`{hint}`")
                assert shown.startswith("`/"), f"{ruleset}'s {rule.id}: `{hint}` -> {shown}"


def test_a_hint_wrapped_over_two_lines_is_still_a_slash_command() -> None:
    assert slashed("use `turn next\noverride` now") == "use `/turn next override:True` now"
    assert slashed("or `chaos\nroll extra`") == "or `/chaos roll extra:True`"
    assert slashed("take it: `chaos roll\nvortex`") == "take it: `/chaos roll list:vortex`"
    assert slashed("or not: `chaos decline\nvortex`") == "or not: `/chaos decline list:vortex`"


# -- the rulings the new topics state ------------------------------------------------------------


def started(ruleset: Ruleset, seats: int = 3) -> Game:
    game = Game.start(ruleset, seed=7, host="ann", name="Ann")
    for name in ("Bob", "Cat", "Dan")[: seats - 1]:
        game.act(Join(actor=name.casefold(), player_name=name))
    game.act(Begin(actor="ann"))
    return game


@pytest.mark.parametrize("ruleset", RULESETS)
def test_conceding_gives_no_spite(ruleset: str) -> None:
    game = started(BUNDLED[ruleset].ruleset, seats=4)
    events = game.act(Leave(actor="bob"))
    assert game.state.players["bob"].status is Status.OUT
    assert not [e for e in events if e["type"].startswith("spite")]
    assert game.state.pending is None


def test_deck_poison_after_a_used_spite_is_final() -> None:
    game = started(BUNDLED["deck"].ruleset)
    game.act(Spite(actor="bob", player="bob", reason="poison"))
    pending = game.state.pending
    assert pending is not None
    assert pending.kind == "spite"
    rng = random.Random(1)
    while game.state.pending is not None and game.state.pending.kind != "loss":
        options = game.state.pending.options
        game.act(Choose(actor="bob", option=rng.choice(options)[0]))
    pending = game.state.pending
    assert pending is not None, "after the spite the bot asks whether the loss still holds"
    assert pending.context["question"] == "Does Bob still have 10 or more poison counters?"
    game.act(Choose(actor="bob", option="no"))
    assert status(game, "bob") is Status.PLAYING
    events = game.act(Spite(actor="bob", player="bob", reason="poison"))
    assert status(game, "bob") is Status.OUT
    assert not [e for e in events if e["type"] == "spite_started"]


def status(game: Game, player: str) -> Status:
    return game.state.players[player].status


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_topic_opens_with_a_one_line_answer_and_points_onward(ruleset: str) -> None:
    """An answer short enough to read at a glance (one line on a phone, give or take), and at
    least one related topic; the loader has already checked that those topics exist."""
    for rule in BUNDLED[ruleset].rules:
        assert rule.answer, rule.id
        assert len(rule.answer) <= 140, (rule.id, len(rule.answer))
        assert rule.see, rule.id
        assert len(set(rule.see)) == len(rule.see), rule.id


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_topic_is_pointed_to_by_another(ruleset: str) -> None:
    """Every topic is some other topic's see-also: a reader who lands anywhere can find it."""
    rules = BUNDLED[ruleset].rules
    assert {r.id for r in rules} == {t for r in rules for t in r.see}
