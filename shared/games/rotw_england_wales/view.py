"""What a seat may see (`view`) and the state as a seat may know it (`redact`).

The one place hidden information is removed: other seats' barons (and the two each drew),
the operations deck order, the bag's future draws and the RNG. Everything else on the
table is public; in particular who holds a Railway Inspector is public, because the card is
taken from the face-up display (README 'Hidden information').
"""

from __future__ import annotations

from typing import Any

import msgspec

from . import end, rules
from .board import get_board
from .cards import NAMES
from .goods import city_colour
from .rng import make_rng
from .state import AUCTION, INSPECT, OVER, State, card_kind, draft

HIDDEN = "hidden"


def _card(c: str) -> dict[str, str]:
    return {"id": c, "kind": card_kind(c), "name": NAMES.get(card_kind(c), c)}


def build_view(s: State, seat: int | None, active: frozenset[int]) -> dict[str, Any]:
    board = get_board(s.board)
    over = s.phase == OVER
    players = []
    for i, p in enumerate(s.players):
        mine = seat == i
        players.append({
            "seat": i, "name": p.name, "cash": p.cash, "shares": p.shares, "engine": p.engine, "vp": p.vp,
            "income": rules.income_for(p.vp), "hand": [_card(c) for c in p.hand], "bonus": p.bonus,
            "delivered": p.delivered, "passenger": p.passenger, "stopped": p.stopped,
            "mountain_tiles": p.mountain_tiles,
            "baron": p.baron if (mine or over) else (HIDDEN if p.baron else None),
            "baron_draw": p.baron_draw if mine else None,
            "baron_chosen": bool(p.baron),
        })
    cities = []
    for h in sorted({*board.cities, *s.urban}):
        c = board.cities.get(h)
        cities.append({"hex": h, "name": c.name if c else board.towns[h], "color": city_colour(s, board, h),
                       "printed_color": c.color if c else None,
                       "urbanized": h in s.urban, "cubes": s.cubes.get(h, []), "empty": h in s.empty})
    v: dict[str, Any] = {
        "title": "rotw-england-wales", "map": board.name, "layout": board.layout, "bidding": s.bidding,
        "phase": s.phase, "turn": s.turn, "round": s.round, "first": s.first, "order": s.order,
        "to_act": sorted(active), "active_seats": sorted(active), "players": players, "cities": cities,
        "towns": [{"hex": h, "name": n, "urbanized": h in s.urban} for h, n in sorted(board.towns.items())],
        "links": [{"id": link.id, "owner": link.owner, "a": link.a, "b": link.b, "hexes": link.hexes, "complete": link.complete,
                   "exit": link.exit, "turn": link.turn} for link in s.links],
        "track": {h: [[g.link, g.e1, g.e2] for g in segs] for h, segs in sorted(s.track.items())},
        "display": [_card(c) for c in s.display], "deck_size": len(s.deck), "bag_size": sum(s.bag.values()),
        "new_cities": sorted(s.new_cities), "majors": s.majors,
        "empty_cities": len(s.empty), "empty_needed": get_board(s.board).empty_city_end[len(s.players)],
        "ending": s.ending, "final_turn": s.final_turn or None, "log": s.log[-60:],
    }
    if s.phase == AUCTION and s.auction is not None:
        a = s.auction
        v["auction"] = {"to_act": a.to_act, "high_bid": a.high_bid, "high_bidder": a.high_bidder, "passed": a.passed}
    if s.build is not None:
        v["build"] = {"tiles": s.build.tiles, "spent": s.build.spent, "tunnel": s.build.tunnel}
    if s.phase == INSPECT and s.pending is not None:
        pd = s.pending
        v["pending_delivery"] = {"seat": pd.seat, "city": pd.city, "color": pd.color, "path": pd.path,
                                 "asked": pd.holder}
    if over:
        # The final score as the engine counts it, with what a player needs to check it: the
        # cards and major lines behind "cards", and each (now revealed) baron's standing.
        v["scores"] = [{**row, "bonus": s.players[i].bonus, "baron_standing": end.baron_standing(s, i)}
                       for i, row in enumerate(end.breakdown(s))]
    # table.js reads whose turn it is and the end from these two keys, as Chicago's view has them.
    res = end.result(s)
    v["result"] = msgspec.to_builtins(res) if res is not None else None
    return v


def redact(s: State, seat: int, seed: int) -> State:
    """A playable state consistent with what `seat` knows; the unknown is re-sampled from `seed`."""
    r = draft(s)
    rng = make_rng(seed)
    if r.phase == OVER:
        r.rng = rng
        return r
    known = set(r.players[seat].baron_draw)
    unknown = sorted(b["id"] for b in rules.card_data()["barons"] if b["id"] not in known)
    unknown, rng = rng.shuffled(unknown)
    for i, p in enumerate(r.players):
        if i == seat:
            continue
        draw = sorted(unknown[:2])
        unknown = unknown[2:]
        p.baron_draw = draw
        if p.baron:
            k, rng = rng.below(2)
            p.baron = draw[k]
    mine = r.players[seat]
    set_aside = [b for b in mine.baron_draw if mine.baron and b != mine.baron]
    r.baron_pool = sorted([*unknown, *set_aside])
    r.deck, rng = rng.shuffled(sorted(r.deck))  # sorted first: the result must not depend on the real order
    r.rng = rng
    return r
