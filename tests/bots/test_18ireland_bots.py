"""18Ireland's bots (the 18xx kit, `shared/bots/kit18xx/`, on 18Ireland's adapter): the
heuristic's decisions on positions met in real play, and whole games by every level with
legal moves only.

Positions come from games the heuristic plays itself from fixed seeds; some are then changed
in one respect (a player's cash, the depot's order) to ask the decision the test is about.
The engine still decides what is legal in them.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared.bots import Budget, decide
from shared.bots.g18ireland import KIT
from shared.bots.kit18xx import policy as P
from shared.bots.random_bot import random_action
from shared.engine import encode_action, is_program
from shared.games import get_engine

from services.offline.arena import Job, play_game

ENGINE = get_engine("18ireland")
REPO = Path(__file__).resolve().parents[2]
replace = msgspec.structs.replace


def find(predicate: Callable[[Any, int], bool], seed: int = 7, players: int = 3, bot: str = "heuristic",
         limit: int = 3000) -> tuple[Any, int]:
    """The first position of a game played by `bot` from `seed` where `predicate(state, seat)`."""
    rng = random.Random(seed)
    state = ENGINE.setup([f"P{i}" for i in range(players)], {}, seed)
    for _ in range(limit):
        if ENGINE.result(state) is not None:
            break
        seat = min(ENGINE.active_seats(state))
        if predicate(state, seat):
            return state, seat
        if bot == "random":
            action = random_action(ENGINE, state, seat, rng)
        else:
            action = decide(ENGINE, ENGINE.redact(state, seat, 0), seat, bot, rng, Budget())
        state = ENGINE.apply(state, seat, action)
    pytest.fail(f"no such position in the game from seed {seed}")


def kinds(state: Any, seat: int) -> set[str]:
    return {type(la.action).__name__ for la in ENGINE.legal_actions(state, seat) if not is_program(la.action)}


def choice(state: Any, seat: int) -> Any:
    action = KIT.greedy(ENGINE, state, seat, random.Random(0))
    ENGINE.apply(state, seat, action)     # legal, or this raises
    return action


def stage(state: Any) -> str | None:
    op = state.operating
    return op.turn.stage if state.round == "operating" and op is not None and op.turn is not None else None


# --- floating -------------------------------------------------------------------------------------

def test_it_starts_a_minor_with_a_bid_that_buys_the_company_its_first_train() -> None:
    state, seat = find(lambda s, seat: s.round == "stock" and s.stock.auction is None and "Bid" in kinds(s, seat))
    action = choice(state, seat)
    assert type(action).__name__ == "Bid"
    cheapest = min(state.depot.types[t.name].price for t in state.depot.offered())
    assert action.price >= cheapest


def test_it_does_not_start_a_minor_that_could_not_buy_a_train() -> None:
    """The same opening, but the 2H trains are gone from the depot: the next train is a 4H at
    £180, more than the player can put into the company, so he starts nothing."""
    state, seat = find(lambda s, seat: s.round == "stock" and s.stock.auction is None and "Bid" in kinds(s, seat))
    depot = state.depot
    upcoming = [t for t in depot.upcoming if depot.trains[t].name != "2H"]
    player = state.players[seat]
    poorer = replace(state.money, cash={**state.money.cash, player: 170})
    state = replace(state, depot=replace(depot, upcoming=upcoming), money=poorer)
    assert "Bid" in kinds(state, seat)            # the rules would let him
    assert type(choice(state, seat)).__name__ != "Bid"


# --- trains -----------------------------------------------------------------------------------------

def _buy_position() -> tuple[Any, int]:
    """A company at its train step, holding a 2H and with the money for a 4H."""
    def at_buy(s: Any, seat: int) -> bool:
        if stage(s) != "buy_train":
            return False
        corp = s.operating.turn.corp
        own = [t.name for t in s.depot.owned_by(corp)]
        return own == ["2H"] and "BuyTrain" in kinds(s, seat)
    state, seat = find(at_buy)
    corp = state.operating.turn.corp
    return replace(state, money=replace(state.money, cash={**state.money.cash, corp: 200})), seat


def _with_next(state: Any, names: list[str]) -> Any:
    """The depot with the first upcoming train of each of `names`, in that order, in front."""
    depot = state.depot
    front: list[str] = []
    for name in names:
        front.append(next(t for t in depot.upcoming if depot.trains[t].name == name and t not in front))
    rest = [t for t in depot.upcoming if t not in front]
    return replace(state, depot=replace(depot, upcoming=front + rest))


def test_it_buys_a_train_before_its_trains_rust() -> None:
    """One 4H is left before the 6H that rusts the company's 2H: it buys the 4H."""
    state, seat = _buy_position()
    corp = state.operating.turn.corp
    state = _with_next(state, ["4H", "6H"])
    action = choice(state, seat)
    assert type(action).__name__ == "BuyTrain" and state.depot.trains[action.train].name == "4H"
    # and the rust is what makes it buy: the same 4H scores higher than with the 6H far off
    soon = dict((type(a).__name__, s) for s, a in KIT.ranked(ENGINE, state, seat))["BuyTrain"]
    later = _with_next(state, ["4H", "4H", "4H", "4H", "6H"])
    far = dict((type(a).__name__, s) for s, a in KIT.ranked(ENGINE, later, seat))["BuyTrain"]
    assert soon > far
    assert corp == state.operating.turn.corp


def test_a_company_without_trains_buys_one() -> None:
    def trainless(s: Any, seat: int) -> bool:
        return stage(s) == "buy_train" and not s.depot.owned_by(s.operating.turn.corp) and "BuyTrain" in kinds(s, seat)
    state, seat = find(trainless)
    assert type(choice(state, seat)).__name__ == "BuyTrain"


# --- money ------------------------------------------------------------------------------------------

def test_it_does_not_go_bankrupt_when_it_can_avoid_it() -> None:
    """Positions of random play where bankruptcy is offered beside a train or a sale: the
    heuristic takes one of those."""
    seen = 0
    for seed in range(3, 40):
        try:
            state, seat = find(lambda s, seat: "Bankrupt" in kinds(s, seat) and len(kinds(s, seat)) > 1,
                               seed=seed, players=4, bot="random", limit=2500)
        except pytest.fail.Exception:
            continue
        assert type(choice(state, seat)).__name__ != "Bankrupt"
        seen += 1
        if seen == 3:
            break
    assert seen >= 1


def test_it_withholds_only_for_a_train_it_needs() -> None:
    def at_dividend(s: Any, seat: int) -> bool:
        return stage(s) == "dividend" and kinds(s, seat) >= {"Dividend"} and bool(s.operating.turn.revenue)
    state, seat = find(at_dividend)
    corp = state.operating.turn.corp
    assert choice(state, seat).kind == "payout"
    # no trains left and too little money for one: the revenue is the next train's
    trainless = replace(state.depot, trains={tid: (replace(t, owner="pool") if t.owner == corp else t)
                                             for tid, t in state.depot.trains.items()})
    revenue = state.operating.turn.revenue
    cheapest = min(state.depot.types[t.name].price for t in state.depot.offered())
    short = replace(state.money, cash={**state.money.cash, corp: max(cheapest - revenue, 0)})
    needy = replace(state, depot=trainless, money=short)
    assert choice(needy, seat).kind == "withhold"


# --- track --------------------------------------------------------------------------------------------

def test_its_lay_adds_revenue_or_leads_toward_it() -> None:
    def laying(s: Any, seat: int) -> bool:
        return stage(s) == "track" and "LayTile" in kinds(s, seat)
    state, seat = find(laying)
    corp = state.operating.turn.corp
    action = choice(state, seat)
    if type(action).__name__ == "LayTile":
        p = P.Position(ENGINE, KIT.title, KIT.params, state, seat)
        after = p.after(action)
        assert P.run_value(p, after, corp) > P.run_value(p, state, corp) or \
            KIT.title.reach(after, corp) > KIT.title.reach(state, corp)
    else:
        # nothing gains: every lay scores at most doing nothing
        assert all(score <= 0 for score, a in KIT.ranked(ENGINE, state, seat) if type(a).__name__ == "LayTile")


def _laying_positions(seed: int, count: int) -> list[tuple[Any, int]]:
    """The first `count` positions of a heuristic game where a company lays track."""
    rng = random.Random(seed)
    state = ENGINE.setup(["P0", "P1", "P2"], {}, seed)
    found: list[tuple[Any, int]] = []
    while ENGINE.result(state) is None and len(found) < count:
        seat = min(ENGINE.active_seats(state))
        if stage(state) == "track" and "LayTile" in kinds(state, seat):
            found.append((state, seat))
        state = ENGINE.apply(state, seat, KIT.greedy(ENGINE, state, seat, rng))
    return found


def test_lays_judged_on_the_board_match_the_engine_and_pick_the_best() -> None:
    """The heuristic judges lays on the board alone (the core's board step, no engine) and
    routes only the best few of its screen. On every lay of real positions the board it
    judges is the engine's own board after the lay, the cost is what the engine charges, and
    the lay it picks scores within a few pounds of the best lay by a full evaluation (every
    lay played on the engine and routed)."""
    checked = 0
    for state, seat in _laying_positions(3, 24):
        corp = state.operating.turn.corp
        p = P.Position(ENGINE, KIT.title, KIT.params, state, seat)
        family = [la for la in ENGINE.legal_actions(state, seat)
                  if type(la.action).__name__ == "LayTile" and la.action.entity == corp]
        full = []
        for la in family:
            for a in P.members(la, 1000):
                board = KIT.title.board_after_lay(state, a.hex, a.tile, a.rotation)
                after = ENGINE.apply(state, seat, a)
                if board is not None:
                    assert board.tiles == after.board.tiles and board.tokens == after.board.tokens
                    cost = KIT.title.lay_cost(state, corp, a.hex, a.tile.rpartition("-")[0], a.rotation)
                    assert cost == state.money.cash[corp] - after.money.cash[corp]
                played = P._played(p, corp, a, 0.0, KIT.params.cost_weight, P.LAY_STARVING)
                assert played is not None
                full.append((played[0], encode_action(a)))
        if not full:
            continue
        best = max(score for score, _ in full)
        pick = max((x for la in family for x in P._lays(p, corp, la)), key=lambda x: x[0])[1]
        picked = next(score for score, key in full if key == encode_action(pick))
        assert picked >= best - 15.0, (best, picked, pick)
        checked += 1
    assert checked >= 10


def test_it_runs_the_best_routes() -> None:
    state, seat = find(lambda s, seat: stage(s) == "route" and "RunRoutes" in kinds(s, seat))
    action = choice(state, seat)
    corp = state.operating.turn.corp
    assert sum(r.revenue for r in action.routes) == KIT.title.revenue(state, corp)


# --- merger round -------------------------------------------------------------------------------------

def position(state: Any) -> bytes:
    return msgspec.json.encode(replace(state, moves=0))


def _cleared(state: Any, seat: int) -> list[Any]:
    """The minors the proposer may add (mid-proposal) that make a set voted on already: the
    rules clear the proposal and he is to act again, with none open."""
    mr = state.merger
    if state.round != "merger" or mr is None or not mr.merging or mr.to_vote or mr.outcome:
        return []
    out = []
    for la in ENGINE.legal_actions(state, seat):
        if type(la.action).__name__ == "Merge":
            after = ENGINE.apply(state, seat, la.action)
            if after.merger.merging is None and after.merger.proposed == mr.proposed and seat in ENGINE.active_seats(after):
                out.append(la.action)
    return out


def test_a_search_does_not_propose_a_merger_the_rules_clear_again_and_again() -> None:
    """A set of minors voted on this merger round is cleared when proposed again and the same
    player acts again from the same position (18xx.games `merge.rb`, `finish_merge`); the kit
    offered that proposal, and `mcts` could make it forever (arena games that never ended)."""
    state, seat = find(lambda s, seat: bool(_cleared(s, seat)), seed=2)
    clearing = _cleared(state, seat)[0]
    cleared = ENGINE.apply(state, seat, clearing)
    reopen = next(la.action for la in ENGINE.legal_actions(cleared, seat)
                  if type(la.action).__name__ == "Merge" and la.action.corporation == state.merger.merging[0])
    assert position(ENGINE.apply(cleared, seat, reopen)) == position(state)     # the rules' loop, for real
    assert all(encode_action(option[0]) != encode_action(clearing) for option in KIT.options(ENGINE, state, seat))
    rng = random.Random(0)
    seen = {position(state)}
    for _ in range(40):                  # mcts in every seat: the round goes on, never back
        if state.round != "merger":
            break
        seat = min(ENGINE.active_seats(state))
        state = ENGINE.apply(state, seat, decide(ENGINE, state, seat, "mcts", rng, Budget(iterations=40)))
        assert position(state) not in seen
        seen.add(position(state))
    assert state.round != "merger"


# --- whole games ------------------------------------------------------------------------------------------

def test_every_level_plays_legal_moves_only_at_one_table() -> None:
    """Random, heuristic and mcts at one table, 5,000 decisions (a random seat can keep a game
    going far longer): not one move refused."""
    record = play_game(Job(title="18ireland", lineup=["random", "heuristic", "mcts"], game=0, seed=11,
                           budget=Budget(iterations=6), max_actions=5000))
    assert record.illegal == [0, 0, 0]
    assert record.finished or record.actions == 5000


def test_heuristics_play_a_whole_game_with_legal_moves_only() -> None:
    record = play_game(Job(title="18ireland", lineup=["heuristic"] * 3, game=0, seed=11,
                           budget=Budget(iterations=6), max_actions=5000))
    assert record.finished, record
    assert record.illegal == [0, 0, 0]
    assert record.reason in ("bank", "stock_market", "bankrupt")


# --- the command line ------------------------------------------------------------------------------------

def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600)


def test_selfplay_plays_a_bot_level_in_every_seat() -> None:
    """`roundhouse selfplay --bot heuristic`: three heuristic bots finish 18Ireland by the bank
    or the market, with majors formed on the way (the view's companies)."""
    proc = _cli("selfplay", "--title", "18ireland", "--players", "3", "--games", "1", "--seed", "5",
                "--bot", "heuristic")
    assert proc.returncode == 0, proc.stderr
    game = json.loads(proc.stdout.splitlines()[0])
    assert game["finished"] is True and game["result"]["reason"] in ("bank", "stock_market"), game
    again = _cli("selfplay", "--title", "18ireland", "--players", "3", "--games", "1", "--seed", "5",
                 "--bot", "heuristic")
    assert json.loads(again.stdout.splitlines()[0]) == game      # the same flags, the same game
    bad = _cli("selfplay", "--title", "18ireland", "--players", "3", "--bot", "grandmaster")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("bot: unknown_bot: 'grandmaster'") and len(bad.stderr.splitlines()) == 1


def test_heuristic_games_form_majors_and_end_by_the_bank_or_the_market() -> None:
    for seed in (1, 2):
        rng = random.Random(seed)
        state = ENGINE.setup(["P0", "P1", "P2"], {}, seed)
        majors: set[str] = set()
        for _ in range(5000):
            if ENGINE.result(state) is not None:
                break
            seat = min(ENGINE.active_seats(state))
            state = ENGINE.apply(state, seat, decide(ENGINE, state, seat, "heuristic", rng, Budget()))
            majors |= {sym for sym, c in state.money.corps.items() if c.type == "major" and c.ipoed}
        result = ENGINE.result(state)
        assert result is not None and result.reason in ("bank", "stock_market"), result
        assert majors, f"no major formed in the game from seed {seed}"
