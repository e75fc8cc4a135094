"""BoardState as engine state: serialisable, never mutated, invariants kept by legal play."""

import random

import msgspec

from shared.games.core18xx.board import network as N
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import tokens as K
from shared.games.core18xx.board import track as T
from shared.games.core18xx.board.tiles import path_subset
from shared.games.g18ireland.map import PHASE_COLORS, TRACK_RULES, board_map

M = board_map()
PHASES = ["2", "4", "6", "8", "10", "D"]


def play(seed: int, lays: int):
    """Random legal play for all minors; yields (before, after, lay) for every lay."""
    rng = random.Random(seed)
    b = B.initial(M)
    for corp in sorted(M.homes):
        spots = K.home_spots(M, b, corp)
        if spots:
            b = B.place_token(M, b, corp, spots[0].hex, spots[0].city)
    for i in range(lays):
        phase = PHASES[min(len(PHASES) - 1, i * len(PHASES) // lays)]
        corp = rng.choice(sorted(M.homes))
        opts = T.legal_lays(M, b, corp, PHASE_COLORS[phase], T.LaySlot(True, True), rules=TRACK_RULES)
        if not opts:
            continue
        x = rng.choice(opts)
        before = b
        b, lifted = B.lay_lifting(M, b, x.hex, x.tile, x.rotation)
        for owner in lifted:
            s = K.relocation_spots(M, b, owner, x.hex)[0]
            b = B.place_token(M, b, owner, s.hex, s.city)
        yield before, b, x, corp
        if rng.random() < 0.2:
            spots = K.legal_tokens(M, b, corp, 0)
            if spots:
                s = rng.choice(spots)
                b = K.place(M, b, corp, s.hex, s.city, spots)


def test_round_trips_through_json_and_msgpack():
    *_, (_, b, _, _) = play(3, 60)
    assert b.tiles and b.tokens
    start = B.initial(M)
    assert start.reservations
    for board in (b, start):
        for enc, dec in ((msgspec.json.encode, msgspec.json.decode), (msgspec.msgpack.encode, msgspec.msgpack.decode)):
            assert dec(enc(board), type=B.BoardState) == board


def test_legal_play_keeps_invariants_and_never_mutates():
    tokens_seen = 0
    for before, after, lay, corp in play(5, 120):
        frozen = msgspec.json.encode(before)
        # the lay was legal for that company, in place and as a new state
        assert after.tiles[lay.hex] == (lay.tile, lay.rotation)
        assert msgspec.json.encode(before) == frozen  # input untouched
        old, new = B.tile_at(M, before, lay.hex), B.tile_at(M, after, lay.hex)
        assert path_subset(old, new)  # old track kept
        assert all(v >= 0 for v in B.available_tiles(M, after).values())
        # no token lost or duplicated by a lay
        count = lambda st: sorted(o for cs in st.tokens.values() for s in cs for o in s if o)  # noqa: E731
        assert count(before) == count(after)
        tokens_seen = max(tokens_seen, len(count(after)))
        # one token per company per hex
        for cities in after.tokens.values():
            owners = [o for s in cities for o in s if o]
            assert len(owners) == len(set(owners))
        # the laying company reaches the new tile
        assert lay.hex in N.broad(M, after, corp).hexes or lay.hex in N.narrow(M, after, corp).hexes
    assert tokens_seen > 10


def test_fast_lay_listing_equals_full_network_walks():
    """`legal_lays` proves "new track is connected" locally; on random late boards it must list
    exactly what walking the whole network after every candidate lay lists."""
    compared = 0
    for step, (before, _, _, corp) in enumerate(play(11, 150)):
        if step % 6:
            continue
        for phase in ("4", "D"):
            fast = T.legal_lays(M, before, corp, PHASE_COLORS[phase], T.LaySlot(True, True), rules=TRACK_RULES)
            slow = T.legal_lays(M, before, corp, PHASE_COLORS[phase], T.LaySlot(True, True), rules=TRACK_RULES,
                                fast=False)
            assert fast == slow
            compared += 1
    assert compared > 30
