"""East Indiaman's rules as a :class:`~engine.core.GameState`.

Rulings (also in ``docs/games/east_indiaman.md``; the rulebook wins where it is clear):

* The first player is drawn with the state's RNG at setup; the 2nd/3rd/4th player in sequence
  get the extra supply/reserve/both ships.  The four raid markers fill the pirate alert track
  below the opium marker in the fixed order spice, silk, tea, china (the text says "any order";
  the order changes nothing).
* Arms resource markers: five are revealed at setup (the text says so), so their types are
  public; the sixth goes face down to the box.  The only hidden information is the order of
  the order deck (its contents are known: every card not yet revealed).
* A turn is two actions; ``pass:<token>`` ends the player's round at once (also as the first
  action).  Raid tokens: any token still on the track except the opium marker, which may be
  taken when passing as the first action of the turn or when every other player has passed.
* Pirate alert: before buying, building or smuggling, the player sends one reserve ship to
  every empty alert spot that holds none of his ships; the action is legal only if the
  reserve pays the alert ships and the action's own ships.
* Harbor cost: the k-th harbor spot a player takes in a round (over all four harbors) costs k
  ships, minus one per own trade post in that harbor's coastal area, at least 1.  The cargo is
  received only if a ship is left in the reserve.  Harbors have unlimited spots.
* Exchange ``exchange:A:B``: pay price(A) ships of A, receive price(B) ships of B, +1 when A is
  opium, +1 when A is spice/tea at the top price, -1 when B is spice/tea at the top price;
  cargo without a reserve ship is lost.  Opium is never received by exchange and never used
  for orders or investment.
* Orders need the printed cargoes; dual-colour orders are assigned at scoring to maximise the
  player's score within the investment caps.
* Investment to level L costs L cargoes of that type, gives a supply ship if any, and +1 arms
  on reaching level 5.
* Trade post ``post:<area>:<ships>``: the player names the ships of the free spot he wants
  (spots of equal cost are interchangeable, so only distinct costs are offered); one ship
  stays on the spot, the rest go to his supply, the area's price rises (not past 5), and a
  follow-up decision ``lower:<cargo>`` lowers another cargo's price (skipped only when all
  others are at 1).  The third own post in an area gives +1 arms, once per area.
* Smuggling ``smuggle:k`` needs the player to hold strictly the most ships on the opium spot
  afterwards; at round end that unique leader moves one of them to his opium hold.
* End of round: arms resource majority needs at least one icon; every player tied for the most
  icons advances.  After round 4 uncompleted orders stay; otherwise the display is discarded.
  The end-of-round sequence also runs after round 5, then the game is scored.
* Anti-stall (ours): at most ``MAX_EXCHANGES_PER_ROUND`` (12) exchanges per player and round;
  without it exchanging back and forth at equal prices never ends a round.
* Influence: per area, players with posts are ranked by distinct counts (most, second most,
  third most); tied players share that place's points, rounded up.  Arms: track position plus
  5/4/3 (2/3/4 players) per player strictly behind.  Ranking: total, then arms level, then
  influence points; players still tied share the rank.

Decomposition: every action above is one decision with a small list (at most ~80 entries);
the only multi-step action is a trade post, whose price decrease is a second decision.
"""

from __future__ import annotations

import bisect
import copy
import functools
import itertools
from collections.abc import Iterator
from typing import Any

from engine.core import (
    Action,
    GameNotOver,
    GameState,
    Observation,
    Refusal,
    competition_ranking,
    refusal_text,
)
from engine.games.east_indiaman import components as K
from engine.rng import Rng

NT = K.TRADE_CARGOES
OPIUM = K.OPIUM
NCARGO = len(K.CARGOES)
ALERT_SPOTS = K.RAID_TOKENS
EMPTY = -1
ACTION, LOWER, OVER = "action", "lower", "over"
POST_COSTS: tuple[int, ...] = tuple(sorted({c for area in K.TRADE_POST_MIN_SHIPS for c in area}))
MAX_SMUGGLE = K.TOKENS_PER_COLOUR - 1  # every token but the arms marker

BUY = tuple(f"buy:{K.CARGOES[c]}" for c in range(NT))
EXCHANGE = {
    (a, b): f"exchange:{K.CARGOES[a]}:{K.CARGOES[b]}"
    for a in range(NCARGO)
    for b in range(NT)
    if a != b
}
ORDER = tuple(f"order:{i}" for i in range(len(K.ORDER_CARDS)))
INVEST = tuple(f"invest:{K.CARGOES[c]}" for c in range(NT))
POST = {(c, cost): f"post:{K.CARGOES[c]}:{cost}" for c in range(NT) for cost in POST_COSTS}
LOWER_ACTIONS = tuple(f"lower:{K.CARGOES[c]}" for c in range(NT))
SMUGGLE = tuple(f"smuggle:{k}" for k in range(MAX_SMUGGLE + 1))  # index 0 unused
PASS = tuple(f"pass:{K.CARGOES[t]}" for t in range(NCARGO))

Verdict = tuple[tuple[str, ...], Refusal | None]
"""Actions sharing one verdict in :meth:`EastIndiamanState._options`: ``None`` means legal."""

# one-action groups for EastIndiamanState._options, which gives actions with a common verdict
BUY_ONE = tuple((a,) for a in BUY)
EXCHANGE_FROM = tuple(tuple(EXCHANGE[a, b] for b in range(NT) if b != a) for a in range(NCARGO))
ORDER_ONE = tuple((a,) for a in ORDER)
INVEST_ONE = tuple((a,) for a in INVEST)
POST_AREA = tuple(tuple(POST[c, cost] for cost in POST_COSTS) for c in range(NT))
LOWER_ONE = tuple((a,) for a in LOWER_ACTIONS)
PASS_ONE = tuple((a,) for a in PASS)

# action string -> (kind, first argument, second argument), built once
PARSED: dict[str, tuple[str, int, int]] = {}
PARSED.update({a: ("buy", c, 0) for c, a in enumerate(BUY)})
PARSED.update({a: ("exchange", x, y) for (x, y), a in EXCHANGE.items()})
PARSED.update({a: ("order", i, 0) for i, a in enumerate(ORDER)})
PARSED.update({a: ("invest", c, 0) for c, a in enumerate(INVEST)})
PARSED.update({a: ("post", c, cost) for (c, cost), a in POST.items()})
PARSED.update({a: ("lower", c, 0) for c, a in enumerate(LOWER_ACTIONS)})
PARSED.update({SMUGGLE[k]: ("smuggle", k, 0) for k in range(1, MAX_SMUGGLE + 1)})
PARSED.update({a: ("pass", t, 0) for t, a in enumerate(PASS)})


def action_vocabulary(num_players: int) -> list[str]:
    """Every action that can be legal at a table of ``num_players`` (stable order)."""
    return list(PARSED)


def price_of(prices: list[int], cargo: int) -> int:
    return K.OPIUM_PRICE if cargo == OPIUM else prices[cargo]


def exchange_yield(prices: list[int], give: int, get: int) -> int:
    """Ships of ``get`` received for one exchange (before the reserve limit)."""
    m = price_of(prices, get)
    if give == OPIUM:
        m += 1
    if give in K.TOP_PRICE_BONUS_CARGOES and prices[give] == K.PRICE_MAX:
        m += 1
    if get in K.TOP_PRICE_BONUS_CARGOES and prices[get] == K.PRICE_MAX:
        m -= 1
    return max(m, 0)


def order_points(levels: list[int], cards: list[int]) -> int:
    """Best order score: each card counts for one of its colours, at most ``level`` per colour.

    Single-colour cards are fixed; dual-colour cards of the same pair are split between the
    pair's two colours in every possible way (a handful of combinations). Memoised on the
    levels and the sorted cards: the greedy bot asks the same question thousands of times per
    game, and search playouts are mostly spent here otherwise.
    """
    return _order_points(tuple(levels), tuple(sorted(cards)))


@functools.lru_cache(maxsize=1 << 16)
def _order_points(levels: tuple[int, ...], cards: tuple[int, ...]) -> int:
    fixed = [0] * NT
    pairs: dict[tuple[int, ...], int] = {}
    for card in cards:
        colours = K.ORDER_CARDS[card].colours
        if len(colours) == 1:
            fixed[colours[0]] += 1
        else:
            pairs[colours] = pairs.get(colours, 0) + 1
    pair_items = list(pairs.items())
    best = 0
    for split in itertools.product(*(range(count + 1) for _, count in pair_items)):
        counts = list(fixed)
        for (colours, count), first in zip(pair_items, split, strict=True):
            counts[colours[0]] += first
            counts[colours[1]] += count - first
        total = sum(levels[c] * min(counts[c], levels[c]) for c in range(NT))
        best = max(best, total)
    return best


def influence_points(posts: list[list[int]]) -> list[int]:
    """5/3/1 per area for the most/second most/third most posts; ties share, rounded up."""
    n = len(posts)
    points = [0] * n
    for area in range(NT):
        counts = [posts[p][area] for p in range(n)]
        distinct = sorted({c for c in counts if c > 0}, reverse=True)
        for place, value in enumerate(distinct[: len(K.TRADE_POST_INFLUENCE)]):
            tied = [p for p in range(n) if counts[p] == value]
            share = -(-K.TRADE_POST_INFLUENCE[place] // len(tied))
            for p in tied:
                points[p] += share
    return points


def arms_points(arms: list[int]) -> list[int]:
    """Track position plus 5/4/3 (2/3/4 players) for every player strictly behind."""
    per = K.ARMS_POINTS_PER_PLAYER_BEHIND[len(arms)]
    return [a + per * sum(1 for b in arms if b < a) for a in arms]


ORDER_NEEDS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((c, count) for c, count in enumerate(card.req) if count) for card in K.ORDER_CARDS
)
"""Per order card: (cargo, ships) for each cargo it needs."""

# Refusal templates (engine.core.Refusal): formatted only when an illegal action is reported.
JUST_ROSE = "the price of {} just rose: lower another cargo"
AT_LOWEST = "the price of {} is already at its lowest"
ALERT_BLOCKS = (
    "the pirate alert track needs {} ship(s) from you first and your reserve has {}: "
    "you cannot buy, build or smuggle now"
)
AFTER_ALERT = " (after {} ship(s) to the pirate alert track)"
HARBOR_COST = "the {} harbor needs {} ship(s) but you can send {}" + AFTER_ALERT
EXCHANGE_COST = "exchanging {0} needs {1} ship(s) of {0}; you hold {2}"
EXCHANGES_USED = "you have made your {0} exchanges of this round (our anti-stall ruling)"
NOT_DISPLAYED = "{action} is not on display; displayed orders: {}"
FULLY_INVESTED = "your {} investment is already at level {}"
INVEST_COST = "raising {0} to level {1} needs {2} {0} cargoes; you hold {3}"
NO_POST_SPOT = "the {} coast has no free trade-post spot needing {} ships"
POST_COST = "that trade post needs {} ships but you can send {}" + AFTER_ALERT
SMUGGLE_SHIPS = "you can send only {} ship(s) to the opium harbor" + AFTER_ALERT
NOT_MOST_OPIUM = "after smuggling you must have strictly the most ships on the opium spot"
OPIUM_MARKER = (
    "the opium marker may be taken only when passing as your first action of the turn "
    "or as the last player of the round to pass"
)
RAID_MARKER_GONE = "the {} raid token has already been taken"


@functools.cache
def _open_posts(area: int, owners: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The distinct ships needed by the free trade-post spots of ``area``, ascending, and
    their actions (few distinct owner rows occur, so this is asked of a cache)."""
    spots = zip(K.TRADE_POST_MIN_SHIPS[area], owners, strict=True)
    costs = tuple(sorted({need for need, owner in spots if owner == EMPTY}))
    return costs, tuple(POST[area, cost] for cost in costs)


def _post_too_costly(action: str, free: int, alert: int) -> str:
    cost = action.rsplit(":", 1)[1]
    return POST_COST.format(cost, free, alert)


def _no_post_spot(action: str, cargo: str) -> str:
    return NO_POST_SPOT.format(cargo, action.rsplit(":", 1)[1])


def _order_shortfall(
    _action: str, card: int, needs: tuple[tuple[int, int], ...], hold: list[int]
) -> str:
    short = ", ".join(
        f"{count} {K.CARGOES[c]}; you hold {hold[c]}" for c, count in needs if hold[c] < count
    )
    return f"order {card} needs {short}"


def _never_legal(action: str) -> str:
    """Why a well-formed action string can never be legal, for the error message."""
    kind, _, rest = action.partition(":")
    if kind == "exchange":
        give, _, get = rest.partition(":")
        if get == "opium":
            return " (opium is never received by exchange)"
        if give == get:
            return " (an exchange needs two different cargoes)"
    if kind in ("buy", "invest", "post", "lower") and rest.split(":")[0] == "opium":
        return (
            " (opium has no harbor, no investment track, no coast and a fixed price: "
            "smuggle it with smuggle:<ships>)"
        )
    if kind == "smuggle" and rest == "0":
        return " (send at least 1 ship)"
    return ""


class EastIndiamanState(GameState):
    game_name = "east_indiaman"

    # Every attribute, declared: :meth:`GameState.clone` copies each by its declared type.
    seed: int
    arms_markers: list[str]
    boxed_marker: str
    prices: list[int]
    alert: list[int]
    alert_ships: list[list[bool]]
    deck: list[int]
    display: list[int]
    discards: list[int]
    first_player: int
    reserve: list[int]
    supply: list[int]
    hold: list[list[int]]
    box: list[int]
    unused_colour_tokens: int
    levels: list[list[int]]
    arms: list[int]
    harbor: list[list[int]]
    spots_taken: list[int]
    opium_ships: list[int]
    areas: list[list[int]]
    posts: list[list[int]]
    completed: list[list[int]]
    raid: list[int]
    passed: list[bool]
    exchanges: list[int]
    round: int
    phase: str
    active: int
    actions_done: int
    raised: int
    final: list[dict[str, int]] | None
    _legal: list[str] | None

    def __init__(self, seed: int, num_players: int, variant: str) -> None:
        n = num_players
        self.num_players = n
        self.variant = variant
        self.seed = seed
        self.rng = rng = Rng(seed)

        markers = list(K.ARMS_MARKERS)
        rng.shuffle(markers)
        self.arms_markers: list[str] = markers[: K.ROUNDS]  # revealed, one per round
        self.boxed_marker: str = markers[K.ROUNDS]  # face down in the box
        self.prices = [K.PRICE_START] * NT
        self.alert = [OPIUM, *range(NT)]  # token per spot, EMPTY once taken; top = opium
        self.alert_ships = [[False] * n for _ in range(ALERT_SPOTS)]
        self.deck = list(range(len(K.ORDER_CARDS)))
        rng.shuffle(self.deck)
        self.display: list[int] = []
        self.discards: list[int] = []

        self.first_player = rng.below(n)
        self.reserve = [K.START_RESERVE] * n
        self.supply = [K.START_SUPPLY] * n
        self.hold = [[K.START_HOLD] * NCARGO for _ in range(n)]
        for pos in range(n):
            p = (self.first_player + pos) % n
            self.supply[p] += K.EXTRA_SUPPLY_BY_POSITION[pos]
            self.reserve[p] += K.EXTRA_RESERVE_BY_POSITION[pos]
        used = [self.reserve[p] + self.supply[p] + NCARGO * K.START_HOLD + 1 for p in range(n)]
        self.box = [K.TOKENS_PER_COLOUR - used[p] for p in range(n)]
        self.unused_colour_tokens = (K.COLOURS - n) * K.TOKENS_PER_COLOUR
        self.levels = [[K.INVESTMENT_START] * NT for _ in range(n)]
        self.arms = [0] * n
        self.harbor = [[0] * NT for _ in range(n)]  # ships on each harbor this round
        self.spots_taken = [0] * n  # harbor spots taken this round
        self.opium_ships = [0] * n
        self.areas = [[EMPTY] * len(spots) for spots in K.TRADE_POST_MIN_SHIPS]
        self.posts = [[0] * NT for _ in range(n)]
        self.completed: list[list[int]] = [[] for _ in range(n)]
        self.raid = [EMPTY] * n
        self.passed = [False] * n
        self.exchanges = [0] * n  # exchanges made this round (anti-stall ruling)

        self.round = 1
        self.phase = ACTION
        self.active = self.first_player
        self.actions_done = 0
        self.raised = EMPTY  # the area whose price rose, while ``lower`` is pending
        self.final: list[dict[str, int]] | None = None
        self._legal: list[str] | None = None
        self._reveal_orders()

    # ------------------------------------------------------------------ interface
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.active

    def apply(self, action: Action) -> None:
        self._accept_legal(action)
        kind, x, y = PARSED[action]
        p = self.active
        if kind == "pass":
            self._pass(p, x)
            return
        if kind == "lower":
            self.prices[x] -= 1
            self.raised = EMPTY
            self.phase = ACTION
        elif kind == "buy":
            self._buy(p, x)
        elif kind == "exchange":
            self._exchange(p, x, y)
        elif kind == "order":
            self._complete_order(p, x)
        elif kind == "invest":
            self._invest(p, x)
        elif kind == "post":
            self._build_post(p, x, y)
            if self.phase == LOWER:
                return  # the same player decides the price decrease first
        else:  # smuggle
            self._pay_alert(p)
            self.reserve[p] -= x
            self.opium_ships[p] += x
        self._action_done()

    def scores(self) -> list[int]:
        if self.final is None:
            raise GameNotOver("East Indiaman is scored after the fifth round")
        return [row["total"] for row in self.final]

    def ranking(self) -> list[int]:
        if self.final is None:
            raise GameNotOver("East Indiaman is scored after the fifth round")
        return competition_ranking(
            [(row["total"], self.arms[p], row["influence"]) for p, row in enumerate(self.final)]
        )

    # ------------------------------------------------------------------ views
    def public_view(self) -> Observation:
        n = self.num_players
        players = []
        for p in range(n):
            players.append(
                {
                    "reserve": self.reserve[p],
                    "supply": self.supply[p],
                    "hold": {K.CARGOES[c]: self.hold[p][c] for c in range(NCARGO)},
                    "levels": {K.CARGOES[c]: self.levels[p][c] for c in range(NT)},
                    "arms": self.arms[p],
                    "harbor": {K.CARGOES[c]: self.harbor[p][c] for c in range(NT)},
                    "spots_taken": self.spots_taken[p],
                    "opium_ships": self.opium_ships[p],
                    "posts": {K.CARGOES[c]: self.posts[p][c] for c in range(NT)},
                    "completed": list(self.completed[p]),
                    "raid": None if self.raid[p] == EMPTY else K.CARGOES[self.raid[p]],
                    "passed": self.passed[p],
                }
            )
        return {
            "game": self.game_name,
            "variant": self.variant,
            "num_players": n,
            "round": self.round,
            "phase": self.phase,
            "current_player": self.current_player(),
            "first_player": self.first_player,
            "actions_done": self.actions_done,
            "raised": None if self.raised == EMPTY else K.CARGOES[self.raised],
            "prices": {K.CARGOES[c]: price_of(self.prices, c) for c in range(NCARGO)},
            "arms_markers": list(self.arms_markers),
            "alert": [
                {
                    "token": None if t == EMPTY else K.CARGOES[t],
                    "ships": [p for p in range(n) if self.alert_ships[s][p]],
                }
                for s, t in enumerate(self.alert)
            ],
            "areas": {
                K.CARGOES[c]: [None if o == EMPTY else o for o in self.areas[c]] for c in range(NT)
            },
            "display": list(self.display),
            "deck_size": len(self.deck),
            "deck_cards": sorted(self.deck),  # known by elimination; only the order is hidden
            "discards": sorted(self.discards),
            "players": players,
            "final": copy.deepcopy(self.final),
        }

    def observation(self, player: int) -> Observation:
        self.check_seat(player)
        view = self.public_view()  # nothing is private to one player in East Indiaman
        view["seat"] = player
        return view

    def snapshot(self) -> dict[str, Any]:
        data = {k: copy.deepcopy(v) for k, v in vars(self).items() if k not in ("rng", "_legal")}
        data["rng"] = self.rng.state
        return data

    def component_counts(self) -> dict[str, int]:
        n = self.num_players
        on_board = sum(1 for area in self.areas for o in area if o != EMPTY)
        alert_ships = sum(1 for row in self.alert_ships for v in row if v)
        tokens = (
            self.unused_colour_tokens
            + on_board
            + alert_ships
            + sum(
                self.reserve[p]
                + self.supply[p]
                + self.box[p]
                + sum(self.hold[p])
                + sum(self.harbor[p])
                + self.opium_ships[p]
                + 1  # the arms level marker
                for p in range(n)
            )
        )
        return {
            "wooden_tokens": tokens,
            "order_cards": len(self.deck)
            + len(self.display)
            + len(self.discards)
            + sum(map(len, self.completed)),
            "raid_markers": sum(1 for t in self.alert if t != EMPTY)
            + sum(1 for t in self.raid if t != EMPTY),
            "arms_resource_markers": len(self.arms_markers) + 1,
            "trade_post_spots": sum(map(len, self.areas)),
        }

    def determinize(self, player: int, rng: Rng) -> EastIndiamanState:
        """Reshuffle the order deck (its contents are known, its order is not).

        The boxed arms marker is face down too, but it is fixed by the five revealed
        ones (the six markers are two of each kind), so no other value is consistent.
        """
        self.check_seat(player)
        state = self.clone()
        rng.shuffle(state.deck)
        state.rng = Rng(rng.next_u64())
        return state

    # ------------------------------------------------------------------ legality
    def alert_cost(self, p: int) -> int:
        """Ships ``p`` must send to the pirate alert track before buying/building/smuggling."""
        ships = self.alert_ships
        return sum(1 for s, t in enumerate(self.alert) if t == EMPTY and not ships[s][p])

    def harbor_cost(self, p: int, cargo: int) -> int:
        return max(1, self.spots_taken[p] + 1 - self.posts[p][cargo])

    def _can_take_opium_marker(self, p: int) -> bool:
        if self.actions_done == 0:
            return True
        return all(self.passed[q] for q in range(self.num_players) if q != p)

    def _compute_legal(self) -> list[str]:
        if self.phase == OVER:
            return []
        return [a for actions, refusal in self._options() if refusal is None for a in actions]

    def _options(self) -> Iterator[Verdict]:
        """Every action of the current step, in groups: ``None`` (legal) or why not.

        The one statement of the rules on what may be done. The legal list is the groups with
        ``None``, in this order; an illegal action's error formats the refusal of the first
        group holding it (so a catch-all group, such as every order card, comes last).
        """
        if self.phase == LOWER:
            return self._lower_options()
        p = self.active
        reserve = self.reserve[p]
        alert = self.alert_cost(p)
        free = reserve - alert  # ships that may still be sent after paying the alert track
        blocked = (ALERT_BLOCKS, alert, reserve) if alert and free <= 0 else None
        return itertools.chain(
            self._market_options(p, free, alert, blocked),
            self._cargo_options(p),
            self._post_options(free, alert, blocked),
            self._smuggle_options(p, free, alert, blocked),
            self._pass_options(p),
        )

    def _lower_options(self) -> Iterator[Verdict]:
        """After a trade post: lower any other cargo's price that is above the minimum."""
        for c in range(NT):
            if c == self.raised:
                yield LOWER_ONE[c], (JUST_ROSE, K.CARGOES[c])
            elif self.prices[c] <= K.PRICE_MIN:
                yield LOWER_ONE[c], (AT_LOWEST, K.CARGOES[c])
            else:
                yield LOWER_ONE[c], None

    def _market_options(
        self, p: int, free: int, alert: int, blocked: Refusal | None
    ) -> Iterator[Verdict]:
        """Buying at a harbor (ships after the alert track) and exchanging (held cargo)."""
        for c in range(NT):
            cost = self.harbor_cost(p, c)
            yield (
                BUY_ONE[c],
                blocked
                or (None if cost <= free else (HARBOR_COST, K.CARGOES[c], cost, free, alert)),
            )
        hold = self.hold[p]
        if self.exchanges[p] >= K.MAX_EXCHANGES_PER_ROUND:
            for a in range(NCARGO):
                yield EXCHANGE_FROM[a], (EXCHANGES_USED, K.MAX_EXCHANGES_PER_ROUND)
            return
        for a in range(NCARGO):
            price = price_of(self.prices, a)
            yield (
                EXCHANGE_FROM[a],
                (None if hold[a] >= price else (EXCHANGE_COST, K.CARGOES[a], price, hold[a])),
            )

    def _cargo_options(self, p: int) -> Iterator[Verdict]:
        """Completing a displayed order and investing: both paid with held cargo."""
        hold, levels = self.hold[p], self.levels[p]
        for card in self.display:
            needs = ORDER_NEEDS[card]
            for c, count in needs:
                if hold[c] < count:
                    yield ORDER_ONE[card], (_order_shortfall, card, needs, hold)
                    break
            else:
                yield ORDER_ONE[card], None
        yield ORDER, (NOT_DISPLAYED, self.display)
        for c in range(NT):
            level = levels[c]
            if level >= K.INVESTMENT_MAX:
                yield INVEST_ONE[c], (FULLY_INVESTED, K.CARGOES[c], level)
                continue
            cost = K.INVESTMENT_COST[level + 1]
            yield (
                INVEST_ONE[c],
                None if hold[c] >= cost else (INVEST_COST, K.CARGOES[c], level + 1, cost, hold[c]),
            )

    def _post_options(self, free: int, alert: int, blocked: Refusal | None) -> Iterator[Verdict]:
        """A trade post on a free spot whose ships the player can send."""
        for c in range(NT):
            costs, actions = _open_posts(c, tuple(self.areas[c]))
            if blocked:
                yield actions, blocked
            else:
                affordable = bisect.bisect_right(costs, free)
                yield actions[:affordable], None
                yield actions[affordable:], (_post_too_costly, free, alert)
            yield POST_AREA[c], (_no_post_spot, K.CARGOES[c])

    def _smuggle_options(
        self, p: int, free: int, alert: int, blocked: Refusal | None
    ) -> Iterator[Verdict]:
        """Smuggling k ships: at most what can be sent, enough to lead the opium spot alone."""
        if blocked:
            yield SMUGGLE[1:], blocked
            return
        opium = self.opium_ships
        most_other = max((opium[q] for q in range(self.num_players) if q != p), default=0)
        fewest = most_other + 1 - opium[p]  # fewer leaves someone level with or above him
        too_many = max(free, 0) + 1
        enough = max(1, min(fewest, too_many))
        yield SMUGGLE[1:enough], (NOT_MOST_OPIUM,)
        yield SMUGGLE[enough:too_many], None
        yield SMUGGLE[too_many:], (SMUGGLE_SHIPS, free, alert)

    def _pass_options(self, p: int) -> Iterator[Verdict]:
        """Passing with a raid token still on the track (the opium marker only sometimes)."""
        tokens = self.alert
        for t in tokens:
            if t == OPIUM and not self._can_take_opium_marker(p):
                yield PASS_ONE[t], (OPIUM_MARKER,)
            elif t != EMPTY:
                yield PASS_ONE[t], None
        for t in range(NCARGO):
            if t not in tokens:
                yield PASS_ONE[t], (RAID_MARKER_GONE, K.CARGOES[t])

    def _why_illegal(self, action: object) -> str:
        """A specific reason, because bot authors read these in their match logs."""
        if self.phase == OVER:
            return "the game is over"
        legal = self._legal or []
        shown = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
        if not isinstance(action, str):
            return (
                f"East Indiaman actions are strings, not {type(action).__name__}; "
                f"legal now: {shown}"
            )
        if action not in PARSED:
            why = _never_legal(action)
            return f"{action!r} is not an East Indiaman action{why}; legal now: {shown}"
        kind = PARSED[action][0]
        if self.phase == LOWER and kind != "lower":
            return (
                f"you built a trade post: first lower the price of a cargo other than "
                f"{K.CARGOES[self.raised]}; legal now: {shown}"
            )
        if self.phase == ACTION and kind == "lower":
            return "prices are lowered only right after building a trade post"
        for actions, refusal in self._options():
            if action in actions and refusal is not None:
                return refusal_text(refusal, action)
        return f"{action!r} is not legal now; legal now: {shown}"

    # ------------------------------------------------------------------ actions
    def _pay_alert(self, p: int) -> None:
        for s, t in enumerate(self.alert):
            if t == EMPTY and not self.alert_ships[s][p]:
                self.alert_ships[s][p] = True
                self.reserve[p] -= 1

    def _receive(self, p: int, cargo: int, count: int) -> None:
        """Move up to ``count`` reserve ships into a hold; cargo without a ship is lost."""
        got = min(count, self.reserve[p])
        self.reserve[p] -= got
        self.hold[p][cargo] += got

    def _use(self, p: int, cargo: int, count: int) -> None:
        self.hold[p][cargo] -= count
        self.reserve[p] += count

    def _gain_arms(self, p: int) -> None:
        self.arms[p] = min(K.ARMS_TRACK_MAX, self.arms[p] + 1)

    def _buy(self, p: int, cargo: int) -> None:
        self._pay_alert(p)
        cost = self.harbor_cost(p, cargo)
        self.reserve[p] -= cost
        self.harbor[p][cargo] += cost
        self.spots_taken[p] += 1
        self._receive(p, cargo, 1)

    def _exchange(self, p: int, give: int, get: int) -> None:
        self.exchanges[p] += 1
        received = exchange_yield(self.prices, give, get)
        self._use(p, give, price_of(self.prices, give))
        self._receive(p, get, received)

    def _complete_order(self, p: int, card: int) -> None:
        req = K.ORDER_CARDS[card].req
        for c in range(NT):
            if req[c]:
                self._use(p, c, req[c])
        self.display.remove(card)
        self.completed[p].append(card)

    def _invest(self, p: int, cargo: int) -> None:
        level = self.levels[p][cargo] + 1
        self._use(p, cargo, K.INVESTMENT_COST[level])
        self.levels[p][cargo] = level
        if self.supply[p]:
            self.supply[p] -= 1
            self.reserve[p] += 1
        if level == K.INVESTMENT_MAX:
            self._gain_arms(p)

    def _build_post(self, p: int, area: int, cost: int) -> None:
        self._pay_alert(p)
        owners = self.areas[area]
        spot = next(
            i
            for i, need in enumerate(K.TRADE_POST_MIN_SHIPS[area])
            if need == cost and owners[i] == EMPTY
        )
        owners[spot] = p
        self.reserve[p] -= cost
        self.supply[p] += cost - 1
        self.posts[p][area] += 1
        if self.posts[p][area] == K.POSTS_FOR_ARMS:
            self._gain_arms(p)
        self.prices[area] = min(K.PRICE_MAX, self.prices[area] + 1)
        if any(self.prices[c] > K.PRICE_MIN for c in range(NT) if c != area):
            self.raised = area
            self.phase = LOWER

    def _pass(self, p: int, token: int) -> None:
        spot = self.alert.index(token)
        self.alert[spot] = EMPTY
        self.raid[p] = token
        self.passed[p] = True
        self._next_turn()

    def _action_done(self) -> None:
        self.actions_done += 1
        if self.actions_done == 2:
            self._next_turn()

    def _next_turn(self) -> None:
        n = self.num_players
        self.actions_done = 0
        for step in range(1, n + 1):
            q = (self.active + step) % n
            if not self.passed[q]:
                self.active = q
                return
        self._end_round()

    # ------------------------------------------------------------------ round end
    def _reveal_orders(self) -> None:
        for _ in range(min(K.ORDERS_PER_ROUND[self.round - 1], len(self.deck))):
            self.display.append(self.deck.pop())

    def _icons(self, p: int, resource: str) -> int:
        return sum(K.ORDER_CARDS[card].icons.count(resource) for card in self.completed[p])

    def _end_round(self) -> None:
        n = self.num_players
        # 3-1 orders left on display are discarded (kept after round 4)
        if self.round != K.CARRY_ORDERS_AFTER_ROUND:
            self.discards.extend(self.display)
            self.display = []
        # 3-2 the unique leader on the opium spot moves one of those ships to his hold
        most = max(self.opium_ships)
        leaders = [p for p in range(n) if self.opium_ships[p] == most]
        if most > 0 and len(leaders) == 1:
            self.opium_ships[leaders[0]] -= 1
            self.hold[leaders[0]][OPIUM] += 1
        # 3-3 every ship on harbors, the opium spot and the alert track goes back to reserve
        for p in range(n):
            self.reserve[p] += sum(self.harbor[p]) + self.opium_ships[p]
            self.harbor[p] = [0] * NT
            self.opium_ships[p] = 0
            self.spots_taken[p] = 0
        for s in range(ALERT_SPOTS):
            for p in range(n):
                if self.alert_ships[s][p]:
                    self.reserve[p] += 1
                    self.alert_ships[s][p] = False
        # 3-4 raid tokens return and pay a supply ship into the matching hold
        for p in range(n):
            token = self.raid[p]
            if token != EMPTY and self.supply[p]:
                self.supply[p] -= 1
                self.hold[p][token] += 1
            self.raid[p] = EMPTY
        self.alert = [OPIUM, *range(NT)]
        # 3-5 arms resource majority over all completed orders (at least one icon)
        resource = self.arms_markers[self.round - 1]
        icons = [self._icons(p, resource) for p in range(n)]
        top = max(icons)
        if top > 0:
            for p in range(n):
                if icons[p] == top:
                    self._gain_arms(p)
        # 3-6 the first player marker moves clockwise
        self.passed = [False] * n
        self.exchanges = [0] * n
        self.raised = EMPTY
        if self.round == K.ROUNDS:
            self._score()
            return
        self.round += 1
        self.first_player = (self.first_player + 1) % n
        self.active = self.first_player
        self._reveal_orders()

    def _score(self) -> None:
        n = self.num_players
        influence = influence_points(self.posts)
        arms = arms_points(self.arms)
        rows = []
        for p in range(n):
            row = {
                "orders": order_points(self.levels[p], self.completed[p]),
                "influence": influence[p],
                "arms": arms[p],
            }
            row["total"] = row["orders"] + row["influence"] + row["arms"]
            rows.append(row)
        self.final = rows
        self.phase = OVER
        self.active = 0


def max_decisions(num_players: int) -> int:
    """The most decisions a game at ``num_players`` can take (docs/games/east_indiaman.md).

    Per player and round: one pass, at most ``MAX_EXCHANGES_PER_ROUND`` exchanges (the
    anti-stall ruling), and buys plus smuggles that each send at least one ship of his reserve
    and hold to the board until the round ends; reserve and hold together gain a ship only by
    investing, so those are at most his ``TOKENS_PER_COLOUR`` tokens plus his investments. Over
    the game: at most 16 investments per player (4 cargoes x 4 levels), every order card
    completed once, every trade-post spot built once, each followed by at most one ``lower``.
    """
    per_round = 1 + K.MAX_EXCHANGES_PER_ROUND + K.TOKENS_PER_COLOUR
    investments = NT * (K.INVESTMENT_MAX - K.INVESTMENT_START)
    spots = sum(len(spots) for spots in K.TRADE_POST_MIN_SHIPS)
    per_player = K.ROUNDS * per_round + 2 * investments  # invest, and a buy it pays for
    return num_players * per_player + len(K.ORDER_CARDS) + 2 * spots
