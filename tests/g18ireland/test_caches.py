"""The import's speed comes from caches (networks, token owners, tiles left, running graphs,
tiles views and narrow bonuses per board; the merger's connectivity answers per board; the
operating context, board sync, closing cells and the last `with_board` kept while what they read
is the same; the rounds' waiting step per state version and state, who acts and a decision's
actor for the last state; the memo of recently applied states; sell bundles per holding; per-state indexes:
cert counts and percents, what a player may buy or sell and whether he must sell, which
stock-round actions are open, merger candidates and share limits, trains by owner, par and
market cells): folding a
real export's decisions with every cache emptied before each decision must give exactly the
states the cached fold gives, and the same legal actions where they are compared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared.games.core18xx import memo
from shared.games.core18xx.money import shares as S
from shared.games.g18ireland.engine import Ireland

from services.offline.import_18xx import import_export

from .exports import export_paths

EXPORTS = export_paths("18Ireland")


def _clear_caches() -> None:
    memo.clear_all()
    S.bundles.cache_clear()
    Ireland._memo.clear()


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures "
                                        "(or $ROUNDHOUSE_SHARED): nothing to fold")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_cached_and_uncached_folds_agree_at_every_decision(path: Path) -> None:
    run = import_export(json.loads(path.read_text()))
    timeline = run.timeline
    decisions = timeline.effective
    assert len(decisions) > 500
    engine = run.engine
    assert isinstance(engine, Ireland)  # the uncached fold below calls past its apply memo

    # with every cache live across decisions, as the import runs; every 9th state's legal
    # actions too (the full lay and route listings go through the same caches)
    cached = timeline.initial
    cached_states = []
    cached_legal = {}
    for n, (seat, action) in enumerate(decisions):
        cached = engine.apply(cached, seat, action)
        cached_states.append(msgspec.json.encode(cached))
        if n % 9 == 0:
            cached_legal[n] = _legal(engine, cached)
    assert cached_states[-1] == msgspec.json.encode(timeline.state)
    assert len(cached_legal) > 50 and any(b"lay_tile" in x for x in cached_legal.values())

    # before each decision a fresh copy of the state (decoded again: no per-instance cache
    # carried over), every module cache emptied, and the apply memo bypassed
    state_type = type(timeline.initial)
    fresh = timeline.initial
    for n, (seat, action) in enumerate(decisions):
        _clear_caches()
        fresh = msgspec.json.decode(msgspec.json.encode(fresh), type=state_type)
        fresh = engine._apply(fresh, seat, action)
        assert msgspec.json.encode(fresh) == cached_states[n], f"decision {n}: {action}"
        if n in cached_legal:
            _clear_caches()
            fresh = msgspec.json.decode(msgspec.json.encode(fresh), type=state_type)
            assert _legal(engine, fresh) == cached_legal[n], f"legal actions after decision {n}"


def _legal(engine: Any, state: Any) -> bytes:
    seats = sorted(engine.active_seats(state))
    return msgspec.json.encode([(seat, engine.legal_actions(state, seat)) for seat in seats])
