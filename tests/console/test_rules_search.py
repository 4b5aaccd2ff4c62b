"""The ranked rules search: the question set's goals, and each way of matching on its own."""

from __future__ import annotations

import pytest

from bench.rules_hits import new_autocomplete, new_submitted, rates
from bot.commands import CommandError, rules_text
from bot.rules_search import complete, search, suggest, words
from bot.tables import Rule, find_ruleset

GOALS = {"short": 0.9, "sentences": 0.8}


@pytest.mark.parametrize("lookup", [new_submitted, new_autocomplete], ids=["submitted", "auto"])
def test_the_question_set_meets_its_goals_in_every_ruleset(lookup: object) -> None:
    found = rates(lookup)  # type: ignore[arg-type]
    assert {ruleset for ruleset, _ in found} == {"classic", "lists", "deck"}
    for (ruleset, kind), (hits, asked) in found.items():
        assert asked >= 10, (ruleset, kind)
        assert hits / asked >= GOALS[kind], (ruleset, kind, hits, asked)


def test_words_drop_filler_and_equate_numbers_stems_and_synonyms() -> None:
    assert words("what happens when I die") == words("dying") == words("death") == ("die",)
    assert words("dead") == words("lose") == words("dies")
    assert words("roll 3 times") == words("rolls three time")
    assert words("top 7") == words("top seven")
    assert words("left") == words("away") == words("leave")
    assert words("colour") == words("color")
    assert words("shuffled") == words("shuffling") == words("shuffle")
    assert words("tsunamis") == words("tsunami")  # a plural in -is: only short words keep it
    assert words("axis") == ("axis",)


def _ids(found: tuple[Rule, ...] | list[Rule]) -> list[str]:
    return [r.id for r in found]


def test_an_exact_id_then_title_then_keyword_comes_first() -> None:
    lists = find_ruleset("lists").rules
    # `spite` is the id of one topic and a keyword of another: the id wins.
    assert search(lists, "spite").answer is not None
    assert _ids(search(lists, "spite").ranked)[:2] == ["spite", "supplementary-lists"]
    classic = find_ruleset("classic").rules
    assert search(classic, "THE CHAOS PHASE").answer == classic[0]
    # An author's own keyword, even a filler word, still finds its topic.
    assert _ids(search(classic, "you").exact) == ["control-and-color"]
    assert _ids(search(classic, "roll three times").exact) == ["multiple-rolls"]


def test_the_text_itself_is_searched() -> None:
    deck = find_ruleset("deck").rules
    # "graveyard" is in no id, title or keyword, and only in the middle zone's text.
    named = [r.id for r in deck if "graveyard" in r.text.casefold()]
    assert named == ["the-middle"]
    assert not [r for r in deck if "graveyard" in f"{r.id} {r.title} {r.keywords}".casefold()]
    assert _ids(search(deck, "graveyard").ranked)[0] == "the-middle"
    # "spite poison": the topic for a loss that still holds, which says what to do about it.
    assert _ids(search(deck, "spite poison").ranked)[0] == "still-losing"


def test_a_topic_named_inside_a_sentence_wins_over_its_other_words() -> None:
    """A one-word id names its topic like a proper noun: "rolling a 2" reads like "roll twice"
    (multiple-rolls), but the question is about WackyLand."""
    classic = find_ruleset("classic").rules
    found = search(classic, "What are the odds of rolling a 2 on WackyLand?")
    assert _ids(found.ranked)[0] == "wackyland"
    assert _ids(search(classic, "roll 2 times").ranked)[0] == "multiple-rolls"
    deck = find_ruleset("deck").rules
    assert _ids(search(deck, "can I spite twice").ranked)[0] == "spite"


def test_a_close_call_is_a_list_best_first_not_a_guess() -> None:
    classic = find_ruleset("classic").rules
    found = search(classic, "life")
    assert found.answer is None
    assert _ids(found.candidates()) == ["targets-and-fizzle", "spite-roll", "life-totals"]


def test_typos_get_did_you_mean_over_titles_and_keywords() -> None:
    classic = find_ruleset("classic").rules
    assert _ids(suggest(classic, "splt")) == ["spite-roll"]
    assert _ids(suggest(classic, "hexprof")) == ["control-and-color", "durations"]
    with pytest.raises(CommandError, match=r"Did you mean .*\(spite-roll\)"):
        rules_text(classic, "spiet", "classic")
    with pytest.raises(CommandError, match="no rule about 'zzzz'"):
        rules_text(classic, "zzzz", "classic")


def test_autocomplete_ranks_keywords_and_text_and_completes_the_last_word() -> None:
    classic = find_ruleset("classic").rules
    assert _ids(complete(classic, "")) == _ids(classic)
    assert _ids(complete(classic, "hexproof"))[0] == "control-and-color"
    assert _ids(complete(classic, "fizz"))[0] == "targets-and-fizzle"
    assert _ids(complete(classic, "spiet"))[0] == "spite-roll"
    assert complete(classic, "zzzz") == []
    many = complete(classic, "the")
    assert len(many) <= 25


def test_a_hostile_query_is_answered_not_crashed() -> None:
    classic = find_ruleset("classic").rules
    for query in ("", "   ", "???", "'" * 100, "é" * 100, "\x00"):
        search(classic, query)
        complete(classic, query)
