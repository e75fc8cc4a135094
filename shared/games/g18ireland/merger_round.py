"""18Ireland's merger round: players propose merging 2-3 connected minors into an unstarted
major, shareholders vote, and on success the minors' assets and shares pass to the major.

Facts (18xx.games `g_18_ireland/round/merger.rb`, `step/merge.rb`, `step/merger_vote.rb`,
`step/merger_common.rb`):
- Players take turns in player order; each may propose a merger or pass. The round ends when all
  players have passed; a proposal put to the vote unpasses everyone.
- A proposal starts with a floated minor the proposer holds shares of, then adds floated minors
  (at most three in all) while the set stays possible: each added minor is connected by broad
  gauge to one already in (tokens do not block; a board fact, given by `connected`), no two home
  tokens on the same tile, at most 10 shares held by players and the market together, no player
  above 7 shares, the market at most 5 shares. Adding stops by itself when no minor can be added;
  `pass` puts a smaller set to the vote. The same set may not be proposed twice in a round.
- Vote: players holding shares of the minors vote in turn from the proposer, with as many votes
  as shares (a director's certificate is two). Market shares vote automatically: for if the new
  price is above that minor's price, against if below, abstain if equal. Needed: half the votes
  cast or available, rounded down, plus one. It passes as soon as enough are for; fails when the
  rest cannot reach it or all have voted.
- On success the proposer chooses any unstarted major. Its price is the market cell at the
  topmost row and leftmost column among the minors' prices. Each minor's cash, privates and
  trains (and tokens: board) pass to the major and the minor closes; each player receives one
  major share per minor share, handed out from the proposer round the table (the first with
  two or more shares takes the president's certificate; presidency then follows the usual swap
  rules); market shares become major shares in the pool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from shared.engine import LegalAction, RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState
from shared.games.core18xx.rounds.stock import seated

LIMIT_MERGE = 3
Connected = Callable[[str, str], bool]       # board: minor a's network reaches minor b's token
SameTile = Callable[[str, str], bool]        # board: both home tokens on one tile


class MergerRound(msgspec.Struct, frozen=True):
    entity_index: int = 0
    passed: list[str] = []
    merging: list[str] | None = None
    proposer: str | None = None
    to_vote: list[tuple[str, int]] = []
    votes_for: int = 0
    votes_against: int = 0
    votes_needed: int = 0
    votes_available: int = 0
    outcome: str | None = None               # "for" | "against" | None
    proposed: list[list[str]] = []           # sorted sets already proposed this round
    finished: bool = False


def shares_of(money: MoneyState, holder: str, sym: str) -> int:
    return money.book.percent_of(holder, sym) // money.book.normal_percent(sym)


def _issued(money: MoneyState, sym: str) -> int:
    return 5 - shares_of(money, sym, sym)


def merge_targets(money: MoneyState) -> list[str]:
    return [s for s, c in money.corps.items() if c.type == "major" and not c.floated and not c.closed]


def floated_minors(money: MoneyState) -> list[str]:
    return [s for s, c in money.corps.items() if c.type == "minor" and c.floated and not c.closed]


def merge_possible(money: MoneyState, merging: list[str], new: str, connected: Connected, same_tile: SameTile) -> bool:
    if new in merging:
        return False
    if not any(connected(c, new) for c in merging):
        return False
    if any(same_tile(c, new) for c in merging):
        return False
    # the share limits read the group, not its order; every player's candidates (and the
    # auto-passes) ask them of one money state: cached on it (`dict=True`, see MoneyState)
    group = tuple(sorted([*merging, new]))
    known = money.answers.setdefault("_merge_shares_ok", {})
    ok = known.get(group)
    if ok is None:
        ok = known[group] = _shares_ok(money, group)
    return ok


def _shares_ok(money: MoneyState, group: tuple[str, ...]) -> bool:
    if sum(_issued(money, c) for c in group) > 10:
        return False
    if any(sum(shares_of(money, p, c) for c in group) > 7 for p in money.players):
        return False
    return sum(shares_of(money, S.POOL, c) for c in group) <= 5


def candidates(money: MoneyState, mr: MergerRound, player: str, connected: Connected, same_tile: SameTile) -> list[str]:
    """The minors `player` may add now (start a proposal with, when none is open)."""
    # asked several times per decision (what is open, the legality check, the proposal, the
    # auto-passes) of the same round and board: cached on the money state, the entry holding
    # the round and the board's answers so their ids stay theirs
    known = money.answers.setdefault("_merge_candidates", {})
    key = (id(mr), player, id(connected), id(same_tile))
    hit = known.get(key)
    if hit is not None and hit[0] is mr and hit[1] is connected and hit[2] is same_tile:
        return list(hit[3])
    found = _candidates(money, mr, player, connected, same_tile)
    known[key] = (mr, connected, same_tile, tuple(found))
    return found


def _candidates(money: MoneyState, mr: MergerRound, player: str, connected: Connected, same_tile: SameTile) -> list[str]:
    merging = mr.merging or []
    if not merge_targets(money) or len(merging) == LIMIT_MERGE:
        return []
    pool = [c for c in floated_minors(money) if c not in merging]
    if not merging:
        mine = [c for c in pool if money.book.percent_of(player, c) > 0]
        return [c for c in mine if any(merge_possible(money, [c], c2, connected, same_tile) for c2 in pool)]
    return [c for c in pool if merge_possible(money, merging, c, connected, same_tile)]


def current_player(money: MoneyState, mr: MergerRound) -> str:
    return seated(money)[mr.entity_index]


def active_player(money: MoneyState, mr: MergerRound) -> str | None:
    if mr.finished:
        return None
    if mr.to_vote:
        return mr.to_vote[0][0]
    if mr.outcome == "for":
        return mr.proposer
    return current_player(money, mr)


def new_price_cell(money: MoneyState, merging: list[str]) -> tuple[int, int]:
    coords = [money.corps[c].price for c in merging]
    row = min(c[0] for c in coords if c is not None)
    col = min(c[1] for c in coords if c is not None)
    return (row, col)


def available(money: MoneyState, mr: MergerRound, player: str, connected: Connected, same_tile: SameTile) -> list[str]:
    if player != active_player(money, mr):
        return []
    if mr.to_vote:
        return ["choose"]
    if mr.outcome == "for":
        return ["merge"]
    if not merge_targets(money):
        return ["pass"]
    return ["merge", "pass"] if candidates(money, mr, player, connected, same_tile) or mr.merging else ["pass"]


# --- flow ----------------------------------------------------------------------------------

def start(money: MoneyState) -> MergerRound:
    return MergerRound()


def _next_entity(money: MoneyState, mr: MergerRound) -> MergerRound:
    players = seated(money)
    mr = msgspec.structs.replace(mr, entity_index=(mr.entity_index + 1) % len(players),
                                 merging=None, proposer=None, outcome=None, to_vote=[])
    if all(p in mr.passed for p in players):
        return msgspec.structs.replace(mr, finished=True)
    return mr


def _check(mr: MergerRound) -> MergerRound:
    if mr.votes_for >= mr.votes_needed:
        return msgspec.structs.replace(mr, outcome="for", to_vote=[])
    if not mr.to_vote:
        return msgspec.structs.replace(mr, outcome="against")
    if mr.votes_available - mr.votes_against < mr.votes_needed:
        return msgspec.structs.replace(mr, outcome="against", to_vote=[])
    return mr


def put_to_vote(money: MoneyState, mr: MergerRound, proposer: str) -> MergerRound:
    """Close the proposal and count the market's votes (also used when the board finds no
    further minor to add)."""
    merging = list(mr.merging or [])
    key = sorted(merging)
    if key in mr.proposed:
        # the same set twice is against the rules: the proposal is dropped
        return msgspec.structs.replace(mr, merging=None)
    start_at = money.players.index(proposer)
    order = money.players[start_at:] + money.players[:start_at]
    to_vote = [(p, sum(shares_of(money, p, c) for c in merging)) for p in order]
    to_vote = [(p, n) for p, n in to_vote if n > 0]
    new_price = money.market.at(new_price_cell(money, merging)).price
    votes_for = votes_against = 0
    for c in merging:
        market = shares_of(money, S.POOL, c)
        if market:
            if new_price > money.price_of(c):
                votes_for += market
            elif new_price < money.price_of(c):
                votes_against += market
    available_votes = votes_for + votes_against + sum(n for _, n in to_vote)
    mr = msgspec.structs.replace(mr, passed=[], to_vote=to_vote, votes_for=votes_for, votes_against=votes_against,
                                 votes_available=available_votes, votes_needed=available_votes // 2 + 1,
                                 proposed=[*mr.proposed, key], proposer=proposer)
    mr = _check(mr)
    if mr.outcome == "against":
        return _next_entity(money, mr)
    return mr


def propose(money: MoneyState, mr: MergerRound, player: str, minor: str, connected: Connected,
            same_tile: SameTile) -> MergerRound:
    if "merge" not in available(money, mr, player, connected, same_tile) or mr.outcome == "for":
        raise RuleError("cannot_merge", "you cannot propose a merger now")
    if minor not in candidates(money, mr, player, connected, same_tile):
        raise RuleError("not_mergeable", f"{minor} cannot join this merger")
    mr = msgspec.structs.replace(mr, merging=[*(mr.merging or []), minor], proposer=player)
    if not candidates(money, mr, player, connected, same_tile):
        return put_to_vote(money, mr, player)
    return mr


def pass_(money: MoneyState, mr: MergerRound, player: str, connected: Connected, same_tile: SameTile) -> MergerRound:
    if "pass" not in available(money, mr, player, connected, same_tile):
        raise RuleError("cannot_pass", "you cannot pass now")
    if mr.merging:
        if len(mr.merging) < 2:
            raise RuleError("too_few", "a merger needs at least two minors")
        return put_to_vote(money, mr, player)
    mr = msgspec.structs.replace(mr, passed=[*mr.passed, player])
    return _next_entity(money, mr)


def vote(money: MoneyState, mr: MergerRound, player: str, choice: str) -> MergerRound:
    if not mr.to_vote or mr.to_vote[0][0] != player:
        raise RuleError("not_your_vote", "it is not your turn to vote")
    if choice not in ("for", "against"):
        raise RuleError("bad_vote", "vote 'for' or 'against'")
    votes = mr.to_vote[0][1]
    mr = msgspec.structs.replace(mr, to_vote=mr.to_vote[1:],
                                 votes_for=mr.votes_for + (votes if choice == "for" else 0),
                                 votes_against=mr.votes_against + (votes if choice == "against" else 0))
    mr = _check(mr)
    if mr.outcome == "against":
        return _next_entity(money, mr)
    return mr


def complete(money: MoneyState, depot: T.Depot, mr: MergerRound, player: str,
             major: str) -> tuple[MoneyState, T.Depot, MergerRound]:
    """The proposer picks the major; assets and shares move (board tokens are the caller's)."""
    if mr.outcome != "for" or player != mr.proposer:
        raise RuleError("cannot_merge", "no accepted merger waits for you")
    if major not in merge_targets(money):
        raise RuleError("not_target", f"{major} cannot receive a merger")
    merging = list(mr.merging or [])
    money = money.set_par(major, new_price_cell(money, merging), par_cell_only=False)
    start_at = money.players.index(player)
    order = money.players[start_at:] + money.players[:start_at]
    player_shares = [(p, sum(shares_of(money, p, c) for c in merging)) for p in order]
    player_shares = [(p, n) for p, n in player_shares if n > 0]
    market_shares = sum(shares_of(money, S.POOL, c) for c in merging)
    cash = dict(money.cash)
    companies = dict(money.companies)
    for c in merging:
        cash[major] = cash.get(major, 0) + cash.get(c, 0)
        cash[c] = 0
        companies = {k: (major if o == c else o) for k, o in companies.items()}
        # the major takes each minor's trains in the minor's order, minors in merging order,
        # each arriving last (18xx.games' `transfer`): its trains' order follows, as after a purchase
        for train in T.acquired(depot, c):
            moved = msgspec.structs.replace(train, owner=major, seq=T.next_seq(depot.trains))
            depot = msgspec.structs.replace(depot, trains={**depot.trains, train.id: moved})
    corps = dict(money.corps)
    book = money.book
    for c in merging:
        corps[c] = msgspec.structs.replace(corps[c], closed=True)
        book = book.moved([cid for cid, cert in book.certs.items() if cert.corporation == c], f"closed:{c}")
    tokens = {s: t for s, t in money.tokens.items() if s not in merging}
    money = msgspec.structs.replace(money, cash=cash, companies=companies, corps=corps, tokens=tokens, book=book)
    for p, n in player_shares:
        treasury = money.book.certs_of(major, major)
        has_pres = bool(treasury) and treasury[0].president
        if n > 1 and has_pres:
            bundle = treasury[: n - 1]
        elif has_pres:
            bundle = treasury[1: 1 + n]
        else:
            bundle = treasury[:n]
        book, _ = S.buy(money.book, money.cash, p, [c.id for c in bundle], 0, money.players)
        money = msgspec.structs.replace(money, book=book)
    if market_shares:
        treasury = money.book.certs_of(major, major)
        money = msgspec.structs.replace(money, book=money.book.moved([c.id for c in treasury[:market_shares]], S.POOL))
    money = money.check_float(major)
    mr = msgspec.structs.replace(mr, merging=None, outcome=None)
    return money, depot, _next_entity(money, mr)


def legal(money: MoneyState, mr: MergerRound, player: str, connected: Connected, same_tile: SameTile) -> list[LegalAction]:
    """The merger round's decisions for `player`: propose/add a minor, start the vote (pass),
    vote, or pick the major for an accepted merger."""
    kinds = available(money, mr, player, connected, same_tile)
    who: dict[str, Any] = {"entity": player, "entity_type": "player"}
    out: list[LegalAction] = []
    if "choose" in kinds:
        out += [LegalAction(action=A.Choose(**who, choice=c)) for c in ("for", "against")]
    if "merge" in kinds:
        if mr.outcome == "for":
            out += [LegalAction(action=A.Merge(**who, corporation=m)) for m in merge_targets(money)]
        else:
            out += [LegalAction(action=A.Merge(**who, corporation=c))
                    for c in candidates(money, mr, player, connected, same_tile)]
    if "pass" in kinds and not (mr.merging and len(mr.merging) < 2):
        out.append(LegalAction(action=A.Pass(**who)))
    return out
