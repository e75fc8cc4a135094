"""Trains, the depot, phases, rusting, train limits, and the emergency purchase.

Facts (18xx.games `depot.rb`, `train.rb`, `phase.rb`, `game/base.rb`, `step/train.rb`,
`step/buy_train.rb`):
- Trains are numbered per type in `<name>-<index>` ids ("2H-0"); the depot offers the first train
  still upcoming, plus the trains in the bank pool (one per type).
- Buying the first train of the type that the next phase names advances the phase (possibly
  several), then rusts every train whose `rusts_on` names the bought type, then fires the bought
  type's events (once per type).
- "Unlimited" types (`num: null`) never run out: buying the last copy adds a fresh one.
- Reserved types (primed half trains such as 1H') start set aside. When a train of the non-reserved kind
  rusts, one reserved train of half its distance enters the bank pool (`release_half_on_rust`).
  Reserved trains still set aside rust too when their own `rusts_on` type comes, releasing nothing.
- A trade-in (`discount`) lowers the price by the listed amount for the train handed in; the
  handed-in train goes to the bank pool.
- A company with no train must buy one when the depot has any (`must_buy_train: always`). Short of
  cash for the cheapest depot train, its president pays the rest, selling shares if need be; when
  even that cannot reach the cheapest depot train, the president goes bankrupt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

import msgspec

from shared.engine import RuleError

DEPOT = "depot"        # upcoming, in the depot
POOL = "pool"          # bank pool (18xx.games' "discarded"): buyable at its price
RESERVED = "reserved"  # set aside (primed trains not yet released)
RUSTED = "rusted"      # out of the game


class TrainType(msgspec.Struct, frozen=True, omit_defaults=True):
    name: str
    distance: int
    price: int
    num: int | None = None            # None: unlimited
    rusts_on: str | None = None
    obsolete_on: str | None = None
    reserved: bool = False
    no_local: bool = False
    events: list[str] = []
    discount: dict[str, int] = {}


class PhaseDef(msgspec.Struct, frozen=True):
    name: str
    on: str | None
    train_limit: dict[str, int]       # by corporation type ("minor", "major")
    tiles: list[str]
    operating_rounds: int
    status: list[str] = []


class Train(msgspec.Struct, frozen=True):
    id: str
    name: str
    owner: str
    # when it came to its owner (a count over all trains): 18xx.games keeps an owner's trains
    # in the order they came, which some titles' rules read (`acquired`)
    seq: int = 0


class Depot(msgspec.Struct, frozen=True, dict=True):
    types: dict[str, TrainType]
    trains: dict[str, Train]          # every train by id, in creation order
    upcoming: list[str]               # ids still in the depot, in sale order
    pool: list[str]                   # ids in the bank pool, in arrival order
    phases: list[PhaseDef]
    phase: int = 0
    fired_events: list[str] = []      # train types whose events have fired

    @property
    def current_phase(self) -> PhaseDef:
        return self.phases[self.phase]

    def owned_by(self, owner: str) -> list[Train]:
        return list(self._owners().get(owner, ()))

    def count_owned(self, owner: str) -> int:
        """len(owned_by(owner)) without the list."""
        return len(self._owners().get(owner, ()))

    def _owners(self) -> dict[str, list[Train]]:
        # asked for every company after every decision: one owner index per (immutable) depot
        # (`dict=True`: a __dict__ neither encoded nor compared)
        return self._by_owner

    @cached_property
    def _by_owner(self) -> dict[str, list[Train]]:
        index: dict[str, list[Train]] = {}
        for t in self.trains.values():
            index.setdefault(t.owner, []).append(t)
        return index

    def train_limit(self, corporation_type: str) -> int:
        return self.current_phase.train_limit.get(corporation_type, 0)

    def offered(self) -> list[Train]:
        """What the depot sells now: the next upcoming train and one of each type in the pool."""
        out: list[Train] = []
        if self.upcoming:
            out.append(self.trains[self.upcoming[0]])
        seen: set[str] = set()
        for tid in self.pool:
            train = self.trains[tid]
            if train.name not in seen:
                seen.add(train.name)
                out.append(train)
        return out

    def min_price(self) -> int:
        offered = self.offered()
        return min((self.types[t.name].price for t in offered), default=0)

    def price_for(self, train: Train, exchange: Train | None = None) -> int:
        ttype = self.types[train.name]
        return ttype.price - (ttype.discount.get(exchange.name, 0) if exchange else 0)


def new_depot(types: Sequence[TrainType], phases: Sequence[PhaseDef]) -> Depot:
    trains: dict[str, Train] = {}
    upcoming: list[str] = []
    for ttype in types:
        for index in range(ttype.num if ttype.num is not None else 1):
            tid = f"{ttype.name}-{index}"
            trains[tid] = Train(id=tid, name=ttype.name, owner=RESERVED if ttype.reserved else DEPOT)
            if not ttype.reserved:
                upcoming.append(tid)
    return Depot(types={t.name: t for t in types}, trains=trains, upcoming=upcoming, pool=[], phases=list(phases))


class Purchase(msgspec.Struct, frozen=True):
    depot: Depot
    cash: dict[str, int]
    events: list[str]          # events fired by this purchase, in order
    rusted: list[str]          # ids rusted by this purchase
    released: list[str]        # ids released to the pool by this purchase
    new_phase: bool


def _set_owner(trains: dict[str, Train], tid: str, owner: str) -> dict[str, Train]:
    out = dict(trains)
    out[tid] = msgspec.structs.replace(out[tid], owner=owner, seq=next_seq(trains))
    return out


def next_seq(trains: dict[str, Train]) -> int:
    return 1 + max((t.seq for t in trains.values()), default=0)


def acquired(depot: Depot, owner: str) -> list[Train]:
    """`owner`'s trains in the order they came to it (18xx.games' `trains` array)."""
    return sorted(depot.owned_by(owner), key=lambda t: t.seq)


def _pay(cash: dict[str, int], payer: str, payee: str, amount: int) -> dict[str, int]:
    if cash.get(payer, 0) < amount:
        raise RuleError("not_enough_cash", f"{payer} has {cash.get(payer, 0)}, needs {amount}")
    out = dict(cash)
    out[payer] = out.get(payer, 0) - amount
    out[payee] = out.get(payee, 0) + amount
    return out


def buy_train(depot: Depot, cash: dict[str, int], buyer: str, train_id: str, price: int,
              exchange_id: str | None = None, release_half_on_rust: bool = False,
              bank: str = "bank") -> Purchase:
    """`buyer` (a company) buys `train_id` from the depot, the pool or another company.

    From the depot or pool the price must be the list price (less a trade-in's discount); from a
    company any price of at least 1 is allowed (titles restrict it further). The caller checks the
    buyer's room under the train limit and who may sell to whom."""
    train = depot.trains.get(train_id)
    if train is None:
        raise RuleError("unknown_train", f"no train {train_id}")
    from_depot = train.owner in (DEPOT, POOL)
    exchange = None
    if exchange_id is not None:
        exchange = depot.trains.get(exchange_id)
        if exchange is None or exchange.owner != buyer:
            raise RuleError("bad_exchange", f"{buyer} does not own {exchange_id}")
        if not from_depot or exchange.name not in depot.types[train.name].discount:
            raise RuleError("bad_exchange", f"{train.name} cannot be had by trading in a {exchange.name}")
    if from_depot:
        if train.owner == DEPOT and train_id not in [t.id for t in depot.offered()]:
            raise RuleError("not_available", f"{train_id} is not for sale yet")
        expected = depot.price_for(train, exchange)
        if price != expected:
            raise RuleError("wrong_price", f"{train.name} costs {expected}")
        payee = bank
    else:
        if train.owner == buyer:
            raise RuleError("own_train", "a company cannot buy its own train")
        if price < 1:
            raise RuleError("wrong_price", "a train between companies costs at least 1")
        payee = train.owner
    cash = _pay(cash, buyer, payee, price)

    trains = depot.trains
    upcoming = list(depot.upcoming)
    pool = list(depot.pool)
    if exchange is not None:
        trains = _set_owner(trains, exchange.id, POOL)
        pool.append(exchange.id)
    if train.owner == DEPOT:
        index = upcoming.index(train_id)
        upcoming.pop(index)
        ttype = depot.types[train.name]
        if ttype.num is None and not any(trains[t].name == train.name for t in upcoming):
            copies = sum(1 for t in trains.values() if t.name == train.name)
            fresh = Train(id=f"{train.name}-{copies}", name=train.name, owner=DEPOT)
            trains = dict(trains)
            trains[fresh.id] = fresh
            upcoming.insert(index, fresh.id)
    elif train.owner == POOL:
        pool.remove(train_id)
    trains = _set_owner(trains, train_id, buyer)
    depot = msgspec.structs.replace(depot, trains=trains, upcoming=upcoming, pool=pool)
    if not from_depot:
        return Purchase(depot=depot, cash=cash, events=[], rusted=[], released=[], new_phase=False)
    return _after_depot_purchase(depot, cash, train, release_half_on_rust)


def _after_depot_purchase(depot: Depot, cash: dict[str, int], bought: Train, release_half: bool) -> Purchase:
    phase = depot.phase
    while phase + 1 < len(depot.phases) and depot.phases[phase + 1].on == bought.name:
        phase += 1
    new_phase = phase != depot.phase
    depot = msgspec.structs.replace(depot, phase=phase)

    trains = dict(depot.trains)
    pool = list(depot.pool)
    rusted: list[str] = []
    released: list[str] = []
    set_aside = [tid for tid, t in trains.items() if t.owner == RESERVED]
    for tid in list(trains):
        train = trains[tid]
        ttype = depot.types[train.name]
        if train.owner == RUSTED or ttype.rusts_on != bought.name:
            continue
        was_reserved = ttype.reserved
        trains[tid] = msgspec.structs.replace(train, owner=RUSTED)
        if tid in pool:
            pool.remove(tid)
        rusted.append(tid)
        if release_half and not was_reserved:
            half = ttype.distance // 2
            spare = next((s for s in set_aside if trains[s].owner == RESERVED
                          and depot.types[trains[s].name].distance == half), None)
            if spare is None:
                raise RuleError("no_reserved_train", f"no reserved train of distance {half} left")
            trains[spare] = msgspec.structs.replace(trains[spare], owner=POOL)
            pool.append(spare)
            released.append(spare)
    events: list[str] = []
    fired = list(depot.fired_events)
    if bought.name not in fired:
        fired.append(bought.name)
        events = list(depot.types[bought.name].events)
    depot = msgspec.structs.replace(depot, trains=trains, pool=pool, fired_events=fired)
    return Purchase(depot=depot, cash=cash, events=events, rusted=rusted, released=released, new_phase=new_phase)


def discard(depot: Depot, owner: str, train_id: str) -> Depot:
    """A company over its train limit hands a train to the bank pool."""
    train = depot.trains.get(train_id)
    if train is None or train.owner != owner:
        raise RuleError("not_owner", f"{owner} does not own {train_id}")
    return msgspec.structs.replace(depot, trains=_set_owner(depot.trains, train_id, POOL),
                                   pool=[*depot.pool, train_id])


def over_limit(depot: Depot, owners: dict[str, str]) -> list[str]:
    """Companies (sym -> type) holding more trains than the current phase allows."""
    # (asked at every turn's discard step, of every company: the owner index and the limits read once)
    owned, limits = depot._owners(), depot.current_phase.train_limit
    return [sym for sym, ctype in owners.items() if len(owned.get(sym, ())) > limits.get(ctype, 0)]


def over_limit_open(depot: Depot, corps: Mapping[str, Any]) -> list[str]:
    """`over_limit` of the open companies of `corps` (sym -> a company with `type` and `closed`),
    in `corps`' order: read off the few owners holding trains, not every company."""
    owned, limits = depot._owners(), depot.current_phase.train_limit
    over = {sym for sym, held in owned.items()
            if (corp := corps.get(sym)) is not None and not corp.closed and len(held) > limits.get(corp.type, 0)}
    return [sym for sym in corps if sym in over] if over else []


# --- emergency money -----------------------------------------------------------------------

def must_buy_train(depot: Depot, company: str) -> bool:
    """The company owns no train and the depot or pool has one for sale (`must_buy_train: always`)."""
    return not depot.count_owned(company) and bool(depot.offered())


def president_shortfall(depot: Depot, company_cash: int, price: int) -> int:
    """What the president must pay toward a forced purchase at `price` (0 if the company can)."""
    return max(0, price - company_cash)


def can_go_bankrupt(depot: Depot, company_cash: int, president_cash: int, sellable_value: int,
                    issuable_cash: int = 0) -> bool:
    """Bankruptcy is allowed only when everything that could be raised cannot buy the cheapest
    depot/pool train (18xx.games `can_go_bankrupt?`)."""
    return company_cash + issuable_cash + president_cash + sellable_value < depot.min_price()


def may_sell_for_train(depot: Depot, company_cash: int, already_selling: bool) -> bool:
    """The president may sell shares for a train only when the company cannot afford the
    cheapest depot/pool train; once selling has begun it may go on."""
    return already_selling or company_cash < depot.min_price()
