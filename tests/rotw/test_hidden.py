"""Hidden information (brief, DESIGN): a seat sees only its own baron; nobody sees the deck
order, the bag's draws or the RNG; redact depends on nothing the seat cannot know."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import ChooseBaron
from shared.games.rotw_england_wales.rng import make_rng
from shared.games.rotw_england_wales.state import State, draft

from .helpers import choose_barons, game, greedy_playout, start


def _tamper(s: State, seat: int) -> State:
    """The same table as `seat` knows it, with everything hidden from it changed."""
    t = draft(s)
    t.rng = make_rng(123456789)
    t.deck = list(reversed(t.deck))
    others = [i for i in range(len(t.players)) if i != seat]
    pool = sorted({*t.baron_pool, *(b for i in others for b in t.players[i].baron_draw)})
    random.Random(5).shuffle(pool)
    for i in others:
        p = t.players[i]
        p.baron_draw = sorted(pool[:2])
        pool = pool[2:]
        if p.baron:
            p.baron = p.baron_draw[1]
    t.baron_pool = sorted(pool)
    return t


def _positions() -> list[State]:
    s = game(3, seed=21)
    half = ENGINE.apply(s, 1, ChooseBaron(baron=s.players[1].baron_draw[0]))
    mid = start(3, seed=21)
    later, _ = greedy_playout(start(3, seed=22), random.Random(3), limit=40)
    return [s, half, mid, later]


@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_view_and_legal_actions_do_not_depend_on_hidden_information(index: int, seat: int) -> None:
    s = _positions()[index]
    t = _tamper(s, seat)
    assert ENGINE.view(s, seat) == ENGINE.view(t, seat)
    assert ENGINE.legal_actions(s, seat) == ENGINE.legal_actions(t, seat)
    assert ENGINE.view(s, None) == ENGINE.view(t, None)


@pytest.mark.parametrize("index", range(4))
def test_redact_depends_only_on_what_the_seat_knows(index: int) -> None:
    s = _positions()[index]
    for seat in range(3):
        r1 = ENGINE.redact(s, seat, 77)
        r2 = ENGINE.redact(_tamper(s, seat), seat, 77)
        assert msgspec.msgpack.encode(r1) == msgspec.msgpack.encode(r2)
        # consistent with what the seat knows: its own cards and everything public unchanged
        assert r1.players[seat].baron_draw == s.players[seat].baron_draw
        assert r1.players[seat].baron == s.players[seat].baron
        assert ENGINE.view(r1, seat) == ENGINE.view(s, seat)
        assert sorted(r1.deck) == sorted(s.deck)
        # and playable
        for q in ENGINE.active_seats(r1):
            assert ENGINE.legal_actions(r1, q)


def test_a_seat_sees_its_own_baron_and_no_other() -> None:
    s = start(3, seed=4)
    for seat in range(3):
        v = ENGINE.view(s, seat)
        for j, p in enumerate(v["players"]):
            if j == seat:
                assert p["baron"] == s.players[seat].baron and p["baron_draw"] == s.players[seat].baron_draw
            else:
                assert p["baron"] == "hidden" and p["baron_draw"] is None
    spectator = ENGINE.view(s, None)
    assert all(p["baron"] == "hidden" and p["baron_draw"] is None for p in spectator["players"])
    text = json.dumps(spectator)
    assert "rng" not in text and '"deck"' not in text and '"bag"' not in text
    assert spectator["deck_size"] == len(s.deck)


def test_barons_are_revealed_at_the_end() -> None:
    s, _ = greedy_playout(start(3, seed=5), random.Random(5))
    assert ENGINE.result(s) is not None
    v = ENGINE.view(s, None)
    assert [p["baron"] for p in v["players"]] == [p.baron for p in s.players]
    res = ENGINE.result(s)
    assert res is not None
    # The breakdown adds up to the engine's scores, and each baron's standing explains its points.
    assert [r["track"] + r["links"] + r["cards"] + r["baron"] + r["shares"] for r in v["scores"]] == res.scores
    assert [r["total"] for r in v["scores"]] == res.scores
    for seat, row in enumerate(v["scores"]):
        st = row["baron_standing"]
        assert st["id"] == s.players[seat].baron
        assert row["baron"] == (st["vp"] if st["met"] else 0)
        assert st["met"] == (st["count"] > 0 and st["count"] >= st["best_other"])
        assert row["cards"] == sum(vp for _, vp in row["bonus"])


def test_no_score_breakdown_before_the_end() -> None:
    s = start(3, seed=5)
    for seat in (0, 1, 2, None):
        before = ENGINE.view(s, seat)
        assert "scores" not in before and before["result"] is None
        assert "baron_standing" not in json.dumps(before)


def test_errors_do_not_name_hidden_cards() -> None:
    s = game(3, seed=8)
    secret = s.players[2].baron_draw
    for b in secret:
        with pytest.raises(RuleError) as err:
            ENGINE.apply(s, 0, ChooseBaron(baron=b))
        assert b not in err.value.message and b not in err.value.code


def test_apply_never_changes_its_input() -> None:
    s = choose_barons(game(3, seed=9))
    before = msgspec.msgpack.encode(s)
    rnd = random.Random(1)
    for _ in range(60):
        seat = min(ENGINE.active_seats(s))
        fam = rnd.choice(ENGINE.legal_actions(s, seat))
        from .helpers import sample
        nxt = ENGINE.apply(s, seat, sample(fam, rnd))
        assert msgspec.msgpack.encode(s) == before
        s, before = nxt, msgspec.msgpack.encode(nxt)


def test_reveals_marks_random_draws() -> None:
    s = start(3, seed=10)
    me = s.order[0]
    from shared.games.rotw_england_wales.actions import Urbanize
    t = ENGINE.apply(s, me, Urbanize(hex="3,0", color="yellow"))
    assert ENGINE.reveals(s, t)
    from shared.games.rotw_england_wales.actions import UpgradeEngine
    assert not ENGINE.reveals(t, ENGINE.apply(t, t.order[1], UpgradeEngine()))
