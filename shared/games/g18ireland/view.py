"""What a seat sees. Everything on the table is public after the set-up's public draw: the money
side (`core18xx.money.view`: players, companies, market, depot), the board (`core18xx.board.view`), the
set-up's draw, where the game stands, and the moves programs made in the last decision. A seat's
own program and its messages are added to its view only (`programs`)."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board.view import board_view, tile_defs
from shared.games.core18xx.memo import Memo
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import view as MV
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import flow as F
from shared.games.g18ireland import programs as PG
from shared.games.g18ireland.state import State


def _position(state: State) -> dict[str, Any]:
    pos: dict[str, Any] = {"round": state.round, "turn": state.money.turn}
    if state.operating is not None:
        op = state.operating
        pos.update(operating=f"{op.number}/{op.rounds}", order=op.order,
                   company=op.turn.corp if op.turn else None, step=op.turn.stage if op.turn else None,
                   lays=op.turn.lays if op.turn else 0, revenue=op.turn.revenue if op.turn else None)
    if state.stock is not None and state.stock.auction is not None:
        a = state.stock.auction
        pos["minor_auction"] = {"minor": a.corporation, "bids": [[int(p), v] for p, v in a.bids]}
    if state.auction is not None:
        pos["privates"] = [{"company": o.company, "price": o.price} for o in state.auction.offers]
        pos["bids"] = [{"player": int(b.player), "company": b.company, "price": b.price}
                       for b in getattr(state.auction, "bids", [])]
    if state.merger is not None:
        mr = state.merger
        pos["merger"] = {"merging": mr.merging, "proposer": None if mr.proposer is None else int(mr.proposer),
                         "votes_for": mr.votes_for, "votes_against": mr.votes_against,
                         "votes_needed": mr.votes_needed, "outcome": mr.outcome}
    if state.pending:
        pos["token_to_place"] = {"company": state.pending[0].corp, "kind": state.pending[0].kind,
                                 "placed_by": state.pending[0].placer}
    return pos


def _program_moves(state: State) -> list[dict[str, Any]]:
    out = []
    for made in state.programs.made:
        move = made.action
        seat = int(made.player)
        if isinstance(move, A.BuyShares):
            what = f"buys a {move.percent}% share of {state.money.book.certs[move.shares[0]].corporation}"
        elif isinstance(move, A.Bid):
            what = f"bids {move.price} on {move.company}"
        else:
            what = "passes"
        out.append({"seat": seat, "type": PG.tag(move), "action": msgspec.to_builtins(move),
                    "text": f"{state.seats[seat]} {what} (program)"})
    return out


# The public part is the same for every seat: built once per state for the seats' views (the
# projection asks for each seat's view of the same state). Keyed by the state's id, the entry
# holding the state so the id is not reused while cached.
_PUBLIC = Memo(4)


def round_label(state: State) -> str:
    """The history's round label, as the projection reads it from the view's position ("stock/3",
    "operating/2"), without building the view: a table's history is indexed in one pass."""
    return f"{state.round}/{state.money.turn}"


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    encoded = _PUBLIC.get(id(state), (state,))
    if encoded is None:
        encoded = _PUBLIC.put(id(state), (state,), msgspec.json.encode(_public(state)))
    out: dict[str, Any] = msgspec.json.decode(encoded)
    if seat is not None and 0 <= seat < len(state.players):
        out["programs"] = PG.view_of(state.programs, state.players[seat])
    return out


def _public(state: State) -> dict[str, Any]:
    money = MV.view(state.money, state.depot)
    for player in money["players"]:
        player["seat"] = int(player["id"])
        player["name"] = state.seats[int(player["id"])]
        # What the result would score now (cash, shares at their price, privates at face value).
        player["value"] = O.player_value(state.money, player["id"], F.COMPANY_VALUES)
    return {
        "position": _position(state),
        "seats": list(state.seats),
        **money,                                    # players in priority order, companies, market, depot
        "setup": {"privates": state.setup.companies, "removed_privates": state.setup.removed_companies,
                  "removed_minor": state.setup.removed_minor, "larger_bank": state.larger_bank},
        "assigned": {c: {"hex": h, "company": who} for c, (h, who) in state.assigned.items()},
        "end": None if state.end is None else {"reason": state.end[0], "when": state.end[1]},
        "board": _board(state),
        "tile_defs": tile_defs(BO.the_map()),
        "program_moves": _program_moves(state),
    }


def _board(state: State) -> dict[str, Any]:
    """The core's board picture, each city and town also carrying 18xx.games' id for it (`ref`,
    as `place_token` names a city), so the page can tie a token family to a drawn slot."""
    m = BO.the_map()
    out = board_view(m, state.board, BO.colors(state))
    for hx in out["hexes"]:
        for i, node in enumerate(hx["nodes"]):
            if node["kind"] != "junction":
                node["ref"] = B.node_id(m, state.board, hx["hex"], i)
    return out
