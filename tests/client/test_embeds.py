"""The Discord look of results and of the status board, on real games: what each embed shows,
its colour and links, and that no input can push a message past Discord's limits."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import discord
import pytest

from bot.client.board import board_embed
from bot.client.embeds import (
    BOARD_COLOUR,
    DECK_COLOUR,
    GLOBAL_COLOUR,
    NEUTRAL_COLOUR,
    list_colour,
    result_embeds,
    text_embeds,
)
from bot.client.wording import plain
from bot.commands.reference import card_link
from bot.engine import (
    Begin,
    Budget,
    Choose,
    Duration,
    End,
    Event,
    Game,
    Join,
    Kind,
    Lasts,
    MiddleAdd,
    MultiMode,
    Nesting,
    NextTurn,
    Reveal,
    RollChaos,
    Ruleset,
)
from bot.render import Names, render_lines
from bot.render.cards import card_page_url
from bot.tables import find_ruleset
from tests.engine.tiny import entry, faces, fixed, new_game, ruleset, times

Batch = list[Event]


def bundled(name: str) -> Ruleset:
    return find_ruleset(name).ruleset


def started(rules: Ruleset, *, seed: int = 3, life: int | None = None) -> Game:
    """Ann (host), Bob and Cy in a begun game; Ann's first turn has started."""
    game = Game.start(rules, seed=seed, host="ann", name="Ann", life=life)
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Join(actor="cy", player_name="Cy"))
    game.act(Begin(actor="ann"))
    return game


def chaos(game: Game) -> Batch:
    """The active player's chaos roll (a card turned face up, in a deck game)."""
    active = game.state.active
    assert active is not None
    events = game.act(RollChaos(actor=active))
    if game.state.face_down is not None:
        events += game.act(Reveal(actor=active))
    return events


def first_roll(rules: Ruleset, wanted: Callable[[Batch], bool]) -> tuple[Game, Batch]:
    """The first chaos roll, over seeds, whose events are what the test needs."""
    for seed in range(300):
        game = new_game(rules, seed=seed)
        events = chaos(game)
        if wanted(events):
            return game, events
    raise AssertionError("no seed gave the roll wanted")


def offers_a_choice(events: Batch) -> bool:
    return any(e["type"] == "choice_offered" for e in events)


def as_dict(embed: discord.Embed) -> dict[str, Any]:
    return dict(embed.to_dict())


def assert_within_limits(embeds: list[discord.Embed]) -> None:
    assert 1 <= len(embeds) <= 10
    assert sum(len(embed) for embed in embeds) <= 6000
    for embed in embeds:
        data = as_dict(embed)
        assert len(data.get("title", "")) <= 256
        assert len(data.get("description", "")) <= 4096
        assert len(data.get("fields", [])) <= 25
        for field in data.get("fields", []):
            assert len(field["name"]) <= 256
            assert len(field["value"]) <= 1024


# Results


def test_a_roll_shows_its_dice_faces_list_and_entry_number() -> None:
    game = started(bundled("classic"))
    events = chaos(game)
    roll = next(e for e in events if e["type"] == "roll")
    embeds = result_embeds(events, game)
    description = as_dict(embeds[0])["description"]
    faces = ", ".join(map(str, roll["dice"]))
    assert f"[{faces}] = {roll['result']}" in description
    assert f"#{roll['result']} {roll['entry']['name']}" in description
    assert as_dict(embeds[0])["title"] == f"Chaos List #{roll['result']} · {roll['entry']['name']}"
    assert_within_limits(embeds)


def test_a_nested_multi_roll_is_a_tree_and_an_ignored_roll_says_why() -> None:
    rules = ruleset(
        faces(
            "chaos",
            entry("twice", "Roll twice", kind=Kind.MULTI, multi=times(2)),
            entry("calm", "Calm", text="Nothing happens."),
            entry("storm", "Storm", text="Everything happens."),
        ),
        nesting=Nesting.IGNORE_NESTED,
    )
    game, events = first_roll(rules, lambda batch: any(e.get("ignored") for e in batch))
    ignored = next(e for e in events if e["type"] == "roll" and e["ignored"])
    description = as_dict(result_embeds(events, game)[0])["description"]
    assert "├─" in description
    assert "└─" in description
    assert f"✗ ignored: {ignored['reason']}" in description


def test_a_real_card_links_to_scryfall() -> None:
    bolt = entry("bolt", "Bolt out of the blue", kind=Kind.CARD, card="Lightning Bolt")
    game = new_game(ruleset(fixed("chaos", bolt)))
    embed = as_dict(result_embeds(chaos(game), game)[0])
    url = card_page_url("Lightning Bolt")
    assert url.startswith("https://scryfall.com/")
    assert url == card_link("Lightning Bolt").split(": ", 1)[1]
    assert embed["url"] == url
    assert embed["fields"] == [
        {"name": "Card", "value": f"[Lightning Bolt]({url})", "inline": False}
    ]


def test_a_result_with_several_cards_lists_each_once_and_has_no_single_link() -> None:
    rules = ruleset(
        fixed("chaos", entry("three", "Three cards", kind=Kind.MULTI, multi=times(3, "cards"))),
        faces(
            "cards",
            entry("bolt", "Bolt", kind=Kind.CARD, card="Lightning Bolt"),
            entry("growth", "Growth", kind=Kind.CARD, card="Giant Growth"),
        ),
        nesting=Nesting.SEQUENTIAL,
    )
    game, events = first_roll(rules, lambda batch: "Bolt" in str(batch) and "Growth" in str(batch))
    embed = as_dict(result_embeds(events, game)[0])
    assert "url" not in embed
    [field] = embed["fields"]
    assert field["name"] == "Cards"
    assert sorted(field["value"].splitlines()) == [
        f"[Giant Growth]({card_page_url('Giant Growth')})",
        f"[Lightning Bolt]({card_page_url('Lightning Bolt')})",
    ]


def test_a_choice_shows_its_numbered_options() -> None:
    keep = entry("keep", "Pick one", kind=Kind.MULTI, multi=times(2, mode=MultiMode.KEEP))
    rules = ruleset(faces("chaos", keep, entry("calm", "Calm"), entry("storm", "Storm")))
    game, events = first_roll(rules, offers_a_choice)
    description = as_dict(result_embeds(events, game)[0])["description"]
    assert re.search(r"^\s*1\) [\w ]+$", description, re.MULTILINE)
    assert re.search(r"^\s*2\) [\w ]+$", description, re.MULTILINE)


def test_a_result_without_a_roll_is_titled_by_its_action_and_grey() -> None:
    game = started(bundled("classic"))
    chaos(game)
    embed = as_dict(result_embeds(game.act(NextTurn(actor="ann")), game)[0])
    assert embed["title"] == "Ann: turn next"
    assert embed["color"] == NEUTRAL_COLOUR.value
    assert "Turn 2 — Bob" in embed["description"]


def test_a_title_can_be_given() -> None:
    game = started(bundled("lists"))
    events = chaos(game)
    [embed] = result_embeds(events, game, title="The turn's chaos")
    assert embed.title == "The turn's chaos"
    assert embed.colour == list_colour("a", game.ruleset)


def test_table_and_player_text_cannot_become_markdown() -> None:
    rules = ruleset(fixed("chaos", entry("x", "Double *or* nothing", text="Deal 2*X_1 damage.")))
    game = Game.start(rules, seed=1, host="ann", name="__Ann__")
    game.act(Begin(actor="ann"))
    description = as_dict(result_embeds(chaos(game), game)[0])["description"]
    assert r"Double \*or\* nothing" in description
    assert r"Deal 2\*X\_1 damage." in description
    assert r"\_\_Ann\_\_ rolls" in description


def test_table_text_is_left_for_discord_to_wrap() -> None:
    text = " ".join(["Every word of a long entry stays on a single line."] * 10)
    game = new_game(ruleset(fixed("chaos", entry("long", "Long", text=text))))
    description = as_dict(result_embeds(chaos(game), game)[0])["description"]
    assert text in description


# Colours


def test_lists_a_to_f_have_six_colours_and_the_fixed_ones_are_apart() -> None:
    rules = bundled("lists")
    colours = [list_colour(table, rules) for table in rules.lists]
    assert len(rules.lists) == 6
    assert len(set(colours)) == 6
    assert not {GLOBAL_COLOUR, DECK_COLOUR, NEUTRAL_COLOUR, BOARD_COLOUR} & set(colours)
    assert list_colour(rules.start_table, rules) == GLOBAL_COLOUR
    assert list_colour(None, rules) == NEUTRAL_COLOUR
    assert list_colour("no such list", rules) == NEUTRAL_COLOUR
    assert list_colour("a", rules) == list_colour("a", bundled("lists"))  # stable


@pytest.mark.parametrize(
    ("name", "colour"),
    [("classic", None), ("lists", None), ("deck", DECK_COLOUR)],
)
def test_a_result_takes_its_top_rolls_colour(name: str, colour: discord.Colour | None) -> None:
    game = started(bundled(name), seed=1)  # in deck, a card with no halves to choose from
    events = chaos(game)
    top = next(e for e in events if e["type"] == "roll" and e["parent"] is None)
    expected = colour or list_colour(top["table"], game.ruleset)
    assert result_embeds(events, game)[0].colour == expected
    assert expected not in (NEUTRAL_COLOUR, GLOBAL_COLOUR)


def test_the_start_roll_has_the_global_colour() -> None:
    game = Game.start(bundled("lists"), seed=3, host="ann", name="Ann")
    events = game.act(Begin(actor="ann"))
    assert result_embeds(events, game)[0].colour == GLOBAL_COLOUR


# Limits


@pytest.fixture(scope="module")
def flood() -> tuple[Game, Batch]:
    """One roll that asks for 3000 more: over 6000 lines of result."""
    rules = ruleset(
        fixed("chaos", entry("lots", "Lots", kind=Kind.MULTI, multi=times(3000, "plain"))),
        fixed("plain", entry("p", "Plain", text="A line of text under every roll.")),
        nesting=Nesting.SEQUENTIAL,
        budget=Budget(rolls=5000),
    )
    game = new_game(rules)
    return game, chaos(game)


def test_a_huge_result_stays_within_every_limit_and_says_what_was_cut(
    flood: tuple[Game, Batch],
) -> None:
    game, events = flood
    embeds = result_embeds(events, game)
    assert_within_limits(embeds)
    shown = "\n".join(as_dict(embed)["description"] for embed in embeds).splitlines()
    marker = re.fullmatch(r"… \((\d+) more lines: `/chaos log`\)", shown[-1])
    assert marker is not None
    total = len(render_lines(events, Names.of(game)))
    assert len(shown) - 1 + int(marker[1]) == total
    assert sum(len(embed) for embed in embeds) > 5000  # the room is used, not wasted


@pytest.mark.parametrize("code", [False, True])
@pytest.mark.parametrize("count", [1, 40, 5000])
def test_long_text_is_split_on_lines_within_the_limits(code: bool, count: int) -> None:
    lines = [f"line {n}: " + "word " * 20 for n in range(count)]
    embeds = text_embeds("Rules " * 100, "\n".join(lines), code=code)
    assert_within_limits(embeds)
    assert len(embeds[0].title or "") == 256
    shown = [line for e in embeds for line in (e.description or "").splitlines()]
    kept = [line for line in shown if line.startswith("line ")]
    assert kept == lines[: len(kept)]  # whole lines, in order
    if len(kept) < count:
        assert shown[-1] == f"… ({count - len(kept)} more lines)"
    if code:
        assert all((e.description or "").startswith("```\n") for e in embeds)


def test_a_single_huge_line_is_clipped() -> None:
    embeds = text_embeds("Big", "x" * 20_000)
    assert_within_limits(embeds)
    assert (embeds[0].description or "").endswith("…")


def test_text_keeps_its_own_markdown_but_a_code_block_cannot_be_closed_early() -> None:
    assert text_embeds("Help", "Try `rules spite`.")[0].description == "Try `rules spite`."
    [embed] = text_embeds("Table", "a ``` b", code=True)
    assert (embed.description or "").count("```") == 2


# The status board


def seat_rows(embed: dict[str, Any]) -> list[str]:
    seats = next(f for f in embed["fields"] if f["name"].startswith("Seats"))
    return [row for row in seats["value"].splitlines() if row and row != "```"]


def test_the_board_shows_seats_in_order_with_the_active_player_and_life() -> None:
    game = Game.start(bundled("classic"), seed=3, host="ann", name="Ann", life=20)
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Join(actor="cy", player_name="Cy"))
    game.act(Begin(actor="ann", order=("cy", "ann", "bob")))
    embed = as_dict(board_embed(game))
    rows = seat_rows(embed)
    assert [row.replace("▶", "").split()[0] for row in rows] == ["Cy", "Ann", "Bob"]
    assert rows[0].lstrip().startswith("▶ Cy")
    assert all("20 life" in row for row in rows)
    assert "[host]" in rows[1]
    assert embed["footer"]["text"] == "Classic Chaos · turn 1"
    assert "still to make" in embed["description"]
    chaos(game)
    assert "chaos is done" in as_dict(board_embed(game))["description"]


def test_the_board_shows_no_life_when_it_isnt_tracked() -> None:
    game = started(bundled("deck"))
    assert not any("life" in row for row in seat_rows(as_dict(board_embed(game))))


@pytest.mark.parametrize(
    ("name", "lasting"),
    [("classic", "(world enchantment)"), ("lists", "(the Global)"), ("deck", "(the Global)")],
)
def test_the_board_shows_the_world_or_global_in_play(name: str, lasting: str) -> None:
    game = started(bundled(name))
    in_play = next(f for f in as_dict(board_embed(game))["fields"] if f["name"] == "In play")
    assert lasting in in_play["value"]
    assert in_play["value"].count("*") >= 4  # a bold name and an italic text


def test_the_board_shows_how_long_effects_last() -> None:
    fog = entry("fog", "Fog", text="No combat damage.", duration=Duration(Lasts.TURNS, 3))
    game = new_game(ruleset(fixed("chaos", fog)))
    chaos(game)
    in_play = next(f for f in as_dict(board_embed(game))["fields"] if f["name"] == "In play")
    assert "Fog (Ann's, 3 turns left, this one included)" in in_play["value"]
    assert "*No combat damage.*" in in_play["value"]


def test_a_board_with_many_effects_drops_their_texts_then_counts_the_rest() -> None:
    fog = entry("fog", "Fog", text="No combat damage. " * 10, duration=Duration(Lasts.PERMANENT))
    game = new_game(ruleset(fixed("chaos", fog)))
    for _ in range(60):
        chaos(game)
        game.act(NextTurn(actor=game.state.current or "ann"))
    embed = board_embed(game)
    in_play = next(f for f in as_dict(embed)["fields"] if f["name"] == "In play")
    assert "No combat damage" not in in_play["value"]
    assert re.search(r"… \d+ more$", in_play["value"])
    assert_within_limits([embed])


@pytest.mark.parametrize(("name", "zone"), [("lists", "The middle world"), ("deck", "The middle")])
def test_the_board_shows_the_middle_with_card_links(name: str, zone: str) -> None:
    game = started(bundled(name))
    fields = {f["name"]: f["value"] for f in as_dict(board_embed(game))["fields"]}
    assert fields[zone] == "Empty."
    game.act(MiddleAdd(actor="ann", card="Lightning Bolt"))
    fields = {f["name"]: f["value"] for f in as_dict(board_embed(game))["fields"]}
    assert f"[Lightning Bolt]({card_page_url('Lightning Bolt')}) (from Ann" in fields[zone]


def test_a_classic_board_has_no_middle_and_names_its_chaos_list() -> None:
    embed = as_dict(board_embed(started(bundled("classic"))))
    assert [f["name"] for f in embed["fields"]] == ["Seats (play goes →)", "In play", "Fairness"]
    assert "Chaos roll on: Chaos List" in embed["description"]
    assert embed["color"] == BOARD_COLOUR.value


def test_the_board_takes_the_current_lists_colour_and_shows_deck_counts() -> None:
    lists = started(bundled("lists"))
    assert board_embed(lists).colour == list_colour("a", lists.ruleset)
    assert "Current list: List A" in (board_embed(lists).description or "")
    deck = started(bundled("deck"))
    assert board_embed(deck).colour == DECK_COLOUR
    assert re.search(r"Chaos deck: \d+ to draw, \d+ discarded", board_embed(deck).description or "")


def test_the_board_shows_a_pending_choice() -> None:
    keep = entry("keep", "Pick one", kind=Kind.MULTI, multi=times(2, mode=MultiMode.KEEP))
    rules = ruleset(faces("chaos", keep, entry("calm", "Calm"), entry("storm", "Storm")))
    game, _ = first_roll(rules, offers_a_choice)
    assert "Waiting for Ann to choose: 1) " in (board_embed(game).description or "")
    pending = game.state.pending
    assert pending is not None
    game.act(Choose(actor="ann", option=pending.options[0][0]))
    assert "Waiting" not in (board_embed(game).description or "")


def test_the_lobby_board_lists_who_is_at_the_table() -> None:
    game = Game.start(bundled("lists"), seed=1, host="ann", name="Ann")
    game.act(Join(actor="bob", player_name="Bob"))
    embed = as_dict(board_embed(game))
    assert "waiting to begin" in embed["description"]
    assert "Ann (host), Bob" in embed["description"]
    assert embed["footer"]["text"] == "Chaos Lists A–F · lobby"


def test_the_ended_board_says_so_and_nobody_has_the_turn() -> None:
    game = started(bundled("deck"))
    game.act(End(actor="ann"))
    embed = as_dict(board_embed(game))
    assert embed["description"].startswith("**The game is over after 1 turns.")
    assert embed["color"] == NEUTRAL_COLOUR.value
    assert not any("▶" in row for row in seat_rows(embed))
    assert [f["name"] for f in embed["fields"]] == ["Seats (play goes →)", "Fairness"]


def test_the_board_shows_the_commitment_and_the_seed_only_once_the_game_is_over() -> None:
    game = Game.start(bundled("classic"), seed=41, host="ann", name="Ann", salt="pepper")
    game.act(Join(actor="bob", player_name="Bob"))
    lobby = as_dict(board_embed(game))["description"]
    assert f"Seed commitment (SHA-256): {game.state.commitment}" in lobby
    game.act(Begin(actor="ann"))
    fields = {f["name"]: f["value"] for f in as_dict(board_embed(game))["fields"]}
    assert fields["Fairness"] == (
        f"Seed commitment (SHA-256): {game.state.commitment}\n"
        "This game's seed was named when it started, not drawn: whoever named it can work out every"
        " roll."
    )
    game.act(End(actor="ann"))
    fields = {f["name"]: f["value"] for f in as_dict(board_embed(game))["fields"]}
    assert fields["Fairness"].endswith("Revealed: seed 41, salt pepper.")


def test_a_drawn_seed_is_not_called_named() -> None:
    drawn = 2**127 + 5
    game = Game.start(bundled("classic"), seed=drawn, host="ann", name="Ann", salt="pepper")
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Begin(actor="ann"))
    fields = {f["name"]: f["value"] for f in as_dict(board_embed(game))["fields"]}
    assert fields["Fairness"] == f"Seed commitment (SHA-256): {game.state.commitment}"


def test_a_board_is_built_for_every_state_of_real_games() -> None:
    for game in played(("classic", "lists", "deck"), turns=12):
        assert_within_limits([board_embed(game)])


def played(names: tuple[str, ...], turns: int) -> Iterator[Game]:
    """Each game after every action of a few turns (choices take their first option)."""
    for name in names:
        game = started(bundled(name), life=20)
        for _ in range(turns):
            chaos(game)
            yield game
            while (pending := game.state.pending) is not None:
                game.act(Choose(actor=pending.player, option=pending.options[0][0]))
                yield game
            game.act(NextTurn(actor=game.state.current or "ann", referee=True, override=True))
            yield game


def test_two_masked_links_in_one_name_are_both_broken() -> None:
    """discord.py's escape_markdown escaped only the first bracket of a line's first masked link
    and nothing up to its last ")": the second link, and bold between, still rendered."""
    text = plain("[a](https://evil.example) **b** ||c|| [d](https://evil.example)")
    assert "](" not in text
    assert text == (r"[a]\(https://evil.example) \*\*b\*\* \|\|c\|\| [d]\(https://evil.example)")
    assert plain("see https://x.example/a_b_c") == "see https://x.example/a_b_c"  # still a link
    assert plain("# big\n> quote\n- item\n2. item\n-# small") == (
        "\\# big\n\\> quote\n\\- item\n2\\. item\n\\-# small"
    )
    assert plain("d20×d10 [11, 7] = 117") == "d20×d10 [11, 7] = 117"
