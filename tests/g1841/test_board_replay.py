"""Every tile lay, station token and route of the real 1841 exports, walked through the board
rules alone (shared/games/g1841/board): each lay must be among our legal lays for the
corporation's next lay of its turn, each token among our legal spots, each run pay what
18xx.games paid, and our best routes for the same trains pay at least that. The board follows the games' events (homes at founding, the 4- and 5-train
border changes, the concessions' reservations ending, the Ferdinandea secession, the Tuscan
merge, mergers and removed tokens); money and shares are not modelled. The walk stops at the
first bankruptcy (its board effects are the engine's)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from shared.games.core18xx.board import routes as CR
from shared.games.core18xx.board import state as S
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.network import NodeRef
from shared.games.core18xx.export_log import decisions
from shared.games.g1841 import data as D
from shared.games.g1841.board import events as EV
from shared.games.g1841.board import routes as R
from shared.games.g1841.board import stations as ST
from shared.games.g1841.board import track as T

from tests.exports import export_paths

EXPORTS = export_paths("1841")


@dataclass
class Replay:
    variant: str
    m: MapDef = None  # type: ignore[assignment]
    b: S.BoardState = None  # type: ignore[assignment]
    phase: int = 2
    started: set[str] = field(default_factory=set)
    order: dict[str, list[NodeRef]] = field(default_factory=dict)   # token order per corporation
    homes_due: dict[str, list[str]] = field(default_factory=dict)    # corp -> home hexes placed so far
    turn: tuple[str, S.BoardState, list[str]] | None = None
    last_lay_entity: str | None = None
    merging: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=lambda: {"lay": 0, "token": 0, "home": 0, "route": 0})

    def __post_init__(self) -> None:
        self.m = D.the_map(self.variant)
        self.b = ST.initial(self.m, self.variant)
        self.kinds = {c["sym"]: c["type"] for c in D.entities(self.variant)["corporations"]}
        self.concessions = {c["sym"] for c in D.entities(self.variant)["companies"]}

    def fail(self, a: dict, text: str) -> None:
        self.failures.append(f"action {a.get('id')}: {text}")

    def placed(self, corp: str, ref: NodeRef) -> None:
        self.order.setdefault(corp, []).append(ref)

    def rename(self, old: str, new: str) -> None:
        self.b = S.replace_tokens(self.b, old, new)
        self.order[new] = self.order.get(new, []) + self.order.pop(old, [])

    def merge(self, a: str, other: str, target: str) -> None:
        self.b = EV.remove_duplicates(self.m, self.b, a, other)
        for corp in (a, other):
            self.rename(corp, target)

    # ---- actions ----------------------------------------------------------------------------

    def step(self, a: dict) -> bool:
        t = a["type"]
        if t == "bankrupt":
            return False
        if t != "lay_tile":
            self.last_lay_entity = None
        if t == "par":
            self.found(a["corporation"])
        elif t == "lay_tile":
            self.lay(a)
        elif t == "place_token":
            self.token(a)
        elif t == "run_routes":
            self.routes(a)
        elif t == "buy_train":
            self.train(a["train"].partition("-")[0])
        elif t == "buy_token":
            self.buy(a)
        elif t == "remove_token":
            coord, city = S.find_node(self.m, self.b, a["city"])
            owner = S.slots(self.m, self.b, coord)[city][a["slot"]]
            self.b = EV.remove_tokens(self.m, self.b, {owner}, [(coord, city)])
        elif t == "merge":
            self.merging.append(a["corporation"])
            if len(self.merging) == 2:
                self.merge(a["entity"], self.merging[0], self.merging[1])
                self.merging = []
        return True

    def found(self, corp: str) -> None:
        self.started.add(corp)
        if ST.places_homes_itself(self.variant, corp):
            self.b = ST.place_homes(self.m, self.b, self.variant, corp)
            for coord in D.home_hexes(self.variant)[corp]:
                self.placed(corp, next(r for r in S.token_hexes(self.b, corp) if r[0] == coord))
        else:
            self.homes_due[corp] = []

    def token(self, a: dict) -> None:
        corp = a["entity"]
        coord, city = S.find_node(self.m, self.b, a["city"])
        if corp in self.homes_due:
            done = self.homes_due[corp]
            spots = ST.home_choices(self.m, self.b, self.variant, self.phase, corp, done[0] if done else None)
            done.append(coord)
            if len(done) == (2 if self.kinds[corp] == "major" and corp != "SFMA" else 1):
                del self.homes_due[corp]
            self.checked["home"] += 1
        else:
            spots = ST.legal_tokens(self.m, self.b, self.variant, self.phase, corp, "SFMA" in self.started)
            self.checked["token"] += 1
        if not any(s.hex == coord and s.city == city for s in spots):
            self.fail(a, f"{corp} token {coord}/{city} not legal in phase {self.phase}: {spots}")
        self.b = S.place_token(self.m, self.b, corp, coord, city)
        self.placed(corp, (coord, city))

    def lay(self, a: dict) -> None:
        corp = a["entity"]
        name = a["tile"].rpartition("-")[0]
        if a["entity_type"] == "corporation":
            self.homes_due.pop(corp, None)         # a major that laid track placed no second home
            if self.last_lay_entity != corp or self.turn is None or self.turn[0] != corp:
                self.turn = (corp, self.b, [])
            _, start, laid = self.turn
            self.checked["lay"] += 1
            try:
                T.check_lay(self.m, self.b, self.variant, self.phase, corp, self.kinds[corp], start, laid,
                            a["hex"], name, a["rotation"], order=self.order.get(corp))
            except S.BoardError as e:
                self.fail(a, f"{corp} lay {name}@{a['hex']} r{a['rotation']} (phase {self.phase}, "
                             f"lay {len(laid) + 1}): {e}")
            laid.append(a["hex"])
        self.b = S.lay(self.m, self.b, a["hex"], name, a["rotation"], a["tile"])
        self.last_lay_entity = corp

    def routes(self, a: dict) -> None:
        corp = a["entity"]
        specs = [CR.RouteSpec(r["train"], r["connections"], r["nodes"]) for r in a["routes"]]
        trains = {r["train"]: r["train"].partition("-")[0] for r in a["routes"]}
        self.checked["route"] += 1
        try:
            _, total = R.run_routes(self.m, self.b, self.variant, self.phase, corp, trains, specs)
        except S.BoardError as e:
            self.fail(a, f"{corp} routes refused: {e}")
            return
        want = sum(r["revenue"] for r in a["routes"])
        if total != want:
            self.fail(a, f"{corp} revenue {total}, 18xx.games {want}")
        # the best routes for the same trains pay at least what was run
        best = R.best_routes(self.m, self.b, self.variant, self.phase, corp, list(trains.items()))
        self.checked["best_equal"] = self.checked.get("best_equal", 0) + (best.total == want)
        if best.total < want or not best.exact:
            self.fail(a, f"{corp} best routes {best.total} (exact {best.exact}) below the {want} run")

    def buy(self, a: dict) -> None:
        corp = a["entity"]
        coord, city = S.find_node(self.m, self.b, a["city"])
        offer = ST.buyable_tokens(self.m, self.b, self.variant, self.phase, corp, self.started)
        if not any(o.hex == coord and o.city == city and o.slot == a["slot"] for o in offer):
            self.fail(a, f"{corp} may not buy the token in {coord}/{city}: {offer}")
        self.b = ST.buy_token(self.m, self.b, corp, coord, city, a["slot"])
        self.placed(corp, (coord, city))

    def train(self, kind: str) -> None:
        n = int(kind)
        if n <= self.phase:
            return
        self.phase = n
        if n == 4:
            for corp in self.concessions:      # concessions close: unstarted ones lose their homes
                if corp not in self.started:
                    self.b = S.unreserve(self.b, corp)
            self.b = EV.border_event(self.m, self.b, self.variant, "phase4_regions")
            if EV.secession_happens(self.m, self.b, self.variant, "IRSFF" in self.started):
                out = EV.secession_tokens(self.m, self.b, self.variant, 0, self.order.get("IRSFF"))
                self.b = out.board
                for corp in out.tokens:
                    self.order[corp] = [r for r in self.order.get("IRSFF", []) if corp in S.slots(self.m, self.b, r[0])[r[1]]]
                    self.started.add(corp)
            floated = self.started & {"SFLP", "SFMA", "SSFL"}
            if "lite" not in self.variant and EV.tuscan_merge_happens(floated):
                for kind, corps, target in EV.tuscan_merge_steps(floated, "Holding"):
                    if kind == "transform":
                        self.rename(corps[0], target)
                    else:
                        self.merge(corps[0], corps[1], target)
                self.started.add("SFLi")
        elif n == 5:
            self.b = EV.border_event(self.m, self.b, self.variant, "phase5_regions")


@pytest.mark.skipif(not EXPORTS, reason="1841 exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.name)
def test_the_real_games_board_moves_are_legal_and_pay_what_they_paid(path) -> None:
    game = json.loads(path.read_text())
    r = Replay(D.variant({k: True for k in game.get("settings", {}).get("optional_rules", [])}))
    for a in decisions(game["actions"]):
        if not r.step(a):
            break
    assert r.checked["lay"] > 40 and r.checked["route"] > 20 and r.checked["token"] + r.checked["home"] > 10
    assert r.checked["best_equal"] >= r.checked["route"] - 2      # the runs were mostly the best
    assert r.failures == []
