"""Legal actions agree with `apply`, checked at every position of the real games as the import
reaches them (auction, stock, operating and merger rounds): only the seats to act have legal
actions, and they always have some; every listed action applies (a bid range at both ends, a
trie of lays, tokens or routes by its first member) and the value just past a range is refused;
none of it changes the position. That the export's own decision is always listed is
test_engine.py's check."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import msgspec
import pytest

from shared.engine import LegalAction, RuleError, is_program
from shared.families import expand

from tests.exports import EXTRA_ENV, conformance_paths, export_id

from .imported import ENGINE, imported

CONFORMANCE = conformance_paths("18Ireland")
replace = msgspec.structs.replace


def members(legal: LegalAction) -> list:
    """What is tried of a family: both ends of a range, the first member of a trie."""
    if legal.range is not None:
        r = legal.range
        return [replace(legal.action, **{r.field: v}) for v in sorted({r.min, r.max})]
    return [next(expand(legal))]


@pytest.mark.skipif(not CONFORMANCE, reason="no 18Ireland exports in ../shared/fixtures, $ROUNDHOUSE_SHARED "
                                               f"or ${EXTRA_ENV}")
@pytest.mark.parametrize("path", CONFORMANCE, ids=[export_id(p) for p in CONFORMANCE])
def test_every_listed_action_applies_and_the_value_past_a_range_does_not(path: Path) -> None:
    tried: Counter[str] = Counter()
    for state, seat, _ in imported(path).positions:
        before = msgspec.msgpack.encode(state)
        active = ENGINE.active_seats(state)
        assert seat in active
        for other in range(len(state.players)):
            if other not in active:  # a seat not to act may only set its programs
                assert all(is_program(la.action) for la in ENGINE.legal_actions(state, other)), (state.round, other)
        legal = ENGINE.legal_actions(state, seat)
        assert legal, "the seat to act always has something to do"
        for family in legal:
            for action in members(family):
                ENGINE.apply(state, seat, action)           # a RuleError here: listed but refused
                tried[state.round] += 1
            if family.range is not None:
                r = family.range
                with pytest.raises(RuleError):
                    ENGINE.apply(state, seat, replace(family.action, **{r.field: r.max + r.step}))
                tried["past a range"] += 1
        assert msgspec.msgpack.encode(state) == before
    assert all(tried[kind] > 0 for kind in ("auction", "stock", "operating", "past a range")), tried
