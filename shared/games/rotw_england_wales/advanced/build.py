"""A company's build action (seed III.1 'Postavit trať').

One or two links per action, each of any length and each completed in the same action; the
first link costs the terrain, the second $2,000 more per hex. A company's first link may
start at any city; every later link starts at a city on one of its own links. Tiles are
laid one decision at a time with the standard game's geometry (`..build`); a tile is offered
only if the link can still be completed from it with the money the company can raise, so
a build never strands half a link. While a link is open, `end_build` takes it back: its
tiles leave the map and the company gets back what they cost, returning the shares and bonds
they raised (**reading**: an incomplete link is forbidden, so taking one back undoes it
whole, as if never started; a player sees the cost of finishing before deciding).
"""

from __future__ import annotations

import heapq

from shared.engine import RuleError

from .. import build as std
from ..actions import EndBuild, LayTrack
from ..board import TERRAIN_COST, get_board
from ..compat import Choice, LegalAction
from ..state import State
from . import data, flow
from .shares import adv, funds, pay, raise_for
from .state import BUILDING, COMPANY, CompanyBuild


def _network(s: State, ci: int) -> set[str]:
    out: set[str] = set()
    for link in s.links:
        if link.complete and link.owner == ci:
            out.add(link.a)
            out.add(link.b)  # type: ignore[arg-type]
    return out


def _surcharge(s: State) -> int:
    b = adv(s).build
    return data.SECOND_LINK_SURCHARGE if b is not None and b.links >= 1 else 0


def tile_cost(s: State, h: str) -> int:
    return TERRAIN_COST[get_board(s.board).terrain[h]] + _surcharge(s)


def _origin(s: State, ix: std.TrackIndex, h: str, entry: int, src: tuple[str, int]) -> str:
    if src[0] == "link":
        return s.links[src[1]].a
    n = ix.board.neighbour(h, entry)
    assert n is not None
    return n


def _allowed(s: State, ci: int, ix: std.TrackIndex, h: str, entry: int, src: tuple[str, int]) -> bool:
    b = adv(s).build
    if b is not None and b.open_link >= 0:
        return src == ("link", b.open_link)
    if src[0] != "city":
        return False
    net = _network(s, ci)
    return not net or _origin(s, ix, h, entry, src) in net


def _completion(ix: std.TrackIndex, origin: str, h: str, x: int, limit: int, extra: int,
                memo: dict) -> int | None:
    """Least cost (at most `limit`) to finish a link whose last tile leaves `h` across `x`."""
    board = ix.board
    n = board.neighbour(h, x)
    if n is None:
        return None
    if n in ix.endpoints:
        return 0
    start = (n, (x + 3) % 6)
    key = (origin, *start)
    if key in memo:
        return memo[key]
    best: dict[tuple[str, int], int] = {start: 0}
    heap: list[tuple[int, tuple[str, int]]] = [(0, start)]
    found = None
    while heap:
        g, (hh, e) = heapq.heappop(heap)
        if e < 0:  # the terminal: a completed link, popped in cost order
            found = g
            break
        if g > best.get((hh, e), limit + 1):
            continue
        step = TERRAIN_COST[board.terrain[hh]] + extra
        if g + step > limit:
            continue
        for xx in std.exits_from(ix, hh, e, origin):
            nn = board.neighbour(hh, xx)
            assert nn is not None
            if nn in ix.endpoints:
                heapq.heappush(heap, (g + step, ("", -1)))
            elif g + step < best.get((nn, (xx + 3) % 6), limit + 1):
                best[(nn, (xx + 3) % 6)] = g + step
                heapq.heappush(heap, (g + step, (nn, (xx + 3) % 6)))
    memo[key] = found
    return found


def lays(s: State, ci: int) -> dict[str, list[tuple[int, list[int]]]]:
    """hex -> [(entry, [exits])] the company may lay now."""
    ix = std.TrackIndex(s)
    budget = funds(s, ci)
    extra = _surcharge(s)
    memo: dict = {}
    out: dict[str, list[tuple[int, list[int]]]] = {}
    for (h, entry), src in sorted(std.sources(s, ci, ix).items()):
        if not _allowed(s, ci, ix, h, entry, src):
            continue
        cost = TERRAIN_COST[ix.board.terrain[h]] + extra
        if cost > budget:
            continue
        origin = _origin(s, ix, h, entry, src)
        xs = []
        for x in std.exits(s, ci, h, entry, src, ix):
            rest = _completion(ix, origin, h, x, budget, extra, memo)
            if rest is not None and cost + rest <= budget:
                xs.append(x)
        if xs:
            out.setdefault(h, []).append((entry, xs))
    return out


def legal_lays(s: State, ci: int) -> LegalAction | None:
    tries = lays(s, ci)
    if not tries:
        return None
    hexes = sorted(tries)
    e0, xs0 = tries[hexes[0]][0]
    then = [Choice("entry", [e for e, _ in tries[h]], then=[Choice("exit", xs) for _, xs in tries[h]]) for h in hexes]
    return LegalAction(LayTrack(hex=hexes[0], entry=e0, exit=xs0[0]), choices=Choice("hex", hexes, then=then))


def legal_end(s: State) -> LegalAction | None:
    """Stop after a link, or take back the link being laid."""
    b = adv(s).build
    if b is None:
        return None
    if b.open_link >= 0 or b.links >= 1:
        return LegalAction(EndBuild())
    return None


def finish_cost(s: State, ci: int) -> int | None:
    """The least the open link still costs to reach a city (None: no link open, or out of reach)."""
    b = adv(s).build
    if b is None or b.open_link < 0:
        return None
    link = s.links[b.open_link]
    return _completion(std.TrackIndex(s), link.a, link.hexes[-1], link.exit, funds(s, ci), _surcharge(s), {})


def finish_raise(s: State, ci: int) -> tuple[int, int] | None:
    """The shares and bonds paying the least finish cost would raise (None: nothing open)."""
    cost = finish_cost(s, ci)
    return None if cost is None else raise_for(s, ci, cost)


def lay_track(s: State, seat: int, a: LayTrack) -> None:
    ad = adv(s)
    ci = flow.current_company(s)
    board = get_board(s.board)
    if a.hex not in board.terrain:
        raise RuleError("bad_hex", f"{a.hex} is not a hex of the map")
    ok = any(entry == a.entry and a.exit in xs for entry, xs in lays(s, ci).get(a.hex, ()))
    if not ok:
        raise RuleError("bad_tile", f"the company cannot lay track in {a.hex} from edge {a.entry} to edge {a.exit}"
                        " (it must extend the link being built, or start a new one at a city its links reach -"
                        " any city for its first link - and the link must be completable with its money)")
    if s.phase == COMPANY:
        s.phase = BUILDING
        ad.build = CompanyBuild()
    b = ad.build
    assert b is not None
    cost = tile_cost(s, a.hex)
    if b.open_link < 0:
        b.open_spent = b.open_shares = b.open_bonds = 0
    issued, bonds = pay(s, ci, cost, "track")
    b.tiles += 1
    b.spent += cost
    b.open_spent += cost
    b.open_shares += issued
    b.open_bonds += bonds
    link = std.place_tile(s, board, ci, a, s.links[b.open_link] if b.open_link >= 0 else None)
    b.open_link = link.id
    if link.complete:
        b.open_link = -1
        b.links += 1
        nxt = link.b or ""
        name = ad.companies[ci].name
        s.log.append(f"the {name} completes a link {_name(s, link.a)} - {_name(s, nxt)}")
        if b.links >= 2:
            _finish(s, ci)


def _name(s: State, h: str) -> str:
    board = get_board(s.board)
    c = board.cities.get(h)
    return c.name if c else board.towns.get(h, h)


def end_build(s: State, seat: int, a: EndBuild) -> None:
    ci = flow.current_company(s)
    b = adv(s).build
    assert b is not None
    if b.open_link >= 0:
        _take_back(s, ci)
        if b.links == 0:  # nothing was built: the company chooses its action again
            adv(s).build = None
            s.phase = COMPANY
            return
    _finish(s, ci)


def _take_back(s: State, ci: int) -> None:
    b = adv(s).build
    assert b is not None
    link = s.links[b.open_link]
    c = adv(s).companies[ci]
    # The shares go back on the company's card and the bonds are cancelled at what they
    # raised (the price cannot move during a build), so the company is as before the link.
    c.cash += b.open_spent - b.open_shares * c.price * 1000 - b.open_bonds * data.BOND_CASH
    c.card += b.open_shares
    c.issued -= b.open_shares
    c.bonds -= b.open_bonds
    for h in link.hexes:
        s.track[h] = [g for g in s.track[h] if g.link != link.id]
        if not s.track[h]:
            del s.track[h]
    s.links.pop()
    b.open_link = -1
    b.tiles -= len(link.hexes)
    b.spent -= b.open_spent
    returned = "".join(f", {n} {what}{'s' if n > 1 else ''} returned"
                       for n, what in ((b.open_shares, "share"), (b.open_bonds, "bond")) if n)
    s.log.append(f"the {c.name} takes back the unfinished link from {_name(s, link.a)} "
                 f"(${b.open_spent:,} refunded{returned})")
    b.open_spent = b.open_shares = b.open_bonds = 0


def _finish(s: State, ci: int) -> None:
    b = adv(s).build
    assert b is not None
    s.log.append(f"the {adv(s).companies[ci].name} builds {b.links} link(s), {b.tiles} tile(s), for ${b.spent:,}")
    flow.company_done(s)
