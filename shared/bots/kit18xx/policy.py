"""The 18xx heuristic: every decision on offer scored, best first (`ranked`).

A score is in pounds of value to the deciding player, roughly; `pass` scores 0 where it is
offered, so a move is made when it scores above doing nothing. By round:

- private auction: buy the cheapest private at face while it is cheap against the player's
  cash (a private pays every operating round and counts at face at the end);
- stock round: start a company only if it can buy its first train (a minor's bid at least the
  cheapest train, a major parred by a player who can fund one), up to a number of
  presidencies; buy treasury shares of one's own companies while they need money for a
  train, and shares whose dividends repay them; sell only shares of a company that is
  dying (no train and no money for one) and that one does not preside;
- operating: lay the tile that adds the most revenue now, or else reach toward revenue, net
  of its cost (lays judged on the board alone, the route search only for the few the
  network's reach ranks best: `_lays`); place a token where it adds revenue
  or while it is cheap; run the best routes (the core's exact search); withhold only when the
  company needs the money for a train it must or should buy, else pay (a payout moves the
  price right); buy a train when the company has none, when its trains are about to rust,
  or when its extra revenue repays it; issue a share only for a train; never go bankrupt
  while anything else is legal;
- merger round: propose and vote for mergers whose price keeps the value of one's shares
  (more willingly late in the game, when minors can hold one train and none can start).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from shared.engine import Engine, LegalAction, RuleError, is_program
from shared.families import expand, family_size

from .params import Params
from .title import Title18xx

Scored = list[tuple[float, Any]]
LAY_SCREEN = 120         # lays screened on the board at the most (sampled evenly when a family is larger)
LAY_ROUTED = 4           # of those, the best by the screen get the exact route search
LAY_STARVING = 30.0      # a lay that spends the money of the company's next train
TOKEN_SAMPLE = 12
LIMIT_PROPOSAL = 3       # minors in a merger proposal at the most (a proposal's steps looked ahead)


def tname(action: Any) -> str:
    return type(action).__name__


class Position:
    """One decision's position, with what the scorers ask more than once."""

    def __init__(self, engine: Engine[Any], title: Title18xx, params: Params, state: Any, seat: int) -> None:
        self.engine, self.title, self.params, self.state, self.seat = engine, title, params, state, seat
        self.money = title.money(state)
        self.depot = title.depot(state)
        self.player = title.players(state)[seat]
        self._revenue: dict[tuple[int, int, str, tuple[int, ...]], int] = {}

    # --- reading ---------------------------------------------------------------------------

    def cash(self, holder: str) -> int:
        return self.money.cash.get(holder, 0)

    def live(self, sym: str) -> bool:
        c = self.money.corps.get(sym)
        return c is not None and c.ipoed and not c.closed

    def president(self, sym: str) -> str | None:
        """The player who decides for `sym` (a title whose companies hold companies names the
        player at the top of the chain: `Title18xx.controller`)."""
        if not self.live(sym):
            return None
        controller = getattr(self.title, "controller", None)
        return controller(self.state, sym) if controller is not None else self.money.book.president_of(sym)

    def presided(self) -> list[str]:
        return [s for s in self.money.corps if self.live(s) and self.president(s) == self.player]

    def trains(self, corp: str, depot: Any = None) -> list[Any]:
        return (depot or self.depot).owned_by(corp)

    def distance(self, train: Any) -> int:
        return self.depot.types[train.name].distance

    def revenue(self, state: Any, corp: str, extra: tuple[int, ...] = (), board: Any = None) -> int:
        key = (id(state), id(board), corp, extra)
        hit = self._revenue.get(key)
        if hit is None:
            hit = self._revenue[key] = self.title.revenue(state, corp, extra, board)
        return hit

    def share_units(self, corp: str) -> int:
        return self.title.share_units[self.money.corps[corp].type]

    def depot_offers(self) -> list[Any]:
        return [t for t in self.depot.offered()]

    def cheapest_train(self) -> int:
        prices = [self.depot.types[t.name].price for t in self.depot_offers()]
        return min(prices) if prices else 0

    def next_type(self) -> Any | None:
        """The train type the depot sells next."""
        up = self.depot.upcoming
        return self.depot.types[self.depot.trains[up[0]].name] if up else None

    def trains_before(self, type_name: str) -> int | None:
        """How many depot trains are sold before the first of `type_name` (None: never again)."""
        for i, tid in enumerate(self.depot.upcoming):
            if self.depot.trains[tid].name == type_name:
                return i
        return None

    def rusting(self, corp: str) -> bool:
        """Every train of `corp` rusts within `rust_lookahead` depot sales."""
        own = self.trains(corp)
        if not own:
            return False
        for t in own:
            rusts = self.depot.types[t.name].rusts_on
            if rusts is None:
                return False
            before = self.trains_before(rusts)
            if before is None or before > self.params.rust_lookahead:
                return False
        return True

    def train_limit(self, corp: str) -> int:
        return self.depot.train_limit(self.money.corps[corp].type)

    def needs_train(self, corp: str) -> bool:
        """The company must buy soon: no train, or its trains are about to rust."""
        return len(self.trains(corp)) == 0 or self.rusting(corp)

    def dying(self, corp: str) -> bool:
        return not self.trains(corp) and self.cash(corp) < self.cheapest_train()

    def price(self, sym: str) -> int:
        return self.money.price_of(sym)

    def yield_per_share(self, corp: str) -> float:
        """One share's dividend from the company's best run now."""
        return self.revenue(self.state, corp) / self.share_units(corp)

    def after(self, action: Any) -> Any | None:
        """The position after `action`, with any token it lifted put back (by the first spot
        the rules offer) so the board can be judged."""
        try:
            state = self.engine.apply(self.state, self.seat, action)
            for _ in range(3):
                if not self.title.pending_token(state):
                    break
                seat = min(self.engine.active_seats(state))
                token = next((la.action for la in self.engine.legal_actions(state, seat)
                              if tname(la.action) == "PlaceToken"), None)
                if token is None:
                    break
                state = self.engine.apply(state, seat, token)
            return state
        except RuleError:
            return None


# --- the families as concrete candidates --------------------------------------------------------

def members(legal: LegalAction, cap: int) -> list[Any]:
    if legal.choices is None:
        return [legal.action]
    size = family_size(legal)
    every = list(expand(legal))
    if size <= cap:
        return every
    step = size / cap
    return [every[int(i * step)] for i in range(cap)]


def with_field(legal: LegalAction, value: int) -> Any:
    r = legal.range
    assert r is not None
    value = max(r.min, min(r.max, value))
    value -= (value - r.min) % r.step
    return msgspec.structs.replace(legal.action, **{r.field: value})


# --- rounds ----------------------------------------------------------------------------------------

def _auction(p: Position, legal: list[LegalAction]) -> Scored:
    out: Scored = []
    held = sum(1 for owner in p.money.companies.values() if owner == p.player)
    for la in legal:
        a = la.action
        if tname(a) == "Pass":
            out.append((0.0, a))
        elif tname(a) == "Bid" and la.range is None:
            # the cheapest private, at its price: worth it while cheap against our cash
            value = p.title.company_values.get(a.company or "", a.price)
            income = p.title.company_revenue.get(a.company or "", 0)
            cheap = a.price <= p.params.private_cash_share * p.cash(p.player)
            if cheap and held < p.params.max_privates:
                out.append((1.0 + value - a.price + 2 * income, a))
            else:
                out.append((-1.0, a))
        else:
            out.append((-5.0, la.action if la.range is None else with_field(la, la.range.min)))
    return out


def _stock(p: Position, legal: list[LegalAction]) -> Scored:
    out: Scored = []
    cash = p.cash(p.player)
    mine = p.presided()
    cap = p.params.presidencies.get(len(p.title.players(p.state)), 2)
    train = p.cheapest_train()
    for la in legal:
        a = la.action
        kind = tname(a)
        if kind == "Pass":
            out.append((0.0, a))
        elif kind == "Bid":
            out += _minor_bid(p, la, cash, len(mine) < cap, train)
        elif kind == "Par":
            out.append(_par(p, a, cash, len(mine) < cap, train))
        elif kind == "BuyShares":
            out.append((_buy_score(p, a, cash), a))
        elif kind == "SellShares":
            out.append((_sell_score(p, a), a))
        else:
            out.append((-10.0, a))
    return out


def _minor_bid(p: Position, la: LegalAction, cash: int, room: bool, train: int) -> Scored:
    a = la.action
    r = la.range
    lo = r.min if r is not None else a.price
    hi = r.max if r is not None else a.price
    # the company gets the bid: it must buy its first train with it (or nearly: one share sale)
    need = max(lo, train)
    ceiling = min(hi, cash, max(p.params.minor_bid_ceiling, train))
    if not room or need > ceiling:
        return [(-3.0, with_field(la, lo) if r is not None else a)]
    bid = need
    if r is not None:
        bid = with_field(la, bid).price
    # starting a company is the way into the game; the earlier the better
    return [(40.0 + (ceiling - bid) * 0.1, with_field(la, bid) if r is not None else a)]


def _par(p: Position, a: Any, cash: int, room: bool, train: int) -> tuple[float, Any]:
    price = int(str(a.share_price).split(",")[0])
    # the president's certificate is two shares; the company has 2 x par and the president
    # must be able to fund the rest of a train from his own pocket by buying shares
    if not room or 2 * price > cash or cash < train:
        return (-3.0, a)
    return (35.0 + price * 0.05, a)


def _cert_of(p: Position, a: Any) -> Any:
    return p.money.book.certs[a.shares[0]]


def _buy_score(p: Position, a: Any, cash: int) -> float:
    cert = _cert_of(p, a)
    sym = cert.corporation
    if not p.live(sym):
        return -5.0
    owner = p.money.book.owner.get(cert.id)
    cost = p.money.cert_price(sym, cert.percent)
    if cost > cash:
        return -5.0
    units = cert.percent // p.money.book.normal_percent(sym)
    per_share = p.yield_per_share(sym)
    president = p.president(sym)
    score = units * per_share * p.params.horizon - cost * 0.5
    if owner == sym and president == p.player and p.cash(sym) < p.cheapest_train() * 1.2:
        # our company's treasury: the money goes to its train
        score += 30.0 + cost * 0.3
    if p.dying(sym):
        score -= 40.0
    if president != p.player and president is not None:
        # a rival's company: only for its dividends, and keep cash for our own
        score -= 10.0
    return score


def _sell_score(p: Position, a: Any) -> float:
    cert = _cert_of(p, a)
    sym = cert.corporation
    if p.president(sym) == p.player:
        return -20.0
    if p.dying(sym):
        return 15.0
    return -8.0


def _operating(p: Position, legal: list[LegalAction]) -> Scored:
    op = p.title.operating(p.state)
    corp, stage = op if op is not None else ("", "")
    out: Scored = []
    for la in legal:
        a = la.action
        kind = tname(a)
        own = str(a.entity) == corp or kind == "PlaceToken"
        if not own and kind != "SellShares":
            # a private's ability, or a company buying a private: not worth the risk
            out.append((-2.0, a if la.range is None else with_field(la, la.range.min)))
            continue
        if kind == "LayTile":
            out += _lays(p, corp, la)
        elif kind == "PlaceToken":
            out += _tokens(p, corp, la)
        elif kind == "RunRoutes":
            out.append((100.0, a))            # the suggestion is the core's exact best run
        elif kind == "Dividend":
            out.append((_dividend(p, corp, a), a))
        elif kind == "BuyTrain":
            out.append(_train(p, corp, la))
        elif kind == "DiscardTrain":
            out.append((-p.distance(p.depot.trains[a.train]), a))
        elif kind == "SellShares" and stage == "issue":
            out.append((_issue(p, corp), a))
        elif kind == "SellShares":
            out.append((_emergency_sale(p, a), a))   # the president raising money for a train
        elif kind == "BuyShares":
            out.append((-1.0, a))               # redeeming: money is better spent on trains
        elif kind == "Bankrupt":
            out.append((-1000.0, a))
        elif kind == "Assign":
            out.append((5.0, a))
        elif kind == "Pass":
            out.append((0.0, a))
        else:
            out.append((-3.0, a if la.range is None else with_field(la, la.range.min)))
    return out


def run_value(p: Position, state: Any, corp: str, board: Any = None) -> int:
    """What `corp` runs on `state` (with `board` instead of its board, when given): with its
    own trains, or with the cheapest train on offer when it has none yet."""
    if p.trains(corp, p.title.depot(state)):
        return p.revenue(state, corp, (), board)
    offers = p.depot_offers()
    shortest = min((p.distance(t) for t in offers), default=2)
    return p.revenue(state, corp, (shortest,), board)


def _board_gain(p: Position, corp: str, after: Any) -> float:
    """Revenue added now, plus the network's nearing of revenue it does not reach yet."""
    gain = run_value(p, after, corp) - run_value(p, p.state, corp)
    reach = p.title.reach(after, corp) - p.title.reach(p.state, corp)
    return gain + p.params.reach_weight * reach


def _spending(p: Position, corp: str, spent: int, cost_weight: float, starving: float) -> float:
    """What spending `spent` of `corp`'s money costs in score: `cost_weight` a pound, and
    `starving` more when that money is its next train's."""
    cash = p.cash(corp)
    out = cost_weight * max(spent, 0)
    if spent > 0 and cash - spent < p.cheapest_train() and p.needs_train(corp):
        out += starving
    return out


def _board_moves(p: Position, corp: str, la: LegalAction, cap: int, bonus: float, cost_weight: float,
                 starving: float) -> Scored:
    """Tokens (or lays the board alone cannot judge) of `corp`, each played on the engine:
    revenue and reach gained, plus `bonus`, less money spent (`_spending`)."""
    return [s for s in (_played(p, corp, a, bonus, cost_weight, starving) for a in members(la, cap)) if s]


def _played(p: Position, corp: str, a: Any, bonus: float, cost_weight: float, starving: float) -> tuple[float, Any] | None:
    after = p.after(a)
    if after is None:
        return None
    spent = p.cash(corp) - p.title.money(after).cash.get(corp, 0)
    return (_board_gain(p, corp, after) + bonus - _spending(p, corp, spent, cost_weight, starving), a)


def _lays(p: Position, corp: str, la: LegalAction) -> Scored:
    """Every lay of the family (up to `LAY_SCREEN`, sampled evenly), judged on the board alone:
    the tile is put down with the core's board step (no engine), and what the network then
    reaches (`Title18xx.network_value`, `reach`) screens them; the best `LAY_ROUTED` by that
    screen have their revenue found by the exact route search. The others score as a lay
    adding no revenue now (their reach and cost only), which is what most lays are. A lay
    that lifts a home token is played on the engine (the token put back), as is any lay
    the board cannot price."""
    t, state, w = p.title, p.state, p.params.reach_weight
    net0, reach0 = t.network_value(state, corp), t.reach(state, corp)
    screened: list[tuple[float, float, int, Any, Any]] = []
    out: Scored = []
    for i, a in enumerate(members(la, LAY_SCREEN)):
        name = a.tile.rpartition("-")[0] or a.tile
        cost = t.lay_cost(state, corp, a.hex, name, a.rotation)
        board = t.board_after_lay(state, a.hex, a.tile, a.rotation) if cost is not None else None
        if board is None or cost is None:  # (no cost: no board either)
            played = _played(p, corp, a, 0.0, p.params.cost_weight, LAY_STARVING)
            if played is not None:
                out.append(played)
            continue
        rest = w * (t.reach(state, corp, board) - reach0) - _spending(p, corp, cost, p.params.cost_weight,
                                                                          LAY_STARVING)
        screen = t.network_value(state, corp, board) - net0 + rest
        screened.append((screen, rest, i, a, board))
    screened.sort(key=lambda x: (-x[0], x[2]))
    base = run_value(p, state, corp) if screened else 0
    for k, (_, rest, _, a, board) in enumerate(screened):
        gain = run_value(p, state, corp, board) - base if k < LAY_ROUTED else 0
        out.append((gain + rest, a))
    return out


def _tokens(p: Position, corp: str, la: LegalAction) -> Scored:
    # a token also keeps rivals out of the city: a small bonus of its own
    return _board_moves(p, corp, la, TOKEN_SAMPLE, 8.0, 0.3, 40.0)


def _dividend(p: Position, corp: str, a: Any) -> float:
    """Pay out (the price moves right) unless withholding is what buys the train the company
    must or should buy now."""
    cash = p.cash(corp)
    need = p.cheapest_train() if p.needs_train(corp) else 0
    if a.kind == "withhold":
        after = p.after(a)
        kept = p.title.money(after).cash.get(corp, 0) if after is not None else cash
        return 20.0 if cash < need <= kept else -5.0
    return 10.0


def _train_value(p: Position, corp: str, distance: int) -> int:
    return p.revenue(p.state, corp, (distance,)) - p.revenue(p.state, corp)


def _train(p: Position, corp: str, la: LegalAction) -> tuple[float, Any]:
    a = la.action
    train = p.depot.trains[a.train]
    ttype = p.depot.types[train.name]
    from_company = train.owner not in ("depot", "bank", "pool") and train.owner in p.money.corps
    if la.range is not None or from_company:
        # another company's train at a chosen price: only our own, at its list price, when
        # the buyer has no train
        seller = train.owner
        if p.president(seller) == p.player and not p.trains(corp) and la.range is not None:
            price = min(ttype.price, la.range.max)
            return (5.0, with_field(la, price))
        return (-20.0, a if la.range is None else with_field(la, la.range.min))
    own = p.trains(corp)
    cash = p.cash(corp)
    price = a.price
    rusts = ttype.rusts_on
    lasting = 0 if rusts is None else (p.trains_before(rusts) or 0)
    gain = _train_value(p, corp, ttype.distance) if own else p.revenue(p.state, corp, (ttype.distance,))
    if not own:
        # must (or nearly must) have one: the longest we can pay for without the president
        return (200.0 + ttype.distance - max(price - cash, 0) * 0.5, a)
    if len(own) >= p.train_limit(corp):
        return (-50.0, a)
    score = gain * p.params.payback_runs - price
    if p.params.buy_when_affordable and price <= cash:
        score = max(score, 20.0 + ttype.distance)
    if p.rusting(corp) and (rusts is None or lasting > p.params.rust_lookahead) and price <= cash:
        # its trains are about to rust: buy the one that outlasts them now, from its own
        # money, rather than have the president pay for it in an emergency
        score = max(score, 150.0 + ttype.distance)
    if price > cash:
        score -= 1000.0               # the president would pay: never by choice
    return (score, a)


def _issue(p: Position, corp: str) -> float:
    need = p.cheapest_train() if p.needs_train(corp) else 0
    return 10.0 if p.cash(corp) < need else -5.0


def _emergency_sale(p: Position, a: Any) -> float:
    cert = _cert_of(p, a)
    # sell what hurts least: a small share of a company we do not preside
    own = p.president(cert.corporation) == p.player
    return -50.0 - (30.0 if own else 0.0) - p.money.cert_price(cert.corporation, cert.percent) * 0.01


def _merger(p: Position, legal: list[LegalAction]) -> Scored:
    out: Scored = []
    merging = p.title.merging(p.state)
    late = p.title.phase(p.state) in p.params.late_phases
    for la in legal:
        a = la.action
        kind = tname(a)
        if kind in ("Merge", "Pass") and not _comes_to_a_vote(p, a):
            # a proposal of sets already voted on this round is cleared by the rules and the
            # proposer is to act again in the very position he started from (18xx.games does
            # the same): offered, it lets a search propose and be cleared forever
            continue
        if kind == "Choose":
            good = _merge_good(p, merging, late)
            want = "for" if good else "against"
            out.append((5.0 if a.choice == want else -5.0, a))
        elif kind == "Merge":
            sym = a.corporation
            c = p.money.corps.get(sym or "")
            if c is not None and c.type == "major":
                out.append((5.0, a))          # the merger passed: any unstarted major
                continue
            group = [*merging, sym]
            if len(group) == 1:
                # propose: one of our minors, where a partner makes a good merger
                score = _proposal_score(p, a, late)
            else:
                fresh = sorted(group) not in [sorted(x) for x in p.title.proposed(p.state)]
                score = 8.0 if fresh and _merge_good(p, group, late) and len(merging) < 2 else -2.0
            out.append((score, a))
        elif kind == "Pass":
            # with a set of two or more, pass puts it to the vote
            out.append((6.0 if len(merging) >= 2 and _merge_good(p, merging, late) else 0.0, a))
        else:
            out.append((-3.0, a))
    return out


def _comes_to_a_vote(p: Position, a: Any) -> bool:
    """`a` (a proposal's step, or a pass) is not one the rules clear: it passes, picks the
    major of an accepted merger, or opens a proposal some continuation of which is voted on."""
    if tname(a) == "Pass" and not p.title.merging(p.state):
        return True
    if tname(a) == "Merge" and p.money.corps.get(a.corporation or "") is not None \
            and p.money.corps[a.corporation].type == "major":
        return True
    return _voted_from(p, p.after(a), len(p.title.proposed(p.state)), LIMIT_PROPOSAL)


def _voted_from(p: Position, state: Any, voted: int, depth: int) -> bool:
    """From `state`, mid-proposal or just after it: some way the proposer may go on puts a set
    to the vote (the round's record of sets voted on grows)."""
    if state is None:
        return False
    t = p.title
    if t.round(state) != "merger" or len(t.proposed(state)) > voted:
        return True
    if not t.merging(state):
        return False            # cleared: the same set as one voted on already
    if depth == 0 or p.seat not in p.engine.active_seats(state):
        return True
    for la in p.engine.legal_actions(state, p.seat):
        if tname(la.action) not in ("Merge", "Pass"):
            continue
        try:
            after = p.engine.apply(state, p.seat, la.action)
        except RuleError:
            continue
        if _voted_from(p, after, voted, depth - 1):
            return True
    return False


def _my_units(p: Position, sym: str) -> int:
    return p.money.book.percent_of(p.player, sym) // p.money.book.normal_percent(sym)


def _merge_good(p: Position, minors: list[str], late: bool) -> bool:
    if len(minors) < 2:
        return False
    price = p.title.merged_price(p.state, minors)
    if price is None:
        return False
    held = sum(_my_units(p, m) * p.price(m) for m in minors)
    new = sum(_my_units(p, m) * price for m in minors)
    tolerance = p.params.merge_tolerance * (3 if late else 1)
    return new >= held * (1 - tolerance)


def _proposal_score(p: Position, a: Any, late: bool) -> float:
    """Proposing `a.corporation`: worth it when a minor the rules would let us add next makes
    a good merger that has not been voted on this round already."""
    sym = a.corporation
    if _my_units(p, sym) == 0:
        return -2.0
    after = p.after(a)
    if after is None:
        return -2.0
    done = [sorted(x) for x in p.title.proposed(p.state)]
    for la in p.engine.legal_actions(after, p.seat):
        other = getattr(la.action, "corporation", None)
        if tname(la.action) != "Merge" or other is None or sorted([sym, other]) in done:
            continue
        if _merge_good(p, [sym, other], late):
            return 7.0
    return -2.0


def ranked(engine: Engine[Any], title: Title18xx, params: Params, state: Any, seat: int) -> Scored:
    """Every decision the heuristic considers for `seat`, best first (ties: first listed)."""
    legal = [la for la in engine.legal_actions(state, seat) if not is_program(la.action)]
    if not legal:
        return []
    p = Position(engine, title, params, state, seat)
    rounds: dict[str, Callable[[Position, list[LegalAction]], Scored]] = {
        "auction": _auction, "stock": _stock, "operating": _operating, "merger": _merger}
    # a title scores the decisions of its own (`Title18xx.scores`), the kit the rest
    own: Scored = []
    title_scores = getattr(title, "scores", None)
    if title_scores is not None:
        own, legal = title_scores(p, legal)
    scored: Scored = []
    if legal and title.pending_token(state):
        scored = _home_tokens(p, legal) or _fallback(p, legal)
    elif legal:
        scored = rounds.get(title.round(state), _fallback)(p, legal)
    scored = own + scored
    if not scored:
        scored = _fallback(p, legal)
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
    return [scored[i] for i in order]


def _home_tokens(p: Position, legal: list[LegalAction]) -> Scored:
    """A waiting token (a home, or a home lifted by a lay): where its company runs best."""
    out: Scored = []
    for la in legal:
        if tname(la.action) != "PlaceToken":
            continue
        corp = str(la.action.entity)
        for a in members(la, TOKEN_SAMPLE):
            after = p.after(a)
            if after is not None:
                out.append((50.0 + run_value(p, after, corp) + p.params.reach_weight * p.title.reach(after, corp), a))
    return out


def _fallback(p: Position, legal: list[LegalAction]) -> Scored:
    out: Scored = []
    for la in legal:
        a = la.action if la.range is None else with_field(la, la.range.min)
        out.append((0.0 if tname(a) == "Pass" else -1.0, a))
    return out
