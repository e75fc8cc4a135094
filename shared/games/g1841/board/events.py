"""The board side of 1841's events and mergers: the border changes, the Ferdinandea
secession, the Tuscan merge, and what a merger or a transformation does to station tokens.

18xx.games (`event_phase4_regions!`, `event_phase5_regions!`, `event_ferd_secession!`,
`secession_replace_other_tokens`, `secession_tokens`, `event_tuscan_merge!`,
`tuscan_merge_start`, `merger_tokens_start`, `merger_tokens_finish`, `merger_finish`,
`transform_start`, `transform_tokens`, step/remove_tokens.rb; facts, own code). The money,
shares and order of play of these events are the engine's; here only tokens and borders.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import msgspec

from shared.games.core18xx.board import network
from shared.games.core18xx.board import state as S
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.network import NodeRef
from shared.games.core18xx.board.state import BoardError, BoardState
from shared.games.g1841 import data
from shared.games.g1841.board import graph, regions
from shared.games.g1841.board.stations import version

MAX_TOKENS = 5


# ---- borders ---------------------------------------------------------------------------------

BORDER_EVENTS = {"phase4_regions": 4, "phase5_regions": 5}


def border_event(m: MapDef, b: BoardState, variant: str, event: str) -> BoardState:
    """The board after a border event ("phase4_regions": the first 4-train; "phase5_regions":
    the first 5-train): that phase's borders replace those standing."""
    if event not in BORDER_EVENTS:
        raise ValueError(f"{event} is no border event")
    return regions.phase_board(m, b, variant, BORDER_EVENTS[event])


# ---- the Ferdinandea secession ---------------------------------------------------------------

def milano_venezia_connected(m: MapDef, b: BoardState, variant: str, old: str = "IRSFF") -> bool:
    """Whether some corporation's network, walked from one of its bases on the plain graph,
    holds both IRSFF's Milano and Venezia cities (then there is no secession). Without a
    token of IRSFF on either, they are not connected."""
    homes = data.home_hexes(variant).get(old, ())
    mine = network.token_nodes(m, b, old)
    ends = [next((r for r in mine if r[0] == h), None) for h in homes]
    if len(ends) != 2 or None in ends:
        return False
    board = regions.open_board(m, b)
    for corp in S.token_owners(board):
        if not corp:
            continue
        for base in graph.railheads(m, board, corp):
            nodes = graph.from_base(m, board, corp, base).nodes
            if ends[0] in nodes and ends[1] in nodes:
                return True
    return False


def secession_happens(m: MapDef, b: BoardState, variant: str, irsff_floated: bool) -> bool:
    """On the first 4-train: IRSFF splits when it has floated and Milano and Venezia are not
    connected (else SB/SFV and SFL close)."""
    return irsff_floated and not milano_venezia_connected(m, b, variant)


def secession_corporations(variant: str) -> tuple[str, str]:
    """(the Austrian half, which takes Veneto, the other half): SB and SFL, SFV in version 1."""
    return ("SB" if version(variant) == 2 else "SFV"), "SFL"


class Secession(msgspec.Struct, frozen=True):
    board: BoardState
    tokens: dict[str, int]  # each new corporation's token count, placed and not


def secession_tokens(m: MapDef, b: BoardState, variant: str, unplaced: int,
                     order: Sequence[NodeRef] | None = None, old: str = "IRSFF") -> Secession:
    """IRSFF's tokens shared out (`secession_replace_other_tokens`): in its token order (`order`,
    else the board's), a token in Veneto becomes the Austrian half's, any other the other
    half's (version 1: at most two each, the rest stay IRSFF's where they are); then its `unplaced` tokens go
    in turn to the Austrian half, the other half, ...; each ends with at least two."""
    newa, newb = secession_corporations(variant)
    veneto = set(data.map_data(variant)["veneto"])
    v1 = version(variant) == 1
    placed = network.token_nodes(m, b, old)
    if order is not None:
        placed = [r for r in order if r in placed] + [r for r in placed if r not in order]
    count = {newa: 0, newb: 0}
    out = b
    for coord, city in placed:
        to = newa if coord in veneto else newb
        if v1 and count[to] > 1:
            # not swapped: the token stays IRSFF's, on the map after IRSFF closes (18xx.games'
            # `close!` leaves a corporation's placed tokens where they are)
            continue
        row = [list(s) for s in S.slots(m, out, coord)]
        row[city][row[city].index(old)] = to
        count[to] += 1
        tokens = dict(out.tokens)
        tokens[coord] = tuple(tuple(s) for s in row)
        out = msgspec.structs.replace(out, tokens=tokens)
    for i in range(unplaced):
        to = newa if i % 2 == 0 else newb
        if not v1 or count[to] < 2:
            count[to] += 1
    for corp in count:
        count[corp] = max(count[corp], 2)
    return Secession(out, count)


def secession_purchase_limit(tokens: int, cash: int) -> int:
    """How many more tokens (L.50 each) a new corporation of the default game's secession may
    buy: up to five in all, as far as its cash goes (`secession_tokens`)."""
    cost = int(data.entities("default")["secession_token_cost"])
    if tokens >= MAX_TOKENS or cash < cost:
        return 0
    return min(cash // cost, MAX_TOKENS - tokens)


# ---- the Tuscan merge ------------------------------------------------------------------------

def tuscan_merge_happens(floated: Collection[str]) -> bool:
    """On the first 4-train (not in lite): two or more of SFLP, SFMA and SSFL have floated."""
    return sum(1 for c in ("SFLP", "SFMA", "SSFL") if c in floated) >= 2


def tuscan_merge_steps(floated: Collection[str], holding: str) -> list[tuple[str, tuple[str, ...], str]]:
    """The merge's steps as (kind, corporations, target): two minors merge into `holding` (the
    first general major not floated, else "Holding"), or the one floated minor transforms into
    it; then `holding` and SSFL merge into SFLi. Without SSFL, SFLP and SFMA merge into SFLi."""
    sflp, sfma, ssfl = ("SFLP" in floated), ("SFMA" in floated), ("SSFL" in floated)
    if sflp and sfma and ssfl:
        return [("merge", ("SFLP", "SFMA"), holding), ("merge", (holding, "SSFL"), "SFLi")]
    if not sflp:
        return [("transform", ("SFMA",), holding), ("merge", (holding, "SSFL"), "SFLi")]
    if not sfma:
        return [("transform", ("SFLP",), holding), ("merge", (holding, "SSFL"), "SFLi")]
    return [("merge", ("SFLP", "SFMA"), "SFLi")]


def sfli_runs(variant: str, sfli_run_variant: bool, a_merged_one_operated: bool) -> bool:
    """Whether SFLi operates in the round of the merge: in the default game, or version 1 with
    `sfli_run_variant`, unless one of the Tuscan corporations had already operated (or was
    operating) in it."""
    return (version(variant) == 2 or sfli_run_variant) and not a_merged_one_operated


# ---- mergers and transformations ------------------------------------------------------------

def merge_partners(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str) -> set[str]:
    """Corporations with a token in a city (not a pass) the corporation's region graph reaches:
    those it may merge with, connected by track and not across a standing border
    (`mergeable_candidates`; the engine keeps those of its type that may merge)."""
    out: set[str] = set()
    for coord, n in graph.network(m, regions.open_board(m, b), corp, regions.borders(variant, phase)).nodes:
        if coord in m.no_start_hexes or S.tile_at(m, b, coord).tile.nodes[n].kind != "city":
            continue
        out.update(o for o in S.slots(m, b, coord)[n] if o and o != corp)
    return out


def merger_duplicates(m: MapDef, b: BoardState, a: str, other: str) -> list[NodeRef]:
    """Cities where both merging corporations have a token: `other`'s comes off."""
    return [r for r in network.token_nodes(m, b, other) if a in S.slots(m, b, r[0])[r[1]]]


def remove_duplicates(m: MapDef, b: BoardState, a: str, other: str) -> BoardState:
    for coord, city in merger_duplicates(m, b, a, other):
        b = S.remove_token(m, b, other, coord, city)
    return b


def shared_hex(m: MapDef, b: BoardState, a: str, other: str) -> str | None:
    """After the duplicates: a hex where the two have tokens in different cities of one tile
    (yellow Firenze, 1841's only two-city tile): one of the two tokens must come off."""
    for coord, _ in network.token_nodes(m, b, other):
        if any(a in s for s in S.slots(m, b, coord)):
            return coord
    return None


def _map_count(m: MapDef, b: BoardState, *corps: str) -> int:
    return sum(len(network.token_nodes(m, b, c)) for c in corps)


class Removal(msgspec.Struct, frozen=True):
    """What a merger asks of its target's president: remove between `fewest` and `most` of
    the merging corporations' tokens from `hexes`; the target then has `tokens` tokens."""

    fewest: int
    most: int
    hexes: tuple[str, ...]
    tokens: int


def merger_removal(m: MapDef, b: BoardState, variant: str, a: str, other: str, tokens_a: int, tokens_b: int,
                   duplicates: int, tuscan: str = "") -> Removal:
    """`merger_tokens_finish` after the duplicates (and the shared hex) are resolved on `b`:
    `tokens_a`/`tokens_b` were the corporations' token counts (placed and not) before, of which
    `duplicates` came off. A merger keeps up to five tokens, at least one on the charter when
    there are more. In the Tuscan merge (`tuscan`): its "first" step (two minors into the
    holding) only swaps tokens and leaves four; its "last" gives SFLi five and never removes
    Pisa's or Firenze's token."""
    nodes = network.token_nodes(m, b, a) + network.token_nodes(m, b, other)
    hexes = [c for c, _ in nodes]
    on_map = len(nodes)
    if tuscan == "first":
        return Removal(0, 0, (), 4)
    if tuscan == "last":
        keep = [h for h in hexes if h in data.map_data(variant)["tuscan_token_hexes"]]
        rest = tuple(h for h in hexes if h not in keep)
        left = on_map - len(keep)
        return Removal(max(left - (MAX_TOKENS - len(keep)), 0), left, rest, MAX_TOKENS)
    total = tokens_a + tokens_b - duplicates
    target = min(total, MAX_TOKENS)
    unplaced = total - on_map
    max_unplaced = min(unplaced, target - 1)
    min_unplaced = max(target - on_map, 0)
    fewest = on_map - (target - min_unplaced)
    # with more tokens on the map than the pair owns after a shared hex's removal (counted
    # twice, as 18xx.games counts it) its `most` falls below `fewest` and 18xx.games leaves more
    # tokens on the map than the new major has (its `swap_token` then fails): remove down to them
    return Removal(fewest, max(fewest, on_map - (target - max_unplaced)), tuple(hexes), target)


def tuscan_frozen_removals(m: MapDef, b: BoardState, variant: str, a: str, other: str) -> list[NodeRef]:
    """The tokens a Tuscan merge removes by itself when SFLi has no president: every token off
    Pisa and Firenze; if neither has one, all but the token in the city whose location name
    comes first (passes aside)."""
    keep_hexes = set(data.map_data(variant)["tuscan_token_hexes"])
    nodes = network.token_nodes(m, b, a) + network.token_nodes(m, b, other)
    gone = [r for r in nodes if r[0] not in keep_hexes]
    if not any(r[0] in keep_hexes for r in nodes):
        cities = [r for r in gone if r[0] not in m.no_start_hexes]
        if cities:
            keep = min(cities, key=lambda r: m.hexes[r[0]].name or "")
            gone.remove(keep)
    return gone


def remove_tokens(m: MapDef, b: BoardState, owners: Collection[str], which: Sequence[NodeRef]) -> BoardState:
    """Take the merging corporations' tokens off `which` (the choices made), refusing to
    remove the last token in a city that is no pass (step/remove_tokens.rb)."""
    for coord, city in which:
        row = S.slots(m, b, coord)[city]
        owner = next((o for o in row if o in owners), None)
        if owner is None:
            raise BoardError("no_token", f"no token of {', '.join(sorted(owners))} in {coord}")
        cities = [r for c in owners for r in network.token_nodes(m, b, c) if r[0] not in m.no_start_hexes]
        if cities == [(coord, city)]:
            raise BoardError("last_token", "the last token in a city cannot be removed")
        b = S.remove_token(m, b, owner, coord, city)
    return b


def merged_tokens(b: BoardState, corps: Sequence[str], target: str) -> BoardState:
    """Every token of `corps` left on the map becomes `target`'s (`merger_finish`,
    `transform_start`)."""
    for corp in corps:
        b = S.replace_tokens(b, corp, target)
    return b


def transform_token_options(tokens: int, cash: int) -> tuple[int, int, int, int]:
    """(first price, further price, fewest, most) for the tokens a minor turned major buys
    (`transform_tokens`): with one token it must buy one at L.50, then may buy more at L.100,
    up to five in all; with two or more, optional ones at L.100."""
    cost = data.entities("default")["transform_token_cost"]
    required, optional = int(cost["required"]), int(cost["optional"])
    fewest = 1 if tokens == 1 else 0
    first = optional if fewest == 0 else required
    pay = 0 if fewest == 0 else required
    most = min(max((cash - pay) // optional, 0) + fewest, MAX_TOKENS - tokens)
    return first, optional, fewest, most
