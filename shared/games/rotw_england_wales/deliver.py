"""Deliver one goods cube along completed links (base rules; README 'Deliveries').

The cube ends in the first city of its colour it reaches and may not pass through one; it
visits no city or town twice; it uses at most as many links as the deliverer's engine level;
each link's owner moves up one space on the income/VP track. Grey cities take no cubes.
"""

from __future__ import annotations

from collections.abc import Callable

from shared.engine import RuleError

from . import cards, turn
from .actions import Allow, Deliver, Inspect
from .board import get_board
from .compat import Choice, LegalAction
from .goods import city_colour, city_name
from .state import INSPECT, Pending, State, card_kind


def _graph(s: State) -> dict[str, list[tuple[int, str]]]:
    g: dict[str, list[tuple[int, str]]] = {}
    for link in s.links:
        if link.complete and link.b is not None:
            g.setdefault(link.a, []).append((link.id, link.b))
            g.setdefault(link.b, []).append((link.id, link.a))
    return g


def paths(s: State, start: str, colour: str, max_links: int,
          g: dict[str, list[tuple[int, str]]] | None = None) -> list[list[int]]:
    board = get_board(s.board)
    g = _graph(s) if g is None else g
    out: list[list[int]] = []

    def walk(node: str, seen: set[str], path: list[int]) -> None:
        for lid, nxt in sorted(g.get(node, ())):
            if nxt in seen:
                continue
            if city_colour(s, board, nxt) == colour:
                out.append(path + [lid])
            elif len(path) + 1 < max_links:
                walk(nxt, seen | {nxt}, path + [lid])

    walk(start, {start}, [])
    return out


def legal(s: State, seat: int) -> LegalAction | None:
    level = s.players[seat].engine
    return family(s, lambda h, colour, g: paths(s, h, colour, level, g))


def family(s: State, paths_for: Callable[[str, str, dict], list[list[int]]]) -> LegalAction | None:
    """The deliver trie city -> colour -> path over the cubes on the map (both games)."""
    g = _graph(s)
    cities: list[str] = []
    thens: list[Choice] = []
    first_paths: list[Choice] = []
    for h in sorted(s.cubes):
        if h not in g:
            continue
        colours: list[str] = []
        sub: list[Choice] = []
        for colour in sorted(set(s.cubes[h])):
            ps = paths_for(h, colour, g)
            if ps:
                colours.append(colour)
                sub.append(Choice("path", ps))
        if colours:
            cities.append(h)
            thens.append(Choice("color", colours, then=sub))
            first_paths = first_paths or sub
    if not cities:
        return None
    return LegalAction(Deliver(city=cities[0], color=thens[0].values[0], path=first_paths[0].values[0]),
                       choices=Choice("city", cities, then=thens))


def deliver(s: State, seat: int, a: Deliver) -> None:
    if a.color not in s.cubes.get(a.city, ()):
        raise RuleError("no_cube", f"there is no {a.color} cube at {a.city}")
    if list(a.path) not in paths(s, a.city, a.color, s.players[seat].engine):
        raise RuleError("bad_path", "that path is not a legal delivery (links must join up from the city, visit no"
                        " city twice, end at the first city of the cube's colour and not exceed your engine)")
    holders = inspector_holders(s, seat)
    if holders:
        holder, card = holders[0]
        s.pending = Pending(seat=seat, city=a.city, color=a.color, path=list(a.path), holder=holder, card=card)
        s.phase = INSPECT
        return
    resolve(s, seat, a.city, a.color, list(a.path))


def inspector_holders(s: State, seat: int, after: int | None = None) -> list[tuple[int, str]]:
    """Seats (clockwise from the deliverer) that could stop this delivery, with their card."""
    if s.players[seat].stopped:
        return []  # seed: nobody is stopped more than once a game
    n = len(s.players)
    out = []
    start = seat if after is None else after
    for i in range(1, n):
        q = (start + i) % n
        if q == seat:
            break
        for c in s.players[q].hand:
            if card_kind(c) == "railway_inspector":
                out.append((q, c))
                break
    return out


def inspect(s: State, seat: int, a: Inspect) -> None:
    p = s.pending
    assert p is not None
    s.players[seat].hand.remove(p.card)
    s.players[p.seat].stopped = True
    s.discard.append(p.card)
    s.log.append(f"{s.players[seat].name} plays the Railway Inspector: {s.players[p.seat].name}'s delivery is stopped")
    turn.action_done(s)


def allow(s: State, seat: int, a: Allow) -> None:
    p = s.pending
    assert p is not None
    more = inspector_holders(s, p.seat, after=seat)
    if more:
        p.holder, p.card = more[0]
        return
    resolve(s, p.seat, p.city, p.color, p.path)


def resolve(s: State, seat: int, city: str, colour: str, path: list[int]) -> None:
    board = get_board(s.board)
    cubes = s.cubes[city]
    cubes.remove(colour)
    for lid in path:
        owner = s.links[lid].owner
        if owner >= 0:
            s.players[owner].vp += 1
    p = s.players[seat]
    p.delivered[colour] = p.delivered.get(colour, 0) + 1
    end_hex = walk(s, city, path)[-1]
    s.log.append(f"{p.name} delivers {colour} from {city_name(s, board, city)} to "
                 f"{city_name(s, board, end_hex)} over {len(path)} link(s)")
    if not cubes:
        del s.cubes[city]
    if not cubes and city not in s.empty:  # a city is marked once, even if urbanized later
        s.empty.append(city)
        need = get_board(s.board).empty_city_end[len(s.players)]
        s.log.append(f"{city_name(s, board, city)} is empty ({len(s.empty)}/{need})")
        if len(s.empty) >= need and not s.ending:
            s.ending = True
            s.final_turn = s.turn + 1
            s.end_reason = f"{need} empty cities"
            s.log.append("the empty-city limit is reached: this turn is completed, then one more turn is played")
    cards.after_delivery(s, seat, colour)
    turn.action_done(s)


def walk(s: State, start: str, path: list[int]) -> list[str]:
    """The cities/towns a path visits, from `start`."""
    nodes, node = [start], start
    for lid in path:
        link = s.links[lid]
        node = link.b if link.a == node else link.a  # type: ignore[assignment]
        nodes.append(node)
    return nodes
