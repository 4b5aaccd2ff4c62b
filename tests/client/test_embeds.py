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
from bot.engine.house import HouseRules
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


def test_a_roll_is_titled_by_its_entry_under_who_rolled_and_its_line_has_the_dice() -> None:
    rules = ruleset(fixed("chaos", entry("calm", "Calm", text="Nothing happens.")))
    game = started(rules)
    events = chaos(game)
    roll = next(e for e in events if e["type"] == "roll")
    embeds = result_embeds(events, game)
    embed = as_dict(embeds[0])
    faces_read = ", ".join(map(str, roll["dice"]))
    assert embed["title"] == "Calm"
    assert embed["author"]["name"] == "Ann rolls chaos"
    # The body's first line is the list, the dice and the number: not the title again.
    first = embed["description"].splitlines()[0]
    assert first == f"chaos d2 [{faces_read}] = {roll['result']} → #1-2"
    assert "Calm" not in embed["description"]
    assert "Ann" not in embed["description"]
    assert "Nothing happens." in embed["description"]
    assert_within_limits(embeds)


def test_a_nested_roll_is_titled_by_what_it_came_to() -> None:
    game = started(bundled("classic"))
    for seed in range(400):
        game = started(bundled("classic"), seed=seed)
        events = chaos(game)
        top = next(e for e in events if e["type"] == "roll")
        subs = [e for e in events if e["type"] == "roll" and e["parent"] == top["id"]]
        if len(subs) == 1 and not subs[0]["ignored"]:
            break
    else:
        raise AssertionError("no seed gave one sub-roll")
    embed = as_dict(result_embeds(events, game)[0])
    chain = [top["entry"]["name"], subs[0]["entry"]["name"]]
    assert embed["title"].startswith(plain(" → ".join(chain)))
    # The sub-roll keeps its name, first, on its step.
    assert re.search(rf"^↳ 1 · {re.escape(plain(chain[1]))} — ", embed["description"], re.M)


def test_several_sub_rolls_are_counted_in_the_title_and_are_steps_not_a_tree() -> None:
    rules = ruleset(
        fixed("chaos", entry("twice", "Roll twice", kind=Kind.MULTI, multi=times(2, "calm"))),
        fixed("calm", entry("calm", "Calm", text="Nothing happens.")),
    )
    game = started(rules)
    embed = as_dict(result_embeds(chaos(game), game)[0])
    assert embed["title"] == "Roll twice → 2 rolls"
    lines = embed["description"].splitlines()
    steps = [line for line in lines if line.startswith("↳ ")]
    assert [step.split(" · ")[0] for step in steps] == ["↳ 1/2", "↳ 2/2"]
    assert all(step.split(" · ")[1].startswith("Calm — calm d2 [") for step in steps)
    # Nothing that only lines up in a fixed-width font: no box drawing, and the text under
    # a step is indented by an em space, which Discord keeps.
    assert not set("│├└─") & set(embed["description"])
    assert lines.count("\u2003Nothing happens.") == 2


def test_a_nested_multi_roll_is_in_steps_and_an_ignored_roll_says_why() -> None:
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
    embed = as_dict(result_embeds(events, game)[0])
    assert "↳ 1/2 · " in embed["description"]
    assert "↳ 2/2 · " in embed["description"]
    assert f"✗ ignored: {ignored['reason']}" in embed["description"]
    assert ignored["entry"]["name"] not in embed["title"].split(" → ")[1:]


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
    assert embed["title"] == "Turn 2 — Bob"
    assert "author" not in embed
    assert embed["color"] == NEUTRAL_COLOUR.value
    assert "description" not in embed  # the title says it all: the body doesn't say it again


def test_a_title_can_be_given() -> None:
    game = started(bundled("lists"))
    events = chaos(game)
    [embed] = result_embeds(events, game, title="The turn's chaos")
    assert embed.title == "The turn's chaos"
    assert embed.colour == list_colour("a", game.ruleset)


def test_table_and_player_text_cannot_become_markdown() -> None:
    rules = ruleset(fixed("chaos", entry("x", "Double *or* nothing", text="Deal 2*X_1 damage.")))
    game = Game.start(rules, seed=1, host="ann", name="__Ann__")
    joined = as_dict(result_embeds(game.act(Join(actor="bob", player_name="**Bob**")), game)[0])
    assert joined["title"] == r"\*\*Bob\*\* joined"
    game.act(Begin(actor="ann"))
    embed = as_dict(result_embeds(chaos(game), game)[0])
    assert embed["title"] == r"Double \*or\* nothing"
    # Discord shows an author's name as it is, markdown and all: a backslash would show.
    assert embed["author"]["name"] == "__Ann__ rolls chaos"
    assert r"Deal 2\*X\_1 damage." in embed["description"]


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
    commitment = game.state.commitment
    assert commitment is not None
    assert embed["footer"]["text"].startswith(
        f"Classic Chaos · turn 1 · Seed commitment {commitment[:16]}…"
    )
    assert embed["description"].startswith("**Cy's turn — roll chaos**")
    chaos(game)
    assert as_dict(board_embed(game))["description"].startswith("**Cy's turn — chaos done**")


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
    assert [f["name"] for f in embed["fields"]] == ["Seats (play goes →)", "In play"]
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
    assert embed["footer"]["text"].startswith("Chaos Lists A–F · lobby · Seed commitment ")


def test_the_ended_board_says_so_and_nobody_has_the_turn() -> None:
    game = started(bundled("deck"))
    game.act(End(actor="ann"))
    embed = as_dict(board_embed(game))
    assert embed["description"] == "**Game over after 1 turn**"  # no house rules: no line
    assert embed["color"] == NEUTRAL_COLOUR.value
    assert not any("▶" in row for row in seat_rows(embed))
    assert [f["name"] for f in embed["fields"]] == ["Seats (play goes →)"]


def test_the_board_shows_the_commitment_in_its_footer_and_the_seed_once_the_game_is_over() -> None:
    game = Game.start(bundled("classic"), seed=41, host="ann", name="Ann", salt="pepper")
    game.act(Join(actor="bob", player_name="Bob"))
    commitment = game.state.commitment
    assert commitment is not None
    short = f"Seed commitment {commitment[:16]}…"  # what /game verify needs at the least
    named = "the seed was named, not drawn: whoever named it can work out every roll"
    lobby = as_dict(board_embed(game))
    assert commitment[:16] not in lobby["description"]
    assert lobby["footer"]["text"] == f"Classic Chaos · lobby · {short} · {named}"
    game.act(Begin(actor="ann"))
    board = as_dict(board_embed(game))
    assert "Fairness" not in [f["name"] for f in board["fields"]]
    assert commitment[:16] not in str(board["fields"]) + board["description"]
    assert board["footer"]["text"] == f"Classic Chaos · turn 1 · {short} · {named}"
    # The whole commitment is on the start message, for whoever checks the game afterwards.
    start = as_dict(result_embeds(game.events[:2], game)[0])
    assert f"Seed commitment (SHA-256): {commitment}" in start["description"]
    game.act(End(actor="ann"))
    ended = as_dict(board_embed(game))
    assert ended["footer"]["text"] == f"Classic Chaos · turn 1 · {short} · revealed: seed 41"


def test_a_drawn_seed_is_not_called_named() -> None:
    drawn = 2**127 + 5
    game = Game.start(bundled("classic"), seed=drawn, host="ann", name="Ann", salt="pepper")
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Begin(actor="ann"))
    commitment = game.state.commitment
    assert commitment is not None
    footer = as_dict(board_embed(game))["footer"]["text"]
    assert footer == f"Classic Chaos · turn 1 · Seed commitment {commitment[:16]}…"


def test_house_rules_are_under_the_headline() -> None:
    house = HouseRules(chaos_from=2)
    game = Game.start(bundled("classic"), seed=3, host="ann", name="Ann", house=house)
    game.act(Join(actor="bob", player_name="Bob"))
    assert "House rules: " in as_dict(board_embed(game))["description"]
    game.act(Begin(actor="ann"))
    description = as_dict(board_embed(game))["description"]
    assert description.splitlines()[1] == "House rules: chaos starts in round 2."


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


def test_the_body_doesnt_say_again_what_the_title_says() -> None:
    game = started(bundled("deck"))
    for _ in range(40):  # turns until a split card asks for a half
        chaos(game)
        if (pending := game.state.pending) is not None and pending.kind == "half":
            break
        game.act(NextTurn(actor=game.state.active or "ann", referee=True, override=True))
    else:
        raise AssertionError("no split card in 40 turns")
    half = pending.options[0][1]
    embed = as_dict(
        result_embeds(game.act(Choose(actor=pending.player, option=pending.options[0][0])), game)[0]
    )
    assert embed["author"]["name"] == f"{game.state.players[pending.player].name} chooses {half}"
    said = f"{game.state.players[pending.player].name} chooses {half}."
    assert said not in embed["description"].splitlines()
    # A log keeps every line: its title is not what any line says.
    log = as_dict(result_embeds(game.events[-6:], game, title="The log", actions=True)[0])
    assert f"chooses {half}." in log["description"]
