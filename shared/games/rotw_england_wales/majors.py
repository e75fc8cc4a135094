"""Major lines printed on the board: the first player to join the named cities with a chain of
their own completed links claims the line's VP (seed: each line is claimed once)."""

from __future__ import annotations

from .board import get_board
from .state import State


def own_graph(s: State, seat: int) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for link in s.links:
        if link.complete and link.owner == seat and link.b is not None:
            g.setdefault(link.a, set()).add(link.b)
            g.setdefault(link.b, set()).add(link.a)
    return g


def _reach(g: dict[str, set[str]], x: str, y: str) -> bool:
    seen, todo = {x}, [x]
    while todo:
        h = todo.pop()
        if h == y:
            return True
        for n in g.get(h, ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return False


def check(s: State, seat: int) -> None:
    board = get_board(s.board)
    g = own_graph(s, seat)
    for m in board.major_lines:
        if m.id in s.majors:
            continue
        stops = [board.city_by_name[n] for n in m.cities]
        if all(_reach(g, a, b) for a, b in zip(stops, stops[1:])):
            s.majors[m.id] = seat
            s.players[seat].bonus.append([m.name, m.vp])
            s.log.append(f"{s.players[seat].name} completes the major line {m.name} (+{m.vp} VP)")
