"""Private companies' tile lays during their owning company's turn (18xx.games `tile_lay`
abilities as 18Ireland defines them, entities.json; facts, own code):

- DR (Donegal Railway): two connected yellow narrow-gauge tiles, the first on Donegal (F4), the
  second next to it; both at once (`must_lay_together`, `must_lay_all`); then it closes.
- TDR (Tralee & Dingle): two connected IR5 tiles on A19 and B18, together; then it closes.
- BoW (Board of Works): one of the company's own lays, free of terrain cost (the lay's fee
  still due); the card says "a yellow tile", but 18xx.games lets it upgrade wherever that lay
  may; after two uses it closes.
- DCR (Drumglass Colliery Railway): one tile on H4, free of terrain, not using a lay, at any point
  of the owning company's turn (`owning_corp_or_turn`), with no connection needed (as
  18xx.games has it); as for BoW, an upgrade of H4 counts.
- TIM (Irish Mail): the Irish Mail offboard tile on one of its sea hexes; then it closes.

The others lay at the track step. A lay is a `lay_tile` action whose entity is the private.
Readings: the second tile of a pair is offered only where it joins the first
(`track.tiles_connect`), and a first tile only where some second can follow, so a pair once
begun can always be finished; while a pair is open nothing else can be done.
"""

from __future__ import annotations

import msgspec

from shared.engine import LegalAction, RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import track as TR
from shared.games.core18xx.choice import trie
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import shares as S
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland.map import SPECIAL_LAY_COUNTS, SPECIAL_LAYS, TRACK_RULES
from shared.games.g18ireland.state import Pending, State
from shared.games.g18ireland.turn_context import board_changed

replace = msgspec.structs.replace

PAIRED = {"DR": ("F4",), "TDR": ()}        # company -> hexes its first tile must take (() = any of its hexes)
CONSUMES_LAY = frozenset({"BoW"})
ANY_TIME = frozenset({"DCR"})              # owning_corp_or_turn: not only at the track step
CLOSES_WHEN_USED_UP = frozenset({"DR", "TDR", "BoW", "TIM"})
OWN_LAY = TR.LaySlot(lay=True, upgrade=True)


def usable(state: State) -> list[str]:
    op = state.operating
    if op is None or op.turn is None or op.turn.stage == "done":
        return []
    if state.pair is not None:
        return [state.pair[0]]
    turn = op.turn
    out = []
    for company in SPECIAL_LAYS:
        if state.money.companies.get(company) != turn.corp:
            continue
        if state.special_used.get(company, 0) >= SPECIAL_LAY_COUNTS[company]:
            continue
        if company not in ANY_TIME and turn.stage != "track":
            continue
        out.append(company)
    return out


def _slot(state: State, company: str) -> TR.LaySlot | None:
    # 18xx.games holds a private's lay to its tile list, hexes and the phase, not to the card's
    # "yellow": BoW takes the company's next lay as it stands (an upgrade where that lay may
    # upgrade, with its fee), a private with its own lay may also upgrade
    if company not in CONSUMES_LAY:
        return OWN_LAY
    op = state.operating
    assert op is not None and op.turn is not None
    return BO.lay_slot(state, op.turn.corp, op.turn.lays, op.turn.upgraded)


def _raw_lays(state: State, company: str, board: B.BoardState, hexes: tuple[str, ...] = ()) -> list[TR.Lay]:
    op = state.operating
    assert op is not None and op.turn is not None
    slot = _slot(state, company)
    if slot is None:
        return []
    special = SPECIAL_LAYS[company]
    if hexes:
        special = replace(special, hexes=hexes)
    return TR.legal_lays(BO.the_map(), board, op.turn.corp, BO.colors(state), slot, rules=TRACK_RULES,
                         blocked=BO.blocked(state), cash=state.money.cash[op.turn.corp], special=special)


def _second_lays(state: State, company: str, board: B.BoardState, first: str) -> list[TR.Lay]:
    m = BO.the_map()
    rest = tuple(h for h in SPECIAL_LAYS[company].hexes if h != first)
    return [x for x in _raw_lays(state, company, board, rest)
            if TR.tiles_connect(m, B.lay(m, board, x.hex, x.tile, x.rotation), first, x.hex)]


def lays(state: State, company: str) -> list[TR.Lay]:
    """The lays `company` may make now (for a pair: a first tile some second can join)."""
    if state.pair is not None:
        return _second_lays(state, company, state.board, state.pair[1])
    if company not in PAIRED:
        return _raw_lays(state, company, state.board)
    m = BO.the_map()
    out = []
    for x in _raw_lays(state, company, state.board, PAIRED[company]):
        after = B.lay(m, state.board, x.hex, x.tile, x.rotation)
        if _second_lays(state, company, after, x.hex):
            out.append(x)
    return out


def legal(state: State) -> list[LegalAction]:
    out = []
    for company in usable(state):
        rows = []
        for x in lays(state, company):
            copy = BO.tile_copy(state, x.tile)
            if copy is not None:
                rows.append((x.hex, copy, x.rotation))
        choices = trie(("hex", "tile", "rotation"), rows)
        if choices is not None:
            first = rows[0]
            out.append(LegalAction(action=A.LayTile(entity=company, entity_type="company", hex=first[0],
                                                    tile=first[1], rotation=first[2]), choices=choices))
    return out


def apply_lay(state: State, action: A.LayTile, own_lay_open: bool) -> State:
    """`action`, a private's lay; `own_lay_open`: the company's track step waits for a lay (what
    a private using one of the company's lays, BoW, needs)."""
    company = str(action.entity)
    if company not in usable(state):
        raise RuleError("cannot_use_private", f"{company} cannot lay a tile now")
    op = state.operating
    assert op is not None and op.turn is not None
    turn = op.turn
    name = action.tile.rpartition("-")[0] or action.tile
    copy = BO.tile_copy(state, name)
    if copy is None or action.tile != copy:
        raise RuleError("wrong_tile_copy", f"the next {name} tile is {copy}, not {action.tile}")
    lay = next((x for x in lays(state, company)
                if (x.hex, x.tile, x.rotation) == (action.hex, name, action.rotation)), None)
    if lay is None or action.combo_entities:
        raise RuleError("illegal_lay", f"{company} cannot lay {name} on {action.hex} at rotation {action.rotation}")
    if company in CONSUMES_LAY and not own_lay_open:
        raise RuleError("not_now", "no tile can be laid now")
    m = BO.the_map()
    upgrade = B.tile_at(m, state.board, action.hex).tile.color != "white"
    board, lifted = B.lay_lifting(m, state.board, action.hex, name, action.rotation, copy)
    pending = [*state.pending, *(Pending(c, "relocate", action.hex, by=turn.corp) for c in lifted)]
    after = replace(board_changed(state, board), pending=pending)
    money = state.money
    if lay.cost:
        money = replace(money, cash=S.pay(money.cash, turn.corp, S.BANK, lay.cost))
    if company in CONSUMES_LAY:
        turn = replace(turn, lays=turn.lays + 1, upgraded=turn.upgraded or upgrade)
    used = {**state.special_used, company: state.special_used.get(company, 0) + 1}
    pair = state.pair
    if company in PAIRED:
        pair = None if pair is not None else (company, action.hex)
    if used[company] >= SPECIAL_LAY_COUNTS[company] and company in CLOSES_WHEN_USED_UP:
        money = O.close_private(money, company)
    return replace(after, money=money, operating=replace(op, turn=turn), special_used=used, pair=pair)
