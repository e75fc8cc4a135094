"""The part of 1841's view the shared 18xx page draws (`services/web/app/core18xx/`), in the shape
it reads for every 18xx title: where the game stands (`position`), the money side
(`core18xx.money.view`: players, companies, market, depot) with what 1841 adds to it (who holds
and controls what, frozen corporations, concessions), the board (`core18xx.board.view`, the
engine's one hex geometry) and the tiles' drawings for a lay's preview. Public information
only: the seat-private sealed bids stay in `view.py`'s `auction`."""

from __future__ import annotations

from functools import cache
from typing import Any

from shared.games.core18xx.board import state as B
from shared.games.core18xx.board.view import board_view, tile_defs
from shared.games.core18xx.money import control as C
from shared.games.core18xx.money import view as MV
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import data as D
from shared.games.g1841 import operating as OP
from shared.games.g1841.board import events as BE
from shared.games.g1841.board import routes as BR
from shared.games.g1841.money import company_values, player_value
from shared.games.g1841.state import State


def page_view(state: State) -> dict[str, Any]:
    money = MV.view(state.money, state.depot)
    corps = state.money.corps
    # During the auction a concession won is paid for at once (as 18xx.games shows it), though
    # the money side settles when the auction ends: a player's row shows it won and paid.
    auction = state.auction if state.round == "auction" else None
    for player in money["players"]:
        pid = player["id"]
        player["value"] = player_value(state.money, pid, state.loans, state.variant)
        if auction is not None:
            won = [c for c, o in auction.owners.items() if o == pid and state.money.companies.get(c) != pid]
            paid = player["cash"] - auction.cash.get(pid, player["cash"])
            player["cash"] -= paid
            player["privates"] = sorted({*player["privates"], *won})
            player["value"] += sum(company_values(state.variant).get(c, 0) for c in won) - paid
        player["seat"] = state.players.index(pid)
        player["name"] = state.seats[player["seat"]]
        player["loan"] = state.loans.get(pid, 0)
        # corporations this player decides for through a chain of corporations (not presided directly)
        player["controls"] = sorted(s for s, c in corps.items() if c.ipoed and not c.closed
                                    and C.controller(state.money, s) == pid and s not in player["presidencies"])
    for company in money["companies"]:
        sym = company["sym"]
        corp = corps[sym]
        company["historical"] = sym in _historical(state.variant)
        if corp.ipoed and not corp.closed:
            company["controller"] = C.controller(state.money, sym)
            company["frozen"] = C.frozen(state.money, sym)
            company["chain"] = list(C.chain_of_control(state.money, sym))
            # certificates of other corporations in its treasury (1841: up to five)
            held: dict[str, int] = {}
            for cert in state.money.book.certs_of(sym):
                if cert.corporation != sym:
                    held[cert.corporation] = held.get(cert.corporation, 0) + cert.percent
            company["shares"] = held
            company["holders"] = {h: p for h, p in state.money.book.holders(sym).items() if p}
            company["tokens"] = state.tokens.get(sym, 0)
            company["tokens_placed"] = BS.placed_tokens(state, sym)
            company["operated"] = sym in state.operated
    m = BS.the_map(state)
    colors = BR.revenue_colors(state.variant, BS.phase(state))
    board = board_view(m, state.board, colors)
    for hx in board["hexes"]:
        for i, node in enumerate(hx["nodes"]):
            if node["kind"] != "junction":
                node["ref"] = B.node_id(m, state.board, hx["hex"], i)
        # a mountain pass (a city to the core's reader): a station that pays nothing
        if (hx["tile"] in D.pass_tiles(state.variant)) if hx["tile"] else hx["hex"] in D.passes(state.variant):
            hx["pass"] = True
    return {
        "position": _position(state),
        "seats": list(state.seats),
        **money,
        "concession_owners": dict(state.money.companies),
        "board": board,
        "tile_defs": tile_defs(D.the_map(state.variant)),
    }


@cache
def _historical(variant: str) -> frozenset[str]:
    return frozenset(c["sym"] for c in D.entities(variant)["corporations"] if c.get("historical"))


def _position(state: State) -> dict[str, Any]:
    pos: dict[str, Any] = {"round": state.round, "turn": state.money.turn}
    op = state.operating
    if op is not None and state.round == "operating":
        step = OP.ROUND.active_step(state) if op.turn else None
        pos.update(operating=f"{op.number}/{op.rounds}", order=list(op.order),
                   company=op.turn.corp if op.turn else None, step=step.name if step else None,
                   lays=op.turn.lays if op.turn else 0, revenue=op.turn.revenue if op.turn else None,
                   merging=op.turn.merging if op.turn else None)
    a = state.auction
    if a is not None and state.round == "auction":
        pos["concession_auction"] = {
            "kind": a.kind, "unsold": list(a.unsold), "auctioning": a.auctioning,
            "bids": [{"player": b.player, "price": b.price} for b in a.bids.get(a.auctioning or "", ()) if b.price >= 0],
            "sold": [{"concession": c, "player": p, "price": a.prices.get(c, 0)} for c, p in a.owners.items()],
            "sealed": sorted(a.blind),      # who has placed sealed bids (never the bids)
        }
    if state.founding:
        f = state.founding[0]
        pos["founding"] = {"company": f.corp, "kind": f.kind}
        if f.kind == "tokens":
            pos["founding"]["token_price"] = BS.token_price(state, f.corp)
    ev = state.event
    if ev is not None:
        q = ev.question
        pos["event"] = {"kind": q.kind, "topic": q.topic, "entity": q.entity, "text": q.text,
                        "choices": list(q.choices), "log": list(ev.log[-12:])}
        if q.topic.startswith("pick_exchange"):
            # the secession's answers "a"/"b" name its two halves
            half_a, half_b = BE.secession_corporations(state.variant)
            pos["event"]["labels"] = {"a": half_a, "b": half_b}
    if state.event_log:
        pos["event_log"] = list(state.event_log[-12:])
    if state.end:
        pos["end"] = {"reason": state.end[0], "when": state.end[1]}
    return pos
