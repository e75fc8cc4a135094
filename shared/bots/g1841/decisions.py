"""What 1841 asks that the 18xx kit does not know, scored as the kit scores (`kit18xx/policy.py`:
about pounds of value to the deciding player, `pass` 0), through `Title18xx.scores`:

- the concession auction: bid the least the auction takes on a concession worth it
  (`Params1841.concession_ceiling`, at most a share of the bidder's cash, up to a number of
  concessions); version_1's sealed bids put the minimum on the best ones;
- founding (the stock round, or a corporation's share step): par a corporation whose capital
  (twice the par) buys its first train and tokens, at the dearest cell that still lets the
  founder buy it up to 40 %; a historical corporation of one's own concession first (an unused
  concession goes back to the bank); up to a number of presidencies;
- a founding's token purchase: as many as leave the train's money, at most a few;
- a concession the bank sells: only to found its corporation, with room to;
- another player's shares (`p2p_purchases`) at a price one names: not bought (18xx.games asks
  the seller nothing; a bot does not take a certificate for a lira);
- train events' questions (the secession, the Tuscan merge, a merger's exchanges, token
  removals, emergency sales, bankruptcy's loan): the answer after which the decider's value
  (`kit18xx.value`) is highest;
- a crowded corporation's discard: the shortest train.

The rest (lays, tokens, routes, dividends, trains, shares, emergencies) is the kit's.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.bots.kit18xx import value
from shared.bots.kit18xx.policy import Position, Scored, members, tname, with_field
from shared.engine import LegalAction, RuleError

EVENT_SAMPLE = 16
DECLINE = 0.5
MIN_BID = 20


def scores(p: Position, legal: list[LegalAction]) -> tuple[Scored, list[LegalAction]]:
    state = p.state
    if state.round == "auction":
        return _auction(p, legal), []
    if state.event is not None:
        return _answers(p, legal), []
    if state.founding and state.founding[0].kind == "tokens":
        return _token_count(p, legal), []
    mine: Scored = []
    rest: list[LegalAction] = []
    for la in legal:
        kind = tname(la.action)
        if kind == "Par":
            mine += _par(p, la)
        elif kind == "BuyCompany":
            mine.append(_concession_purchase(p, la))
        elif kind == "BuyShares" and la.range is not None:
            mine.append((-10.0, with_field(la, la.range.min)))
        elif kind == "DiscardTrain":
            mine.append((-float(p.distance(p.depot.trains[la.action.train])), la.action))
        elif kind == "Bankrupt":
            # playing on with the bank's loan keeps a chance; out of the game keeps none
            mine.append((-1000.0 + (la.action.option or 0), la.action))
        else:
            rest.append(la)
    return mine, rest


# --- the concession auction ---------------------------------------------------------------------

def _params(p: Position) -> Any:
    return p.params


def _auction(p: Position, legal: list[LegalAction]) -> Scored:
    a = p.state.auction
    assert a is not None
    cash = a.cash.get(p.player, 0)
    held = sum(1 for o in a.owners.values() if o == p.player)
    room = held < _params(p).concessions.get(len(p.state.players), 1)
    out: Scored = []
    for la in legal:
        act = la.action
        kind = tname(act)
        if kind == "Pass":
            out.append((0.0, act))
        elif kind == "Bid" and la.range is not None:
            worth = _worth(p, act.company, cash)
            low = la.range.min
            if room and low <= worth:
                out.append((10.0 + (worth - low) * 0.2, with_field(la, low)))
            else:
                out.append((-5.0, with_field(la, low)))
        elif kind == "BlindBid":
            out.append((1.0, _sealed(p, a, act, cash, held)))
        else:
            out.append((-5.0, act if la.range is None else with_field(la, la.range.min)))
    return out


def _worth(p: Position, company: str | None, cash: int) -> int:
    ceiling = _params(p).concession_ceiling.get(company or "", 50)
    return min(ceiling, int(_params(p).concession_cash_share * cash))


def _sealed(p: Position, a: Any, act: Any, cash: int, held: int) -> Any:
    """The minimum on the concessions worth it, best first, within cash and the count."""
    want = _params(p).concessions.get(len(p.state.players), 1) - held
    ranked = sorted(a.concessions, key=lambda c: -_params(p).concession_ceiling.get(c, 0))
    chosen = {c for c in ranked[:max(want, 0)] if _worth(p, c, cash) >= MIN_BID}
    left = cash
    bids = []
    for c in a.concessions:
        bid = MIN_BID if c in chosen and left >= MIN_BID else 0
        left -= bid
        bids.append(bid)
    return msgspec.structs.replace(act, bids=bids)


# --- founding ----------------------------------------------------------------------------------

def _par(p: Position, la: LegalAction) -> Scored:
    act = la.action
    founder = str(act.entity)
    sym = act.corporation
    money = p.money
    if founder != p.player:
        return [(-3.0, act)]         # a corporation founding one: its money is its trains'
    cash = p.cash(founder)
    room = len(p.presided()) < p.params.presidencies.get(len(p.state.players), 2)
    own_concession = money.companies.get(sym) == founder
    need = p.cheapest_train() + _params(p).token_reserve
    out: Scored = []
    for a in members(la, 40):
        price = money.market.by_id(a.share_price).price
        capital = 2 * price
        if not room or capital < need or capital > cash:
            out.append((-3.0, a))
            continue
        # the founder may buy up to 40 % in this turn: keep the money for it
        score = 30.0 + (15.0 if own_concession else 0.0) + price * 0.05
        if 4 * price > cash:
            score -= 10.0
        out.append((score, a))
    return out


def _token_count(p: Position, legal: list[LegalAction]) -> Scored:
    corp = p.state.founding[0].corp
    cash = p.cash(corp)
    train = p.cheapest_train()
    options = [la.action for la in legal if tname(la.action) == "Choose"]
    fewest = min((int(a.choice) for a in options), default=0)
    prices = _token_prices(p, corp)
    best = fewest
    for a in options:
        n = int(a.choice)
        if n <= _params(p).founding_tokens and cash - prices.get(n, 0) >= train and n > best:
            best = n
    out: Scored = [(10.0 if int(a.choice) == best else -float(abs(int(a.choice) - best)), a) for a in options]
    out += [(-5.0, la.action) for la in legal if tname(la.action) != "Choose"]
    return out


def _token_prices(p: Position, corp: str) -> dict[int, int]:
    from shared.games.g1841 import founding as F
    return F.token_choices(p.state)


def _concession_purchase(p: Position, la: LegalAction) -> tuple[float, Any]:
    act = la.action if la.range is None else with_field(la, la.range.min)
    if la.range is not None:
        return (-10.0, act)          # another player's, at a price named: not by a bot
    cash = p.cash(p.player)
    room = len(p.presided()) < p.params.presidencies.get(len(p.state.players), 2)
    need = act.price + 2 * 100 + p.cheapest_train()
    wanted = _params(p).concession_ceiling.get(act.company, 0) >= 70
    return (5.0 if room and wanted and cash >= need else -2.0, act)


# --- train events' questions -------------------------------------------------------------------

def _answers(p: Position, legal: list[LegalAction]) -> Scored:
    q = p.state.event.question
    if q.topic == "offer_again":
        # the holders were just offered the shares and bought what they wanted: another
        # round changes nothing (and "yes" each time would never end the event)
        return [(1.0 if a.choice == "n" else 0.0, a) for la in legal for a in members(la, EVENT_SAMPLE)]
    out: Scored = []
    for la in legal:
        for a in members(la, EVENT_SAMPLE):
            try:
                after = p.engine.apply(p.state, p.seat, a)
            except RuleError:
                continue
            result = p.engine.result(after)
            worth = float(result.scores[p.seat]) if result is not None else value.values(p.title, p.params, after)[p.seat]
            # an answer that asks again ("offer the shares again?") changes nothing by itself:
            # on a tie, the one that lets the event end, or a question could repeat forever
            out.append((worth + (DECLINE if getattr(a, "choice", None) == "n" else 0.0), a))
    return out
