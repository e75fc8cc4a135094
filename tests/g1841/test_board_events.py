"""The board side of 1841's events on hand-built positions of the real map: border events,
whether the Ferdinandea secession happens and how IRSFF's tokens are shared, the Tuscan merge's
steps, merger token removal (shared/games/g1841/board/events.py)."""

from __future__ import annotations

import pytest

from shared.games.core18xx.board import state as S
from shared.games.core18xx.board.state import BoardError
from shared.games.core18xx.board.tiles import placed
from shared.games.g1841 import data as D
from shared.games.g1841.board import events as EV
from shared.games.g1841.board import regions as RG
from shared.games.g1841.board import stations as ST

M = D.the_map()
MILANO_TO_VENEZIA = ["F8", "E9", "F10", "G11", "F12", "G13", "F14", "G15", "F16"]


def _joins(t, e1: int, e2: int) -> bool:
    if not t.tile.nodes:
        return any({p.a, p.b} == {e1, e2} for p in t.paths)
    return any({e1, e2} <= set(edges) for edges in t.node_edges)


def track_along(b: S.BoardState, hexes: list[str]) -> S.BoardState:
    """Track joining `hexes` in a line (the first and last keep their tiles): a position, not
    a legal sequence of lays."""
    for prev, here, nxt in zip(hexes, hexes[1:], hexes[2:]):
        e1, e2 = M.geometry[here].index(prev), M.geometry[here].index(nxt)
        old = M.hexes[here].tile
        for name, t in M.tiles.items():
            if (t.color not in ("yellow", "green") or S.available_tiles(M, b).get(name, 0) <= 0
                    or t.label != old.label or len(t.cities) != len(old.cities) or len(t.towns) != len(old.towns)):
                continue
            r = next((r for r in range(6) if _joins(placed(t, r), e1, e2)), None)
            if r is not None:
                b = S.lay(M, b, here, name, r)
                break
        else:
            raise AssertionError(f"no tile joins {prev}, {here}, {nxt}")
    return b


def irsff() -> S.BoardState:
    b = ST.place_homes(M, ST.initial(M, "default"), "default", "IRSFF")
    return S.lay(M, b, "F16", "601", 0)


def test_border_events() -> None:
    b = ST.initial(M, "default")
    assert set(EV.border_event(M, b, "default", "phase4_regions").closed) == RG.borders("default", 4)
    assert set(EV.border_event(M, b, "default", "phase5_regions").closed) == RG.borders("default", 5)
    with pytest.raises(ValueError):
        EV.border_event(M, b, "default", "tuscan_merge")


def test_the_secession_happens_unless_milano_and_venezia_are_connected() -> None:
    b = irsff()
    assert EV.secession_happens(M, b, "default", irsff_floated=True)
    assert not EV.secession_happens(M, b, "default", irsff_floated=False)
    joined = track_along(b, MILANO_TO_VENEZIA)
    assert EV.milano_venezia_connected(M, joined, "default")
    # one full city between them: its owner's own network still joins both
    one = S.place_token(M, joined, "CTS", "G13", 0)
    assert EV.milano_venezia_connected(M, one, "default")
    # two, of two corporations: nobody's network holds both
    two = S.place_token(M, one, "AFI", "E9", 0)
    assert not EV.milano_venezia_connected(M, two, "default")
    assert EV.secession_corporations("default") == ("SB", "SFL")
    assert EV.secession_corporations("version_1") == ("SFV", "SFL")


def test_irsffs_tokens_go_to_veneto_and_the_rest() -> None:
    b = irsff()
    b = S.place_token(M, S.place_token(M, S.place_token(M, b, "IRSFF", "G13", 0), "IRSFF", "E9", 0),
                      "IRSFF", "F14", 0)
    order = [("F8", 0), ("F16", 0), ("G13", 0), ("E9", 0), ("F14", 0)]
    out = EV.secession_tokens(M, b, "default", unplaced=1, order=order)
    assert out.board.tokens["F8"] == (("SFL",),) and out.board.tokens["E9"] == (("SFL",),)
    assert out.board.tokens["F16"][0] == ("SB",) and out.board.tokens["G13"] == (("SB",),)
    assert out.tokens == {"SB": 3 + 1, "SFL": 2}
    # version 1: two each at most; the third Veneto token is not swapped and stays IRSFF's,
    # holding its slot after IRSFF closes (18xx.games' `close!` takes no token off the map)
    v1 = EV.secession_tokens(M, b, "version_1", unplaced=1, order=order)
    assert v1.board.tokens["F14"] == (("IRSFF",),) and v1.tokens == {"SFV": 2, "SFL": 2}
    # at least two each, even with nothing placed in one part
    few = EV.secession_tokens(M, irsff(), "default", unplaced=0)
    assert few.tokens == {"SB": 2, "SFL": 2}
    assert EV.secession_purchase_limit(2, 120) == 2 and EV.secession_purchase_limit(5, 500) == 0
    assert EV.secession_purchase_limit(3, 40) == 0


def test_the_tuscan_merge_steps() -> None:
    assert not EV.tuscan_merge_happens({"SFLP"}) and EV.tuscan_merge_happens({"SFLP", "SSFL"})
    assert EV.tuscan_merge_steps({"SFLP", "SFMA", "SSFL"}, "AFI") == [
        ("merge", ("SFLP", "SFMA"), "AFI"), ("merge", ("AFI", "SSFL"), "SFLi")]
    assert EV.tuscan_merge_steps({"SFMA", "SSFL"}, "Holding")[0] == ("transform", ("SFMA",), "Holding")
    assert EV.tuscan_merge_steps({"SFLP", "SSFL"}, "Holding")[0] == ("transform", ("SFLP",), "Holding")
    assert EV.tuscan_merge_steps({"SFLP", "SFMA"}, "Holding") == [("merge", ("SFLP", "SFMA"), "SFLi")]
    assert EV.sfli_runs("default", False, False) and not EV.sfli_runs("default", False, True)
    assert not EV.sfli_runs("version_1", False, False) and EV.sfli_runs("version_1", True, False)


def test_merger_tokens() -> None:
    # AFI at Parma and Modena, CTS at Modena (a green two-slot city) and Reggio
    b = ST.initial(M, "default")
    b = S.place_token(M, b, "AFI", "K11", 0)
    b = S.place_token(M, b, "AFI", "K13", 0)
    b = S.lay(M, b, "K13", "619", 0)                  # two slots
    b = S.place_token(M, b, "CTS", "K13", 0)
    b = S.place_token(M, b, "CTS", "L12", 0)
    assert EV.merger_duplicates(M, b, "AFI", "CTS") == [("K13", 0)]
    clean = EV.remove_duplicates(M, b, "AFI", "CTS")
    assert clean.tokens["K13"][0].count("CTS") == 0 and EV.shared_hex(M, clean, "AFI", "CTS") is None
    # AFI had 2 tokens, CTS 3 (one unplaced); one duplicate came off: 4 in all, 3 on the map:
    # none needs to come off, one stays on the charter
    r = EV.merger_removal(M, clean, "default", "AFI", "CTS", 2, 3, 1)
    assert (r.fewest, r.most, r.tokens) == (0, 0, 4) and set(r.hexes) == {"K11", "K13", "L12"}
    # ten tokens in all: five kept, at least one and at most four on the charter
    r = EV.merger_removal(M, clean, "default", "AFI", "CTS", 5, 5, 0)
    assert (r.fewest, r.most, r.tokens) == (0, 2, 5)
    # fewer tokens in all than on the map (a shared hex's removal counted twice): removed down
    # to them, where 18xx.games' `most` of 0 left three tokens for a major owning two
    r = EV.merger_removal(M, clean, "default", "AFI", "CTS", 2, 3, 3)
    assert (r.fewest, r.most, r.tokens) == (1, 1, 2)
    merged = EV.merged_tokens(clean, ["AFI", "CTS"], "ICSF")
    assert merged.tokens["L12"] == (("ICSF",),) and merged.tokens["K11"] == (("ICSF",),)
    # the last city token of the two cannot be removed
    gone = EV.remove_tokens(M, clean, {"AFI", "CTS"}, [("K11", 0), ("K13", 0)])
    with pytest.raises(BoardError) as err:
        EV.remove_tokens(M, gone, {"AFI", "CTS"}, [("L12", 0)])
    assert err.value.code == "last_token"


def test_firenze_shared_by_two_merging_corporations() -> None:
    b = S.place_token(M, S.place_token(M, ST.initial(M, "default"), "SFMA", "R14", 0), "SFLP", "R14", 1)
    assert EV.merger_duplicates(M, b, "SFMA", "SFLP") == [] and EV.shared_hex(M, b, "SFMA", "SFLP") == "R14"


def test_the_tuscan_merges_last_step_keeps_pisa_and_firenze() -> None:
    b = ST.initial(M, "default")
    b = ST.place_homes(M, b, "default", "SSFL")                  # Pisa
    for corp, coord in (("AFI", "S11"), ("AFI", "K13"), ("AFI", "R14"), ("SSFL", "L12"), ("SSFL", "K15")):
        b = S.place_token(M, b, corp, coord, 0)
    r = EV.merger_removal(M, b, "default", "AFI", "SSFL", 3, 3, 0, tuscan="last")
    assert r.tokens == 5 and set(r.hexes) == {"S11", "K13", "L12", "K15"}
    assert (r.fewest, r.most) == (1, 4)            # six on the map; Pisa, Firenze and three more stay
    assert EV.merger_removal(M, b, "default", "AFI", "SSFL", 3, 3, 0, tuscan="first") == EV.Removal(0, 0, (), 4)
    assert sorted(EV.tuscan_frozen_removals(M, b, "default", "AFI", "SSFL")) == [
        ("K13", 0), ("K15", 0), ("L12", 0), ("S11", 0)]
    # with neither Pisa nor Firenze: all but the first city by name (Ferrara K15 < Livorno ...)
    nofi = S.place_token(M, S.place_token(M, ST.initial(M, "default"), "AFI", "S11", 0), "SSFL", "K15", 0)
    assert EV.tuscan_frozen_removals(M, nofi, "default", "AFI", "SSFL") == [("S11", 0)]


def test_transform_token_options() -> None:
    assert EV.transform_token_options(1, 260) == (50, 100, 1, 3)
    assert EV.transform_token_options(2, 260) == (100, 100, 0, 2)
    assert EV.transform_token_options(4, 1000) == (100, 100, 0, 1)
    assert EV.transform_token_options(1, 0) == (50, 100, 1, 1)


def test_merge_partners_are_reached_by_track_within_the_standing_borders() -> None:
    # IRSFF at Milano only, track on to Verona (G13, CTS) across G11 - F12, where phase 4's
    # border (Austria's Veneto) stands; AFI at Modena, not connected
    b = S.place_token(M, ST.initial(M, "default"), "IRSFF", "F8", 0)
    b = track_along(S.lay(M, b, "F16", "601", 0), MILANO_TO_VENEZIA)
    b = S.place_token(M, S.place_token(M, b, "CTS", "G13", 0), "AFI", "K13", 0)
    assert ("F12", 1) in RG.borders("default", 4)
    for phase, partners in ((2, {"CTS"}), (4, set()), (5, {"CTS"})):
        assert EV.merge_partners(M, b, "default", phase, "IRSFF") == partners, phase
        assert EV.merge_partners(M, b, "default", phase, "CTS") == ({"IRSFF"} if partners else set())
