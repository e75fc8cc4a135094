"""1841's province borders on the board: which stand in a phase, and the three ways the board
is read with them.

18xx.games (`setup`, `event_phase4_regions!`, `event_phase5_regions!`, `select_track_graph`,
`token_graph_for_entity`, `Graph(check_regions:)`): the borders of phase 2 stand from the start,
the first 4-train replaces them with phase 4's and the first 5-train with phase 5's. A "region
graph" walks no track across a standing border; it is the graph for station tokens, token
purchases and merger connections all game, and for track lays in phase 2 only. From phase 3 on
track is laid, and trains run, on the plain graph, borders or not.

The core's `BoardState.closed` holds borders as edges no walk crosses; so:
- `phase_board` is the board with the phase's borders closed: what a game keeps (the view
  draws them) and what tokens and mergers read;
- `open_board` is the same tiles and tokens with no border: trains, and track from phase 3;
- `track_board` is the one track reach is walked on in a phase.
"""

from __future__ import annotations

from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.state import BoardState, with_closed
from shared.games.g1841 import data


def phase_number(phase: int | str) -> int:
    n = int(phase)
    if not 2 <= n <= 8:
        raise ValueError(f"1841 has no phase {phase}")
    return n


def borders(variant: str, phase: int | str) -> frozenset[tuple[str, int]]:
    """The (hex, edge) pairs, both sides of each border, standing in `phase`."""
    return data.region_borders(variant, phase_number(phase))


def phase_board(m: MapDef, b: BoardState, variant: str, phase: int | str) -> BoardState:
    """`b` with exactly the borders of `phase` closed (the region graph's board). A game calls
    this at the start and on the phase 4 and phase 5 border events."""
    return with_closed(m, b, borders(variant, phase))


def open_board(m: MapDef, b: BoardState) -> BoardState:
    """`b` with no border closed (the plain graph's board)."""
    return with_closed(m, b, ())


def track_board(m: MapDef, b: BoardState, variant: str, phase: int | str) -> BoardState:
    """The board a corporation's track reach is walked on: the region graph in phase 2, the
    plain graph after (`select_track_graph`)."""
    return phase_board(m, b, variant, phase) if phase_number(phase) == 2 else open_board(m, b)
