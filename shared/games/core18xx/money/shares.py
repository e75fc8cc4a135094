"""Share certificates, who holds them, and the money that moves when they change hands.

Holders are plain strings: a player's id, a corporation's sym (its treasury: with incremental
capitalization unsold shares sit in the company itself, 18xx.games' "IPO is treasury"), or `POOL`
(the open market). Cash is a dict holder -> amount with `BANK` for the bank. Every function is pure:
it returns new values and never mutates what it was given; rule violations raise `RuleError`.

Facts (18xx.games `share_pool.rb`, `share_bundle.rb`, `corporation.rb`, `step/buy_sell_par_shares.rb`):
- A certificate costs price x percent / normal share percent (a minor's 20 % share costs one share
  price, its 40 % director's certificate two). Titles with `always_market_price` sell
  treasury shares at the current market price, others at par.
- Paid to: the company when bought from its own treasury (incremental capitalization), the bank
  when bought from the pool, the seller when bought from a player. Sales to the pool are paid by the bank.
- Presidency: after a transfer, if the president no longer holds the most, the eligible holder
  (`presidents`: players, or players and corporations, see `control.py`) holding the most (ties:
  nearest after the old president in that order) becomes president and swaps: he gets
  the president's certificate and hands normal shares of the same percent to the old president (or
  to the pool, when the old president sold it there and has too little left).
- A president may sell (part of) the president's certificate only if another eligible holder holds
  at least the president's percent ("can dump"). The pool may hold at most the market share limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import cached_property, lru_cache

import msgspec

from shared.engine import RuleError

POOL = "pool"
BANK = "bank"


class Cert(msgspec.Struct, frozen=True):
    id: str            # "<corp>_<index>", 18xx.games' share id: index 0 is the president's
    corporation: str
    percent: int
    president: bool = False


class ShareBook(msgspec.Struct, frozen=True, dict=True):
    certs: dict[str, Cert]      # every certificate in play (static)
    owner: dict[str, str]       # cert id -> holder
    # When each certificate reached its holder: 18xx.games keeps a holder's certificates in the
    # order they arrived, and picks "the first ones" in that order for swaps and returns.
    seq: dict[str, int] = {}
    clock: int = 0

    # answers derived from this book alone, kept on it (`dict=True`; see core18xx.memo)
    @cached_property
    def _smallest_plain(self) -> dict:
        return {}

    @cached_property
    def _by_certs(self) -> dict[str, dict]:
        """Answers that read the certificates alone, shared by every book `moved` makes."""
        return {"presidents": {}, "normal_percent": {}, "company_certs": {}}

    # --- reading -------------------------------------------------------------------------

    def _index(self) -> dict[str, dict[str, list[Cert]]]:
        # holder -> company -> certificates in arrival order; derived, cached on the instance
        # (`dict=True` gives frozen structs a __dict__ that is neither encoded nor compared)
        cache = self.__dict__
        index = cache.get("_by_holder")
        if index is None:
            index = {}
            percents: dict[tuple[str, str], int] = {}
            seq = self.seq
            for cid in sorted(self.owner, key=lambda c: seq.get(c, 0)):
                cert = self.certs[cid]
                holder = self.owner[cid]
                index.setdefault(holder, {}).setdefault(cert.corporation, []).append(cert)
                key = (holder, cert.corporation)
                percents[key] = percents.get(key, 0) + cert.percent
            cache["_by_holder"] = index
            cache["_percents"] = percents
        return index

    def held(self, holder: str, corporation: str) -> Sequence[Cert]:
        """`certs_of(holder, corporation)` without the copy: read only."""
        return self._index().get(holder, {}).get(corporation, ())

    def smallest_plain(self, holder: str, corporation: str) -> Cert | None:
        """The first of `holder`'s smallest non-president certificates of `corporation` (what
        a purchase from that holder takes), cached on the instance like the index."""
        cache = self._smallest_plain
        key = (holder, corporation)
        if key not in cache:
            plain = [c for c in self.held(holder, corporation) if not c.president]
            cache[key] = min(plain, key=lambda c: c.percent) if plain else None
        return cache[key]

    def by_company(self, holder: str) -> dict[str, list[Cert]]:
        """A holder's certificates per company, each list in arrival order: read only."""
        return self._index().get(holder, {})

    def certs_of(self, holder: str, corporation: str | None = None) -> list[Cert]:
        """A holder's certificates, in the order they arrived."""
        by_corp = self._index().get(holder, {})
        if corporation is not None:
            return list(by_corp.get(corporation, ()))
        return sorted((c for certs in by_corp.values() for c in certs), key=lambda c: self.seq.get(c.id, 0))

    def moved(self, cert_ids: Iterable[str], to: str) -> ShareBook:
        """The book after `cert_ids` move, in that order, to `to`."""
        ids = list(cert_ids)
        owner = dict(self.owner)
        seq = dict(self.seq)
        clock = self.clock
        for cid in ids:
            owner[cid] = to
            clock += 1
            seq[cid] = clock
        book = ShareBook(certs=self.certs, owner=owner, seq=seq, clock=clock)
        # share sizes and presidents' certificates depend on the certificates alone, which the
        # new book shares
        book.__dict__["_by_certs"] = self._by_certs
        if "_by_holder" in self.__dict__ and len(set(ids)) == len(ids) and all(c in self.owner for c in ids):
            self._carry_index(book, ids, to)
        return book

    def _carry_index(self, book: ShareBook, ids: list[str], to: str) -> None:
        """Give `book` (this one after `ids` moved to `to`) its index without sorting every
        certificate again: the moved ones leave their holders' lists and arrive last at `to`'s
        (their new arrival numbers are above all others). Lists touched are new lists."""
        index = dict(self.__dict__["_by_holder"])
        percents = dict(self.__dict__["_percents"])
        copied: set[str] = set()

        def by_corp(holder: str) -> dict[str, list[Cert]]:
            if holder not in copied:
                index[holder] = dict(index.get(holder, {}))
                copied.add(holder)
            return index[holder]

        for cid in ids:
            cert = self.certs[cid]
            corp, was = cert.corporation, self.owner[cid]    # ids are distinct: owner before
            src = by_corp(was)
            left = [c for c in src[corp] if c.id != cid]
            if left:
                src[corp] = left
                percents[(was, corp)] -= cert.percent
            else:
                del src[corp]
                del percents[(was, corp)]
                if not src:
                    del index[was]
                    copied.discard(was)
            dst = by_corp(to)
            dst[corp] = [*dst.get(corp, ()), cert]
            percents[(to, corp)] = percents.get((to, corp), 0) + cert.percent
        book.__dict__["_by_holder"] = index
        book.__dict__["_percents"] = percents

    def percent_of(self, holder: str, corporation: str) -> int:
        percents = self.__dict__.get("_percents")
        if percents is None:
            self._index()
            percents = self.__dict__["_percents"]
        return percents.get((holder, corporation), 0)

    def president_cert(self, corporation: str) -> Cert:
        cache = self._by_certs["presidents"]     # derived from `certs` (see moved)
        cert = cache.get(corporation)
        if cert is None:
            first = self.certs.get(f"{corporation}_0")
            cert = cache[corporation] = first if first is not None and first.president else next(
                c for c in self.certs.values() if c.corporation == corporation and c.president)
        return cert

    def president_of(self, corporation: str) -> str:
        return self.owner[self.president_cert(corporation).id]

    def normal_percent(self, corporation: str) -> int:
        """The size of one ordinary share (18xx.games `share_percent`)."""
        cache = self._by_certs["normal_percent"]   # derived from `certs` (see moved)
        size = cache.get(corporation)
        if size is None:
            normals = [c.percent for c in self._certs_of_company(corporation) if not c.president]
            size = cache[corporation] = min(normals) if normals else self.president_cert(corporation).percent // 2
        return size

    def holders(self, corporation: str) -> dict[str, int]:
        """Holder -> percent of `corporation`, holders in the order of their first certificate
        in `certs`."""
        out: dict[str, int] = {}
        owner = self.owner
        for cert in self._certs_of_company(corporation):
            holder = owner[cert.id]
            out[holder] = out.get(holder, 0) + cert.percent
        return out

    def _certs_of_company(self, corporation: str) -> tuple[Cert, ...]:
        cache = self._by_certs["company_certs"]   # derived from `certs` (see moved)
        found = cache.get(corporation)
        if found is None:
            found = cache[corporation] = tuple(c for c in self.certs.values() if c.corporation == corporation)
        return found


def new_book(corporations: Iterable[tuple[str, Sequence[int]]], treasury_holds: bool = True) -> ShareBook:
    """Certificates for each (sym, share percents); unsold shares start in the company's treasury
    (incremental capitalization) or in `"ipo:<sym>"` otherwise."""
    certs: dict[str, Cert] = {}
    owner: dict[str, str] = {}
    seq: dict[str, int] = {}
    for sym, percents in corporations:
        for index, percent in enumerate(percents):
            cid = f"{sym}_{index}"
            certs[cid] = Cert(id=cid, corporation=sym, percent=percent, president=index == 0)
            owner[cid] = sym if treasury_holds else f"ipo:{sym}"
            seq[cid] = len(seq)
    return ShareBook(certs=certs, owner=owner, seq=seq, clock=len(seq))


def bundle_price(book: ShareBook, corporation: str, percent: int, price: int | float) -> int:
    """What `percent` of a company costs at `price` per ordinary share (rounded up like 18xx.games)."""
    normal = book.normal_percent(corporation)
    if type(price) is int:
        return -(-price * percent // normal)   # the same exact ceiling in integers (hot in stock rounds)
    return math.ceil(Fraction(price) * percent / normal)


def _pay(cash: dict[str, int], payer: str, payee: str, amount: int) -> dict[str, int]:
    if amount < 0:
        raise RuleError("bad_amount", "a payment cannot be negative")
    if payer != BANK and cash.get(payer, 0) < amount:
        raise RuleError("not_enough_cash", f"{payer} has {cash.get(payer, 0)}, needs {amount}")
    out = dict(cash)
    out[payer] = out.get(payer, 0) - amount
    out[payee] = out.get(payee, 0) + amount
    return out


def pay(cash: dict[str, int], payer: str, payee: str, amount: int) -> dict[str, int]:
    """Move money; raises RuleError when the payer (never the bank) cannot afford it."""
    return _pay(cash, payer, payee, amount)


# --- presidency ---------------------------------------------------------------------------

class HolderPresidents(list[str]):
    """The players and corporations who may preside (`MoneyRules.presidents == "holders"`), with
    their tie-break (18xx.games G1841 `player_distance_for_president`): after the previous
    president come the players (from him round when he is one, else all in priority order), then
    the live corporations in operating order; `corp_order` gives that order when a tie asks."""

    def __init__(self, players: Sequence[str], corps: Sequence[str], corp_order: Callable[[], list[str]]) -> None:
        super().__init__([*players, *corps])
        self.players = list(players)
        self.corp_order = corp_order

    def distance(self, a: str, b: str) -> int:
        if a not in self or b not in self:
            return 0
        if a in self.players:
            i = self.players.index(a)
            players = self.players[i:] + self.players[:i]
        else:
            players = [a, *self.players]
        ranked = self.corp_order()
        corps = [c for c in ranked if c in self and c != a] + [c for c in self[len(self.players):] if c not in ranked]
        order = [*players, *corps]
        return order.index(b) if b in order else 0


def seat_distance(presidents: Sequence[str], a: str, b: str) -> int:
    if isinstance(presidents, HolderPresidents):
        return presidents.distance(a, b)
    if a not in presidents or b not in presidents:
        return 0
    ia, ib = presidents.index(a), presidents.index(b)
    return ib - ia if ia < ib else ib - (ia - len(presidents))


def settle_presidency(book: ShareBook, corporation: str, presidents: Sequence[str], previous: str,
                      receiver: str | None = None) -> ShareBook:
    """Hand the presidency over if a player now holds more than `previous` (the president before
    the transfer): the new president swaps normal shares for the president's certificate. The
    swapped shares go to `receiver` when given (18xx.games' `transfer_shares` of the
    certificate itself with `corporate_transfer`: to the one it was moved to)."""
    pres = book.president_cert(corporation)
    percents = {p: book.percent_of(p, corporation) for p in presidents}
    best = max(percents.values(), default=0)
    leaders = [p for p in presidents if percents[p] == best]
    if best == 0 or previous in leaders:
        return book
    candidates = [p for p in leaders if percents[p] >= pres.percent]
    if not candidates:
        return book
    new_president = min(candidates, key=lambda p: seat_distance(presidents, previous, p))
    if book.owner[pres.id] == new_president:
        return book
    # Normal shares worth the certificate go to the old president while he still holds that much
    # (he was overtaken), else to the pool (he sold the certificate there).
    if receiver is not None:
        return swap_presidency(book, corporation, new_president, receiver)
    keeps = previous in presidents and book.percent_of(previous, corporation) >= pres.percent
    return swap_presidency(book, corporation, new_president, previous if keeps else POOL)


def swap_presidency(book: ShareBook, corporation: str, new_president: str, receiver: str) -> ShareBook:
    """`new_president` takes the president's certificate for normal shares worth it, which go
    to `receiver` (18xx.games `change_president`)."""
    pres = book.president_cert(corporation)
    swap: list[str] = []
    swapped = 0
    for cert in book.certs_of(new_president, corporation):
        if swapped >= pres.percent:
            break
        if not cert.president:
            swap.append(cert.id)
            swapped += cert.percent
    return book.moved(swap, receiver).moved([pres.id], new_president)


def can_dump(book: ShareBook, seller: str, corporation: str, cert_ids: Sequence[str], presidents: Sequence[str]) -> bool:
    """Selling the president's certificate needs another player holding at least its percent."""
    pres = book.president_cert(corporation)
    if pres.id not in cert_ids:
        return True
    # (asked of every president's bundle in every stock-round check: a plain loop)
    for p in presidents:
        if p != seller and book.percent_of(p, corporation) >= pres.percent:
            return True
    return pres.percent <= 0    # nobody else holds as much (with no other player, 0 does)


# --- buying and selling --------------------------------------------------------------------

def _known(book: ShareBook, cert_ids: Sequence[str]) -> None:
    unknown = [cid for cid in cert_ids if cid not in book.certs]
    if unknown:
        raise RuleError("unknown_share", f"no share {unknown[0]}")


def buy(book: ShareBook, cash: dict[str, int], buyer: str, cert_ids: Sequence[str], price_per_share: int,
        presidents: Sequence[str]) -> tuple[ShareBook, dict[str, int]]:
    """`buyer` takes `cert_ids` (all of one company, all from one holder) and pays for them."""
    _known(book, cert_ids)
    certs = [book.certs[cid] for cid in cert_ids]
    if not certs:
        raise RuleError("no_shares", "no shares named")
    corporation = certs[0].corporation
    sellers = {book.owner[cid] for cid in cert_ids}
    if len({c.corporation for c in certs}) != 1 or len(sellers) != 1:
        raise RuleError("bad_bundle", "a purchase takes shares of one company from one holder")
    seller = sellers.pop()
    if seller == buyer:
        raise RuleError("bad_bundle", "cannot buy shares from yourself")
    percent = sum(c.percent for c in certs)
    amount = bundle_price(book, corporation, percent, price_per_share)
    payee = BANK if seller == POOL or seller.startswith("ipo:") else seller
    cash = _pay(cash, buyer, payee, amount)
    previous = book.president_of(corporation)
    book = book.moved(cert_ids, buyer)
    if previous not in presidents:
        return book, cash
    return settle_presidency(book, corporation, presidents, previous), cash


def sell(book: ShareBook, cash: dict[str, int], seller: str, cert_ids: Sequence[str], percent: int | None,
         price_per_share: int, presidents: Sequence[str], pool_limit: int) -> tuple[ShareBook, dict[str, int], int]:
    """`seller` sells to the pool; `percent` below the certificates' total sells part of the
    president's certificate (the balance comes back from the pool). Returns the book, cash and the
    number of ordinary shares sold (each one moves the price down a row in most titles)."""
    _known(book, cert_ids)
    certs = [book.certs[cid] for cid in cert_ids]
    if not certs or any(book.owner[c.id] != seller for c in certs):
        raise RuleError("not_owner", "you can only sell shares you hold")
    corporation = certs[0].corporation
    if len({c.corporation for c in certs}) != 1:
        raise RuleError("bad_bundle", "a sale is of one company's shares")
    full = sum(c.percent for c in certs)
    percent = full if percent is None else percent
    normal = book.normal_percent(corporation)
    if percent > full or percent <= 0 or percent % normal:
        raise RuleError("bad_bundle", f"cannot sell {percent}% from certificates worth {full}%")
    if book.percent_of(POOL, corporation) + percent > pool_limit:
        raise RuleError("pool_full", f"the market may hold at most {pool_limit}% of {corporation}")
    if not can_dump(book, seller, corporation, cert_ids, presidents):
        raise RuleError("cannot_dump", "no other player can take the presidency")
    amount = bundle_price(book, corporation, percent, price_per_share)
    cash = _pay(cash, BANK, seller, amount)
    previous = book.president_of(corporation)
    book = book.moved(cert_ids, POOL)
    if previous in presidents:
        book = settle_presidency(book, corporation, presidents, previous)
    if percent < full:
        # A partial sale of the president's certificate: the unsold part comes back as shares from the pool.
        back = (full - percent) // normal
        pool_first = book.certs_of(POOL, corporation)[:back]
        book = book.moved([c.id for c in pool_first], seller)
    return book, cash, percent // normal


def sell_options(book: ShareBook, holder: str, corporation: str) -> list[tuple[list[str], int]]:
    """The bundles a holder could offer, smallest first: ordinary shares one by one, then with the
    president's certificate, and partial president's bundles (18xx.games `all_bundles_for_corporation`)."""
    return [(list(ids), total)
            for ids, total in bundles(tuple(book.held(holder, corporation)), book.normal_percent(corporation))]


@lru_cache(maxsize=4096)
def bundles(certs: tuple[Cert, ...], normal: int) -> tuple[tuple[tuple[str, ...], int], ...]:
    """`sell_options` of a holding given as its certificates in arrival order and the company's
    ordinary share size (what the bundles depend on, nothing else): the stock round asks it of
    every player's every company after each decision, mostly of holdings seen before."""
    mine = sorted(certs, key=lambda c: (c.president, c.percent))
    options: list[tuple[tuple[str, ...], int]] = []
    ids: list[str] = []
    total = 0
    for cert in mine:
        ids.append(cert.id)
        total += cert.percent
        options.append((tuple(ids), total))
    if mine and mine[-1].president:
        for n in range(1, (mine[-1].percent - normal) // normal + 1):
            options.append((tuple(ids), total - normal * n))
    return tuple(sorted(options, key=lambda o: o[1]))


# --- limits --------------------------------------------------------------------------------

def holding_ok(book: ShareBook, holder: str, corporation: str, extra: int, max_percent: int,
               lifted: bool = False) -> bool:
    """May `holder` own `extra` more percent? `lifted`: the price cell lifts the limit (orange/brown)."""
    return lifted or holder == corporation or book.percent_of(holder, corporation) + extra <= max_percent


def cert_count(book: ShareBook, holder: str, counts: dict[str, bool], companies_held: int = 0) -> int:
    """Certificates counting toward the limit: `counts[corp]` is False where the company's price cell
    is exempt (yellow zone); private companies count one each."""
    return companies_held + sum(len(certs) for sym, certs in book.by_company(holder).items()
                                if counts.get(sym, True))


# --- issue / redeem one share (incremental capitalization) --------------------------------------------------

def issue_one(book: ShareBook, cash: dict[str, int], corporation: str, price_per_share: int,
              pool_limit: int) -> tuple[ShareBook, dict[str, int]]:
    """The company sells one treasury share to the pool and the bank pays it the market price."""
    treasury = [c for c in book.certs_of(corporation, corporation) if not c.president]
    if not treasury:
        raise RuleError("no_treasury_shares", f"{corporation} has no share to issue")
    cert = treasury[0]
    if book.percent_of(POOL, corporation) + cert.percent > pool_limit:
        raise RuleError("pool_full", f"the market may hold at most {pool_limit}% of {corporation}")
    cash = _pay(cash, BANK, corporation, bundle_price(book, corporation, cert.percent, price_per_share))
    return book.moved([cert.id], POOL), cash


def redeem_one(book: ShareBook, cash: dict[str, int], corporation: str,
               price_per_share: int) -> tuple[ShareBook, dict[str, int]]:
    """The company buys one of its shares back from the pool at the market price, paid to the bank."""
    pooled = book.certs_of(POOL, corporation)
    if not pooled:
        raise RuleError("no_pool_shares", f"no {corporation} share in the market")
    cert = pooled[0]
    cash = _pay(cash, corporation, BANK, bundle_price(book, corporation, cert.percent, price_per_share))
    return book.moved([cert.id], corporation), cash
