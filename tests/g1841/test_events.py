"""The Ferdinandea secession and the Tuscan merge on hand-built positions (18xx.games
`event_ferd_secession!`, `secession_*`, `event_tuscan_merge!`, `tuscan_merge_start`, the merger
steps; the title's README lists the rules and readings)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import data as D
from shared.games.g1841 import eventrun as EV
from shared.games.g1841 import holders as H
from shared.games.g1841 import listing as L
from shared.games.g1841.engine import ENGINE
from shared.games.g1841.state import Question, State

replace = msgspec.structs.replace


def total_cash(s: State) -> int:
    return sum(s.money.cash.values())


def founded(s: State, corp: str, cell: tuple[int, int], holders: dict[str, list[int]], cash: int,
            trains: list[str] = ()) -> State:  # type: ignore[assignment]
    """`corp` floated at `cell` with its certificates (by index) held as given, `cash` in its
    treasury (from the bank), its homes placed and `trains` (depot ids) owned."""
    money = s.money.set_par(corp, cell, par_cell_only=False)
    money = replace(money, corps={**money.corps, corp: replace(money.corps[corp], floated=True)})
    for holder, indexes in holders.items():
        money = replace(money, book=money.book.moved([f"{corp}_{i}" for i in indexes], holder))
    money = replace(money, cash=S.pay(money.cash, S.BANK, corp, cash))
    s = replace(s, money=money)
    s = replace(s, board=BS.historical_homes(s, corp), tokens={**s.tokens, corp: 2 if money.corps[corp].type == "major" else 1},
                token_order={**s.token_order, corp: BS.token_hexes(s, corp)}, operated=[*s.operated, corp])
    depot = s.depot
    for tid in trains:
        depot = replace(depot, trains={**depot.trains, tid: replace(depot.trains[tid], owner=corp)})
    return replace(s, depot=depot)


def table(options: dict | None = None) -> State:
    s = ENGINE.setup(["a", "b", "c", "d"], options or {}, 1)
    return replace(s, auction=None, round="stock")


def question(s: State) -> Question:
    """What the running event asks now."""
    assert s.event is not None, "no event is running"
    return s.event.question


def acting_seat(s: State) -> int:
    player = L.acting_player(s)
    assert player is not None
    return s.players.index(player)


def answer(s: State, choice: int | str) -> State:
    q = question(s)
    who: dict[str, Any] = {"entity": q.entity, "entity_type": "player" if q.entity.isdigit() else "corporation"}
    return ENGINE.apply(s, acting_seat(s), A.Choose(**who, choice=choice))


def irsff_game(pres_holds: list[int]) -> State:
    """IRSFF floated at 100 with L.500 and a 3- and a 2-train; player 0 holds `pres_holds`,
    player 1 three shares, player 2 one; a share of SFTC in its treasury."""
    s = table()
    s = founded(s, "SFTC", (3, 5), {"3": [0, 1]}, 0)
    rest = [i for i in range(1, 9) if i not in pres_holds]
    s = founded(s, "IRSFF", (3, 5), {"0": pres_holds, "1": rest[:3], "2": rest[3:4]}, 500,
                trains=["3-0", "2-0"])
    s = replace(s, money=replace(s.money, book=s.money.book.moved(["SFTC_2"], "IRSFF")))
    return replace(s, board=BS.border_event(s, "phase4_regions"))


def test_the_secession_splits_irsff_when_milano_and_venezia_are_not_connected() -> None:
    s = irsff_game([0, 1, 2])        # 40 %: both presidents' certificates
    cash = total_cash(s)
    s = EV.start(s, ["ferd_secession"])
    m = s.money
    assert m.corps["SB"].floated and m.corps["SFL"].floated
    # both on IRSFF's cell, SB first; nine tenths of the cash to SB; trains by turns, longest first
    assert m.corps["SB"].price == m.corps["SFL"].price == (3, 5)
    assert m.operating_order().index("SB") < m.operating_order().index("SFL")
    assert (m.cash["SB"], m.cash["SFL"], m.cash["IRSFF"]) == (450, 50, 0)
    assert [t.name for t in s.depot.owned_by("SB")] == ["3"] and [t.name for t in s.depot.owned_by("SFL")] == ["2"]
    assert m.book.percent_of("SB", "SFTC") == 10
    # Venezia's token is SB's, Milano's SFL's
    assert any("SB" in row for row in s.board.tokens["F16"]) and any("SFL" in row for row in s.board.tokens["F8"])
    # player 0 kept 40 %: both presidents; player 1's pair gave a share of each, his single waits
    assert m.book.president_of("SB") == "0" and m.book.president_of("SFL") == "0"
    assert m.book.percent_of("1", "SB") == 10 and m.book.percent_of("1", "SFL") == 10
    q = question(s)
    assert (q.topic, q.entity, q.choices) == ("pick_exchange_corp", "1", ["a", "b"])
    s = answer(s, "b")
    assert s.money.book.percent_of("1", "SFL") == 20
    q = question(s)
    assert (q.topic, q.entity) == ("pick_exchange_corp", "2")
    s = answer(s, "a")
    assert s.money.book.percent_of("IRSFF", "IRSFF") == 100
    # the offers: a share of each corporation to its holders, then again while wanted
    while s.event is not None and s.event.question.topic in ("share_offer", "offer_again"):
        s = answer(s, "no" if s.event.question.topic == "share_offer" else "n")
    # the default game: each may buy tokens at L.50 up to five
    q = question(s)
    assert (q.topic, q.entity, q.choices) == ("tokens", "SB", [0, 1, 2, 3])
    s = answer(s, 2)
    q = question(s)
    assert (q.topic, q.entity, q.choices) == ("tokens", "SFL", [0, 1])
    s = answer(s, 0)
    assert s.event is None and s.tokens["SB"] == 4 and s.money.cash["SB"] == 350
    assert s.money.corps["IRSFF"].closed
    assert total_cash(s) == cash
    assert "-- Ferdinandea Secession Complete --" in s.event_log


def test_a_president_with_less_than_40_percent_picks_one_and_a_pair_takes_the_other() -> None:
    s = EV.start(irsff_game([0]), ["ferd_secession"])
    q = question(s)
    assert (q.topic, q.entity) == ("pick_exchange_pres", "0")
    s = answer(s, "b")
    m = s.money
    assert m.book.president_of("SFL") == "0"
    # player 1, the first with a pair, takes SB's president's certificate for it
    assert m.book.president_of("SB") == "1"


def test_a_wrong_answer_changes_nothing() -> None:
    s = EV.start(irsff_game([0]), ["ferd_secession"])
    with pytest.raises(RuleError):
        answer(s, "c")
    choices = L.for_seat(s, 0)[0].choices
    assert choices is not None and choices.values == ["a", "b"]


def test_no_secession_when_irsff_has_not_floated() -> None:
    s = EV.start(table(), ["ferd_secession"])
    assert s.event is None and s.money.corps["SB"].closed and s.money.corps["SFL"].closed


def test_version_1_secedes_into_two_minors_on_a_minor_column() -> None:
    s = table({"version_1": True})
    s = founded(s, "IRSFF", (1, 12), {"0": [0, 1, 2]}, 100)
    s = EV.start(s, ["ferd_secession"])
    right = int(D.entities(s.variant)["rightmost_minor_column"])
    assert s.money.corps["SFV"].price == s.money.corps["SFL"].price == (1, right)
    assert s.money.corps["SFV"].type == "minor"


def test_the_tuscan_merge_of_two_minors_forms_sfli() -> None:
    """SFLP and SFMA alone merge straight into SFLi at the rightmost price below their mean;
    the 40 % holders take the president's certificate (the first) or two shares, 20 % one."""
    s = table()
    s = founded(s, "SFLP", (3, 5), {"0": [0], "1": [1], "pool": [2]}, 100, trains=["2-0"])
    s = founded(s, "SFMA", (2, 8), {"1": [0], "2": [1, 2]}, 60)
    cash = total_cash(s)
    s = EV.start(s, ["tuscan_merge"])
    while s.event is not None:          # only token removals can be asked here
        assert s.event.question.kind == "remove"
        s = ENGINE.apply(s, acting_seat(s),
                         A.Pass(entity=s.event.question.entity, entity_type="corporation"))
    m = s.money
    assert m.corps["SFLP"].closed and m.corps["SFMA"].closed and m.corps["SFLi"].floated
    assert m.price_of("SFLi") < (m.market.at((3, 5)).price + m.market.at((2, 8)).price) / 2
    # the decider (SFMA first in the order: its player 1) is first asked: his 40 % of SFMA
    # gives the president's certificate, player 0's 40 % of SFLP two shares
    assert m.book.president_of("SFLi") == "1"
    assert m.book.percent_of("0", "SFLi") == 20 and m.book.percent_of("2", "SFLi") == 20
    assert m.cash["SFLi"] == 160 and [t.name for t in s.depot.owned_by("SFLi")] == ["2"]
    assert s.tokens["SFLi"] == 5 and total_cash(s) == cash


def test_lite_has_no_tuscan_merge_and_too_few_tuscans_close_sfli() -> None:
    lite = D.entities(D.variant({"lite": True}))
    four = next(t for t in lite["trains"] if t["name"] == "4")
    assert "tuscan_merge" not in [e["type"] for e in four.get("events", [])]
    s = table()
    s = founded(s, "SSFL", (3, 5), {"0": [0]}, 0)
    s = EV.start(s, ["tuscan_merge"])
    assert s.money.corps["SFLi"].closed and not s.money.corps["SSFL"].closed


def _merger_game(cash_0: int, cash_1: int) -> State:
    """SFTG (player 0's 20 %) and SFTC (player 1's 20 %) at 100, the rest in their treasuries:
    merged into ATFA their pairs come to two of its eight shares, so ATFA has a president only
    if one of them pays for the president's certificate."""
    s = table()
    s = founded(s, "SFTG", (3, 5), {"0": [0]}, 100)
    s = founded(s, "SFTC", (3, 5), {"1": [0]}, 100)
    return replace(s, money=replace(s.money, cash={**s.money.cash, "0": cash_0, "1": cash_1}))


MERGE = ["merge:SFTG:SFTC:ATFA"]


def test_a_merger_only_offers_the_answers_that_can_leave_it_a_president() -> None:
    """18xx.games raises at the exchange's end when nobody took the president's certificate
    ("Undo required"); here the second holder, once the first declined, may only take it."""
    s = _merger_game(1000, 1000)
    assert EV.completes(s, MERGE, [])
    s = EV.start(s, MERGE)
    q = question(s)
    assert (q.entity, q.topic, sorted(q.choices)) == ("0", "upgrade", ["no", "pres"])
    s = answer(s, "no")
    q = question(s)
    assert (q.entity, q.choices) == ("1", ["pres"])
    with pytest.raises(RuleError):
        answer(s, "no")
    s = answer(s, "pres")
    assert s.money.book.president_of("ATFA") == "1"


def test_a_merger_nobody_can_give_a_president_is_not_offered() -> None:
    """With no cash for the president's certificate every ending fails: the merger is not
    among the choices (the merge step passes instead)."""
    s = _merger_game(0, 0)
    assert not EV.completes(s, MERGE, [])
    assert EV.completes(_merger_game(0, 1000), MERGE, [])


def test_a_transformation_short_of_its_required_token_sells_in_an_emergency() -> None:
    """G1841 `transform_tokens` / `TokenEmergencyMoney`: a minor turned major with one token
    must buy one at L.50; short of it (and nobody up its chain with the cash), it sells its
    own treasury shares at half price until it can pay."""
    s = table()
    s = founded(s, "SFLP", (3, 5), {"0": [0, 1]}, 20)
    s = replace(s, money=replace(s.money, cash={**s.money.cash, **{p: 0 for p in s.players}}))
    price = s.money.price_of("SFLP")
    s = EV.start(s, ["transform:SFLP:ATFA"])
    q = question(s)
    assert (q.topic, q.choices) == ("tokens", [1])
    s = answer(s, 1)
    q = question(s)
    assert (q.kind, q.topic, q.entity) == ("sell", "token_emr", "ATFA")
    # its own treasury shares, one at a time (no bundle a share larger than needed)
    assert {(seller, pc) for seller, _ids, pc, _x in q.sales} == {("ATFA", 10)}
    seller, ids, percent, half = q.sales[0]
    assert half == price / 2
    legal = ENGINE.legal_actions(s, 0)
    assert [la.action.shares for la in legal] == [sorted(ids)]
    s = ENGINE.apply(s, 0, legal[0].action)
    assert s.event is None
    assert s.tokens["ATFA"] == 2
    assert s.money.cash["ATFA"] == 20 + price // 2 - 50
    assert s.money.book.percent_of(S.POOL, "ATFA") == 10


def test_a_corporation_merged_away_in_its_turn_has_not_operated() -> None:
    """G1841 `done_operating!` returns for a corporation `done_this_round` (a merger's or a
    transformation's, which `restart_corporation!` made startable again): founded anew, it has
    not operated (its shares cannot be sold until it has)."""
    from shared.games.g1841 import flow as FL
    from shared.games.g1841 import transfers as X
    s = founded(table(), "ATFA", (3, 5), {"0": [0]}, 0)
    r = EV.Run(s, [])
    X.restart(r, "ATFA")
    assert "ATFA" not in r.s.operated
    assert "ATFA" not in FL._done_operating(r.s, "ATFA").operated
    fresh = replace(founded(table(), "SFTG", (3, 5), {"0": [0]}, 0), operated=[])
    assert FL._done_operating(fresh, "SFTG").operated == ["SFTG"]


def test_a_transformation_paid_by_the_president_still_sells_as_18xx_games_asks() -> None:
    """G1841 `transform_tokens` flags the required token's emergency money when
    `emergency_cash_before_selling` (which stops at the new major's own sellable shares) is
    short; the count's `sweep_cash` pays from the president, but only `TokenEmergencyMoney`'s
    sale clears the flag: the major still sells until it holds the L.50 again."""
    s = table()
    s = founded(s, "SFLP", (3, 5), {"0": [0, 1]}, 20)
    s = replace(s, money=replace(s.money, cash={**s.money.cash, **{p: 0 for p in s.players}, "0": 100}))
    s = EV.start(s, ["transform:SFLP:ATFA"])
    while question(s).topic == "share_offer":       # the president declines ATFA's shares
        s = answer(s, "no")
    assert (question(s).topic, question(s).choices) == ("tokens", [1])
    s = answer(s, 1)
    assert s.money.cash["0"] == 70 and s.tokens["ATFA"] == 2     # 30 swept from the president
    q = question(s)
    assert (q.kind, q.topic, q.entity) == ("sell", "token_emr", "ATFA")
    while s.event is not None:
        s = ENGINE.apply(s, 0, ENGINE.legal_actions(s, 0)[0].action)
    assert s.money.cash["ATFA"] >= 50


def test_a_merger_over_the_train_limit_discards_before_the_exchange() -> None:
    """G1841's operating steps put `Engine::Step::DiscardTrain` before `ChooseOption`, and
    `move_assets` (at `merger_exchange_start`) clears `crowded_corps`: the new corporation,
    holding both corporations' trains over its limit, discards before any holder is asked to
    exchange; nobody presides it yet, so the merging president answers for it."""
    s = _merger_game(1000, 1000)
    depot = s.depot
    for tid, owner in (("2-0", "SFTG"), ("2-1", "SFTG"), ("2-2", "SFTG"), ("2-3", "SFTC"), ("2-4", "SFTC")):
        depot = replace(depot, trains={**depot.trains, tid: replace(depot.trains[tid], owner=owner)})
    s = EV.start(replace(s, depot=depot), MERGE)
    q = question(s)
    assert (q.kind, q.entity, sorted(q.choices)) == ("discard", "ATFA", ["2-0", "2-1", "2-2", "2-3", "2-4"])
    assert L.acting_player(s) == "0"
    legal = ENGINE.legal_actions(s, 0)
    assert [la.action.train for la in legal] == q.choices
    s = ENGINE.apply(s, 0, A.DiscardTrain(entity="ATFA", entity_type="corporation", train="2-3"))
    assert s.depot.trains["2-3"].owner == "pool" and s.depot.count_owned("ATFA") == 4
    q = question(s)
    assert (q.entity, q.topic) == ("0", "upgrade")


def test_a_presidency_tie_goes_to_the_corporation_first_in_operating_order() -> None:
    """G1841 `player_distance_for_president` breaks a tie for the presidency after the previous
    president by the players (all of them, from a corporation) and then the live corporations
    sorted as they operate (`corporations.reject(&:closed?).sort`), not in the title's order:
    SFTC sells ATFA's president's certificate; SB and SFTG hold 20 % each, SB after SFTC in the
    title's order but SFTG dearer, so SFTG presides."""
    s = table()
    s = founded(s, "SFTG", (3, 6), {"0": [0]}, 0)
    s = founded(s, "SB", (3, 5), {"1": [0]}, 0)
    s = founded(s, "SFTC", (3, 5), {"2": [0]}, 0)
    s = founded(s, "ATFA", (3, 5), {"SFTC": [0], "SB": [1, 2], "SFTG": [3, 4]}, 0)
    money = s.money
    assert money.price_of("SFTG") > money.price_of("SB")
    book = money.book.moved(["ATFA_0"], S.POOL)
    book = S.settle_presidency(book, "ATFA", money.presidents("ATFA"), "SFTC")
    assert book.president_of("ATFA") == "SFTG"
    # from a player the players come first, round from him, before any corporation
    presidents = money.presidents("ATFA")
    assert sorted(presidents, key=lambda p: S.seat_distance(presidents, "1", p))[:4] == ["1", "2", "3", "0"]


def test_the_secession_deals_irsff_s_trains_in_the_order_it_got_them() -> None:
    """G1841 `secession_move_trains`: `old.trains.sort_by(&:name).reverse`, dealt SB, SFL by
    turns, over IRSFF's `trains` as they came to it (a 3, a 2, a 3, a 2 in the differential's
    game 8, which gave the second 3 to SB and the first to SFL), not by train id."""
    s = irsff_game([0, 1, 2])
    depot = s.depot
    for tid in ("2-0", "3-0"):                      # irsff_game's own, back to the depot
        depot = replace(depot, trains={**depot.trains, tid: replace(depot.trains[tid], owner="depot")})
    for seq, tid in enumerate(("3-4", "2-3", "3-1", "2-2"), start=1):
        depot = replace(depot, trains={**depot.trains, tid: replace(depot.trains[tid], owner="IRSFF", seq=seq)})
    s = EV.start(replace(s, depot=depot), ["ferd_secession"])
    assert sorted(t.id for t in s.depot.owned_by("SB")) == ["2-2", "3-1"]
    assert sorted(t.id for t in s.depot.owned_by("SFL")) == ["2-3", "3-4"]
    # each new corporation holds its trains in the order dealt
    assert [t.id for t in T.acquired(s.depot, "SFL")] == ["3-4", "2-3"]


def test_a_corporation_merged_this_round_does_not_operate_again_when_refounded() -> None:
    """G1841 `merger_finish` sets `done_this_round` for both corporations and the new one, and
    the operating round's `skip_entity?` passes over a corporation so marked: SFTC, merged away
    and founded again later in the round, does not operate in its old place (the
    differential's game 3: 18xx.games went on to IFAI)."""
    from shared.games.g1841 import flow as FL
    from shared.games.g1841.state import OperatingRound, Turn
    s = _merger_game(1000, 1000)
    s = replace(s, round="operating", operating=OperatingRound(number=1, rounds=1, order=["SFTG", "SFTC"],
                                                              turn=Turn(corp="SFTG")))
    s = EV.start(s, MERGE)
    while s.event is not None:
        q = s.event.question
        s = EV.process(s, A.Choose(entity=q.entity, entity_type="player" if q.entity.isdigit() else "corporation",
                                   choice="pres" if "pres" in q.choices else q.choices[0]))
    operating = s.operating
    assert operating is not None
    assert sorted(operating.done) == ["ATFA", "SFTC", "SFTG"]
    # SFTC started anew: still passed over when its turn comes
    corps = {**s.money.corps, "SFTC": replace(s.money.corps["SFTC"], ipoed=True, floated=True)}
    s = replace(s, money=replace(s.money, corps=corps))
    s = FL._begin_turn(replace(s, operating=replace(operating, index=1, turn=None)))
    assert s.round != "operating" or (s.operating is not None and (s.operating.turn is None or s.operating.turn.corp != "SFTC"))


def test_a_bankrupt_s_first_sales_hand_a_pooled_presidency_to_the_largest_player() -> None:
    """G1841 `Step::Bankrupt` sells the largest allowed bundle with `sell_shares_and_change_price`
    at its default `allow_president_change: true`, a historical corporation's before phase 4
    too: with the president's certificate in the pool, the player holding most takes it (the
    differential's game 24: P1 presides SSFL again as P3's bankruptcy sells his pair)."""
    from shared.games.g1841 import emergency as EM
    s = founded(table(), "SSFL", (3, 5), {"0": [1, 2], "2": [3, 4]}, 0)
    s = replace(s, money=replace(s.money, book=s.money.book.moved(["SSFL_0"], S.POOL)))
    bundle = ("SSFL", ("SSFL_3", "SSFL_4"), 20, s.money.price_of("SSFL"))
    assert EM.sold(s, "2", bundle).book.president_of("SSFL") == S.POOL       # a train's sale: no change
    money = EM.sold(s, "2", bundle, any_presidency=True)
    assert money.book.president_of("SSFL") == "0"


def test_the_concessions_closing_hands_a_historical_presidency_to_the_largest_player() -> None:
    """G1841 `event_close_companies!` calls `deferred_president_change` for each founded
    historical corporation: the player holding most takes the presidency the rules froze before
    phase 4, the old president taking his shares for the certificate (the differential's game
    4: P8 presides SFMA, whose certificate lay in the pool, once the concessions close)."""
    from shared.games.g1841 import flow as FL
    s = founded(table(), "SFTG", (3, 5), {"0": [0], "1": [1, 2, 3]}, 0)
    assert s.money.book.president_of("SFTG") == "0"
    s = FL.close_concessions(s)
    assert s.money.book.president_of("SFTG") == "1"
    assert s.money.book.percent_of("0", "SFTG") == 20 and s.money.book.percent_of("1", "SFTG") == 30


def test_a_corporation_that_sets_off_the_tuscan_merge_in_its_turn_hands_the_round_on() -> None:
    """SFMA buys the first 4-train; the Tuscan merge it sets off closes SFMA in its own turn.
    The round moves on to the next corporation (G1841 `Round::Operating#after_process`: the
    entity's controller is no player), never a table where no seat can act (arena seed 1,
    game 4, action 330)."""
    from shared.games.g1841 import flow as FL
    from shared.games.g1841 import operating as OP
    from shared.games.g1841.state import Turn
    s = table()
    s = founded(s, "SFLP", (3, 5), {"0": [0], "1": [1], "pool": [2]}, 100, trains=["2-0"])
    s = founded(s, "SFMA", (2, 8), {"1": [0], "2": [1, 2]}, 400)
    s = founded(s, "SFTC", (3, 5), {"3": [0, 1]}, 80)
    # the 2- and 3-trains gone (rusted here, for brevity): the first 4-train is next, phase 3
    depot = s.depot
    gone = {tid: replace(t, owner=T.RUSTED) for tid, t in depot.trains.items() if t.name in ("2", "3") and tid != "2-0"}
    phase = [p.on for p in depot.phases].index("3")
    s = replace(s, depot=replace(depot, trains={**depot.trains, **gone}, phase=phase,
                                 upcoming=[tid for tid in depot.upcoming if depot.trains[tid].name not in ("2", "3")]))
    s = FL.start_operating(replace(s, operated=[]), 1, 1)
    op = s.operating
    assert op is not None and {"SFMA", "SFTC"} <= set(op.order)
    sfma = Turn(corp="SFMA", past=OP.ORDER["buy_train"], track_done=True, token_done=True, revenue=0, paid=True,
                token_bought=True)
    s = replace(s, operating=replace(op, index=op.order.index("SFMA"), turn=sfma))
    price = s.depot.types["4"].price
    s = ENGINE.apply(s, s.players.index("1"), A.BuyTrain(entity="SFMA", entity_type="corporation", train="4-0", price=price))
    while s.event is not None:          # only token removals can be asked here
        assert s.event.question.kind == "remove"
        s = ENGINE.apply(s, acting_seat(s),
                         A.Pass(entity=s.event.question.entity, entity_type="corporation"))
    assert s.money.corps["SFMA"].closed and s.money.corps["SFLi"].floated
    assert s.operating is None or s.operating.turn is None or s.operating.turn.corp != "SFMA"
    assert ENGINE.active_seats(s), "no seat can act after the merge"


def test_a_pooled_presidency_goes_to_a_corporation_reaching_its_percent() -> None:
    """18xx.games' `player_share_holders` counts corporations too where `corporation_can_ipo`
    (every 1841 corporation): a corporation that comes to hold two shares of one whose
    president's certificate lies in the pool takes it, a player with one share staying as he is
    (the differential's game 8: RATF's purchase of SFTG_2 makes it SFTG's president)."""
    s = founded(table(), "SFTC", (3, 5), {"0": [0]}, 0)
    s = founded(s, "SSFL", (3, 5), {"SFTC": [3], "1": [1], S.POOL: [0]}, 0)
    presidents = s.money.presidents("SSFL")
    assert "SFTC" in presidents
    assert H.pool_presidency(s.money, "SSFL", presidents).president_of("SSFL") == S.POOL
    money = replace(s.money, book=s.money.book.moved(["SSFL_4"], "SFTC"))
    book = H.pool_presidency(money, "SSFL", presidents)
    assert book.president_of("SSFL") == "SFTC"
    assert book.percent_of("SFTC", "SSFL") == 20 and book.percent_of("1", "SSFL") == 10


def test_the_concessions_closing_counts_corporations_among_the_holders() -> None:
    """`deferred_president_change` reads `player_share_holders`, corporations included in 1841:
    a corporation presiding a historical one with the most shares stays president though a
    player holds as many (the differential's game 9: SFTN keeps IRSFF, CTDA keeps SFTG); one
    holding more than the president takes it."""
    from shared.games.g1841 import flow as FL
    s = founded(table(), "SFTC", (3, 5), {"0": [0]}, 0)
    s = founded(s, "SFTG", (3, 5), {"SFTC": [0], "1": [1, 2]}, 0)
    assert FL.close_concessions(s).money.book.president_of("SFTG") == "SFTC"
    s = founded(table(), "SFTC", (3, 5), {"0": [0]}, 0)
    s = founded(s, "SFTG", (3, 5), {"1": [0], "SFTC": [1, 2, 3]}, 0)
    after = FL.close_concessions(s).money.book
    assert after.president_of("SFTG") == "SFTC" and after.percent_of("1", "SFTG") == 20


def test_a_pooled_presidency_in_a_merger_s_move_goes_to_the_earlier_holder() -> None:
    """A merger moves a treasury's shares with `transfer_shares`: with the president's
    certificate in the pool, the holders reaching its percent go in `share_holders` order
    (where they first came to hold), so the new corporation receiving them comes last (the
    differential's game 15). From a treasury the receiver still goes first."""
    from shared.games.g1841 import transfers as X
    s = founded(table(), "SFTC", (3, 5), {"0": [0], "SFTG": [1, 2]}, 0)
    s = founded(s, "SFTG", (3, 5), {"0": [0]}, 0)
    s = founded(s, "SSFL", (3, 5), {"1": [1, 2], "SFTC": [3, 4], S.POOL: [0]}, 0)
    after = X.move(s, ["SSFL_3", "SSFL_4"], "SFTG", president_change=True)
    assert after.money.book.president_of("SSFL") == "1"
    assert after.money.book.percent_of("SFTG", "SSFL") == 20


def test_a_president_s_emergency_sales_keep_what_a_corporation_holds() -> None:
    """`corp_minimum_to_retain` reads `player_share_holders`, corporations included in 1841:
    SFTC's president selling SFTC for its own train keeps as much as SFTG holds."""
    from shared.games.g1841 import emergency as EM
    s = founded(table(), "SFTG", (3, 5), {"1": [0]}, 0)
    s = founded(s, "SFTC", (3, 5), {"0": [0, 1, 2], "SFTG": [3, 4, 5]}, 0)
    assert max(b[2] for b in EM._bundles(s, "0", "SFTC")) == 10


def test_a_pooled_presidency_in_a_transfer_goes_by_share_holders_order() -> None:
    """Two holders with the certificate's percent: the one who came to hold the corporation
    first (18xx.games' `share_holders` order), a corporation before a player here (the
    differential's game 72: SSFL, not P1, takes SFTN)."""
    from shared.games.g1841 import transfers as X
    s = founded(table(), "SFTC", (3, 5), {"0": [0]}, 0)
    s = founded(s, "SFTG", (3, 5), {"0": [0]}, 0)
    s = founded(s, "SSFL", (3, 5), {"SFTC": [3, 4], "1": [1, 2], "SFTG": [5], S.POOL: [0]}, 0)
    after = X.move(s, ["SSFL_5"], "2", president_change=True)
    assert after.money.book.president_of("SSFL") == "SFTC"


def test_the_secession_deals_a_president_s_certificate_as_a_corporate_transfer() -> None:
    """`secession_move_treasury_shares` calls `transfer_shares` with `corporate_transfer`: a
    president's certificate dealt from IRSFF's treasury that passes to a larger holder is
    swapped for his shares, which go to the new corporation, not to the pool (the
    differential's game 79: SFL ends with 30 % of SFTN and its presidency)."""
    from shared.games.g1841 import transfers as X
    s = founded(table(), "SFTC", (3, 5), {"0": [0]}, 0)
    s = founded(s, "SFTG", (3, 5), {"0": [0]}, 0)
    s = founded(s, "SSFL", (3, 5), {"SFTC": [0, 3], "1": [1, 2]}, 0)
    pool_before = s.money.book.percent_of(S.POOL, "SSFL")
    after = X.move(s, ["SSFL_0"], "SFTG", True, corporate=True).money.book
    assert after.president_of("SSFL") == "1"
    assert after.percent_of("SFTG", "SSFL") == 20 and after.percent_of(S.POOL, "SSFL") == pool_before
    plain = X.move(s, ["SSFL_0"], "SFTG", True).money.book
    assert plain.percent_of("SFTG", "SSFL") == 0 and plain.percent_of(S.POOL, "SSFL") == pool_before + 20


def test_a_merger_sharing_a_hex_counts_the_removed_token_twice() -> None:
    """SFTG and SFTN both have a token at Bergamo (H4, two cities): one is removed, and
    18xx.games' `merger_tokens_finish` counts it twice (destroyed, so one fewer token of the
    pair, and among the duplicates), so the new major has 2 + 2 - 2 tokens, each hex once in its
    token order (the differential's 6 December game 10: ICSF offered a token purchase with no
    token left in 18xx.games)."""
    s = table()
    s = founded(s, "SFTG", (3, 5), {"0": [0]}, 100)
    s = founded(s, "SFTN", (3, 5), {"1": [0]}, 100)
    s = replace(s, money=replace(s.money, cash={**s.money.cash, "0": 1000, "1": 1000}),
                token_order={"SFTG": ["H4", "J6"], "SFTN": ["H4"]})
    assert s.board.tokens["H4"] == (("SFTG",), ("SFTN",)) and s.tokens["SFTG"] == s.tokens["SFTN"] == 2
    s = EV.start(s, ["merge:SFTG:SFTN:ATFA"])
    asked = []
    while s.event is not None:
        asked.append(question(s).topic)
        s = ENGINE.apply(s, acting_seat(s), ENGINE.legal_actions(s, acting_seat(s))[0].action)
    assert "remove" in asked
    assert s.tokens["ATFA"] == 2
    assert sorted(s.token_order["ATFA"]) == ["H4", "J6"]
