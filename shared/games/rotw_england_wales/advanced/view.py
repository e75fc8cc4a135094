"""View and redaction of the advanced game. The only secret is a merger vote cast before
every voter has voted: others see that a seat has voted, never how."""

from __future__ import annotations

from typing import Any

import msgspec

from ..board import get_board
from ..goods import city_colour
from ..rng import make_rng
from ..state import OVER, State, draft
from . import build, end, flow
from .shares import adv, outstanding, price_order
from .state import VOTE


def build_view(s: State, seat: int | None, active: frozenset[int]) -> dict[str, Any]:
    a = adv(s)
    board = get_board(s.board)
    companies = [{
        "id": c.id, "name": c.name, "start_price": c.start_price, "price": c.price, "cash": c.cash,
        "card": c.card, "available": c.available, "issued": c.issued, "held": c.held,
        "outstanding": outstanding(c), "controller": c.controller, "bonds": c.bonds, "income": c.income,
        "links": sum(1 for link in s.links if link.complete and link.owner == i),
    } for i, c in enumerate(a.companies)]
    v: dict[str, Any] = {
        "title": "rotw-england-wales", "game": "advanced", "map": board.name, "layout": board.layout,
        "phase": s.phase, "round": s.turn, "company_turn": a.turn, "first": s.first,
        "to_act": sorted(active), "active_seats": sorted(active),
        "players": [{"seat": i, "name": p.name, "cash": p.cash,
                     "shares": {c.id: c.held[i] for c in a.companies if c.held[i]}} for i, p in enumerate(s.players)],
        "companies": companies, "price_order": [a.companies[i].id for i in price_order(s)],
        "order": [a.companies[i].id for i in a.order], "pos": a.pos,
        "cities": [{"hex": h, "name": c.name, "color": city_colour(s, board, h), "cubes": s.cubes.get(h, []),
                    "empty": h in s.empty} for h, c in sorted(board.cities.items())],
        "towns": [{"hex": h, "name": n} for h, n in sorted(board.towns.items())],
        "links": [{"id": link.id, "owner": a.companies[link.owner].id, "a": link.a, "b": link.b, "hexes": link.hexes,
                   "complete": link.complete, "exit": link.exit} for link in s.links],
        "track": {h: [[g.link, g.e1, g.e2] for g in segs] for h, segs in sorted(s.track.items())},
        "bag_size": sum(s.bag.values()), "empty_cities": len(s.empty), "empty_needed": a.end_empty,
        "ending": s.ending, "log": s.log[-60:],
    }
    if a.auction is not None:
        au = a.auction
        v["auction"] = {"company": a.companies[au.company].id, "source": au.source, "auctioneer": au.auctioneer,
                        "high_bid": au.high_bid, "high_bidder": au.high_bidder, "to_act": au.to_act,
                        "passed": au.passed}
    v["chooser"] = a.chooser if a.auction is None else None
    v["out_of_auctions"] = a.out
    if a.build is not None:
        b, ci = a.build, flow.current_company(s)
        raised = build.finish_raise(s, ci)
        # What finishing the open link at least costs and would raise, and what taking it
        # back returns: the player reads both before choosing.
        v["build"] = {"links": b.links, "tiles": b.tiles, "spent": b.spent, "open_link": b.open_link,
                      "finish_cost": build.finish_cost(s, ci),
                      "finish_shares": raised[0] if raised else 0, "finish_bonds": raised[1] if raised else 0,
                      "open_spent": b.open_spent, "open_shares": b.open_shares, "open_bonds": b.open_bonds}
    if s.phase == "dividend":
        v["dividend_step"] = a.div_stage
    if a.merger is not None:
        m = a.merger
        v["merger"] = {"acquirer": a.companies[m.acquirer].id, "target": a.companies[m.target].id,
                       "stage": m.stage, "voters": m.voters,
                       "voted": [m.votes[i] >= 0 for i in range(len(s.players))],
                       "my_vote": None if seat is None or m.votes[seat] < 0 else bool(m.votes[seat])}
    if s.phase == OVER:
        v["scores"] = end.breakdown(s)
    res = end.result(s)
    v["result"] = msgspec.to_builtins(res) if res is not None else None
    return v


def redact(s: State, seat: int, seed: int) -> State:
    """Others' sealed votes (cast, not yet revealed) are re-drawn; the RNG is re-seeded."""
    r = draft(s)
    rng = make_rng(seed)
    m = r.adv.merger if r.adv is not None else None
    if m is not None and r.phase == VOTE:
        for v in m.voters:
            if v != seat and m.votes[v] >= 0:
                k, rng = rng.below(2)
                m.votes[v] = k
    r.rng = rng
    return r
