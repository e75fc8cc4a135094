"""What a program does when its player is to act, run by `apply` after every decision.

18xx.games' facts: game/base.rb `process_action` asks the round for auto actions again and again
until there are none; step/programmer.rb asks each program of the current entity's player; the
stock round's step (step/buy_sell_par_shares.rb, which 18Ireland's BuySellParSharesViaBid
inherits) answers `activate_program_share_pass` and `activate_program_buy_shares`, and stops a
program (`should_stop_applying_program`, `action_is_shenanigan?`) when the player must sell or
another player did something since the program was set that may hurt it: sold shares, started a
company, bought into a company the player presides without holding half of it. The auction bid
follows step/programmer_auction_bid.rb on the waterfall auction; the merger pass
step/programmer_merger_pass.rb, read for 18Ireland's merge step (ENGINE.md: our reading).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from shared.games.core18xx import actions as A
from shared.games.core18xx.legal import covers
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.rounds import stock as SR
from shared.games.core18xx.rounds import waterfall_auction as W
from shared.games.g18ireland import flow as F
from shared.games.g18ireland import listing as L
from shared.games.g18ireland import merger_round as MG
from shared.games.g18ireland import programs as PG
from shared.games.g18ireland.state import State

replace = msgspec.structs.replace
Decide = Callable[[State, int, Any], State]
LIMIT = 500         # moves programs make in one decision at most (each moves the game on)
SECURE = 50         # 18xx.games' corporation_secure_percent


def _name(state: State, player: str) -> str:
    return state.seats[int(player)]


# --- what the programs watch -------------------------------------------------------------------

def _tracked(before: State, player: str, action: Any, after: State) -> list[tuple[str, str, str]]:
    """(player, kind, company) share actions in a stock-round step (18xx.games' track_action)."""
    out = []
    if isinstance(action, A.Par):
        out.append((player, "par", str(action.corporation)))
    elif isinstance(action, A.BuyShares):
        out.append((player, "buy", before.money.book.certs[action.shares[0]].corporation))
    elif isinstance(action, A.SellShares):
        out.append((player, "sell", before.money.book.certs[action.shares[0]].corporation))
    else:
        # a minor won at auction is parred for its winner (18Ireland's win_bid processes a Par)
        for sym, corp in after.money.corps.items():
            if corp.ipoed and not before.money.corps[sym].ipoed:
                out.append((after.money.book.president_of(sym), "par", sym))
    return out


def observe(before: State, after: State, player: str, action: Any) -> State:
    """Keep each player's share actions of its latest turn in this stock round. Nothing is kept
    while nobody runs a program: actions before a program is set never stop it."""
    p = after.programs
    if not p.held:
        return after
    at = PG.stamp(after.moves, p)
    history = dict(p.history)
    if before.round == "stock" and before.stock is not None:
        if after.round != "stock" or after.money.turn != before.money.turn or after.stock is None:
            return after                        # the round is over: the next one watches afresh
        order, i, j = after.money.players, before.stock.entity_index, after.stock.entity_index
        while i != j:                           # players whose turn began: their last turn is this one
            i = (i + 1) % len(order)
            history.pop(order[i], None)
        for who, kind, sym in _tracked(before, player, action, after):
            history[who] = [*history.get(who, []), PG.Tracked(kind, sym, at)]
    else:
        return after
    return replace(after, programs=replace(p, history=history))


def _shenanigan(state: State, player: str, other: str, t: PG.Tracked, buying: tuple[str, int] | None) -> str | None:
    book = state.money.book
    if t.kind == "par":
        # a start hurts a pass always, a purchase when the player could sell (from the second round)
        return f"Corporation {t.corporation} parred" if buying is None or state.money.turn > 1 else None
    if t.kind == "sell":
        return "Shares were sold"
    if t.kind != "buy" or book.president_of(t.corporation) != player:
        return None
    held = book.percent_of(player, t.corporation)
    if held >= SECURE:
        return None
    if buying is None or buying[0] != t.corporation:
        return f"{_name(state, other)} bought on corporation {t.corporation} and is unsecure"
    if held + buying[1] > SECURE:
        return None
    bigger = [c for c in book.certs.values() if c.corporation == t.corporation and c.percent > buying[1]
              and book.owner[c.id] != player]
    if bigger and held + buying[1] < book.percent_of(other, t.corporation) + max(c.percent for c in bigger):
        return f"{_name(state, other)} has bought, shares exist that could allow them to gain presidency"
    return None


def _stop_reason(state: State, player: str, program: PG.Program, buying: tuple[str, int] | None) -> str | None:
    assert state.stock is not None
    if SR.must_sell(state.money, state.stock, player):
        return f"{_name(state, player)} must sell shares"
    for other, tracked in state.programs.history.items():
        if other == player:
            continue
        for t in tracked:
            if t.at <= program.since:
                continue                    # before the program was set
            reason = _shenanigan(state, player, other, t, buying)
            if reason:
                return reason
    return None


# --- what each program asks for ------------------------------------------------------------------

def _who(player: str) -> dict[str, Any]:
    return {"entity": player, "entity_type": "player"}


def _stop(player: str, reason: str) -> A.ProgramDisable:
    return A.ProgramDisable(**_who(player), reason=reason)


def _share_pass(state: State, player: str, program: PG.Program) -> list[Any]:
    sr = state.stock
    assert sr is not None
    # only a plain pass of one's turn, never a pass inside a minor's auction
    if sr.auction is not None or "pass" not in SR.available(state.money, sr, player, F.STOCK_RULES):
        return []
    action = program.action
    assert isinstance(action, A.ProgramSharePass)
    reason = None if action.unconditional else _stop_reason(state, player, program, None)
    return [_stop(player, reason)] if reason else [A.Pass(**_who(player))]


def _buy_shares(state: State, player: str, program: PG.Program) -> list[Any]:
    action = program.action
    assert isinstance(action, A.ProgramBuyShares) and state.stock is not None
    money, sr, sym = state.money, state.stock, action.corporation
    corp = money.corps[sym]
    if action.until_condition == "float":
        done = f"{sym} is floated" if corp.floated or corp.float_percent == 0 else None
    else:
        held = money.book.percent_of(player, sym) / PG.share_percent()[sym]
        done = f"{action.until_condition} share(s) bought in {sym}, end condition met" \
            if held >= int(action.until_condition) else None
    if done:
        return [_stop(player, done)] + ([A.ProgramSharePass(**_who(player))] if action.auto_pass_after else [])
    kinds = SR.available(money, sr, player, F.STOCK_RULES)
    if "buy_shares" in kinds:
        holder, source = (S.POOL, "market") if action.from_market else (sym, "Treasury")
        certs = [cid for s, cid in SR.buyable(money, sr, player) if s == sym and money.book.owner[cid] == holder]
        if not certs:
            return [_stop(player, f"Cannot buy {sym} from {source}")]
        percent = money.book.certs[certs[0]].percent
        reason = _stop_reason(state, player, program, (sym, percent))
        if reason:
            return [_stop(player, reason)]
        return [A.BuyShares(**_who(player), shares=[certs[0]], percent=percent)]
    if sr.auction is None and any(k in SR.PURCHASES for k in sr.actions) and "pass" in kinds:
        # just floated: some players sell the last share at once, so no pass for them
        return [] if action.until_condition == "float" and corp.floated else [A.Pass(**_who(player))]
    return []


def _merger_pass(state: State, player: str, program: PG.Program) -> list[Any]:
    action = program.action
    mr = state.merger
    assert isinstance(action, A.ProgramMergerPass) and mr is not None
    if mr.to_vote or mr.outcome is not None or mr.merging:
        return []                           # votes and a merger under way are the player's own
    # 18xx.games' others_acted? (1867, 1817): a merger made in this round, unless the program
    # was set by the decision just made; here a merger proposed (18Ireland's act in the round)
    just_set = program.since == PG.stamp(state.moves, state.programs)
    if "disable_others" in (action.options or []) and mr.proposed and not just_set:
        return [_stop(player, "Other players have acted and requested to stop")]
    candidates = MG.candidates(state.money, mr, player, *L.connectivity(state))
    listed = (action.corporations_by_round or {}).get(PG.MERGER_ROUND_NAME) or []
    if not candidates or any(c not in listed for c in candidates):
        return []
    return [A.Pass(**_who(player))]


def _auction_bid(state: State, player: str, program: PG.Program) -> list[Any]:
    """step/programmer_auction_bid.rb on 18Ireland's waterfall (which never needs the target to be
    the private being auctioned)."""
    action, auction = program.action, state.auction
    assert isinstance(action, A.ProgramAuctionBid) and auction is not None
    target = action.bid_target
    owner = next((s.player for s in auction.sales if s.company == target), None)
    if owner is not None:
        return [_stop(player, f"{target} is owned by {_name(state, owner)}")]
    if all(o.company != target for o in auction.offers):
        return [_stop(player, f"{target} is no longer available")]
    bids = auction.bids_on(target)
    if bids and max(bids, key=lambda b: b.price).player == player:
        return [_stop(player, f"{_name(state, player)} is already the high bid on {target}")]
    price = auction.min_bid(target)
    bid = A.Bid(**_who(player), company=target, price=price)
    buy = bool(action.enable_buy_price) and price <= (action.buy_price or 0) and auction.may_purchase(target)
    # a maximum bid is not used while a buy price is set (18xx.games' auto_bid_on_empty?)
    raise_to = bool(action.enable_maximum_bid) and not action.enable_buy_price and price <= (action.maximum_bid or 0)
    if buy or raise_to:
        if not covers(W.legal(auction, player), bid):
            # 18xx.games would fail on it (another private under auction, or not the cash)
            return [_stop(player, f"Cannot bid {price} on {target} now")]
        return [bid]
    if not action.auto_pass_after and action.enable_buy_price and not action.enable_maximum_bid and bids:
        return [_stop(player, f"Bids submitted for {target}")]
    if not action.auto_pass_after and action.enable_maximum_bid and price > (action.maximum_bid or 0):
        return [_stop(player, f"Price for {target} exceeded maximum bid")]
    return [A.Pass(**_who(player))]


def wanted(state: State, player: str) -> list[Any]:
    program = state.programs.held.get(player)
    if program is None:
        return []
    if state.round == "stock" and isinstance(program.action, A.ProgramSharePass):
        return _share_pass(state, player, program)
    if state.round == "stock" and isinstance(program.action, A.ProgramBuyShares):
        return _buy_shares(state, player, program)
    if state.round == "merger" and isinstance(program.action, A.ProgramMergerPass):
        return _merger_pass(state, player, program)
    if state.round == "auction" and isinstance(program.action, A.ProgramAuctionBid):
        return _auction_bid(state, player, program)
    return []


# --- the loop ----------------------------------------------------------------------------------

def run(state: State, decide: Decide) -> State:
    """Make the moves the active player's program asks for, until none is asked."""
    for _ in range(LIMIT):
        if not state.programs.held or state.pending or state.round not in ("auction", "stock", "merger"):
            return state
        seats = L.active_seats(state)
        if len(seats) != 1:
            return state
        seat = next(iter(seats))
        player = state.players[seat]
        moves = wanted(state, player)
        if not moves:
            return state
        for move in moves:
            p = state.programs
            if isinstance(move, A.ProgramDisable):
                state = replace(state, programs=PG.disable(p, player, move.reason or "unknown reason"))
            elif isinstance(move, A.ProgramSharePass):
                state = replace(state, programs=PG.enable(p, player, move, PG.stamp(state.moves, p)))
            else:
                after = decide(state, seat, move)
                made = [*after.programs.made, PG.Made(player, move)]
                state = observe(state, replace(after, programs=replace(after.programs, made=made)), player, move)
    return state
