"""Players' programs on hand-built positions: a share pass passes when its seat's turn comes and
stops for what 18xx.games stops it for; buy shares buys until its condition and then passes on
request; programs leave at a round change that does not fit them; program_disable; a merger pass
(on a real game's merger round); and no other seat ever sees a seat's program."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from shared.engine import RuleError
from shared.families import any_admits, expand
from shared.games import get_engine
from shared.games.core18xx import actions as A
from shared.games.g18ireland import flow as F
from shared.games.g18ireland import programs as PG
from shared.games.g18ireland.programs import Made

from .exports import export_paths
from .test_engine import _to

ENGINE = get_engine("18ireland")
replace = msgspec.structs.replace
EXPORTS = export_paths("18Ireland")
ADA, BO, CY = 0, 1, 2


def who(seat: int) -> dict[str, Any]:
    return {"entity": str(seat), "entity_type": "player"}


def stock(holdings: dict[str, list[str]], turn: int = 2) -> Any:
    """A stock round of turn `turn`: minors DKR and UR started, certificates where `holdings` puts
    them, Ada to act."""
    state = ENGINE.setup(["Ada", "Bo", "Cy"], {}, 7)
    money = state.money.set_par("DKR", (2, 4)).set_par("UR", (3, 3))
    for player, certs in holdings.items():
        money = replace(money, book=money.book.moved(certs, player))
    money = replace(money.check_float("DKR").check_float("UR"), turn=turn)
    state = F.start_stock(replace(state, money=money, auction=None))
    assert state.round == "stock" and ENGINE.active_seats(state) == {ADA}
    return state


def act(state: Any, seat: int, action: Any) -> Any:
    return ENGINE.apply(state, seat, action)


def passes(state: Any, seat: int) -> Any:
    return act(state, seat, A.Pass(**who(seat)))


def notes(state: Any, seat: int) -> list[str]:
    return ENGINE.view(state, seat)["programs"]["notes"]


SHARE_PASS = A.ProgramSharePass(**who(BO))


def test_a_share_pass_passes_when_the_seats_turn_comes_and_everyone_sees_the_move() -> None:
    state = stock({"0": ["DKR_0"], "2": ["UR_0"]})
    state = act(state, BO, SHARE_PASS)                      # set out of turn
    assert ENGINE.active_seats(state) == {ADA} and state.programs.held["1"].action == SHARE_PASS
    state = passes(state, ADA)
    assert ENGINE.active_seats(state) == {CY}
    assert state.programs.made == [Made("1", A.Pass(**who(BO)))]
    moves = ENGINE.view(state, CY)["program_moves"]
    assert [m["text"] for m in moves] == ["Bo passes (program)"]
    assert ENGINE.view(state, BO)["programs"]["program"]["description"] == "Pass in Stock Round"
    # the next decision's view no longer lists the move
    assert ENGINE.view(passes(state, CY), ADA)["program_moves"] == []


def test_a_sale_by_another_player_after_the_program_stops_it_unless_unconditional() -> None:
    holdings = {"0": ["DKR_0", "DKR_1"], "2": ["UR_0"]}
    sale = A.SellShares(**who(ADA), shares=["DKR_1"], percent=20)
    for program, stopped in ((SHARE_PASS, True), (replace(SHARE_PASS, unconditional=True), False)):
        state = act(stock(holdings), BO, program)
        state = passes(act(state, ADA, sale), ADA)
        if stopped:
            assert ENGINE.active_seats(state) == {BO} and "1" not in state.programs.held
            assert notes(state, BO)[-1] == "Disabled programmed action 'Pass in Stock Round' due to 'Shares were sold'"
            assert state.programs.made == []
        else:
            assert ENGINE.active_seats(state) == {CY} and state.programs.made == [Made("1", A.Pass(**who(BO)))]


def test_a_sale_before_the_program_was_set_does_not_stop_it() -> None:
    state = stock({"0": ["DKR_0", "DKR_1"], "2": ["UR_0"]})
    state = act(state, ADA, A.SellShares(**who(ADA), shares=["DKR_1"], percent=20))
    state = passes(act(state, BO, SHARE_PASS), ADA)
    assert ENGINE.active_seats(state) == {CY} and state.programs.made == [Made("1", A.Pass(**who(BO)))]


def test_a_purchase_into_a_company_the_seat_presides_without_half_stops_the_pass() -> None:
    state = act(stock({"1": ["DKR_0"], "2": ["UR_0"]}), BO, SHARE_PASS)
    state = act(state, ADA, A.BuyShares(**who(ADA), shares=["DKR_1"], percent=20))   # the turn ends with it
    assert ENGINE.active_seats(state) == {BO}
    assert notes(state, BO)[-1].endswith("due to 'Ada bought on corporation DKR and is unsecure'")
    # a purchase into another company leaves it running
    state = act(stock({"1": ["DKR_0"], "2": ["UR_0"]}), BO, SHARE_PASS)
    state = act(state, ADA, A.BuyShares(**who(ADA), shares=["UR_1"], percent=20))
    assert ENGINE.active_seats(state) == {CY} and state.programs.made == [Made("1", A.Pass(**who(BO)))]


def test_buy_shares_buys_until_the_condition_then_passes_and_leaves_at_the_round_change() -> None:
    state = stock({"0": ["DKR_0"], "2": ["UR_0"]})
    program = A.ProgramBuyShares(**who(BO), corporation="UR", until_condition=2, auto_pass_after=True)
    state = passes(act(state, BO, program), ADA)
    assert state.money.book.percent_of("1", "UR") == 20 and ENGINE.active_seats(state) == {CY}
    assert [type(m.action) for m in state.programs.made] == [A.BuyShares]
    assert ENGINE.view(state, ADA)["program_moves"][0]["text"] == "Bo buys a 20% share of UR (program)"
    state = passes(passes(state, CY), ADA)
    assert state.money.book.percent_of("1", "UR") == 40 and ENGINE.active_seats(state) == {CY}
    state = passes(passes(state, CY), ADA)
    # two shares held: the program stops, its share pass passes, and everyone has passed
    assert state.money.book.percent_of("1", "UR") == 40
    assert state.programs.made == [Made("1", A.Pass(**who(BO)))]
    assert state.round == "operating" and "1" not in state.programs.held
    assert notes(state, BO)[-3:] == [
        "Disabled programmed action 'Buy UR from Treasury until 2 shares, then auto pass' due to "
        "'2 share(s) bought in UR, end condition met'",
        "Enabled programmed action 'Pass in Stock Round'",
        "Programmed action 'Pass in Stock Round' removed due to round change",
    ]


def test_buy_shares_without_auto_pass_stops_and_leaves_the_turn_to_the_seat() -> None:
    state = stock({"0": ["DKR_0"], "1": ["UR_1"], "2": ["UR_0"]})
    state = passes(act(state, BO, A.ProgramBuyShares(**who(BO), corporation="UR", until_condition=1)), ADA)
    assert ENGINE.active_seats(state) == {BO} and state.programs.made == []
    assert notes(state, BO)[-1].endswith("due to '1 share(s) bought in UR, end condition met'")


def test_buy_shares_stops_when_the_source_has_nothing_to_sell() -> None:
    state = stock({"0": ["DKR_0"], "2": ["UR_0"]})
    program = A.ProgramBuyShares(**who(BO), corporation="UR", until_condition=3, from_market=True)
    state = passes(act(state, BO, program), ADA)
    assert ENGINE.active_seats(state) == {BO}
    assert notes(state, BO)[-1].endswith("due to 'Cannot buy UR from market'")


def test_an_indefinite_share_pass_stays_through_other_rounds() -> None:
    state = stock({"0": ["DKR_0"], "2": ["UR_0"]})
    state = act(state, BO, replace(SHARE_PASS, indefinite=True))
    state = passes(passes(state, ADA), CY)
    assert state.round == "operating" and state.programs.held["1"].action.indefinite


def test_program_disable_and_refusals() -> None:
    state = act(stock({"0": ["DKR_0"], "2": ["UR_0"]}), BO, SHARE_PASS)
    kinds = [type(la.action) for la in ENGINE.legal_actions(state, BO)]
    assert A.ProgramDisable in kinds and A.Pass not in kinds     # not Bo's turn: programs only
    off = act(state, BO, A.ProgramDisable(**who(BO), reason="user", original_type="program_share_pass"))
    assert "1" not in off.programs.held
    assert notes(off, BO)[-1] == "Disabled programmed action 'Pass in Stock Round' due to 'user'"
    before = msgspec.msgpack.encode(off)
    refused = {
        "no_program": A.ProgramDisable(**who(BO), reason="user"),
        "no_such_program": A.ProgramClosePass(**who(BO)),
        "no_such_company": A.ProgramBuyShares(**who(BO), corporation="GSWR", until_condition=1),
        "bad_program": A.ProgramBuyShares(**who(BO), corporation="UR", until_condition=6),
        "bad_entity": A.ProgramSharePass(entity="DKR", entity_type="corporation"),
    }
    for code, action in refused.items():
        seat = ADA if action.entity == "DKR" else BO
        with pytest.raises(RuleError) as err:
            act(off, seat, action)
        assert err.value.code == code
    with pytest.raises(RuleError) as err:
        act(state, BO, A.ProgramDisable(**who(BO), reason="because"))
    assert err.value.code == "bad_program"
    assert msgspec.msgpack.encode(off) == before


def test_every_offered_program_applies_and_replaces_the_one_held() -> None:
    state = stock({"0": ["DKR_0"], "2": ["UR_0"]})
    offered = [la for la in ENGINE.legal_actions(state, CY) if type(la.action).__name__.startswith("Program")]
    assert {type(la.action) for la in offered} == {A.ProgramSharePass, A.ProgramBuyShares, A.ProgramMergerPass}
    for la in offered:
        for action in list(expand(la))[:30]:
            after = act(state, CY, action)
            assert after.programs.held["2"].action == action
    assert not any_admits(offered, A.ProgramBuyShares(**who(CY), corporation="UR", until_condition=9))


def test_no_other_seat_sees_a_program() -> None:
    state = act(stock({"0": ["DKR_0"], "2": ["UR_0"]}), BO,
                A.ProgramBuyShares(**who(BO), corporation="DKR", until_condition=2))
    mine = ENGINE.view(state, BO)["programs"]
    assert mine["program"]["corporation"] == "DKR" and mine["notes"]
    for seat in (ADA, CY, None):
        seen = ENGINE.view(state, seat)
        assert seen.get("programs") in (None, {"program": None, "notes": []})
        assert b"Buy DKR" not in msgspec.json.encode(seen)
        if seat is not None:
            redacted = ENGINE.redact(state, seat, 3)
            assert redacted.programs.held == {} and "1" not in redacted.programs.notes
            assert ENGINE.view(redacted, seat) == seen
            assert ENGINE.legal_actions(redacted, seat) == ENGINE.legal_actions(state, seat)
    assert ENGINE.redact(state, BO, 3).programs.held.keys() == {"1"}


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
def test_a_merger_pass_passes_a_proposal_on_the_listed_minors_only() -> None:
    # a real merger round: the first proposal a player made in the exports
    state, seat, action = next(_to(lambda s, seat, a: s.round == "merger" and isinstance(a, A.Merge)
                                   and s.merger.merging is None, p) for p in EXPORTS)
    player = state.players[seat]
    candidates = [la for la in ENGINE.legal_actions(state, seat) if isinstance(la.action, A.Merge)]
    assert candidates
    minors = sorted({v for la in candidates for v in (la.choices.values if la.choices else [la.action.corporation])})
    program = A.ProgramMergerPass(**who(seat), corporations_by_round={"MR": minors}, options=[])
    passed = act(state, seat, program)
    assert passed.programs.made == [Made(player, A.Pass(**who(seat)))]
    assert seat not in ENGINE.active_seats(passed) or passed.merger is None
    # a minor left off the list: the proposal is the player's own
    short = act(state, seat, replace(program, corporations_by_round={"MR": minors[1:]}))
    assert short.programs.made == [] and ENGINE.active_seats(short) == {seat}


def test_what_programs_watch_is_not_in_the_state_a_seat_without_one_is_given() -> None:
    # the share actions watched are kept only while someone runs a program: a seat holding none
    # is given a state without them (their presence would tell it that somebody does)
    state = act(stock({"0": ["DKR_0", "DKR_1"], "2": ["UR_0"]}), BO, replace(SHARE_PASS, unconditional=True))
    state = act(state, ADA, A.SellShares(**who(ADA), shares=["DKR_1"], percent=20))
    assert state.programs.history["0"][0].kind == "sell"
    assert ENGINE.redact(state, BO, 1).programs.history == state.programs.history
    for seat in (ADA, CY):
        assert ENGINE.redact(state, seat, 1).programs == replace(state.programs, held={}, notes={}, history={})


def auction() -> Any:
    state = ENGINE.setup(["Ada", "Bo", "Cy"], {}, 7)
    assert [o.company for o in state.auction.offers][:2] == ["DAR", "DCR"] and ENGINE.active_seats(state) == {ADA}
    return state


def auto_bid(**fields: Any) -> A.ProgramAuctionBid:
    plain = {"enable_maximum_bid": False, "maximum_bid": 0, "enable_buy_price": False, "buy_price": 0,
             "auto_pass_after": False}
    return A.ProgramAuctionBid(**who(BO), **{**plain, **fields})


def test_an_auction_bid_program_buys_at_its_price_then_stops_once_the_private_is_its_own() -> None:
    state = act(auction(), BO, auto_bid(bid_target="DAR", enable_buy_price=True, buy_price=20))
    state = passes(state, ADA)
    assert state.programs.made == [Made("1", A.Bid(**who(BO), company="DAR", price=20))]
    assert [(s.player, s.company) for s in state.auction.sales] == [("1", "DAR")]
    assert ENGINE.view(state, CY)["program_moves"][0]["text"] == "Bo bids 20 on DAR (program)"
    state = passes(passes(state, CY), ADA)
    assert ENGINE.active_seats(state) == {BO} and notes(state, BO)[-1].endswith("due to 'DAR is owned by Bo'")


def test_an_auction_bid_program_raises_to_its_maximum_then_passes_or_stops() -> None:
    for auto_pass in (True, False):
        program = auto_bid(bid_target="DCR", enable_maximum_bid=True, maximum_bid=70, auto_pass_after=auto_pass)
        state = act(auction(), BO, program)
        state = act(state, ADA, A.Bid(**who(ADA), company="DCR", price=65))
        assert state.programs.made == [Made("1", A.Bid(**who(BO), company="DCR", price=70))]
        state = act(state, CY, A.Bid(**who(CY), company="DCR", price=75))
        state = passes(state, ADA)
        if auto_pass:
            assert state.programs.made == [Made("1", A.Pass(**who(BO)))]
        else:
            assert ENGINE.active_seats(state) == {BO}
            assert notes(state, BO)[-1].endswith("due to 'Price for DCR exceeded maximum bid'")


def test_an_auction_bid_program_leaves_when_the_stock_round_begins_and_is_refused_after() -> None:
    state = act(auction(), BO, auto_bid(bid_target="DK", enable_maximum_bid=True, maximum_bid=0))
    assert "1" in state.programs.held
    begun = F.start_stock(replace(state, auction=None))
    assert begun.round == "stock" and begun.programs.held == {}
    assert notes(begun, BO)[-1] == "Programmed action 'Bid on DK up to 0.' removed due to round change"
    with pytest.raises(RuleError) as err:
        act(state, BO, auto_bid(bid_target="DK", enable_maximum_bid=True, maximum_bid=3))
    assert err.value.code == "bad_program"
    assert A.ProgramAuctionBid not in {type(la.action) for la in ENGINE.legal_actions(stock({}), BO)}
    with pytest.raises(RuleError) as err:
        act(stock({}), BO, auto_bid(bid_target="DK"))
    assert err.value.code == "bad_program"


def _merged(merge: A.Merge) -> str:
    """The corporation a legal merge names (every one the merger round offers names one)."""
    assert merge.corporation is not None, merge
    return merge.corporation


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
def test_a_merger_pass_unless_others_act_stops_once_a_merger_was_proposed_in_the_round() -> None:
    def proposing_after_a_proposal(s: Any, seat: int, a: Any) -> bool:
        m = s.merger
        return (s.round == "merger" and bool(m.proposed) and m.merging is None and not m.to_vote
                and m.outcome is None and any(isinstance(la.action, A.Merge) for la in ENGINE.legal_actions(s, seat)))

    state, seat, _ = _to(proposing_after_a_proposal, EXPORTS[0])
    player = state.players[seat]
    minors = sorted({m for la in ENGINE.legal_actions(state, seat) if isinstance(la.action, A.Merge)
                     for m in (la.choices.values if la.choices else [_merged(la.action)])})
    program = A.ProgramMergerPass(**who(seat), corporations_by_round={"MR": minors}, options=["disable_others"])
    # set by the decision just made: it passes
    assert act(state, seat, program).programs.made == [Made(player, A.Pass(**who(seat)))]
    # held from before the proposal: the next decision (another seat's program) stops it
    held = replace(state, programs=replace(state.programs, held={player: PG.Program(action=program, since=0)}))
    other = next(s for s in range(len(state.players)) if s != seat)
    after = act(held, other, A.ProgramSharePass(**who(other)))
    assert after.programs.made == [] and player not in after.programs.held and ENGINE.active_seats(after) == {seat}
    assert notes(after, seat)[-1].endswith("due to 'Other players have acted and requested to stop'")
