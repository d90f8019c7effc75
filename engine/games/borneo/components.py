"""Borneo's component set (daVinci Games, 2008), from ``shared/rules/components.json``.

RECONSTRUCTED DATA.  The rulebook text gives the number of shipment cards (60),
harbors (14) and missions (16), the five mission kinds with their values, and
which harbors and missions belong to which player counts, but not the flags and
spice of each card, the two numbers of each harbor, or how many missions of each
kind there are.  The public facts kept here are that a card shows three flags on
top and one below; everything else below is a reconstruction chosen to agree with
the text (e.g. Achim: cloves, monopoly at 6 flags, 4 cards, as in the examples).
Keep every number in this one module so a corrected set replaces one file.
"""

COMPANIES: tuple[str, ...] = ("yellow", "red", "green", "blue")
COMPANY_LETTER = {"Y": 0, "R": 1, "G": 2, "B": 3}
SPICES: tuple[str, ...] = ("pepper", "cinnamon", "cloves", "nutmeg")
WILD = "wild"

SHIPMENT_CARDS: tuple[tuple[int, str, str, str, int], ...] = (
    # (id, top flags left to right, bottom flag, spice, spices it counts as)
    (1, "YYY", "R", "pepper", 1),
    (2, "YYY", "R", "cinnamon", 1),
    (3, "RYY", "Y", "cloves", 1),
    (4, "YRY", "Y", "nutmeg", 1),
    (5, "YYR", "Y", "pepper", 2),
    (6, "YYY", "G", "cinnamon", 1),
    (7, "YYY", "G", "cloves", 1),
    (8, "GYY", "Y", "nutmeg", 1),
    (9, "YGY", "Y", "pepper", 1),
    (10, "YYG", "Y", "cinnamon", 2),
    (11, "YYY", "B", "cloves", 1),
    (12, "YYY", "B", "nutmeg", 1),
    (13, "BYY", "Y", "pepper", 1),
    (14, "YBY", "Y", "cinnamon", 1),
    (15, "YYB", "Y", "cloves", 2),
    (16, "RRR", "Y", "nutmeg", 1),
    (17, "RRR", "Y", "pepper", 1),
    (18, "YRR", "R", "cinnamon", 1),
    (19, "RYR", "R", "cloves", 1),
    (20, "RRY", "R", "nutmeg", 2),
    (21, "RRR", "G", "pepper", 1),
    (22, "RRR", "G", "cinnamon", 1),
    (23, "GRR", "R", "cloves", 1),
    (24, "RGR", "R", "nutmeg", 1),
    (25, "RRG", "R", "pepper", 2),
    (26, "RRR", "B", "cinnamon", 1),
    (27, "RRR", "B", "cloves", 1),
    (28, "BRR", "R", "nutmeg", 1),
    (29, "RBR", "R", "pepper", 1),
    (30, "RRB", "R", "cinnamon", 2),
    (31, "GGG", "Y", "cloves", 1),
    (32, "GGG", "Y", "nutmeg", 1),
    (33, "YGG", "G", "pepper", 1),
    (34, "GYG", "G", "cinnamon", 1),
    (35, "GGY", "G", "cloves", 2),
    (36, "GGG", "R", "nutmeg", 1),
    (37, "GGG", "R", "pepper", 1),
    (38, "RGG", "G", "cinnamon", 1),
    (39, "GRG", "G", "cloves", 1),
    (40, "GGR", "G", "nutmeg", 2),
    (41, "GGG", "B", "pepper", 1),
    (42, "GGG", "B", "cinnamon", 1),
    (43, "BGG", "G", "cloves", 1),
    (44, "GBG", "G", "nutmeg", 1),
    (45, "GGB", "G", "pepper", 2),
    (46, "BBB", "Y", "cinnamon", 1),
    (47, "BBB", "Y", "cloves", 1),
    (48, "YBB", "B", "nutmeg", 1),
    (49, "BYB", "B", "pepper", 1),
    (50, "BBY", "B", "cinnamon", 2),
    (51, "BBB", "R", "cloves", 1),
    (52, "BBB", "R", "nutmeg", 1),
    (53, "RBB", "B", "pepper", 1),
    (54, "BRB", "B", "cinnamon", 1),
    (55, "BBR", "B", "cloves", 2),
    (56, "BBB", "G", "nutmeg", 1),
    (57, "BBB", "G", "pepper", 1),
    (58, "GBB", "B", "cinnamon", 1),
    (59, "BGB", "B", "cloves", 1),
    (60, "BBG", "B", "nutmeg", 2),
)

HARBORS: tuple[tuple[str, str, int, int, tuple[int, ...]], ...] = (
    # (name, spice, monopoly flags, card limit, player counts that use it)
    ("Achim", "cloves", 6, 4, (3, 4, 5)),
    ("Bantam", "pepper", 6, 4, (3, 4, 5)),
    ("Malacca", "cinnamon", 8, 5, (3, 4, 5)),
    ("Banda", "nutmeg", 5, 3, (3, 4, 5)),
    ("Ambon", "cloves", 8, 5, (3, 4, 5)),
    ("Jambi", "pepper", 5, 3, (3, 4, 5)),
    ("Makassar", "nutmeg", 6, 4, (3, 4, 5)),
    ("Ternate", "wild", 9, 6, (3, 4, 5)),
    ("Palembang", "cinnamon", 5, 3, (3, 4)),
    ("Tidore", "cloves", 6, 4, (3, 4)),
    ("Brunei", "pepper", 5, 3, (3, 4)),
    ("Jepara", "nutmeg", 6, 4, (3, 4)),
    ("Manila", "cinnamon", 9, 6, (5,)),
    ("Macassar Strait", "wild", 8, 5, (5,)),
)

MISSIONS: tuple[tuple[str, int, bool], ...] = (
    # (kind, victory points, only with five players)
    ("one_of_each", 6, True),
    ("one_of_each", 6, False),
    ("one_of_each", 6, False),
    ("one_of_each", 6, False),
    ("four_same", 8, True),
    ("four_same", 8, False),
    ("four_same", 8, False),
    ("four_same", 8, False),
    ("two_of_each", 15, True),
    ("two_of_each", 15, False),
    ("two_of_each", 15, False),
    ("eight_same", 20, True),
    ("eight_same", 20, False),
    ("eight_same", 20, False),
    ("three_of_each", 25, False),
    ("three_of_each", 25, False),
)

MISSION_NEEDS: dict[str, tuple[int, bool]] = {
    # kind: (spices needed per type, True = all of one type / False = of each type)
    "one_of_each": (1, False),
    "four_same": (4, True),
    "two_of_each": (2, False),
    "eight_same": (8, True),
    "three_of_each": (3, False),
}

MERCHANTS_PER_PLAYER = 3
MERCHANTS_FOUR_MERCHANT_VARIANT = 4
COMPANY_SLOTS = 5
START_HAND = 3
OPEN_HARBORS = 3
DRAW_PER_TURN = 2
HAND_LIMIT = 6
PIRATE_PENALTY = 2
