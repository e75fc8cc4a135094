"""The build action: up to three locomotives of one company the player holds a share of.

Each locomotive goes next to the company's network (every hex holding one of its
locomotives; all are connected to its start hex because each was placed next to the
network). At most one locomotive per company per hex; forests and mountains take one
company only; the four east-coast start hexes belong to their companies (Fort Wayne, the
Wabash start, is an ordinary city). The company pays build cost x locomotives there
(including the new one) from its own cash, and its income rises at once.

Reaching Chicago interrupts the build the moment the locomotive lands: "Pokaždé, když
jedna z 5 železničních společností umístí svoji lokomotivu na pole Chicago …, je hra
přerušena a nastává fáze Chicago". The Chicago dividend uses the income at that moment
(locomotives placed later in the same build do not count in it); after the Chicago phase
(and the first Wabash auction, if it opens Wabash) the build continues where it stopped.
"""

from __future__ import annotations

from shared.engine import LegalAction, RuleError

from . import events as ev
from .actions import DONE, FORGO, Build, Done
from .board import BOARD
from .dividends import chicago_phase
from .money import BANK, company, transfer
from .state import (
    N_COMPANIES,
    TURN_OVER,
    BuildProgress,
    State,
    company_of,
    hex_of,
    holding,
    place_locomotive,
    set_company,
)

# Start hexes no other company may build on (Wabash's Fort Wayne is open to everyone).
_PROTECTED_START = tuple(
    c if c >= 0 and not BOARD.companies[c].opens_at_chicago else -1 for c in BOARD.start_of
)
_INCOME_TERRAIN = frozenset(("city", "mountain"))
_POPCOUNT = tuple(bin(m).count("1") for m in range(1 << N_COMPANIES))

BUILD_ACTIONS = tuple(
    {h: LegalAction(Build(info.id, BOARD.hex_ids[h])) for h in range(len(BOARD.hex_ids))}
    for info in BOARD.companies
)


def build_cost(s: State, h: int) -> int:
    return BOARD.cost[h] * (_POPCOUNT[s.locos[h]] + 1)


def income_gain(s: State, h: int) -> int:
    """What a company's income rises by when its locomotive arrives on hex `h`."""
    terrain = BOARD.terrain[h]
    if terrain in _INCOME_TERRAIN:
        return BOARD.income[h] + (BOARD.house[h] if s.houses[h] else 0)
    ind = BOARD.industry_of[h]
    if ind >= 0:
        return BOARD.industries[ind].track[s.industry[ind]]
    return 0


def _check(s: State, seat: int, c: int, h: int) -> int:
    """Return the cost of placing company `c` on hex `h`, or raise RuleError."""
    progress = s.build
    assert progress is not None
    info = BOARD.companies[c]
    co = s.companies[c]
    if progress.company >= 0 and c != progress.company:
        fixed = BOARD.companies[progress.company].short
        raise RuleError("one_company_per_build", f"this build is for {fixed}; all its locomotives belong to one company")
    if len(progress.placed) >= BOARD.build_limit:
        raise RuleError("build_limit", f"a build places at most {BOARD.build_limit} locomotives")
    if not co.open:
        raise RuleError("company_not_open", f"{info.short} has not opened yet")
    if holding(s, seat, c) == 0:
        raise RuleError("no_share", f"you must hold a {info.short} share to build its railway")
    if co.locos_left == 0:
        raise RuleError("no_locomotives", f"{info.short} has no locomotives left")
    mask = s.locos[h]
    name = BOARD.names[h] or BOARD.hex_ids[h]
    if mask >> c & 1:
        raise RuleError("already_there", f"{info.short} already has a locomotive on {name}")
    owner = _PROTECTED_START[h]
    if owner >= 0:
        raise RuleError("start_hex", f"{name} is the start hex of {BOARD.companies[owner].short}")
    if mask and not BOARD.shared[h]:
        raise RuleError("exclusive_taken", f"{name} is {BOARD.terrain[h]}: only one company may build there")
    locos = s.locos
    if not any(locos[n] >> c & 1 for n in BOARD.neighbours[h]):
        raise RuleError("not_adjacent", f"{name} is not next to the {info.short} network")
    cost = build_cost(s, h)
    if cost > co.cash:
        raise RuleError("company_cash", f"building on {name} costs ${cost}; {info.short} has ${co.cash}")
    return cost


def build(s: State, seat: int, action: Build) -> None:
    c = company_of(action.company)
    h = hex_of(action.hex)
    cost = _check(s, seat, c, h)
    gain = income_gain(s, h)
    transfer(s, company(c), BANK, cost)
    place_locomotive(s, c, h)
    if gain:
        set_company(s, c, income=s.companies[c].income + gain)
    s.log.append(ev.Built(seat=seat, company=BOARD.companies[c].id, hex=BOARD.hex_ids[h], cost=cost, income_gain=gain))
    progress = s.build
    assert progress is not None
    placed = progress.placed + (h,)
    complete = len(placed) == BOARD.build_limit
    # A build that the third locomotive completes is over even if Chicago interrupts it.
    s.build = None if complete else BuildProgress(
        company=c, placed=placed, reached_chicago=progress.reached_chicago or h == BOARD.chicago
    )
    if h == BOARD.chicago:
        chicago_phase(s, seat, c)
    elif complete:
        s.phase = TURN_OVER


def done(s: State, seat: int, action: Done) -> None:
    progress = s.build
    assert progress is not None
    if not progress.placed:
        raise RuleError("nothing_built", "nothing was built yet; use forgo to give up the build")
    s.build = None
    s.phase = TURN_OVER


def interrupted_by(s: State) -> str:
    """What a build paused by the first Wabash auction waits for (for wrong-phase errors)."""
    assert s.auction is not None
    return (
        f"bid or pass: the build is interrupted since it reached Chicago, and the first "
        f"{BOARD.companies[s.auction.company].short} share is auctioned; the build goes on after it"
    )


def legal_builds(s: State, seat: int) -> list[LegalAction]:
    progress = s.build
    assert progress is not None
    out: list[LegalAction] = []
    if len(progress.placed) < BOARD.build_limit:
        candidates = (progress.company,) if progress.company >= 0 else range(N_COMPANIES)
        for c in candidates:
            co = s.companies[c]
            if co.open and co.locos_left and co.cash and holding(s, seat, c):
                out.extend(_reachable(s, c, co.cash))
    out.append(DONE if progress.placed else FORGO)
    return out


def free_frontier(s: State, c: int) -> list[int]:
    """The hexes next to company `c`'s network that it may place on, cash aside: not there
    yet, not another company's start hex, not a forest or mountain another company holds."""
    frontier: set[int] = set()
    neighbours = BOARD.neighbours
    for h in s.companies[c].network:
        frontier.update(neighbours[h])
    locos, shared = s.locos, BOARD.shared
    bit = 1 << c
    return [h for h in sorted(frontier)
            if not (locos[h] & bit or _PROTECTED_START[h] >= 0 or (locos[h] and not shared[h]))]


def _reachable(s: State, c: int, cash: int) -> list[LegalAction]:
    actions = BUILD_ACTIONS[c]
    return [actions[h] for h in free_frontier(s, c) if build_cost(s, h) <= cash]
