"""Batavia's component set (Queen Games, 2008), from ``shared/rules/components.json``.

The 35 trading posts (every company x commodity pair once), warehouse values,
exchange table and start material are printed in the rulebook.  The split of
the 110 ship cards (22 per company) is the reconstructed part: the rulebook
says only "110 ship cards".  Keep every number here so a corrected set
replaces one module.
"""

COMPANIES: tuple[str, ...] = ("GB", "DK", "FR", "NL", "SE")
"""Britain, Denmark, France, Netherlands, Sweden: the rulebook's order."""

COMMODITIES: tuple[str, ...] = ("tea", "cotton", "china", "silk", "ginger", "nutmeg", "pepper")

SHIP_CARDS_PER_COMPANY: tuple[int, ...] = (22, 22, 22, 22, 22)  # reconstructed split of 110

WAREHOUSE_VALUES: tuple[tuple[int, int], ...] = (
    (10, 5),  # tea: sole majority, shared majority
    (11, 5),  # cotton
    (12, 6),  # china
    (13, 6),  # silk
    (14, 7),  # ginger
    (15, 7),  # nutmeg
    (16, 8),  # pepper
)

EXCHANGE_GOLD: dict[int, int] = {1: 1, 2: 3, 3: 6, 4: 10, 5: 15}

PIRATE_THRESHOLD: dict[int, int] = {3: 21, 4: 25, 5: 25}

TARGET_GOLD = 4
MOST_NOTES_GOLD = (5, 2)  # sole, tied
SEAL_GOLD = 2
CANNON_SCALE_TOP = 25

START_CARDS = 10
START_NOTES = 15
START_CRATES = 12
OPEN_HEXES_AT_START = 10
BLOCK = 5  # counters are laid and turned in blocks of five, one per company
NUM_HEXES = 35
DIE_SIDES = 6
