"""A Chicago Express State rebuilt from one seat's view.

The game has no hidden information and no randomness, so the view holds everything the
rules read and the rebuilt state is the true one, except for the log of past events,
which no rule reads and which a search would only copy on every move: it starts empty.
The rebuild uses only the engine's public state structs and board data.
"""

from __future__ import annotations

from typing import Any

from shared.games.chicago_express.board import BOARD
from shared.games.chicago_express.state import N_COMPANIES, Auction, BuildProgress, Company, State


def _company(raw: dict[str, Any]) -> Company:
    return Company(
        cash=raw["cash"],
        income=raw["income"],
        shares_left=raw["shares_left"],
        locos_left=raw["locomotives_left"],
        open=raw["open"],
        network=tuple(BOARD.hex_index[h] for h in raw["network"]),
    )


def _auction(raw: dict[str, Any] | None) -> Auction | None:
    if raw is None:
        return None
    passed = 0
    for seat in raw["passed"]:
        passed |= 1 << seat
    return Auction(
        kind=raw["kind"],
        company=BOARD.company_index[raw["company"]],
        min_bid=raw["min_bid"],
        high_bid=raw["high_bid"] if raw["high_bid"] is not None else 0,
        high_bidder=raw["high_bidder"] if raw["high_bidder"] is not None else -1,
        to_act=raw["to_act"],
        passed=passed,
        opener=raw["opener"],
    )


def _build(raw: dict[str, Any] | None) -> BuildProgress | None:
    if raw is None:
        return None
    company = raw["company"]
    return BuildProgress(
        company=BOARD.company_index[company] if company is not None else -1,
        placed=tuple(BOARD.hex_index[h] for h in raw["placed"]),
        reached_chicago=raw["reached_chicago"],
    )


def state_from_view(view: dict[str, Any]) -> State:
    players = view["players"]
    companies = {raw["id"]: raw for raw in view["companies"]}
    shares = [0] * (len(players) * N_COMPANIES)
    for p in players:
        for cid, count in p["shares"].items():
            shares[p["seat"] * N_COMPANIES + BOARD.company_index[cid]] = count
    locos = [0] * len(BOARD.hex_ids)
    houses = [False] * len(BOARD.hex_ids)
    for raw in view["hexes"]:
        h = BOARD.hex_index[raw["id"]]
        houses[h] = raw["house"]
        for cid in raw["locomotives"]:
            locos[h] |= 1 << BOARD.company_index[cid]
    result = view.get("result")
    return State(
        players=[p["name"] for p in players],
        dial_lengths=[d["length"] for d in view["dials"]],
        phase=view["phase"],
        current=view["current_player"],
        round=view["round"],
        opening=view["opening"]["index"],
        first_player=view["first_player"],
        bank=view["bank"],
        cash=[p["cash"] for p in players],
        shares=shares,
        companies=[_company(companies[info.id]) for info in BOARD.companies],
        locos=locos,
        houses=houses,
        houses_supply=view["houses_supply"],
        industry=[raw["position"] for raw in view["industry"]],
        dials=[d["position"] for d in view["dials"]],
        auction=_auction(view["auction"]),
        build=_build(view["build"]),
        end_reasons=result["reason"].split(", ") if result and result["reason"] else [],
        log=[],
    )
