"""Test-only stand-in for the board side's tile-lay cost, until the money and board branches meet
(then the replay takes `core18xx` track costs instead). Facts from 18xx.games
`g_18_ireland/map.rb` and `game.rb`: a preprinted hex's terrain cost is paid by its first tile;
the DD tile (IR2) costs 40 to upgrade; a tile with only narrow gauge pays no terrain; the second
lay of a turn costs £20 (William Dargan's £30 upgrade does not occur in these exports)."""

from __future__ import annotations

from typing import Any

TERRAIN: dict[str, int] = {}
for _hexes, _cost in (
    (["I15", "E3", "B20", "E1", "A11", "C21", "A19", "D4", "A21", "B8", "B10"], 100),
    (["E15", "E7"], 80),
    (["J6", "I7", "B12", "F18", "C19", "D20", "H4", "E5", "F20", "H2", "J2", "F4", "F14", "B18",
      "F8", "H10", "H12", "E13", "H18", "F10", "D16", "F12"], 40),
):
    for _hex in _hexes:
        TERRAIN[_hex] = _cost
TILE_UPGRADE_COST = {"IR2": 40}
ALL_NARROW = {"77", "78", "79", "IR5", "IR23", "IR24", "IR25"}
SECOND_LAY = 20


class LayCosts:
    """Call as lay_cost(money, company, lay_tile action, index of the lay in the turn)."""

    def __init__(self) -> None:
        self.tile_on: dict[str, str] = {}

    def __call__(self, money: Any, company: str, action: dict[str, Any], n: int) -> int:
        hexid = action["hex"]
        name = action["tile"].rsplit("-", 1)[0]
        old = self.tile_on.get(hexid)
        terrain = TERRAIN.get(hexid, 0) if old is None else TILE_UPGRADE_COST.get(old, 0)
        self.tile_on[hexid] = name
        if name in ALL_NARROW:
            terrain = 0
        return terrain + (SECOND_LAY if n >= 1 else 0)
