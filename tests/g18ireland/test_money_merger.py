"""18Ireland's merger round on constructed holdings: proposals, market votes, the vote count,
and the merged major's price, shares, presidency, cash and trains."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState
from shared.games.g18ireland import merger_round as MG
from shared.games.g18ireland import money as M
from shared.games.g18ireland.setup_random import draw_setup

PLAYERS = ["a", "b", "c"]
COMPANIES = [c["sym"] for c in M.ENTITIES["companies"]]
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]


def connected(x: str, y: str) -> bool:
    return True


def apart(x: str, y: str) -> bool:
    return False


def give(money: MoneyState, cert: str, to: str) -> MoneyState:
    return msgspec.structs.replace(money, book=money.book.moved([cert], to))


def scene() -> tuple[MoneyState, T.Depot]:
    state = M.initial(PLAYERS, draw_setup(689309492, COMPANIES, MINORS))
    money = state.money
    for sym, coord in (("LER", (2, 4)), ("WLR", (1, 5)), ("UR", (3, 3))):
        money = money.set_par(sym, coord)
    # LER: a 40 % + 20 %, c 20 %;  WLR: b 40 %, pool 20 %;  UR: c 40 %
    for cert, to in (("LER_0", "a"), ("LER_1", "a"), ("LER_2", "c"), ("WLR_0", "b"), ("WLR_1", S.POOL), ("UR_0", "c")):
        money = give(money, cert, to)
    for sym in ("LER", "WLR", "UR"):
        money = money.check_float(sym)
    money = msgspec.structs.replace(money, cash={**money.cash, "LER": 100, "WLR": 50, "UR": 30},
                                    companies={"DR": "WLR"})
    depot = state.depot
    depot = msgspec.structs.replace(depot, trains={**depot.trains, "2H-0": T.Train("2H-0", "2H", "LER"),
                                                   "2H-1": T.Train("2H-1", "2H", "WLR")},
                                    upcoming=depot.upcoming[2:])
    return money, depot


def test_proposal_vote_and_merge() -> None:
    money, depot = scene()
    mr = MG.start(money)
    assert MG.active_player(money, mr) == "a"
    assert MG.candidates(money, mr, "a", connected, apart) == ["LER"]        # a holds only LER
    with pytest.raises(RuleError):
        MG.propose(money, mr, "a", "WLR", connected, apart)
    mr = MG.propose(money, mr, "a", "LER", connected, apart)
    assert sorted(MG.candidates(money, mr, "a", connected, apart)) == ["UR", "WLR"]
    mr = MG.propose(money, mr, "a", "WLR", connected, apart)
    mr = MG.pass_(money, mr, "a", connected, apart)                          # put LER + WLR to the vote
    # new price: top row and left column of (2,4) and (1,5) -> (1,4) = 78; WLR (85) market share
    # votes against, as 78 < 85
    assert money.market.at(MG.new_price_cell(money, ["LER", "WLR"])).price == 78
    assert mr.to_vote == [("a", 3), ("b", 2), ("c", 1)]
    assert (mr.votes_for, mr.votes_against, mr.votes_available, mr.votes_needed) == (0, 1, 7, 4)
    mr = MG.vote(money, mr, "a", "for")
    assert mr.outcome is None
    mr = MG.vote(money, mr, "b", "for")
    assert mr.outcome == "for" and MG.active_player(money, mr) == "a"
    with pytest.raises(RuleError):
        MG.complete(money, depot, mr, "a", "LER")
    money, depot, mr = MG.complete(money, depot, mr, "a", "GSWR")
    assert money.corps["LER"].closed and money.corps["WLR"].closed and money.corps["GSWR"].floated
    assert money.price_of("GSWR") == 78 and money.cash["GSWR"] == 150 and money.cash["LER"] == 0
    assert money.book.president_of("GSWR") == "a"
    assert [money.book.percent_of(p, "GSWR") for p in PLAYERS] == [30, 20, 10]
    assert money.book.percent_of(S.POOL, "GSWR") == 10 and money.book.percent_of("GSWR", "GSWR") == 30
    assert {t.id for t in depot.owned_by("GSWR")} == {"2H-0", "2H-1"} and money.companies == {"DR": "GSWR"}
    assert MG.active_player(money, mr) == "b" and not mr.finished


def test_failed_vote_same_set_and_round_end() -> None:
    money, depot = scene()
    mr = MG.propose(money, MG.start(money), "a", "LER", connected, apart)
    mr = MG.propose(money, mr, "a", "UR", connected, apart)
    mr = MG.pass_(money, mr, "a", connected, apart)
    assert mr.to_vote == [("a", 3), ("c", 3)] and mr.votes_needed == 4
    mr = MG.vote(money, mr, "a", "for")
    mr = MG.vote(money, mr, "c", "against")
    assert mr.outcome is None and MG.active_player(money, mr) == "b"          # rejected, next player
    mr = MG.pass_(money, mr, "b", connected, apart)
    mr = MG.pass_(money, mr, "c", connected, apart)
    # a proposes the same set again: dropped, a may still act
    mr = MG.propose(money, mr, "a", "LER", connected, apart)
    mr = MG.propose(money, mr, "a", "UR", connected, apart)
    mr = MG.pass_(money, mr, "a", connected, apart)
    assert mr.merging is None and MG.active_player(money, mr) == "a" and not mr.to_vote
    mr = MG.pass_(money, mr, "a", connected, apart)
    assert mr.finished


def test_limits_on_sets() -> None:
    money, _ = scene()
    assert not MG.merge_possible(money, ["LER"], "WLR", lambda x, y: False, apart)
    assert not MG.merge_possible(money, ["LER"], "WLR", connected, lambda x, y: True)
    money = give(money, "UR_1", "a")
    money = give(money, "UR_2", "a")
    # a would hold 3 (LER) + 2 (UR_1, UR_2) ... plus WLR 0: 5 <= 7 still fine
    assert MG.merge_possible(money, ["LER"], "UR", connected, apart)
    money = give(money, "WLR_2", "a")
    money = give(money, "WLR_3", "a")
    assert not MG.merge_possible(money, ["LER", "UR"], "WLR", connected, apart)   # a would hold 9


def test_merged_trains_arrive_in_merging_order() -> None:
    """The major takes the minors' trains minor by minor in the order they were put into the
    merger, each arriving last (18xx.games' `transfer`), whenever the minors bought them."""
    money, depot = scene()
    trains = dict(depot.trains)
    # LER: 2H-0 bought first, then 2H-2; WLR: 2H-1 bought between them
    for seq, (tid, owner) in enumerate((("2H-0", "LER"), ("2H-1", "WLR"), ("2H-2", "LER")), start=1):
        trains[tid] = T.Train(tid, "2H", owner, seq=seq)
    depot = msgspec.structs.replace(depot, trains=trains, upcoming=[t for t in depot.upcoming if t != "2H-2"])
    mr = MG.propose(money, MG.start(money), "a", "LER", connected, apart)
    mr = MG.pass_(money, MG.propose(money, mr, "a", "WLR", connected, apart), "a", connected, apart)
    mr = MG.vote(money, MG.vote(money, mr, "a", "for"), "b", "for")
    _, after, _ = MG.complete(money, depot, mr, "a", "GSWR")
    assert [t.id for t in T.acquired(after, "GSWR")] == ["2H-0", "2H-2", "2H-1"]
    # the other way round, WLR's train comes first
    mr = MG.propose(money, MG.start(money), "a", "LER", connected, apart)
    mr = MG.propose(money, mr, "a", "WLR", connected, apart)
    assert mr.merging == ["LER", "WLR"]
    swapped = msgspec.structs.replace(mr, merging=["WLR", "LER"])
    swapped = MG.vote(money, MG.vote(money, MG.pass_(money, swapped, "a", connected, apart), "a", "for"), "b", "for")
    _, after, _ = MG.complete(money, depot, swapped, "a", "GSWR")
    assert [t.id for t in T.acquired(after, "GSWR")] == ["2H-1", "2H-0", "2H-2"]
    # and they arrive after every train already stamped
    assert min(t.seq for t in T.acquired(after, "GSWR")) > 3
