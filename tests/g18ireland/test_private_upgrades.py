"""Private companies' lays may upgrade (18xx.games: a `tile_lay` ability with no tile list is
held to the phase and the upgrade rules, not to its card's "yellow tile"; Board of Works takes
the company's own next lay through `Tracker#lay_tile_action`, so an upgrade where that lay may
upgrade, with its fee, free of terrain; DCR lays through `lay_tile`, outside the company's
lays; H4 must be in the company's network, but no exit need face it). Hand-built positions."""

from __future__ import annotations

from typing import Any

from shared.families import expand
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.g18ireland import board_ops as BO

from .positions import ENGINE, M, operating

DD_UPGRADE = 40   # the Dundalk & Drogheda yellow tile's printed upgrade cost


def _dundalk(**kw: Any) -> Any:
    """DDR (home in Dublin) with the yellow DD tile IR2 on I9, phase 4, at its track step."""
    b = B.lay(M, B.place_token(M, B.initial(M), "DDR", "I11", 1), "I9", "IR2", 0)
    return operating(b, "DDR", presidents={"DDR": "0"}, cash={"DDR": 100}, **kw)


def _londonderry(h4: A.LayTile | None = None, **kw: Any) -> Any:
    """LER (home Londonderry, G1) reaching Drumglass (H4) over yellow G1-G3, phase 4, at its
    track step; with `h4`, that yellow tile lies on H4 too."""
    b = B.place_token(M, B.initial(M), "LER", "G1", 0)
    for coord, tile, rotation in (("G1", "5", 0), ("G3", "8", 3)):
        b = B.lay(M, b, coord, tile, rotation)
    if h4 is not None:
        b = B.lay(M, b, "H4", h4.tile.rpartition("-")[0], h4.rotation)
    return operating(b, "LER", presidents={"LER": "0"}, cash={"LER": 100}, **kw)


def _color(state: Any, lay: A.LayTile) -> str:
    return B.tile_at(M, state.board, lay.hex).tile.color


def _lays(state: Any, entity: str) -> list[A.LayTile]:
    return [a for la in ENGINE.legal_actions(state, 0) if isinstance(la.action, A.LayTile)
            and la.action.entity == entity for a in expand(la)]


def _upgrade(lays: list[A.LayTile]) -> A.LayTile:
    return next(a for a in lays if a.hex == "I9" and a.tile.startswith("IR7-") and a.rotation == 0)


def test_board_of_works_upgrades_as_the_company_lay_free_of_terrain() -> None:
    state = _dundalk(companies={"BoW": "DDR"})
    own = ENGINE.apply(state, 0, _upgrade(_lays(state, "DDR")))
    assert own.money.cash["DDR"] == 100 - DD_UPGRADE          # the company's own upgrade pays terrain
    after = ENGINE.apply(state, 0, _upgrade(_lays(state, "BoW")))
    assert B.tile_at(M, after.board, "I9").tile.name == "IR7"
    assert after.money.cash["DDR"] == 100                     # BoW: no terrain, no fee on a first lay
    turn = after.operating.turn
    assert (turn.lays, turn.upgraded) == (1, True)             # it was the company's upgrade
    assert after.special_used["BoW"] == 1
    # after an upgrade the second lay may only be yellow, and not after an upgrade: nothing left
    assert _lays(after, "BoW") == [] and _lays(after, "DDR") == []


def test_board_of_works_after_a_yellow_lay_cannot_upgrade() -> None:
    """The second lay of a turn may not upgrade (18Ireland's TILE_LAYS): nor may BoW then."""
    state = _londonderry(companies={"BoW": "LER"})
    assert any(_color(state, a) != "white" for a in _lays(state, "BoW"))
    yellow = next(a for a in _lays(state, "LER") if _color(state, a) == "white")
    after = ENGINE.apply(state, 0, yellow)
    bow = _lays(after, "BoW")
    assert bow and all(_color(after, a) == "white" for a in bow)


def test_board_of_works_cannot_upgrade_before_green() -> None:
    state = _dundalk(companies={"BoW": "DDR"}, phase="2")
    assert all(a.hex != "I9" for a in _lays(state, "BoW"))


def test_drumglass_upgrades_its_hex_without_using_a_lay() -> None:
    """A yellow tile lies on Drumglass (H4) already (the hex is open once a company owns
    DCR): DCR may lay green there, and the company keeps its lays."""
    state = _londonderry(companies={"DCR": "LER"})
    yellow = next(a for a in _lays(state, "LER") if a.hex == "H4")
    state = _londonderry(companies={"DCR": "LER"}, h4=yellow)
    greens = [a for a in _lays(state, "DCR") if a.hex == "H4"]
    assert greens and all(M.tiles[a.tile.rpartition("-")[0]].color == "green" for a in greens)
    after = ENGINE.apply(state, 0, greens[0])
    assert B.tile_at(M, after.board, "H4").tile.color == "green"
    assert after.money.cash["LER"] == 100 and after.operating.turn.lays == 0
    assert BO.legal_lays(after, "LER", 0, False)               # both of LER's lays are still there


def test_drumglass_needs_its_hex_in_the_company_network() -> None:
    """18xx.games holds DCR to a connection (its game-wide rotation check exempts only TIM, DR
    and TDR): DDR, whose home is Dublin far from H4, may not lay there with DCR."""
    b = B.place_token(M, B.initial(M), "DDR", "I11", 1)
    state = operating(b, "DDR", presidents={"DDR": "0"}, cash={"DDR": 100}, companies={"DCR": "DDR"})
    assert "H4" not in {a.hex for a in _lays(state, "DDR")}
    assert _lays(state, "DCR") == []


def test_drumglass_lays_in_any_rotation_once_its_hex_is_reached() -> None:
    """LER reaches H4 over G3: DCR may lay there in rotations whose exits do not face LER's
    track too (its hex_neighbors are all of H4's), which LER's own lay may not."""
    state = _londonderry(companies={"DCR": "LER"})
    own = {(a.tile, a.rotation) for a in _lays(state, "LER") if a.hex == "H4"}
    dcr = _lays(state, "DCR")
    assert dcr and {a.hex for a in dcr} == {"H4"}
    assert own < {(a.tile, a.rotation) for a in dcr}
    after = ENGINE.apply(state, 0, next(a for a in dcr if (a.tile, a.rotation) not in own))
    assert B.tile_at(M, after.board, "H4").tile.color == "yellow"
    assert after.money.cash["LER"] == 100 and after.operating.turn.lays == 0
    # one use; DCR stays open for its revenue (no `closed_when_used_up`)
    assert after.money.companies["DCR"] == "LER" and _lays(after, "DCR") == []
