"""A company delivers one goods cube (seed III.1 'Doručit kostku').

As in the base game the cube ends in the first city of its colour it reaches and visits no
city twice; grey cities take none. There is no engine limit. The first link used belongs to
the company in turn, and the company's own links used must be at least as many as all other
companies' links used together. Every link used moves its company's income marker one space.
"""

from __future__ import annotations

from shared.engine import RuleError

from .. import deliver as std
from ..actions import Deliver
from ..board import get_board
from ..compat import LegalAction
from ..goods import city_colour, city_name
from ..state import State
from . import flow
from .shares import adv


def paths(s: State, ci: int, start: str, colour: str, g: dict | None = None) -> list[list[int]]:
    board = get_board(s.board)
    g = std._graph(s) if g is None else g
    own_total = sum(1 for link in s.links if link.complete and link.owner == ci)
    out: list[list[int]] = []

    def walk(node: str, seen: set[str], path: list[int], own: int, other: int) -> None:
        for lid, nxt in sorted(g.get(node, ())):
            mine = s.links[lid].owner == ci
            if (not path and not mine) or nxt in seen:
                continue
            o, t = own + mine, other + (not mine)
            if t > own_total:  # no number of own links could outweigh these any more
                continue
            if city_colour(s, board, nxt) == colour:
                if o >= t:
                    out.append(path + [lid])
                continue  # the cube stops at the first city of its colour
            walk(nxt, seen | {nxt}, path + [lid], o, t)

    walk(start, {start}, [], 0, 0)
    return out


def legal(s: State, ci: int) -> LegalAction | None:
    return std.family(s, lambda h, colour, g: paths(s, ci, h, colour, g))


def deliver(s: State, seat: int, a: Deliver) -> None:
    ci = flow.current_company(s)
    if a.color not in s.cubes.get(a.city, ()):
        raise RuleError("no_cube", f"there is no {a.color} cube at {a.city}")
    if list(a.path) not in paths(s, ci, a.city, a.color):
        raise RuleError("bad_path", "that path is not a legal delivery (it must start on a link of the company in turn,"
                        " join up, visit no city twice, end at the first city of the cube's colour, and use at least"
                        " as many of the company's own links as other companies' links)")
    board = get_board(s.board)
    companies = adv(s).companies
    s.cubes[a.city].remove(a.color)
    for lid in a.path:
        companies[s.links[lid].owner].income += 1
    end_hex = std.walk(s, a.city, list(a.path))[-1]
    s.log.append(f"the {companies[ci].name} delivers {a.color} from {city_name(s, board, a.city)} to "
                 f"{city_name(s, board, end_hex)} over {len(a.path)} link(s)")
    if not s.cubes[a.city]:
        del s.cubes[a.city]
        if a.city not in s.empty:
            s.empty.append(a.city)
            need = adv(s).end_empty
            s.log.append(f"{city_name(s, board, a.city)} is empty ({len(s.empty)}/{need})")
            if len(s.empty) >= need and not s.ending:
                s.ending = True
                s.end_reason = f"{need} empty cities"
                s.log.append("the empty-city limit is reached: the game ends at the end of this round")
    flow.company_done(s)
