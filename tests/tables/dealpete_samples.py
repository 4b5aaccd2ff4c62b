"""Files in the shape of Peter Deal's ``chaos.yaml``, built in code for the importer's tests.

:func:`real_shaped` has the real file's 20 lists with their real dice and entry counts (see
the research notes, domain §2.2) and invented content: lists A-F on d80 + 9 with forward links
in the slots ending in 9, Global on d120 + 9, the creature and acquisition lists, a procedural
Synthetic Creature list and a Spite list in 17 bands. It keeps exactly three of the real quirks:
Spite's bands 71 - 76 and 76 - 85 share 76, Mild Creature has 99 entries on a d100, and
Synthetic Creature is a building procedure. Its Vortex, some results of lists A-F
(:data:`PHRASED`) and Powerful Acquisition 40-41 name rolls and lists in the words the real
file uses (issue 23): bracketed, unbracketed, "again on the Vortex", "a random Chaos List".
"""

from __future__ import annotations

from typing import Any

import yaml

TENS = "(d{t} for the tens digit, d10 for the units digit)"
CARDS = ["Shock", "Fireball", "Counterspell", "Giant Growth", "Disenchant", "Dark Ritual"]
CREATURE = {"card": "Hill Giant", "mana_cost": "{3}{R}", "type": "Creature — Giant"}
# How many of the eight slots ending in 9 move each list on (A -> B in all 8 ... F -> A in 3).
FORWARD = {"A": ("B", 8), "B": ("C", 7), "C": ("D", 6), "D": ("E", 5), "E": ("F", 4), "F": ("A", 3)}


def deal_list(
    short: str, full: str, desc: str, first: int, rolls: list[dict[str, Any]], fmt: str = "Table"
) -> dict[str, Any]:
    """One list as Deal writes it."""
    return {
        "short_name": short,
        "full_name": full,
        "desc": desc,
        "first_index": first,
        "format": fmt,
        "rolls": rolls,
    }


def dump(lists: list[dict[str, Any]]) -> str:
    return yaml.safe_dump(lists, sort_keys=False, allow_unicode=True)


def _chaos_list(letter: str) -> dict[str, Any]:
    target, forward = FORWARD[letter]
    rolls: list[dict[str, Any]] = []
    for n in range(10, 90):
        if n % 10 == 9:
            tens = n // 10  # 1..8: the first `forward` slots ending in 9 move the game on
            if tens <= forward:
                rolls.append({"list": f"list{target}"})
            else:
                rolls.append({"name": f"Meta {letter}{n}", "text": "Roll twice on List A."})
        elif n % 10 == 3:
            rolls.append({"list": "global" if n < 50 else "vortex"})
        elif n % 4 == 0:
            card = CARDS[n % len(CARDS)]
            extra = {"Xdice": [1, 6, 0]} if card == "Fireball" else {}
            rolls.append({"card": card, **extra, "color": "red"})
        else:
            rolls.append({"text": f"Effect {letter}{n}: each player draws a card."})
    return deal_list(
        f"list{letter}",
        f"Chaos List {letter}",
        f"Roll d80 + 9 {TENS.format(t=8)}. Results ending in 9 push the game onward.",
        10,
        rolls,
    )


def _plain(short: str, full: str, desc: str, first: int, count: int) -> dict[str, Any]:
    rolls = [{"text": f"{full} effect {first + i}."} for i in range(count)]
    return deal_list(short, full, desc, first, rolls)


def _creatures(short: str, full: str, desc: str, first: int, count: int) -> dict[str, Any]:
    rolls = [{**CREATURE, "power": 3, "toughness": 3 + i % 3} for i in range(count)]
    return deal_list(short, full, desc, first, rolls)


AGAIN = "Roll again on the Vortex."
CHOOSE = "Choose one — Roll on [{0}], [{1}], or again on the Vortex."
ESCAPE = "You get away to your choice of [list{0}] or [list{1}]."
CHANGE = "Change the [global], then you may choose to roll again on the Vortex."
# Results of lists A-F in the phrasings of the real file (invented words, the same shapes).
PHRASED: dict[tuple[str, int], dict[str, Any]] = {
    ("B", 19): {"name": "Spurt", "text": "Roll chaos three times, starting on [listA]."},
    ("C", 42): {"name": "Maybe", "text": "If you have ten cards in hand, roll on [extremeChaos]."},
    ("D", 29): {"name": "Commons", "text": "Each player rolls chaos."},
    ("D", 51): {"name": "Omen", "text": "Roll 2d6. If you roll 5 or less, roll on [vortex]."},
    ("E", 19): {
        "name": "Surge",
        "text": "Roll once each on Chaos Lists A through D. Then the next time a player would"
        " roll chaos, they roll on Chaos List E instead of rolling on the last Chaos List that"
        " was rolled on.",
    },
    ("F", 39): {"name": "Wheel", "text": "Go to a random Chaos List."},
    ("F", 59): {
        "name": "Flux",
        "text": "Roll on [global], Chaos Lists A through F, and then [vortex].",
    },
}


def vortex() -> list[dict[str, Any]]:
    """The Vortex on 3d8 (3-24), in the real file's shapes: 12-15 roll again, 7/9/18/20 choose
    among two lists and the Vortex, 11/16 change the Global first."""
    at: dict[int, dict[str, Any]] = {
        3: {"text": 'You hold the storm. You get an emblem with "Chaos obeys you." Roll chaos.'},
        4: {"text": "Roll [musical] a number of times equal to the number of players."},
        5: {"list": "extremeChaos"},
        7: {"text": CHOOSE.format("exceptionalCreature", "powerfulAcquisition")},
        9: {"text": CHOOSE.format("synthetic", "acquisition")},
        11: {"text": CHANGE},
        12: {"text": f"Each player draws two cards. {AGAIN}"},
        13: {"text": f"Each player may return a card from their graveyard to hand. {AGAIN}"},
        14: {"text": f"Each player mills three cards. {AGAIN}"},
        15: {"text": "Each player gains 3 life. Roll again on the the Vortex."},
        16: {"text": CHANGE},
        18: {"text": CHOOSE.format("synthetic", "acquisition")},
        20: {"text": CHOOSE.format("strongCreature", "powerfulAcquisition")},
        22: {"list": "extremeChaos"},
        23: {"list": "deadlyAcquisition"},
        24: {"name": "Sucked Under", "text": "You lose the game and don't roll on spite."},
    }
    escapes = ("CF", "BE", "AD", "AD", "BE", "CF")
    for number, pair in zip((6, 8, 10, 17, 19, 21), escapes, strict=True):
        at[number] = {"text": ESCAPE.format(*pair)}
    return [at[n] for n in range(3, 25)]


def real_shaped() -> str:
    """The 20 lists of the real file, with invented content."""
    lists = [_chaos_list(letter) for letter in "ABCDEF"]
    global_rolls: list[dict[str, Any]] = []
    for n in range(10, 130):
        if n % 20 == 15:
            global_rolls.append({"list": "global"})  # six links back to Global
        elif n % 4 == 0:
            global_rolls.append({"text": f"Global effect {n}: all creatures get +1/+1."})
        else:
            global_rolls.append({"card": CARDS[n % len(CARDS)]})
    lists.append(
        deal_list("global", "Global", f"Roll d120 + 9 {TENS.format(t=12)}.", 10, global_rolls)
    )
    for (letter, number), roll in PHRASED.items():
        lists["ABCDEF".index(letter)]["rolls"][number - 10] = roll
    lists.append(deal_list("vortex", "The Vortex", "Roll 3d8.", 3, vortex()))
    lists.append(_plain("extremeChaos", "Extreme Chaos", "Roll 2d12.", 2, 23))
    lists.append(_plain("musical", "Musical", "Roll d6.", 1, 6))
    lists.append(_plain("response", "Response", "Roll d20. It targets a spell.", 1, 20))
    lists.append(_creatures("mildCreature", "Mild Creature", "Roll d100.", 1, 99))
    lists.append(
        _creatures("strongCreature", "Strong Creature", f"Roll d80 + 9 {TENS.format(t=8)}.", 10, 80)
    )
    lists.append(
        _creatures(
            "exceptionalCreature",
            "Exceptional Creature",
            f"Roll d40 + 9 {TENS.format(t=4)}.",
            10,
            40,
        )
    )
    lists.append(_creatures("treacherousCreature", "Treacherous Creature", "Roll d20.", 1, 20))
    lists.append(_plain("acquisition", "Acquisition", f"Roll d40 + 9 {TENS.format(t=4)}.", 10, 40))
    powerful = _plain("powerfulAcquisition", "Powerful Acquisition", "Roll d40 + 9.", 10, 40)
    for number, making in ((40, "Synthetic Creature"), (41, "Treacherous Creature")):
        powerful["rolls"][number - 10] = {
            "name": f"Foundry {number}",
            "text": f"When Foundry {number} enters the battlefield, roll on {making}. At the"
            f" beginning of your upkeep, if nothing it made is on the battlefield, roll on"
            f" {making}.",
        }
    lists.append(powerful)
    lists.append(_plain("deadlyAcquisition", "Deadly Acquisition", "Roll d10.", 1, 10))
    lists.append(
        deal_list(
            "synthetic",
            "Synthetic Creature",
            "Roll d6 for the colour, d4 for the number of abilities, d30 for each ability"
            " (reroll duplicates), and 2d6 twice for power and toughness.",
            1,
            [{"text": f"Ability {n}"} for n in range(1, 31)],
            fmt="List",
        )
    )
    bands = ["1", "2 - 3", "4 - 10", "11 - 20", "21 - 30", "31 - 40", "41 - 50", "51 - 60"]
    bands += ["61 - 70", "71 - 76", "76 - 85", "86 - 90", "91 - 94", "95 - 96", "97", "98 - 99"]
    bands.append("100")
    spite: list[dict[str, Any]] = [
        {"index": band, "text": f"Spite {band}: the player who defeated you loses 2 life."}
        for band in bands
    ]
    spite[7] = {"index": "51 - 60", "list": "mildCreature"}
    lists.append(deal_list("spite", "Spite", "Roll d100 and name your killer.", 1, spite))
    return dump(lists)
