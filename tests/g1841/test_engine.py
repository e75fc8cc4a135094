"""1841's rules on hand-built positions (18xx.games `lib/engine/game/g_1841/`; the title's README
lists each rule and reading)."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.money import shares as S
from shared.games.g1841 import flow as FL
from shared.games.g1841 import holders as H
from shared.games.g1841 import listing as L
from shared.games.g1841 import stock as ST
from shared.games.g1841.concessions import Auction
from shared.games.g1841.engine import ENGINE
from shared.games.g1841.money import concessions, price_after_run
from shared.games.g1841.state import OperatingRound, State, StockRound

replace = msgspec.structs.replace


def stock_round(owners: dict[str, str], cash: int = 1000, options: dict | None = None) -> State:
    """A 3-player game at its first stock round: concessions as given, the rest with the bank."""
    s = ENGINE.setup(["a", "b", "c"], options or {}, 1)
    companies = {c: owners.get(c, S.BANK) for c in concessions(s.variant)}
    money = replace(s.money, companies=companies, cash={**s.money.cash, **{p: cash for p in s.players}})
    return FL.start_stock(replace(s, money=money, auction=None))


def acting(s: State) -> str:
    """The player who decides now."""
    player = L.acting_player(s)
    assert player is not None
    return player


def act(s: State, action: A.Action) -> State:
    return ENGINE.apply(s, s.players.index(acting(s)), action)


def stock_of(s: State) -> StockRound:
    assert s.stock is not None, f"no stock round: {s.round}"
    return s.stock


def operating_of(s: State) -> OperatingRound:
    assert s.operating is not None, f"no operating round: {s.round}"
    return s.operating


def auction_of(s: State) -> Auction:
    assert s.auction is not None, f"no auction: {s.round}"
    return s.auction


def p(entity: str) -> dict:
    return {"entity": entity, "entity_type": "player" if entity.isdigit() else "corporation"}


def test_a_founder_may_buy_up_to_40_percent_in_the_founding_turn() -> None:
    """BaseBuySellParShares#can_buy_multiple?: more of the corporation just founded while the
    founder holds less than 40 %; then its home tokens go down and it buys its tokens."""
    s = stock_round({"SFTG": "0"})
    s = act(s, A.Par(**p("0"), corporation="SFTG", share_price="100,3,5"))
    assert s.money.book.percent_of("0", "SFTG") == 20 and s.money.cash["SFTG"] == 200
    s = act(s, A.BuyShares(**p("0"), shares=["SFTG_1"], percent=10))
    s = act(s, A.BuyShares(**p("0"), shares=["SFTG_2"], percent=10))
    # 40 %: the founding turn is over; the historical homes are placed, the tokens are chosen
    assert s.founding and s.founding[0].kind == "tokens"
    assert {h for h, slots in s.board.tokens.items() if any("SFTG" in c for c in slots)} == {"H4", "J6"}
    assert [la.action.choice for la in ENGINE.legal_actions(s, 0)] == [2, 3, 4, 5]
    s = act(s, A.Choose(**p("SFTG"), choice=3))
    assert s.money.cash["SFTG"] == 400 - 150 and s.tokens["SFTG"] == 3
    assert L.acting_player(s) == s.money.players[1]


def test_a_historical_corporation_needs_its_concession_before_phase_4() -> None:
    """G1841#concession_ok?: a historical corporation is founded by its concession's owner."""
    s = stock_round({"SFTG": "1"})
    # "0" holds no concession and can do nothing in the first stock round: passed over
    assert L.acting_player(s) == "1" and stock_of(s).passed == ["0"]
    assert "SFTG" not in ST.parable(s, "0")
    with pytest.raises(RuleError):
        ENGINE.apply(s, 0, A.Par(**p("0"), corporation="SFTG", share_price="100,3,5"))
    assert "SFTG" in ST.parable(s, "1")


def test_general_corporations_start_from_phase_3() -> None:
    """G1841#corporation_available?: a general corporation from phase 3."""
    s = stock_round({})
    assert not any(not H.historical(s, c) for c in ST.parable(s, "0"))
    three = replace(s, depot=replace(s.depot, phase=1))
    assert "ATFA" in ST.parable(three, "0")


def test_a_minor_pars_on_the_plain_par_cells_at_most_half_the_cash() -> None:
    """BaseBuySellParShares#get_par_prices: a minor only on 'p' cells, price x 2 <= cash."""
    s = stock_round({"SFLP": "0"}, cash=150)
    cells = ST.par_cells(s, "0", "SFLP")
    assert cells == ["68,4,2"]
    assert ST.par_cells(replace(s, money=replace(s.money, cash={**s.money.cash, "0": 1000})), "0", "SFLP") == \
        ["144,2,8", "100,3,5", "68,4,2"]


def test_the_price_moves_right_only_when_the_revenue_exceeds_it() -> None:
    """G1841 Dividend#share_price_change: right when revenue > price, left when nothing is paid."""
    s = stock_round({"SFTG": "0"})
    s = act(s, A.Par(**p("0"), corporation="SFTG", share_price="100,3,5"))
    m = s.money
    assert price_after_run(m, "SFTG", 100, True, 2).price_of("SFTG") == 100
    assert price_after_run(m, "SFTG", 101, True, 2).price_of("SFTG") == 111
    assert price_after_run(m, "SFTG", 500, False, 2).price_of("SFTG") == 90
    assert price_after_run(m, "SFTG", 0, True, 2).price_of("SFTG") == 90


def test_the_60_percent_limit_counts_what_the_player_controls() -> None:
    """G1841#player_controlled_percentage: the buyer's controller and every corporation he
    controls count toward the 60 %."""
    s = stock_round({"SFTG": "0", "SFTC": "0"})
    s = act(s, A.Par(**p("0"), corporation="SFTG", share_price="100,3,5"))
    s = act(s, A.Pass(**p("0")))
    s = act(s, A.Choose(**p("SFTG"), choice=2))
    m = s.money
    book = m.book.moved(["SFTC_0"], "0").moved(["SFTC_1", "SFTC_2", "SFTC_3", "SFTC_4"], "SFTG")
    m = replace(m, book=book).set_par("SFTC", m.market.by_id("100,3,5").coord)
    assert H.controlled_percentage(m, "SFTG", "SFTC") == 60
    assert not ST.can_gain(m, "0", "SFTC", 10)
    assert ST.can_gain(m, "1", "SFTC", 10)


def test_a_player_with_nothing_to_do_but_pass_is_passed_over() -> None:
    """18xx.games skips a stock-round step that offers its player nothing (counted as a pass)."""
    s = stock_round({"SFTG": "0"})
    s = replace(s, money=replace(s.money, cash={**s.money.cash, "1": 10}))
    s = act(s, A.Par(**p("0"), corporation="SFTG", share_price="100,3,5"))
    s = act(s, A.Pass(**p("0")))
    s = act(s, A.Choose(**p("SFTG"), choice=2))
    # "1" can afford nothing: "2" is next
    assert L.acting_player(s) == "2" and "1" in stock_of(s).passed


def test_the_soonest_end_trigger_wins() -> None:
    """GAME_END_TIMING_PRIORITY: a price on the end cell (end of the turn) overrides the bank
    broken (end of the operating round); the bank's trigger stays."""
    s = stock_round({})
    broke = replace(s, money=replace(s.money, cash={**s.money.cash, S.BANK: -1}))
    assert FL.check_end(broke).end == ("bank", "current_or")
    both = FL.check_end(replace(FL.check_end(broke), money=replace(broke.money, max_reached=True)))
    assert both.end == ("stock_market", "current_turn")


def test_every_offboard_group_reached_ends_the_game_at_the_end_of_the_turn() -> None:
    """GAME_END_CHECK offboards: :current_turn once each off-board group has a connected hex."""
    from shared.games.g1841 import data as D
    s = stock_round({})
    groups = D.map_data(s.variant)["offboard_groups"]
    some = [hexes[0] for hexes in groups.values()]
    assert FL.check_end(replace(s, offboards=some[:-1])).end is None
    assert FL.check_end(replace(s, offboards=some)).end == ("offboards", "current_turn")


def _two_corporations() -> State:
    s = stock_round({})
    m = s.money
    cell = m.market.by_id("100,3,5").coord
    m = m.set_par("SFTG", cell).set_par("SFTC", cell)
    book = m.book.moved(["SFTG_0"], "0").moved(["SFTC_0"], "1").moved(["SFTC_1", "SFTC_2"], "SFTG")
    return replace(s, money=replace(m, book=book, cash={**m.cash, "SFTG": 0}))


def test_a_bankrupt_president_first_sells_what_the_emergency_allows_moving_prices() -> None:
    """G1841 `Step::Bankrupt`: the largest bundle the emergency rules allow of each corporation,
    at half price and moving the price down a row a share; then the rest (here his president's
    certificate of the corporation that went bankrupt) at half price, no price moved."""
    s = _two_corporations()
    s = replace(s, money=replace(s.money, book=s.money.book.moved(["SFTC_3", "SFTC_4"], "0")))
    cash_before = s.money.cash["0"]
    two_rows_down = s.money.move_price("SFTC", "down", 2).price_of("SFTC")
    after = FL.bankrupt(s, "SFTG", 1)
    m = after.money
    assert m.price_of("SFTC") == two_rows_down < 100      # the first sales move the price
    assert m.price_of("SFTG") == 100                      # the president's certificate does not
    assert not m.book.by_company("0")
    # half of 100 a share: 2 x 50 for SFTC, 2 x 50 for SFTG's 20 % certificate, all his cash
    # into the corporation; option 1: he plays on with the bank's loan
    assert m.cash["SFTG"] == cash_before + 200
    assert m.cash["0"] == after.loans["0"]


def test_an_emergency_sells_others_shares_first_at_half_price_and_no_more_than_needed() -> None:
    """G1841 `emr_shares_next`: treasury shares of other corporations before the corporation's
    own, at half the price, no bundle worth a share more than what is needed."""
    from shared.games.g1841 import emergency as EM
    s = _two_corporations()
    found = EM.issuable(s, "SFTG")
    assert {seller for seller, _ in found} == {"SFTG"}
    assert sorted((b[0], b[2], b[3]) for _, b in found) == [("SFTC", 10, 50), ("SFTC", 20, 100)]
    # nothing of others' left: its own treasury shares
    alone = replace(s, money=replace(s.money, book=s.money.book.moved(["SFTC_1", "SFTC_2"], "1")))
    own = EM.issuable(alone, "SFTG")
    assert own and all(b[0] == "SFTG" for _, b in own)
    # a sale pays half the price into the corporation and moves the price down a row
    after = EM.sell(s, "SFTG", "SFTG", ["SFTC_1"], [b for _, b in found])
    assert after.money.cash["SFTG"] == 50 and after.money.price_of("SFTC") == 95


def test_a_bankruptcy_ends_the_corporation_s_turn_and_loans_add_up() -> None:
    """G1841 `Step::Bankrupt` / `declare_bankrupt`: the corporation is done for the round (no
    share, merge or transformation step after it); option 1 lends L.500 and the player plays
    on, free to go bankrupt again for another loan; every loan counts against his value."""
    from shared.games.g1841 import operating as OP
    from shared.games.g1841.money import player_value
    from shared.games.g1841.state import OperatingRound, Turn
    s = _two_corporations()
    s = replace(s, round="operating", stock=None,
                operating=OperatingRound(number=1, rounds=1, order=["SFTG", "SFTC"], turn=Turn(corp="SFTG")))
    after = FL.bankrupt(s, "SFTG", 1)
    t = operating_of(after).turn
    assert t is not None and t.over and t.merge_done and t.transform_done and OP.finished(after)
    assert after.loans["0"] == 500 and "0" not in after.money.bankrupt
    # later he presides SFTC and it goes bankrupt too: a second loan
    m = after.money
    again = replace(after, money=replace(m, book=m.book.moved(["SFTC_0"], "0").moved(["SFTC_1", "SFTC_2"], "1")),
                    operating=replace(operating_of(after), turn=Turn(corp="SFTC")))
    twice = FL.bankrupt(again, "SFTC", 1)
    assert twice.loans["0"] == 1000
    assert player_value(twice.money, "0", twice.loans) == twice.money.cash["0"] - 1000
    out = FL.bankrupt(again, "SFTC", 0)
    assert "0" in out.money.bankrupt and out.loans["0"] == 500


# --- turn flow as 18xx.games' engine has it (found by the differential replay, README) -------

def test_a_stock_round_nobody_can_act_in_ends_at_once_paying_bayard() -> None:
    """Round::Stock skips every player whose step has no action, the first one too; a round
    with none left finishes (Bayard pays) and the game goes on."""
    s = stock_round({"Bayard": "1"}, cash=0)
    # three empty stock rounds (and empty operating rounds) pay Bayard L.20 each; in the fourth
    # its owner can buy a concession from the bank (L.50)
    assert (s.round, s.money.turn, L.acting_player(s), s.money.cash["1"]) == ("stock", 4, "1", 60)


def test_a_round_ending_in_turn_100_ends_the_game_as_dnf() -> None:
    """Game::Base#process_single_action: `@turn >= 100` when a round finishes: :dnf."""
    s = stock_round({"Bayard": "1"})
    s = replace(s, money=replace(s.money, turn=FL.DNF_TURN))
    over = FL.end_stock_round(s)
    result = ENGINE.result(over)
    assert over.round == "over" and result is not None and result.reason == "dnf"
    assert FL.end_stock_round(replace(s, money=replace(s.money, turn=FL.DNF_TURN - 1))).round != "over"


def test_concessions_count_in_a_players_value_not_toward_his_certificate_limit() -> None:
    """Player#value adds companies' value; G1841 CERT_LIMIT_INCLUDES_PRIVATES is false."""
    from shared.games.g1841.money import player_value
    s = stock_round({"SFTG": "0", "SFTC": "0", "Bayard": "0"})
    assert player_value(s.money, "0", {}, s.variant) == s.money.cash["0"] + 150
    assert s.money.num_certs("0") == 0


def test_corporations_do_not_trade_in_their_presidents_stock_round_turn() -> None:
    """BuySellParShares#actions: only the current entity (the player) acts in a stock round."""
    s = stock_round({"SFTG": "0"})
    s = act(s, A.Par(**p("0"), corporation="SFTG", share_price="100,3,5"))
    s = act(s, A.Pass(**p("0")))
    s = act(s, A.Choose(**p("SFTG"), choice=2))
    s = replace(s, stock=replace(stock_of(s), index=s.money.players.index("0")), operated=["SFTG"])
    entities = {la.action.entity for la in ENGINE.legal_actions(s, 0)}
    assert entities == {"0"}


def test_a_sale_that_leaves_nothing_to_do_ends_the_turn() -> None:
    """Round::Stock#after_process: no action left for the player, the next one's turn."""
    s = _two_corporations()
    s = replace(s, stock=replace(stock_of(s), index=s.money.players.index("1")), operated=["SFTG", "SFTC"])
    money = s.money
    # every certificate not a player's goes to "2": after his sale "1" has nothing to buy
    rest = [c for c, o in money.book.owner.items() if o not in s.players and c != "SFTG_1"]
    book = money.book.moved(["SFTG_1"], "1").moved(rest, "2")
    companies = {c: "0" for c in money.companies}      # none for sale either
    s = replace(s, money=replace(money, book=book, cash={**money.cash, "1": 0}, companies=companies))
    assert L.acting_player(s) == "1"
    before = ENGINE.apply(s, 1, A.SellShares(**p("1"), shares=["SFTG_1"], percent=10))
    # SFTG sold this round, SFTC's 20 % is his president's certificate he may not dump: done
    assert L.acting_player(before) != "1" and before.money.cash["1"] == 100


def test_a_purchase_18xx_games_offers_but_refuses_keeps_the_player_in() -> None:
    """BuySellParShares#can_buy_any_from_ipo? weighs every certificate a corporation holds,
    others' too (which `can_buy?` then refuses): the player stays to pass."""
    s = _two_corporations()           # SFTG holds two SFTC shares
    money = s.money
    own = [c for c, o in money.book.owner.items() if o == money.book.certs[c].corporation]
    cash = {**money.cash, "2": 100}
    s = replace(s, money=replace(money, book=money.book.moved(own, "0"), cash=cash))
    assert ST.asked_to_buy(s, "2") and not ST.buyable(s, "2")
    assert not ST.asked_to_buy(replace(s, money=replace(s.money, cash={**cash, "2": 5})), "2")


def test_the_page_shows_a_concession_won_in_the_auction_as_held_and_paid() -> None:
    """The auction settles money when it ends; 18xx.games' winner pays at once. The page's
    players' rows show each won concession held and its price gone from cash, before the end."""
    from shared.games.g1841.pageview import page_view

    s = ENGINE.setup(["a", "b", "c"], {}, 1)
    start = s.money.cash["0"]
    first = auction_of(s).unsold[1]       # (Bayard is first)
    s = act(s, A.Bid(**p("0"), company=first, price=300))
    while s.auction is not None and first in s.auction.unsold:
        s = act(s, A.Pass(**p(acting(s))))
    assert s.round == "auction" and s.auction is not None and s.auction.owners[first] == "0"
    row = next(r for r in page_view(s)["players"] if r["id"] == "0")
    assert row["cash"] == start - 300 and first in row["privates"]
    assert s.money.cash["0"] == start    # the money side itself waits for the auction's end


def test_a_treasury_is_weighed_in_18xx_games_share_order() -> None:
    """ShareHolder#shares lists a corporation's own certificates first, then the others' by the
    game's corporation order; `can_buy_shares?` checks the sale-this-round on the first of them
    (BuySellParShares#can_buy_any_from_ipo?)."""
    s = _two_corporations()
    m = s.money
    # SFTC holds a SFTN share that came before its SFTG share; none of its own
    book = m.book.moved([c for c, o in m.book.owner.items() if o == "SFTC"], "0")
    m = m.set_par("SFTN", m.market.by_id("100,3,5").coord)
    book = book.moved(["SFTN_1"], "SFTC").moved(["SFTG_1"], "SFTC")
    sr = replace(stock_of(s), sold={"2": ["SFTG"]})
    s = replace(s, money=replace(m, book=book, cash={**m.cash, "2": 150}), stock=sr)
    assert [c.corporation for c in H.treasury_in_18xx_order(s.money, "SFTC")] == ["SFTG", "SFTN"]
    # SFTG before SFTN in the corporation order: its sale this round is what is checked
    held = [c for c, o in s.money.book.owner.items() if o not in s.players and o != "SFTC"]
    s = replace(s, money=replace(s.money, book=s.money.book.moved(held, "1")))
    assert not ST.asked_to_buy(s, "2")


def test_version_1_lists_sfv_where_the_default_game_lists_sb() -> None:
    """G1841 `game_corporations`: SFV (version 1) stands where SB stands in version 2."""
    v2 = list(ENGINE.setup(["a", "b", "c"], {}, 1).money.corps)
    v1 = list(ENGINE.setup(["a", "b", "c"], {"version_1": True}, 1).money.corps)
    assert v1.index("SFV") == v2.index("SB") and v1[v1.index("SFV") + 1] == "SFL"


def test_priority_follows_the_player_whose_turn_ended_the_round() -> None:
    """Game#reorder_players `:after_last_to_act` reads the round's entity index moved once past
    the last turn: with nobody trading, the first player keeps the priority."""
    s = stock_round({"SFTG": "0"})
    first = L.acting_player(s)
    for _ in range(3):
        s = act(s, A.Pass(**p(acting(s))))
    assert s.money.players[0] == first


def test_a_concession_from_the_bank_names_its_value_and_pays_the_presidency_beside() -> None:
    """G1841 BuySellParShares#process_buy_company: the action's price is the concession's value;
    the president's certificate in the pool costs two shares' price on top (`extra`)."""
    s = stock_round({})
    m = s.money
    m = m.set_par("SFTG", m.market.by_id("100,3,5").coord)
    book = m.book.moved(["SFTG_0"], S.POOL)
    s = replace(s, money=replace(m, book=book, turn=2, cash={**m.cash, "0": 1000}))
    value = ST.company_value(s, "SFTG")
    buy = [la for la in ENGINE.legal_actions(s, 0) if isinstance(la.action, A.BuyCompany)
           and la.action.company == "SFTG"]
    assert buy and buy[0].action.price == value
    after = act(s, buy[0].action)
    assert after.money.cash["0"] == 1000 - value - 200
    assert after.money.book.owner["SFTG_0"] == "0"


def test_buying_power_counts_what_the_train_step_lets_the_president_sell() -> None:
    """G1841 `liquidity(emergency: true)` reads `sellable_bundles`, which asks the active train
    step's `can_sell?` (`emr_can_sell?`): a share of a corporation that has not operated counts,
    at its full price halved and truncated (`total_emr_buying_power`)."""
    from shared.games.g1841 import emergency as EM
    s = _two_corporations()
    s = replace(s, operated=[])
    base = EM.buying_power(s, "SFTG")
    more = replace(s, money=replace(s.money, book=s.money.book.moved(["SFTC_3"], "0")))
    assert EM.buying_power(more, "SFTG") - base == 50


def test_a_presidency_in_the_pool_goes_to_the_first_player_holding_its_percent() -> None:
    """SharePool#transfer_shares (`allow_president_sale`): with the president's certificate in
    the pool, a purchase that gives a player 20 % makes him president; his two shares go to
    the pool for the certificate."""
    s = stock_round({})
    m = s.money
    m = m.set_par("AFI", m.market.by_id("100,3,5").coord)
    book = m.book.moved(["AFI_0"], S.POOL).moved(["AFI_3"], "2")
    s = replace(s, money=replace(m, book=book, cash={**m.cash, "2": 500}),
                stock=replace(stock_of(s), index=s.money.players.index("2")), operated=["AFI"])
    assert L.acting_player(s) == "2"
    after = ENGINE.apply(s, 2, A.BuyShares(**p("2"), shares=["AFI_4"], percent=10))
    book = after.money.book
    assert book.owner["AFI_0"] == "2" and {book.owner["AFI_3"], book.owner["AFI_4"]} == {S.POOL}


def test_a_founding_with_no_free_home_city_keeps_the_player_in_his_turn() -> None:
    """G1841 `home_token_locations` names a general major's cities whether full or not, so
    18xx.games' stock step still offers the par (`can_par?` asks no city) and the player stays
    in his turn after a sale (the differential's game 12); we do not offer that founding (the
    README: it would leave the table stuck) but keep him in his turn to pass, as there."""
    from shared.games.core18xx.board import state as B
    from shared.games.g1841 import boardside as BS
    from shared.games.g1841 import stock as ST
    s = stock_round({})
    three = next(i for i, ph in enumerate(s.depot.phases) if ph.name == "3")     # general majors open
    s = replace(s, depot=replace(s.depot, phase=three))
    m = BS.the_map(s)
    board = s.board
    for coord in m.order:               # every city filled by other corporations
        for city in range(len(B.slots(m, board, coord))):
            for corp in (c for c in s.money.corps if c != "ATFA"):
                try:
                    board = B.place_token(m, board, corp, coord, city)
                except B.BoardError:
                    break
    s = replace(s, board=board)
    assert not BS.home_choices(s, "ATFA", None)
    assert "ATFA" not in ST.parable(s, "0")
    assert "ATFA" in ST.parable(s, "0", homes=False) and ST.offers_par(s, "0")
    assert ST.has_moves(s, "0")


def _afi_owned_by_sftg() -> State:
    """AFI at Busto Arsizio with track on to Pavia (a network that must buy a train), no cash
    and no train, presided by SFTG, which holds two SFTC shares; SFTG presided by player 0.
    AFI's turn has reached its train step."""
    from shared.games.g1841 import operating as OP
    from shared.games.g1841.state import OperatingRound, Turn

    from tests.g1841.positions import board
    from tests.g1841.test_board_graph import PAVIA, STRAIGHT_AND_CURVE
    s = _two_corporations()
    m = s.money
    m = m.set_par("AFI", m.market.by_id("100,3,5").coord)
    corps = {**m.corps, "AFI": replace(m.corps["AFI"], floated=True), "SFTG": replace(m.corps["SFTG"], floated=True)}
    afi = [c.id for c in m.book.certs_of("AFI", "AFI")]
    book = m.book.moved([afi[0]], "SFTG").moved(afi[1:6], "1").moved(afi[6:], S.POOL)
    m = replace(m, corps=corps, book=book, cash={**m.cash, "AFI": 0, "SFTG": 0})
    turn = Turn(corp="AFI", past=OP.ORDER["buy_train"], track_done=True, token_done=True, revenue=0,
                token_bought=True, paid=True)
    return replace(s, money=m, round="operating", stock=None,
                   board=board([("AFI", "E7", 0)], STRAIGHT_AND_CURVE + [PAVIA], phase=2),
                   operating=OperatingRound(number=1, rounds=1, order=["AFI", "SFTG", "SFTC"], turn=turn))


def test_a_chain_corporation_s_emergency_sale_is_named_by_the_buyer() -> None:
    """G1841 `BuyTrain#actions` answers the current entity only: a sale by a corporation up the
    buyer's chain is the buyer's `sell_shares` of that corporation's certificates (the
    differential's game 13: SFV's action selling RSFS's CTDA share). The seller's own naming
    is still taken."""
    from shared.games.g1841 import emergency as EM
    s = _afi_owned_by_sftg()
    assert L.acting_entity(s) == "AFI" and L.acting_player(s) == "0"
    assert {seller for seller, _ in EM.issuable(s, "AFI")} == {"SFTG"}
    sales = [la.action for la in L.for_seat(s, 0) if isinstance(la.action, A.SellShares)]
    assert sales and all(a.entity == "AFI" and a.shares[0].startswith("SFTC") for a in sales)
    sale = next(a for a in sales if len(a.shares) == 1)
    after = act(s, sale)
    assert after.money.book.owner[sale.shares[0]] == S.POOL
    assert after.money.cash["AFI"] == 50
    old_form = act(s, replace(sale, entity="SFTG"))
    assert old_form.money == after.money


def test_the_route_step_waits_on_the_network_not_on_a_legal_route() -> None:
    """18xx.games' Route step opens on `can_run_route?` (`route_info`'s `route_available`: one
    base reaching two stops that are no passes), not on a legal route: CFCC at Torino with a
    token on the pass at L6 reaches Ivrea (J6, full of SFTG's token), a route of three stops no
    2-train may run, and still runs, a run of nothing (the differential's game 15, lite and
    version 1)."""
    from shared.games.core18xx.board import state as B
    from shared.games.g1841 import boardside as BS
    from shared.games.g1841 import operating as OP
    from shared.games.g1841.state import OperatingRound, Turn
    s = stock_round({}, options={"lite": True, "version_1": True})
    m = s.money
    m = m.set_par("CFCC", m.market.by_id("100,3,5").coord)
    m = replace(m, corps={**m.corps, "CFCC": replace(m.corps["CFCC"], floated=True)},
                book=m.book.moved(["CFCC_0"], "2"))
    two = next(t for t in s.depot.upcoming if s.depot.trains[t].name == "2")
    depot = replace(s.depot, trains={**s.depot.trains, two: replace(s.depot.trains[two], owner="CFCC")},
                    upcoming=[t for t in s.depot.upcoming if t != two])
    mapdef, b = BS.the_map(s), s.board
    for coord, tile, rot in [("M7", "608", 2), ("L6", "614", 3), ("J6", "206", 3)]:
        b = B.lay(mapdef, b, coord, tile, rot)
    for corp, coord in [("CFCC", "M7"), ("CFCC", "L6"), ("SFTG", "J6")]:
        b = B.place_token(mapdef, b, corp, coord, 0)
    turn = Turn(corp="CFCC", past=OP.ORDER["route"], track_done=True, token_done=True)
    s = replace(s, money=m, depot=depot, board=b, round="operating", stock=None,
                operating=OperatingRound(number=1, rounds=1, order=["CFCC"], turn=turn))
    assert BS.route_available(s, "CFCC") and not BS.best(s, "CFCC").routes
    runs = [la.action for la in L.for_seat(s, 2) if isinstance(la.action, A.RunRoutes)]
    assert runs == [A.RunRoutes(entity="CFCC", entity_type="corporation", routes=[])]
    after = act(s, runs[0])
    assert after.money.price_of("CFCC") < s.money.price_of("CFCC")     # nothing run: left


def test_the_last_bankruptcy_ends_the_game_once_the_round_has_moved_on() -> None:
    """18xx.games checks the end after the round has processed the decision: the corporations
    passed over on the way to the next decision have their turns first, a frozen one's
    operation moving its price left twice (the differential's game 4: IFAI's frozen operation
    follows ICSF's bankruptcy, then the game ends)."""
    from shared.games.g1841.state import OperatingRound, Turn
    s = _two_corporations()
    m = s.money
    corps = {sym: replace(m.corps[sym], floated=True) for sym in ("SFTG", "SFTC")}
    m = replace(m, corps={**m.corps, **corps}, book=m.book.moved(["SFTC_0"], S.POOL), bankrupt=["1", "2"])
    s = replace(s, money=m, round="operating", stock=None,
                operating=OperatingRound(number=1, rounds=1, order=["SFTG", "SFTC"], turn=Turn(corp="SFTG")))
    left = s.money.move_price("SFTC", "left", 2).price_of("SFTC")
    after = FL.settle(FL.bankrupt(s, "SFTG", 0))
    result = ENGINE.result(after)
    assert after.round == "over" and result is not None and result.reason == "bankrupt"
    assert after.money.price_of("SFTC") == left < s.money.price_of("SFTC")


def test_a_bankrupt_corporation_makes_no_merge_pass_of_its_own() -> None:
    """The export's automatic moves: 18xx.games' Merge step passes by itself for a corporation
    that may merge, but a bankrupt one is `done_this_round` and its step offers nothing (the
    differential's games 18 and 20)."""
    from shared.games.g1841 import operating as OP
    from shared.games.g1841.auto_moves import Exporter
    s = _afi_owned_by_sftg()
    # player 0 presides AFI himself; player 1, holding half of it, takes it over
    s = replace(s, operated=[*s.operated, "AFI"], money=replace(s.money, book=s.money.book.moved(["AFI_0"], "0")))
    assert OP.mergeable(s, "AFI") and OP.merge_targets(s)
    bankrupt = A.Bankrupt(entity="AFI", entity_type="corporation", option=0)
    after = FL.settle(FL.bankrupt(s, "AFI", 0))
    assert after.money.book.president_of("AFI") == "1" and OP.mergeable(after, "AFI")
    assert not [a for a in Exporter().auto_actions(s, after, bankrupt) if isinstance(a, A.Pass) and a.entity == "AFI"]
    # the same turn ended by another decision past the merge step passes there
    assert [a for a in Exporter().auto_actions(s, after, A.Pass(entity="AFI", entity_type="corporation"))
            if isinstance(a, A.Pass) and a.entity == "AFI"]


def test_a_bankrupt_s_presidency_goes_to_the_nearest_after_him() -> None:
    """A bankrupt's last sales (`sell_shares` with the president's change allowed) have him as
    the previous president: of two players holding as much, the nearer after him in priority
    order takes the presidency (the differential's game 18: P2, not P4, takes ICSF from P3)."""
    s = stock_round({})
    m = s.money
    m = m.set_par("AFI", m.market.by_id("100,3,5").coord)
    book = m.book.moved(["AFI_0"], "1").moved(["AFI_1", "AFI_2"], "0").moved(["AFI_3", "AFI_4"], "2")
    s = replace(s, money=replace(m, book=book))
    assert s.money.players == ["0", "1", "2"]
    assert FL.bankrupt(s, "AFI", 0).money.book.president_of("AFI") == "2"


def test_the_export_passes_over_a_corporation_done_this_round() -> None:
    """A corporation merged or transformed earlier in the round is passed over when its place
    comes (`done_this_round`): 18xx.games goes through none of its steps, so the export makes
    no automatic move for it (the differential's game 129: RSFS's buy-token pass)."""
    from shared.games.g1841.auto_moves import Exporter
    from shared.games.g1841.state import OperatingRound, Turn
    s = _two_corporations()
    m = s.money
    m = m.set_par("AFI", m.market.by_id("100,3,5").coord)
    m = replace(m, book=m.book.moved(["AFI_0"], "2"))
    s = replace(s, money=m, round="operating", stock=None)
    before = replace(s, operating=OperatingRound(number=1, rounds=1, order=["SFTG", "SFTC", "AFI"],
                                                 turn=Turn(corp="SFTG"), done=["SFTC"]))
    after = replace(before, operating=replace(operating_of(before), index=2, turn=Turn(corp="AFI")))
    assert Exporter()._skipped(before, after) == []
    plain = replace(after, operating=replace(operating_of(after), done=[]))
    assert Exporter()._skipped(replace(before, operating=replace(operating_of(before), done=[])), plain) == ["SFTC"]


def test_a_closed_historical_corporation_keeps_its_concession_holder_in_his_turn() -> None:
    """18xx.games' `can_ipo_any?` asks `can_par?` (`!ipoed`, which `close!` resets) and
    `can_buy?` of the corporation's first treasury certificate: a closed historical
    corporation whose first certificate is a plain share he could pay for keeps the player in
    his turn, though he founds nothing (he passes; the differential's game 68)."""
    s = stock_round({}, cash=100)
    m = s.money
    m = replace(m, corps={**m.corps, "SFTN": replace(m.corps["SFTN"], ipoed=True, closed=True)},
                companies={**m.companies, "SFTN": "0"},
                book=m.book.moved(["SFTN_0"], S.POOL).moved(["SFTN_0"], "SFTN"))
    s = replace(s, money=m)
    assert H.treasury_in_18xx_order(s.money, "SFTN")[0].id != "SFTN_0"
    assert "SFTN" not in ST.parable(s, "0")
    assert ST.offers_par(s, "0")


def test_a_discard_owed_mid_turn_makes_no_new_track_connection() -> None:
    """A train bought in a turn that laid track crowds another corporation, which discards: the
    turn stays at its train step, so the export makes no second `destination_connection` after
    the discard (the differential's 6 December game 1: ATFA's discard in SFLi's turn)."""
    from shared.games.g1841 import operating as OP
    from shared.games.g1841.auto_moves import Exporter
    s = _afi_owned_by_sftg()
    s = replace(s, operating=replace(operating_of(s), turn=replace(OP.turn(s), lays=1)))
    depot = s.depot
    spare = depot.upcoming[:5]
    crowding = replace(depot, trains={**depot.trains, **{t: replace(depot.trains[t], owner="SFTG") for t in spare}},
                       upcoming=depot.upcoming[5:])
    before = replace(s, depot=crowding)
    assert OP.crowded(before) == ["SFTG"]
    discarded = replace(crowding, trains={**crowding.trains, spare[0]: replace(crowding.trains[spare[0]], owner=S.POOL)})
    after = replace(s, depot=discarded)
    moves = Exporter().auto_actions(before, after, A.DiscardTrain(entity="SFTG", entity_type="corporation",
                                                                   train=spare[0]))
    assert not [a for a in moves if isinstance(a, A.DestinationConnection)]


def test_a_corporation_over_its_limit_at_its_turn_s_start_lays_track_first() -> None:
    """G1841's operating steps put `DiscardTrain` after `BuyToken`: a corporation still over its
    train limit when its turn begins (a merger's new major, the round after the merger) is asked
    for its lay first and discards only once its turn reaches that step (the differential's
    6 December game 2: AFI formed in ICSF's turn, the only corporation of the next round)."""
    from shared.games.g1841 import operating as OP
    from shared.games.g1841.state import Turn
    s = _afi_owned_by_sftg()
    spare = s.depot.upcoming[:5]
    depot = replace(s.depot, trains={**s.depot.trains, **{t: replace(s.depot.trains[t], owner="AFI") for t in spare}},
                    upcoming=s.depot.upcoming[5:])
    s = replace(s, depot=depot, operating=replace(operating_of(s), turn=Turn(corp="AFI")))
    assert OP.crowded(s) == ["AFI"]
    step = OP.ROUND.active_step(s)
    assert step is not None and step.name == "track"
    kinds = {type(la.action).__name__ for la in ENGINE.legal_actions(s, s.players.index(acting(s)))}
    assert "LayTile" in kinds and "DiscardTrain" not in kinds
    assert OP.ORDER["buy_token"] < OP.ORDER["discard"] < OP.ORDER["buy_train"]
