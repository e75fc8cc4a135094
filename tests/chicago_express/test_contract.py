"""The engine contract: registry, wire format, snapshots, views, Timeline."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import RuleError, Undo, decode_action, encode_action
from shared.games import get_engine
from shared.games.chicago_express import ENGINE as PACKAGE_ENGINE
from shared.games.chicago_express.actions import Bid, Build, Choose, Develop, Done, Forgo, Offer, Pass
from shared.games.chicago_express.state import State
from shared.timeline import Timeline

from .positions import ENGINE, arrange, open_game, play


def test_registry_returns_the_engine() -> None:
    assert get_engine("chicago-express") is PACKAGE_ENGINE
    assert (ENGINE.title, ENGINE.meta.min_players, ENGINE.meta.max_players) == ("chicago-express", 2, 6)
    assert ENGINE.state_type is State


@pytest.mark.parametrize(
    "action, wire",
    [
        (Bid(7), {"type": "bid", "amount": 7}),
        (Pass(), {"type": "pass"}),
        (Choose("build"), {"type": "choose", "action": "build"}),
        (Offer("NYC", 8), {"type": "offer", "company": "NYC", "amount": 8}),
        (Offer("NYC"), {"type": "offer", "company": "NYC"}),  # put up with a pass
        (Build("NYC", "R3"), {"type": "build", "company": "NYC", "hex": "R3"}),
        (Done(), {"type": "done"}),
        (Develop("I6"), {"type": "develop", "hex": "I6"}),
        (Forgo(), {"type": "forgo"}),
    ],
)
def test_actions_on_the_wire(action, wire) -> None:
    assert msgspec.json.decode(encode_action(action)) == wire
    assert decode_action(ENGINE, msgspec.json.encode(wire)) == action
    assert decode_action(ENGINE, wire) == action


@pytest.mark.parametrize(
    "raw, code",
    [
        (b'{"type": "teleport"}', "bad_action"),
        (b'{"type": "choose", "action": "sleep"}', "bad_action"),
        (b'{"type": "bid", "amount": "lots"}', "bad_action"),
        (b'{"type": "bid", "amount": 3, "extra": 1}', "bad_action"),
        (b"{not json", "bad_json"),
    ],
)
def test_bad_wire_actions(raw: bytes, code: str) -> None:
    with pytest.raises(RuleError) as info:
        decode_action(ENGINE, raw)
    assert info.value.code == code


def test_state_round_trips_through_msgpack() -> None:
    s = arrange(open_game(), locos={"NYC": ["R3"]}, houses=["R3"])
    s = play(s, (0, Choose("auction")), (0, Offer("CO", 4)))
    raw = msgspec.msgpack.encode(s)
    back = msgspec.msgpack.decode(raw, type=State)
    assert back == s
    assert ENGINE.legal_actions(back, 1) == ENGINE.legal_actions(s, 1)


def test_view_shows_the_whole_table_to_everyone() -> None:
    s = arrange(open_game(), locos={"NYC": ["R3"]}, houses=["R3"])
    s = play(s, (0, Choose("auction")), (0, Offer("CO", 4)))
    view = ENGINE.view(s, None)
    assert all(ENGINE.view(s, seat) == view for seat in range(3))
    msgspec.json.encode(view)  # JSON-able as it is
    assert view["phase"] == "auction" and view["active_seats"] == [1] and view["current_player"] == 0
    assert view["auction"] == {
        "kind": "share",
        "company": "CO",
        "min_bid": 3,
        "lowest_bid": 5,
        "high_bid": 4,
        "high_bidder": 0,
        "to_act": 1,
        "passed": [],
        "opener": 0,
    }
    nyc = next(c for c in view["companies"] if c["id"] == "NYC")
    assert nyc["network"] == ["S3", "R3"] and nyc["holdings"] == [1, 0, 0] and nyc["shares_left"] == 4
    r3 = next(h for h in view["hexes"] if h["id"] == "R3")
    assert r3["locomotives"] == ["NYC"] and r3["house"] and r3["terrain"] == "forest"
    assert [d["red"] for d in view["dials"]] == [False, False, False] and view["dials"][0]["position"] == 1
    assert [i["value"] for i in view["industry"]] == [1, 3, 4]
    assert view["houses_supply"] == 19 and view["result"] is None
    assert view["players"][0]["cash"] == 25 and view["players"][0]["shares"]["NYC"] == 1
    assert view["log"][-1] == {"event": "bid", "seat": 0, "company": "CO", "amount": 4}
    assert "seed" not in msgspec.json.encode(view).decode()


def test_timeline_folds_and_undoes() -> None:
    timeline = Timeline(ENGINE, ["a", "b"], {}, 11)
    timeline.push(0, Bid(9))
    timeline.push(1, Pass())
    assert timeline.state.cash == [51, 60]
    timeline.push(1, Undo())
    assert timeline.state.auction.to_act == 1 and timeline.state.auction.high_bid == 9
    timeline.push(0, Undo())
    assert timeline.state.cash == [60, 60] and timeline.state.auction.high_bidder == -1
