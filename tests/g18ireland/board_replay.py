"""Walk an 18Ireland export through the board side, checking every track lay, token and
route against our rules as it goes."""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import tokens as K
from shared.games.core18xx.board import track as T
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.g18ireland.map import (
    PHASE_COLORS,
    TRACK_RULES,
    blocked_hexes,
    board_map,
    merge_connected,
    route_context,
    same_tile,
)
from shared.games.g18ireland.map import lay_slot as MAP_LAY_SLOT

PHASE_ON = {"4H": "4", "6H": "6", "8H": "8", "10H": "10", "D": "D"}
DISTANCE = {"2H": 2, "1H'": 1, "4H": 4, "2H'": 2, "6H": 6, "3H'": 3, "8H": 8, "10H": 10, "D": 99}
ORDER = ["2", "4", "6", "8", "10", "D"]


@dataclass
class Replay:
    m: MapDef = field(default_factory=board_map)
    b: B.BoardState = field(init=False)  # the map's initial board, set by __post_init__
    phase: str = "2"
    companies: dict[str, str] = field(default_factory=dict)  # company -> owning corporation
    assigned: dict[str, str] = field(default_factory=dict)  # company -> hex it was assigned to
    assigned_corp: dict[str, str] = field(default_factory=dict)  # company -> corporation with the bonus
    turn_entity: str | None = None
    laid: int = 0
    upgraded: bool = False
    pending_merge: list[str] = field(default_factory=list)
    voted: bool = False  # a vote was held since the last proposal began
    privates_seen: set[str] = field(default_factory=set)
    privates_closed: bool = False
    started: set[str] = field(default_factory=set)
    # the minor 18xx.games removes at set-up comes from its seeded RNG, which this board-only
    # replay does not reproduce: it is inferred, at most once, from a token that needs its slot
    inferred_removed: list[str] = field(default_factory=list)
    lifted: set[str] = field(default_factory=set)  # tokens waiting to be placed again
    exact_every: int = 0  # every n-th lay, also list lays with full network walks and compare
    failures: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=lambda: {"lay": 0, "token": 0, "route": 0})

    def __post_init__(self) -> None:
        self.b = B.initial(self.m)

    def blocked(self) -> frozenset[str]:
        """Hexes a player-owned private still blocks (DAR: J14, DCR: H4)."""
        if self.privates_closed:
            return frozenset()
        return blocked_hexes({c for c in ("DAR", "DCR") if c in self.privates_seen | {"DAR"} and c not in self.companies})

    def colors(self) -> tuple[str, ...]:
        return PHASE_COLORS[self.phase]

    def home(self, corp: str) -> None:
        self.started.add(corp)
        if corp not in self.m.homes or B.token_hexes(self.b, corp):
            return
        coord, city = self.m.homes[corp]
        t = B.tile_def(self.m, self.b, coord)
        res = [r for r in self.b.reservations.get(coord, ()) if r.corp == corp and r.city >= 0]
        c = res[0].city if res else (t.cities[city] if city is not None else t.cities[0])
        self.b = B.place_token(self.m, self.b, corp, coord, c)

    def city_ref(self, city_id: str) -> tuple[str, int]:
        ref = B.find_node(self.m, self.b, city_id)
        assert B.node_id(self.m, self.b, *ref) == city_id
        return ref

    def new_turn(self, entity: str) -> None:
        if entity != self.turn_entity:
            self.turn_entity = entity
            self.laid = 0
            self.upgraded = False

    def step(self, a: dict) -> None:
        t = a["type"]
        ent = a.get("entity")
        if a.get("company"):
            self.privates_seen.add(a["company"])
        if t == "bid" and a.get("corporation"):
            self.home(a["corporation"])
        elif t == "bid" and a.get("company") == "DK":
            self.home("DKR")
        elif t == "buy_train":
            kind = a["train"].rpartition("-")[0]
            if kind in PHASE_ON and ORDER.index(PHASE_ON[kind]) > ORDER.index(self.phase):
                self.phase = PHASE_ON[kind]
                if kind == "8H":  # private companies close; unstarted minors close
                    self.companies.clear()
                    self.privates_closed = True
                    for corp in self.m.homes:
                        if corp not in self.started:
                            self.b = B.unreserve(self.b, corp)
        elif t == "buy_company":
            self.companies[a["company"]] = a["entity"]
        elif t == "assign":
            company = a["entity"]
            self.assigned[company] = a["target"]
            if company in self.companies:
                self.assigned_corp[company] = self.companies[company]
        elif t == "choose":
            self.voted = True
        elif t == "merge":
            corp = a["corporation"]
            if corp in self.m.homes:
                if self.voted:  # the previous proposal's vote is over: a new proposal
                    self.pending_merge = []
                    self.voted = False
                self.pending_merge.append(corp)
            else:
                self.checked["merge"] = self.checked.get("merge", 0) + 1
                for k, minor in enumerate(self.pending_merge[1:], start=1):
                    if not any(merge_connected(self.m, self.b, c, minor) for c in self.pending_merge[:k]):
                        self.failures.append(f"action {a['id']}: {minor} not connected to {self.pending_merge[:k]}")
                    if any(same_tile(self.m, self.b, c, minor) for c in self.pending_merge[:k]):
                        self.failures.append(f"action {a['id']}: {minor} shares a tile with {self.pending_merge[:k]}")
                for minor in self.pending_merge:
                    self.b = B.replace_tokens(self.b, minor, corp)
                    for table in (self.companies, self.assigned_corp):
                        for c, owner in list(table.items()):
                            if owner == minor:
                                table[c] = corp
                self.pending_merge = []
                self.voted = False
        elif t == "lay_tile":
            self.lay(a)
        elif t == "place_token":
            self.token(a)
        elif t == "run_routes":
            self.routes(a)
        if a.get("entity_type") == "corporation" and t not in ("lay_tile", "place_token"):
            self.new_turn(f"{ent}:{t}")

    def lay(self, a: dict) -> None:
        ent = a["entity"]
        name = a["tile"].rpartition("-")[0]
        coord, rot = a["hex"], a["rotation"]
        if a["entity_type"] == "corporation":
            self.new_turn(ent)
            slot = MAP_LAY_SLOT(self.laid, self.upgraded, self.companies.get("WDE") == ent)
            lays = T.legal_lays(self.m, self.b, ent, self.colors(), slot, rules=TRACK_RULES,
                                blocked=self.blocked()) if slot else []
            self.checked["lay"] += 1
            if slot and self.exact_every and self.checked["lay"] % self.exact_every == 0:
                slow = T.legal_lays(self.m, self.b, ent, self.colors(), slot, rules=TRACK_RULES,
                                    blocked=self.blocked(), fast=False)
                if slow != lays:
                    self.failures.append(f"action {a['id']}: fast and exact lay lists differ")
                self.checked["exact"] = self.checked.get("exact", 0) + 1
            if not any(x.hex == coord and x.tile == name and x.rotation == rot for x in lays):
                self.failures.append(f"action {a['id']}: {ent} lay {name}@{coord} r{rot} not legal "
                                     f"(phase {self.phase}, lay {self.laid}); legal here: "
                                     f"{[(x.tile, x.rotation) for x in lays if x.hex == coord]}")
            old = B.tile_at(self.m, self.b, coord)
            if old.tile.color != "white":
                self.upgraded = True
            self.laid += 1
        # 18xx.games takes the first copy of a tile in its supply order
        if a["tile"] != B.next_tile_id(self.m, self.b, name):
            self.failures.append(f"action {a['id']}: laid {a['tile']}, our supply offers "
                                 f"{B.next_tile_id(self.m, self.b, name)}")
        self.b, lifted = B.lay_lifting(self.m, self.b, coord, name, rot, a["tile"])
        self.lifted.update(lifted)
        self.checked["tile_ids"] = self.checked.get("tile_ids", 0) + 1

    def token(self, a: dict) -> None:
        ent = a["entity"]
        coord, city = self.city_ref(a["city"])
        have = [h for h, _ in B.token_hexes(self.b, ent)]
        if ent in self.lifted:  # a home token lifted by a multi-city lay is placed again
            self.lifted.discard(ent)
            spots = K.relocation_spots(self.m, self.b, ent, coord)
        elif not have:  # a major started by IPO places its home token anywhere with track
            spots = K.home_spots(self.m, self.b, ent)
        else:
            spots = K.legal_tokens(self.m, self.b, ent, 0)
            if not any(s.hex == coord and s.city == city for s in spots) and not self.inferred_removed:
                for minor in sorted(r.corp for r in self.b.reservations.get(coord, ())):
                    if minor in self.started:
                        continue
                    trial = B.unreserve(self.b, minor)
                    if any(s.hex == coord and s.city == city for s in K.legal_tokens(self.m, trial, ent, 0)):
                        self.inferred_removed.append(minor)
                        self.b = trial
                        spots = K.legal_tokens(self.m, self.b, ent, 0)
                        break
        self.checked["token"] += 1
        if not any(s.hex == coord and s.city == city for s in spots):
            self.failures.append(f"action {a['id']}: {ent} token {coord}/{city} not legal; legal {spots}")
            self.b = B.place_token(self.m, self.b, ent, coord, city)
        else:
            self.b = K.place(self.m, self.b, ent, coord, city, spots)

    def ctx(self, corp: str) -> R.RouteContext:
        assigned = {c: (h, self.assigned_corp[c]) for c, h in self.assigned.items() if c in self.assigned_corp}
        return route_context(corp, self.phase, assigned, owns_shannon=self.companies.get("RSSC") == corp)

    def routes(self, a: dict) -> None:
        corp = a["entity"]
        specs = [R.RouteSpec(r["train"], r["connections"], r["nodes"]) for r in a["routes"]]
        trains = {r["train"]: R.Train(r["train"], DISTANCE[r["train"].rpartition("-")[0]]) for r in a["routes"]}
        self.checked["route"] += 1
        try:
            results, total = R.run_routes(self.m, self.b, self.ctx(corp), trains, specs)
        except B.BoardError as e:
            self.failures.append(f"action {a['id']}: {corp} routes rejected: {e}")
            return
        want = sum(r["revenue"] for r in a["routes"])
        if total != want:
            self.failures.append(f"action {a['id']}: {corp} revenue {total} != {want} "
                                 f"{[(x.stops, x.revenue) for x in results]} vs {[r['revenue'] for r in a['routes']]}")
