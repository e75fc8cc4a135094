"""The 18Ireland title under the engine contract, checked against real games: at every decision
of the 18xx.games exports (the shared fixtures and those under $ROUNDHOUSE_EXTRA_EXPORTS), the
decision is one of the legal actions our engine lists for the seat that makes it (routes: our
suggested routes earn at least what the players ran), and only that seat is asked; plus the
rules the integration itself adds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared.engine import RuleError, is_program
from shared.families import any_admits, expand
from shared.games import get_engine
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.export_log import decisions
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import from_18xx as X
from shared.games.g18ireland.operating_round import same_purchase

from tests.exports import EXTRA_ENV, conformance_paths, export_id

from .exports import export_paths

EXPORTS = export_paths("18Ireland")
CONFORMANCE = conformance_paths("18Ireland")
needs_exports = pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures "
                                                       "(or $ROUNDHOUSE_SHARED)")
ENGINE = get_engine("18ireland")


def _listed(state: Any, seat: int, action: Any) -> bool:
    legal = ENGINE.legal_actions(state, seat)
    if isinstance(action, A.RunRoutes):
        # 18xx.games writes a zero extra revenue/subsidy or leaves it out: the same decision
        action = msgspec.structs.replace(action, extra_revenue=action.extra_revenue or None,
                                         subsidy=action.subsidy or None)
    if any_admits(legal, action):
        return True
    same = same_purchase(state)
    return any(same(la.action, action) for la in legal)


def _walk(path: Path, check: Any) -> Any:
    export = json.loads(path.read_text())
    seats, options, seed = X.table(export)
    ids = X.player_ids(export)
    state = ENGINE.setup(seats, options, seed)
    owed: list[Any] = []
    for n, raw in enumerate(decisions(export["actions"])):
        action = X.action(raw, ids)
        if action in owed:          # a merger-round pass our engine made itself, as 18xx.games did
            owed.remove(action)
            continue
        seat = X.actor(state, action)
        check(n, state, seat, action, raw)
        state = ENGINE.apply(state, seat, action)
        owed += X.automatic(state)
    assert owed == []
    return export, state


@pytest.mark.skipif(not CONFORMANCE, reason="no 18Ireland exports in ../shared/fixtures, $ROUNDHOUSE_SHARED "
                                               f"or ${EXTRA_ENV}")
@pytest.mark.parametrize("path", CONFORMANCE, ids=[export_id(p) for p in CONFORMANCE])
def test_every_exported_decision_is_listed_for_its_seat_and_only_that_seat_acts(path: Path) -> None:
    checked = {"routes": 0, "decisions": 0}

    def check(n: int, state: Any, seat: int, action: Any, raw: dict[str, Any]) -> None:
        assert ENGINE.active_seats(state) == {seat} or seat in ENGINE.active_seats(state), (n, raw)
        assert _listed(state, seat, action), (n, raw)
        if isinstance(action, A.RunRoutes):
            suggested = next(la for la in ENGINE.legal_actions(state, seat) if isinstance(la.action, A.RunRoutes))
            ours = sum(r.revenue or 0 for r in suggested.action.routes)
            assert ours >= sum(r.revenue or 0 for r in action.routes), (n, raw)
            checked["routes"] += 1
        checked["decisions"] += 1

    export, state = _walk(path, check)
    result = ENGINE.result(state)
    assert result is not None
    assert result.reason == export["game_end_reason"]
    assert checked["routes"] > 50


@needs_exports
def test_views_are_public_but_for_each_seats_own_programs() -> None:
    export, state = _walk(EXPORTS[0], lambda *a: None)
    spectator = ENGINE.view(state, None)
    for s in range(len(state.players)):
        seen = ENGINE.view(state, s)
        assert seen.pop("programs") == {"program": None, "notes": []}     # an import sets none
        assert seen == spectator
    assert not ENGINE.meta.public_view
    assert json.loads(json.dumps(spectator))["position"]["round"] == "over"
    assert ENGINE.redact(state, 0, 7) == state


def _to_or_none(predicate: Any, path: Path) -> tuple[Any, int, Any] | None:
    try:
        return _to(predicate, path)
    except AssertionError:
        return None


def _to(predicate: Any, path: Path) -> tuple[Any, int, Any]:
    """The first position of the export where `predicate(state, seat, action)` holds."""
    export = json.loads(path.read_text())
    seats, options, seed = X.table(export)
    ids = X.player_ids(export)
    state = ENGINE.setup(seats, options, seed)
    owed: list[Any] = []
    for raw in decisions(export["actions"]):
        action = X.action(raw, ids)
        if action in owed:
            owed.remove(action)
            continue
        seat = X.actor(state, action)
        if predicate(state, seat, action):
            return state, seat, action
        state = ENGINE.apply(state, seat, action)
        owed += X.automatic(state)
    raise AssertionError("no such position")


@needs_exports
def test_a_lay_must_take_the_next_copy_of_its_tile_and_a_refusal_changes_nothing() -> None:
    state, seat, action = _to(lambda s, seat, a: isinstance(a, A.LayTile) and a.tile.endswith("-0")
                              and s.moves > 200, EXPORTS[0])
    before = msgspec.msgpack.encode(state)
    wrong = msgspec.structs.replace(action, tile=action.tile[:-2] + "-1")
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, seat, wrong)
    assert err.value.code == "wrong_tile_copy"
    with pytest.raises(RuleError):
        ENGINE.apply(state, (seat + 1) % len(state.players), action)
    assert msgspec.msgpack.encode(state) == before
    ENGINE.apply(state, seat, action)


@needs_exports
def test_a_major_started_by_par_places_its_home_token_before_play_goes_on() -> None:
    path = next(p for p in EXPORTS if any(a["type"] == "par" for a in json.loads(p.read_text())["actions"]))
    state, seat, action = _to(lambda s, seat, a: isinstance(a, A.Par), path)
    after = ENGINE.apply(state, seat, action)
    assert [p.corp for p in after.pending] == [action.corporation]
    # the turn's decisions (programs may be set at any time besides)
    legal = [la for la in ENGINE.legal_actions(after, seat) if not isinstance(la.action, A.ProgramAction.__args__)]
    assert legal and all(isinstance(la.action, A.PlaceToken) for la in legal)
    assert ENGINE.active_seats(after) == {seat}
    with pytest.raises(RuleError):
        ENGINE.apply(after, seat, A.Pass(entity=str(seat), entity_type="player"))
    placed = ENGINE.apply(after, seat, next(expand(legal[0])))
    assert placed.pending == []


@needs_exports
def test_the_engine_passes_for_merger_players_with_nothing_to_propose_where_18xx_games_did() -> None:
    """18xx.games' Merge step passes automatically for a player with no mergeable minors; our
    engine does the same, and each of its passes is one the export records as an auto action."""
    made = []

    def check(n: int, state: Any, seat: int, action: Any, raw: dict[str, Any]) -> None:
        made.extend(state.auto_passed)

    for path in EXPORTS:
        _walk(path, check)
    assert made


def test_setup_follows_the_seed_and_checks_seats_and_options() -> None:
    a = ENGINE.setup(["a", "b", "c", "d"], {"larger_bank": False}, 161830)
    b = ENGINE.setup(["a", "b", "c", "d"], {"larger_bank": False}, 161830)
    assert msgspec.msgpack.encode(a) == msgspec.msgpack.encode(b)
    assert a.round == "auction" and ENGINE.active_seats(a) == {0}
    big = ENGINE.setup(["a", "b", "c"], {"larger_bank": True}, 5)
    small = ENGINE.setup(["a", "b", "c"], {"larger_bank": False}, 5)
    assert big.money.cash["bank"] - small.money.cash["bank"] == 1000
    with pytest.raises(RuleError):
        ENGINE.setup(["a", "b"], {}, 1)


@needs_exports
def test_a_major_over_its_train_limit_after_a_merger_discards_before_the_round_goes_on() -> None:
    """18xx.games' merger round starts with DiscardTrain: the minors' trains go to the major,
    and a major over the phase's limit discards (its president's choice) before anything else.
    A real merger, with a spare depot train given to one of the merging minors beforehand."""
    def room(s: Any) -> bool:           # the minors may hold more trains together than the major
        return len(s.merger.merging) * s.depot.train_limit("minor") > s.depot.train_limit("major")

    state, seat, action = next(found for path in EXPORTS for found in [_to_or_none(
        lambda s, seat, a: isinstance(a, A.Merge) and s.merger is not None and s.merger.outcome == "for" and room(s),
        path)] if found is not None)
    depot = state.depot
    limit = depot.train_limit("major")
    spare = iter([t.id for t in depot.trains.values() if t.owner == "depot"])
    trains = dict(depot.trains)
    for minor in state.merger.merging:         # each minor filled up to its own limit
        for _ in range(depot.train_limit("minor") - depot.count_owned(minor)):
            tid = next(spare)
            trains[tid] = msgspec.structs.replace(trains[tid], owner=minor)
    state = msgspec.structs.replace(state, depot=msgspec.structs.replace(depot, trains=trains))
    assert sum(state.depot.count_owned(m) for m in state.merger.merging) > limit
    after = ENGINE.apply(state, seat, action)
    major = str(action.corporation)
    assert after.depot.count_owned(major) > limit and after.round == "merger"
    president = X.actor(after, A.Pass(entity=major, entity_type="corporation"))
    assert ENGINE.active_seats(after) == {president}
    legal = [a for la in ENGINE.legal_actions(after, president) for a in expand(la) if not is_program(a)]
    assert legal and all(isinstance(a, A.DiscardTrain) and a.entity == major for a in legal)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(after, president, A.Pass(entity=after.players[president], entity_type="player"))
    assert err.value.code == "discard_first"
    while after.depot.count_owned(major) > limit:
        after = ENGINE.apply(after, president, next(a for la in ENGINE.legal_actions(after, president)
                                                    for a in expand(la) if isinstance(a, A.DiscardTrain)))
    assert after.depot.count_owned(major) == limit and merging_goes_on(after)


def merging_goes_on(state: Any) -> bool:
    """Play is back with the merger round's players (or past it)."""
    return state.round != "merger" or all(not isinstance(la.action, A.DiscardTrain)
                                          for s in ENGINE.active_seats(state) for la in ENGINE.legal_actions(state, s))


@needs_exports
def test_a_minor_whose_auction_begins_chooses_its_home_city_first() -> None:
    """18xx.games (HOME_TOKEN_TIMING :par) places a minor's home token as its auction begins;
    on a hex it reserves as a whole, with track there, that is a choice, made before any
    further bid, by the player who began the auction (the minor has no president yet)."""
    def ur_biddable(s: Any, seat: int, a: Any) -> bool:
        if s.round != "stock" or s.stock is None or s.stock.auction is not None or s.pending:
            return False
        return any(isinstance(x, A.Bid) and x.corporation == "UR" for la in ENGINE.legal_actions(s, seat)
                   for x in expand(la))

    found = next((f for path in EXPORTS for f in [_to_or_none(ur_biddable, path)] if f is not None), None)
    if found is None:
        pytest.skip("no export has a stock-round position where UR can be auctioned")
    state, seat, _ = found
    state = msgspec.structs.replace(state, board=B.lay(BO.the_map(), state.board, "J4", "IR1", 0))
    bid = next(x for la in ENGINE.legal_actions(state, seat) for x in expand(la)
               if isinstance(x, A.Bid) and x.corporation == "UR")
    after = ENGINE.apply(state, seat, bid)
    assert [(p.corp, p.kind) for p in after.pending] == [("UR", "home")]
    assert ENGINE.active_seats(after) == {seat}
    tokens = [x for la in ENGINE.legal_actions(after, seat) for x in expand(la) if isinstance(x, A.PlaceToken)]
    assert {t.city for t in tokens} == {B.node_id(BO.the_map(), after.board, "J4", c) for c in (0, 1)}
    placed = ENGINE.apply(after, seat, tokens[-1])
    assert not placed.pending and B.token_hexes(placed.board, "UR") == [("J4", 1)]
