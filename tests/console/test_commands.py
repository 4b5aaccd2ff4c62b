"""The text grammar: each line becomes the right command, action or error."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.commands import (
    MAX_LINE,
    SPECS,
    CommandError,
    GameView,
    Kind,
    card_link,
    find_rules,
    help_text,
    parse,
    picked_rule,
    player_id,
    roll_dice,
    rule_text,
    rules_answer,
    rules_text,
    to_action,
)
from bot.commands.tables import table_lookup
from bot.engine import actions as a
from bot.engine.errors import DiceError
from bot.tables import find_ruleset

VIEW = GameView(
    players={"ann": "Ann", "bob smith": "Bob Smith", "cy": "Cy"},
    host="ann",
    active="cy",
    lists={"chaos": "Chaos List", "wacky": "WackyLand"},
    options=(("17", "Fog"), ("18", "Giant Growth")),
)


def action(line: str, view: GameView = VIEW) -> a.Action:
    command = parse(line)
    assert command is not None
    return to_action(command, view)


@pytest.mark.parametrize(
    ("line", "name", "args"),
    [
        (
            "game start classic",
            "game start",
            {"ruleset": "classic", "life": None, "seed": None, "tables": ()},
        ),
        (
            "game start lists life 30 seed 7",
            "game start",
            {"ruleset": "lists", "life": 30, "seed": 7, "tables": ()},
        ),
        (
            "game start seed 7",
            "game start",
            {"ruleset": None, "life": None, "seed": 7, "tables": ()},
        ),
        (
            "game start classic tables house,fog,house seed 2",
            "game start",
            {"ruleset": "classic", "life": None, "seed": 2, "tables": ("house", "fog")},
        ),
        ("game status", "game status", {}),
        ("game export", "game export", {"file": None}),
        ("game export out/log.jsonl", "game export", {"file": "out/log.jsonl"}),
        ("chaos log", "chaos log", {"count": 20}),
        ("chaos log 5", "chaos log", {"count": 5}),
        ("effects list", "effects list", {}),
        ("middle list", "middle list", {}),
        ("rules", "rules", {"topic": None}),
        ("rules  spite   roll ", "rules", {"topic": "spite roll"}),
        ("table list", "table list", {}),
        ("table show wacky", "table show", {"table": "wacky"}),
        ("table lookup chaos 158", "table lookup", {"query": "chaos 158"}),
        ("table validate my list.yaml", "table validate", {"file": "my list.yaml"}),
        ("table import house.yaml", "table import", {"file": "house.yaml"}),
        ("table export house", "table export", {"table": "house", "file": None}),
        ("table export house out/h.yaml", "table export", {"table": "house", "file": "out/h.yaml"}),
        ("card Black Lotus", "card", {"name": "Black Lotus"}),
        ("roll dice 2d6+1", "roll dice", {"expr": "2d6+1"}),
        ("help", "help", {"group": None}),
        ("help chaos", "help", {"group": "chaos"}),
        ("HELP Chaos", "help", {"group": "chaos"}),
        ("quit", "quit", {}),
        ("exit", "quit", {}),
    ],
)
def test_queries_and_session_commands(line: str, name: str, args: dict[str, Any]) -> None:
    command = parse(line)
    assert command is not None
    assert command.name == name
    assert dict(command.args) == args
    assert command.kind is not Kind.ACTION


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("game join Dee", a.Join(actor="dee", player_name="Dee")),
        ("game join  Dee   Lee ", a.Join(actor="dee lee", player_name="Dee Lee")),
        ("game leave", a.Leave(actor="cy")),
        ("game begin", a.Begin(actor="cy")),
        ("game begin cy, ANN,bob smith", a.Begin(actor="cy", order=("cy", "ann", "bob smith"))),
        ("game end", a.End(actor="cy", referee=True)),
        ("turn next", a.NextTurn(actor="cy")),
        ("turn next override", a.NextTurn(actor="cy", override=True, referee=True)),
        ("Turn Next Override", a.NextTurn(actor="cy", override=True, referee=True)),
        ("turn extra", a.ExtraTurn(actor="cy", referee=True)),
        ("turn extra ann", a.ExtraTurn(actor="cy", referee=True, player="ann")),
        ("turn skip Bob Smith", a.SkipTurn(actor="cy", referee=True, player="bob smith")),
        ("turn reverse", a.Reverse(actor="cy", referee=True)),
        (
            "turn seats Cy,Ann,Bob Smith",
            a.Seats(actor="cy", referee=True, order=("cy", "ann", "bob smith")),
        ),
        ("chaos roll", a.RollChaos(actor="cy")),
        ("chaos roll wacky", a.RollChaos(actor="cy", referee=True, table="wacky")),
        ("chaos roll WackyLand", a.RollChaos(actor="cy", referee=True, table="wacky")),
        ("chaos roll extra", a.RollChaos(actor="cy", referee=True, extra=True)),
        ("chaos roll EXTRA", a.RollChaos(actor="cy", referee=True, extra=True)),
        ("chaos roll nowhere", a.RollChaos(actor="cy", referee=True, table="nowhere")),
        ("chaos reveal", a.Reveal(actor="cy")),
        ("chaos decline", a.Decline(actor="cy")),
        ("chaos decline WackyLand", a.Decline(actor="cy", table="wacky")),
        ("chaos decline nowhere", a.Decline(actor="cy", table="nowhere")),  # the engine says
        ("chaos counter", a.Counter(actor="cy")),
        ("chaos fork", a.Fork(actor="cy")),
        ("chaos spite", a.Spite(actor="cy")),
        ("chaos spite ann", a.Spite(actor="cy", player="ann")),
        ("chaos spite bob smith poison", a.Spite(actor="cy", player="bob smith", reason="poison")),
        ("chaos spite Library", a.Spite(actor="cy", reason="library")),
        ("chaos spite ann card", a.Spite(actor="cy", player="ann", reason="card")),
        ("chaos spite cy LIFE", a.Spite(actor="cy", player="cy", reason="life")),
        ("chaos global", a.RollGlobal(actor="cy", referee=True)),
        ("chaos choose 2", a.Choose(actor="cy", option="18")),
        ("chaos choose fog", a.Choose(actor="cy", option="fog")),
        ("chaos choose 9", a.Choose(actor="cy", option="9")),
        ("chaos undo", a.Undo(actor="cy", referee=True)),
        ("effects end 7", a.EndEffect(actor="cy", effect=7, by_number=True)),
        ("effects end #7", a.EndEffect(actor="cy", effect=7, by_number=True)),
        ("effects end E7", a.EndEffect(actor="cy", effect=7, by_number=True)),
        ("effects end e 7", a.EndEffect(actor="cy", effect=7, by_number=True)),
        ("middle add Black  Lotus", a.MiddleAdd(actor="cy", card="Black Lotus")),
        ("middle play 12", a.MiddlePlay(actor="cy", card=12, by_number=True)),
        ("middle play M12", a.MiddlePlay(actor="cy", card=12, by_number=True)),
        ("middle play #12", a.MiddlePlay(actor="cy", card=12, by_number=True)),
        ("life set 20", a.Life(actor="cy", mode="set", amount=20)),
        ("life gain ann 3", a.Life(actor="cy", player="ann", mode="gain", amount=3)),
        ("life lose Bob Smith 4", a.Life(actor="cy", player="bob smith", mode="lose", amount=4)),
        ("player away", a.Away(actor="cy")),
        ("player away 2", a.Away(actor="cy", turns=2)),
        # Named, stepping away and coming back are the named player's own (build.OWN_COMMANDS).
        ("player away ann", a.Away(actor="ann", player="ann")),
        ("player away Bob Smith 3", a.Away(actor="bob smith", player="bob smith", turns=3)),
        ("player away next", a.Away(actor="cy", turns=0)),
        ("player away Bob Smith NEXT", a.Away(actor="bob smith", player="bob smith", turns=0)),
        ("player back ann", a.Back(actor="ann", player="ann")),
        ("as Cy: player away ann", a.Away(actor="cy", player="ann")),
    ],
)
def test_action_lines_build_the_engine_action(line: str, expected: a.Action) -> None:
    assert action(line) == expected


@pytest.mark.parametrize(
    ("line", "actor"),
    [
        ("as Ann: chaos counter", "ann"),
        ("as ann : chaos counter", "ann"),
        ("AS bob smith:chaos counter", "bob smith"),
        ("as Bob: chaos counter", "bob smith"),  # a unique start of a name will do
    ],
)
def test_as_name_acts_as_that_player(line: str, actor: str) -> None:
    assert action(line) == a.Counter(actor=actor)


def test_without_as_the_active_player_acts_or_else_the_host() -> None:
    assert action("chaos roll").actor == "cy"
    nobody = GameView(players=VIEW.players, host="ann", active=None)
    assert action("chaos roll", nobody).actor == "ann"
    host_away = GameView(players=VIEW.players, host="ann", absent=frozenset({"ann"}))
    assert action("turn next", host_away).actor == "bob smith"  # the first one at the table


def test_a_choice_is_answered_by_the_player_who_has_it() -> None:
    view = GameView(
        players=VIEW.players, host="ann", active="cy", options=VIEW.options, chooser="ann"
    )
    assert action("chaos choose 1", view) == a.Choose(actor="ann", option="17")
    assert action("as Cy: chaos choose 1", view) == a.Choose(actor="cy", option="17")


def test_as_keeps_the_speaker_for_game_start() -> None:
    command = parse("as Ann Lee: game start classic")
    assert command is not None
    assert (command.name, command.speaker) == ("game start", "Ann Lee")
    assert command.kind is Kind.START


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("chaos rol", "did you mean `chaos roll`?"),
        ("chaso roll", "did you mean `chaos roll`?"),
        ("tunr next", "did you mean `turn next`?"),
        ("efects list", "did you mean `effects list`?"),
        ("chaos", "`chaos` needs one of: roll, reveal"),
        ("xyzzy", "unknown command 'xyzzy' (`help` lists the commands)"),
        ("turn reverse now", "`turn reverse` takes nothing after it"),
        ("turn next please", "only takes `override`"),
        ("chaos log lots", "COUNT must be a whole number"),
        ("chaos log 0", "COUNT must be from 1 to 200"),
        ("effects end", "an effect is written like E2 (or just 2); got nothing"),
        ("effects end M2", "an effect is written like E2 (or just 2); got 'M2'"),
        ("effects end 0", "an effect is written like E2"),
        ("middle play x", "a card in the middle is written like M2 (or just 2); got 'x'"),
        ("middle play E3", "a card in the middle is written like M2"),
        ("life set Bob", "say how much life (usage: life set [PLAYER] N)"),
        ("life lose -3", "N must be from 0"),
        ("game join", "say who joins"),
        ("game join Ann, Bob", "can't contain a comma"),
        ("game start classic life", "`life` needs a number"),
        ("game start classic lists", "unexpected 'lists'"),
        ("turn seats", "name every player"),
        ("chaos choose", "say which option"),
        ("chaos roll a b", "one list at most"),
        ("chaos decline a b", "one list at most (usage: chaos decline [LIST])"),
        ("as Bob chaos roll", "with a colon after the name"),
        ("as Bob:", "say what Bob does after the colon"),
        ("table show", "name a list or deck"),
        ("roll dice", "say which dice"),
        ("card", "name the card"),
        ("x" * (MAX_LINE + 1), "500 at most"),
    ],
)
def test_bad_lines_get_one_line_with_a_hint(line: str, message: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse(line)
    text = str(caught.value)
    assert message in text
    assert "\n" not in text


@pytest.mark.parametrize("line", ["", "   ", "# a comment", "  # another"])
def test_blank_lines_and_comments_are_nothing(line: str) -> None:
    assert parse(line) is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("turn extra Zed", "there's no player 'Zed' in this game (players: Ann, Bob Smith, Cy)"),
        ("as Zed: chaos roll", "there's no player 'Zed'"),
        ("game begin Ann, Zed", "there's no player 'Zed'"),
        ("life set Dan 4", "there's no player 'Dan'"),
    ],
)
def test_unknown_players_are_named_with_the_players_there_are(line: str, message: str) -> None:
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        action(line)


def test_an_ambiguous_start_of_a_name_asks_which() -> None:
    view = GameView(players={"bo": "Bo", "bob": "Bob", "cy": "Cy"}, host="bo")
    assert action("turn extra bo", view) == a.ExtraTurn(actor="bo", referee=True, player="bo")
    two = GameView(players={"bobby": "Bobby", "bob smith": "Bob Smith"}, host="bobby")
    with pytest.raises(CommandError, match="could be Bobby, Bob Smith"):
        action("turn extra bob", two)


def test_two_players_with_one_name_are_told_apart_by_id() -> None:
    """Discord members may share a display name; the suggestions send their ids."""
    twins = GameView(players={"111": "Sam", "222": "Sam", "333": "Cy"}, host="111")
    assert action("turn extra 222", twins) == a.ExtraTurn(actor="111", referee=True, player="222")
    with pytest.raises(CommandError, match="2 players are called 'sam'"):
        action("turn extra sam", twins)


def test_queries_are_not_actions() -> None:
    command = parse("game status")
    assert command is not None
    with pytest.raises(CommandError, match="isn't something a player does"):
        to_action(command, VIEW)


def test_player_ids_ignore_case_and_spacing() -> None:
    assert player_id("  Bob   Smith ") == "bob smith"


def test_every_command_has_help_written_for_players() -> None:
    for spec in SPECS.values():
        assert spec.help, spec.name
        assert spec.usage.startswith(spec.name)
    text = help_text()
    assert "as NAME:" in text
    assert "trusted as the referee" in text
    assert "chaos choose OPTION" in help_text("chaos")
    assert "life lose [PLAYER] N" in help_text("life")
    with pytest.raises(CommandError, match="Did you mean `help chaos`"):
        help_text("chaso")


def test_rules_topics_match_ids_titles_and_keywords() -> None:
    rules = find_ruleset("classic").rules
    assert [r.id for r in find_rules(rules, "the-chaos-roll")] == ["the-chaos-roll"]
    assert [r.id for r in find_rules(rules, "d200")] == ["the-chaos-roll"]
    assert [r.id for r in find_rules(rules, "THE CHAOS PHASE")] == ["chaos-phase"]
    assert "The Chaos Roll" in rules_text(rules, "d200", "classic")
    listing = rules_text(rules, None, "classic")
    assert listing.startswith("Rules of classic")
    assert "chaos-phase" in listing
    with pytest.raises(CommandError, match="no rule about 'zzzz'"):
        rules_text(rules, "zzzz", "classic")


@pytest.mark.parametrize("ruleset", ["classic", "lists", "deck"])
def test_a_topic_reads_answer_detail_then_see_also_and_wraps_only_when_asked(ruleset: str) -> None:
    rules = find_ruleset(ruleset).rules
    titles = {r.id: r.title for r in rules}
    for rule in rules:
        # Unwrapped (Discord): a paragraph a line, the answer first, see-also last, by title.
        head, *paragraphs = rule_text(rule, rules).split("\n")
        assert head == f"{rule.title} ({rule.id})"
        answer, *detail, see = [p for p in paragraphs if p]  # blank lines between paragraphs
        assert answer == rule.answer
        assert detail == [" ".join(p.split()) for p in rule.text.split("\n\n")]
        assert see == "See also: " + "; ".join(f"{titles[t]} ({t})" for t in rule.see) + "."
        assert rule_text(rule, rules, bold=True).split("\n")[1] == f"**{rule.answer}**"
        # Wrapped (a terminal): lines fit, and wrapping only turned spaces into line breaks,
        # so no id or command is cut at a hyphen.
        for width in (30, 57, 100):
            wrapped = rule_text(rule, rules, width=width)
            lines = wrapped.split("\n")[1:]
            assert all(len(line) <= width or " " not in line for line in lines)
            flat = rule_text(rule, rules)
            assert wrapped.split("\n\n") != flat.split("\n\n") or width == 100
            assert [" ".join(p.split()) for p in wrapped.split("\n\n")] == [
                " ".join(p.split()) for p in flat.split("\n\n")
            ]


def test_an_ambiguous_topic_lists_the_rules_it_could_mean() -> None:
    rules = find_ruleset("classic").rules
    found = find_rules(rules, "life")
    assert [r.id for r in found] == ["targets-and-fizzle", "spite-roll", "life-totals"]
    text = rules_text(rules, "life", "classic")
    assert text.startswith("Several rules are about 'life', best first")
    assert "spite-roll" in text


def test_an_exact_id_beats_a_keyword() -> None:
    rules = find_ruleset("lists").rules
    assert [r.id for r in find_rules(rules, "spite")] == ["spite"]


def test_card_links_are_built_without_a_network_call() -> None:
    assert card_link("Black Lotus") == (
        "Black Lotus: https://scryfall.com/search?q=%21%22Black%20Lotus%22"
    )


def test_dice_are_rolled_with_their_faces_and_bombs_are_refused() -> None:
    text = roll_dice("2d6+1", random.Random(1))
    assert text.startswith("2d6 (")
    faces, total = text[len("2d6 (") :].split(") + 1 = ")
    assert sum(map(int, faces.split(", "))) + 1 == int(total)
    with pytest.raises(DiceError):
        roll_dice("1000d1000", random.Random(1))
    with pytest.raises(DiceError):
        roll_dice("2x6", random.Random(1))


# -- numbers in digits that aren't 0-9 ------------------------------------------------------


@pytest.mark.parametrize(
    "typed", ["\u2460", "\u00b2", "\u0663", "\U0001d7d9", "1\u00b2", "#\u2461"]
)
def test_a_number_in_other_digits_is_refused_with_a_sentence(typed: str) -> None:
    """str.isdigit() says yes to ① and ², and int() then fails; int() reads ٣ and 𝟙 as 3 and 1."""
    with pytest.raises(CommandError, match="must be written with the digits 0 to 9"):
        VIEW.option(typed)
    ruleset = find_ruleset("classic").ruleset
    with pytest.raises(CommandError, match="the number rolled must be written with the digits"):
        table_lookup(ruleset, "chaos", typed)


@pytest.mark.parametrize(
    ("typed", "option"), [("1", "17"), (" +2 ", "18"), ("Fog", "Fog"), ("9", "9")]
)
def test_an_option_is_read_by_its_number_or_as_typed(typed: str, option: str) -> None:
    assert VIEW.option(typed) == option


def test_a_result_is_looked_up_by_its_number_in_digits_0_to_9() -> None:
    ruleset = find_ruleset("classic").ruleset
    assert table_lookup(ruleset, "chaos", "#158").splitlines()[0] == "Chaos List 158: Propaganda"
    with pytest.raises(CommandError, match="by its number, like 42"):
        table_lookup(ruleset, "chaos", "qwxz")


@pytest.mark.parametrize(
    ("text", "why"),
    [("a\x00b", "U+0000"), ("\ufffd", "aren't valid text"), (chr(0xDCFF), "aren't valid text")],
)
def test_a_card_name_with_control_characters_or_bad_bytes_is_refused(text: str, why: str) -> None:
    with pytest.raises(CommandError, match=re.escape(why)):
        card_link(text)


def test_chaos_global_help_says_what_it_does_in_each_ruleset() -> None:
    """In classic it adds a world enchantment; only lists and deck replace a Global."""
    text = help_text("chaos global")
    assert "Classic: a new world enchantment joins those in play" in " ".join(text.split())


def test_a_number_alone_picks_from_the_topics_offered_else_it_is_a_search() -> None:
    rules = find_ruleset("classic").rules
    answer = rules_answer(rules, "life", "classic")
    assert [r.id for r in answer.offered] == [r.id for r in find_rules(rules, "life")]
    assert "\n  1  " in answer.text
    assert picked_rule(answer.offered, " 2 ") == answer.offered[1]
    assert picked_rule(answer.offered, "spite") is None
    assert picked_rule((), "2") is None
    assert picked_rule(answer.offered, "²") is None  # a digit Python reads, but not a number typed
    for wrong in ("0", "4", "99999999999999999999"):
        with pytest.raises(CommandError, match="the last list has 3 topics"):
            picked_rule(answer.offered, wrong)
    assert rules_answer(rules, "spite-roll", "classic").offered == ()
