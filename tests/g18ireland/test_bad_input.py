"""Bad input changes nothing and fails with a specific RuleError only: at every private-auction,
stock-round and merger-round position of the real games (as the import reaches them), unknown,
malformed, out-of-turn and wrong-round actions are refused by the engine's `apply`, each with
the code that says why, and the position is left exactly as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx import actions as A

from tests.exports import EXTRA_ENV, conformance_paths, export_id

from .imported import ENGINE, imported

CONFORMANCE = conformance_paths("18Ireland")
ROUNDS = ("auction", "stock", "merger")


def bad_player_actions(player: str) -> list[A.Action]:
    """A player's decisions no position of 18Ireland ever admits."""
    me: dict[str, Any] = {"entity": player, "entity_type": "player"}
    return [
        A.Bid(**me, company="NOPE", price=20),
        A.Bid(**me, corporation="NOPE", price=100),
        A.Bid(**me, company="DAR", price=-5),
        A.Bid(**me, corporation="GSWR", price=10**9),
        A.BuyShares(**me, shares=["NOPE_1"], percent=10),
        A.BuyShares(**me, shares=[], percent=10),
        A.BuyShares(**me, shares=["GSWR_0"], percent=20),
        A.SellShares(**me, shares=["NOPE_1"], percent=10),
        A.SellShares(**me, shares=["GSWR_3", "GSWR_3"], percent=20),
        A.Par(**me, corporation="GSWR", share_price="61,3,3"),
        A.Par(**me, corporation="NOPE", share_price="100,0,6"),
        A.Par(**me, corporation="LER", share_price="garbage"),
    ]


def refusal(state: Any, seat: int, action: Any) -> str:
    before = msgspec.msgpack.encode(state)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, seat, action)
    assert msgspec.msgpack.encode(state) == before, (seat, action)
    assert err.value.message, err.value.code
    return err.value.code


@pytest.mark.skipif(not CONFORMANCE, reason="no 18Ireland exports in ../shared/fixtures, $ROUNDHOUSE_SHARED "
                                               f"or ${EXTRA_ENV}")
@pytest.mark.parametrize("path", CONFORMANCE, ids=[export_id(p) for p in CONFORMANCE])
def test_bad_actions_are_refused_with_their_code_and_change_nothing(path: Path) -> None:
    seen = dict.fromkeys(ROUNDS, 0)
    for state, seat, action in imported(path).positions:
        if state.round not in ROUNDS:
            continue
        seen[state.round] += 1
        me = state.players[seat]
        other = next(p for p in state.players if p != me)
        # the acting seat: nothing outside the listed families (or the token owed first)
        owed = "token_first" if state.pending else "not_allowed"
        for bad in bad_player_actions(me):
            assert refusal(state, seat, bad) == owed, (state.round, bad)
        # the same decisions made for another player, or by another seat, are out of turn
        for bad in bad_player_actions(other):
            assert refusal(state, seat, bad) == "not_your_turn"
            assert refusal(state, int(other), bad) == "not_your_turn"
        assert refusal(state, int(other), action) == "not_your_turn"
        # a company that is not in play, or an operating decision outside an operating round
        lay = A.LayTile(entity="GSWR", entity_type="corporation", hex="A1", tile="7-0", rotation=0)
        assert refusal(state, seat, lay) in ({"no_such_company"} if not state.money.corps["GSWR"].ipoed
                                             else {"not_your_turn", "not_allowed", "token_first"})
        # the export's own decision with an export's bookkeeping, or no 18Ireland action at all
        assert refusal(state, seat, msgspec.structs.replace(action, id=7)) == "bad_action"
        assert refusal(state, seat, A.ExportUndo(entity=me, entity_type="player")) == "bad_action"
        ENGINE.apply(state, seat, action)            # while the real decision still applies there
    assert seen["auction"] >= 5 and seen["stock"] >= 50, seen     # the checks ran on real positions
