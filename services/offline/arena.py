"""`roundhouse arena`: bots play each other in-process; win rates with 95% intervals.

Game g seats the lineup rotated by g places, so every bot sits in every seat equally
often. Each move goes through the seat's `view` and `shared.bots.decide`, exactly as in
the bot worker. A move the engine refuses (or a bot that fails) counts as illegal and
the game goes on with a uniformly random legal move. A seat the engine calls active whose
only legal actions are programs (standing instructions, no move in the game) has no move
to fall back on: playing a program would not move the game on, so the game stops there,
unfinished, with end reason `stuck` and a stderr line (a rules or kit bug to find). Games
run in a process pool (`--workers`), each with its own seeded RNG, so a run is reproducible from its command
(to the move when bots have no wall-clock budget: `--budget-ms 0`).

Per bot name (a name seated twice is pooled over its seats): win rate = wins / seat-games
(ties split the win), with a Wilson 95% interval; mean final score; move time p50/p95.
Per pair of bot names seated together, head to head: how often the first finishes ahead of
the second (seat pair by seat pair, a tie counts half), averaged per game, with a Wilson 95%
interval over the games (pairs within one game are not independent, so games are the trials).
How the games ended: each end reason with its count (`unfinished`: stopped at --max-actions).
The last line printed is JSON:
{"arena": {"games", "illegal_moves", "stuck", "end_reasons": {reason: count},
 "bots": {name: {"win_rate", "ci95", "mean_score", "move_ms_p95"}},
 "head_to_head": {"a>b": {"rate", "ci95", "games"}}}}
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import msgspec

from shared.bots import BOT_NAMES, Budget, decide
from shared.bots.random_bot import random_action
from shared.engine import default_options, is_program

from services.offline.errors import OfflineError, engine_for, run_reporting
from services.offline.random_play import seat_names
from services.offline.selfplay import check_players

Z95 = 1.959963984540054
STUCK = "stuck"


class GameRecord(msgspec.Struct):
    game: int
    lineup: list[str]  # bot name per seat
    finished: bool
    scores: list[int]
    winners: list[int]
    illegal: list[int]  # per seat
    move_ms: list[list[float]]  # per seat
    actions: int
    reason: str = "unfinished"  # the result's end reason; STUCK: an active seat had no move but programs


class BotFigures(msgspec.Struct):
    win_rate: float
    ci95: list[float]
    mean_score: float
    move_ms_p95: float


class PairFigures(msgspec.Struct):
    rate: float
    ci95: list[float]
    games: int


class ArenaFigures(msgspec.Struct):
    games: int
    illegal_moves: int
    stuck: int  # games stopped at a seat with nothing but programs to play
    end_reasons: dict[str, int]
    bots: dict[str, BotFigures]
    head_to_head: dict[str, PairFigures]


class ArenaLine(msgspec.Struct):
    arena: ArenaFigures


class Job(msgspec.Struct, frozen=True):
    title: str
    lineup: list[str]
    game: int
    seed: int
    budget: Budget
    max_actions: int


def lineup_for(bots: list[str], game: int) -> list[str]:
    shift = game % len(bots)
    return bots[shift:] + bots[:shift]


def play_game(job: Job) -> GameRecord:
    """One arena game, entirely in this process."""
    from shared.games import get_engine

    engine = get_engine(job.title)
    n = len(job.lineup)
    rng = random.Random(job.seed * 1_000_003 + job.game)
    state = engine.setup(seat_names(n), default_options(engine), rng.randrange(2**31))
    illegal = [0] * n
    move_ms: list[list[float]] = [[] for _ in range(n)]
    actions = 0
    stuck = False
    result = engine.result(state)
    while result is None and actions < job.max_actions:
        active = sorted(engine.active_seats(state))
        if not active:
            break
        for seat in active:  # simultaneous decisions: every active seat decides on its own observation
            if seat not in engine.active_seats(state):
                continue
            started = time.perf_counter()
            try:
                observation = engine.redact(state, seat, rng.getrandbits(63))
                action = decide(engine, observation, seat, job.lineup[seat], rng, job.budget)
                after = engine.apply(state, seat, action)
            except Exception as error:  # noqa: BLE001 - a bot bug of any kind is an illegal move, counted
                after = None
                # One line each, so an illegal move can be found again: with `--budget-ms 0`
                # the game, seat and move number replay it exactly.
                print(f"arena: illegal move: game {job.game} seat {seat} ({job.lineup[seat]}) at move {actions}: "
                      f"{type(error).__name__}: {error}", file=sys.stderr)
            move_ms[seat].append((time.perf_counter() - started) * 1000.0)
            if after is None:
                illegal[seat] += 1
                action = random_action(engine, state, seat, rng)
                after = None if action is None else engine.apply(state, seat, action)
            if after is None or (is_program(action) and not has_move(engine, state, seat)):
                # an active seat with no move: setting a program does not move the game on, and
                # playing one would go on until --max-actions
                print(f"arena: stuck: game {job.game} seat {seat} ({job.lineup[seat]}) at move {actions}: "
                      f"active with no legal move but programs", file=sys.stderr)
                stuck = True
                break
            state = after
            actions += 1
        if stuck:
            break
        result = engine.result(state)
    return GameRecord(
        game=job.game,
        lineup=list(job.lineup),
        finished=result is not None,
        scores=list(result.scores) if result else [0] * n,
        winners=list(result.winners) if result else [],
        illegal=illegal,
        move_ms=move_ms,
        actions=actions,
        reason=result.reason if result else STUCK if stuck else "unfinished",
    )


def has_move(engine: Any, state: Any, seat: int) -> bool:
    """Whether `seat` has a legal action that is a move in the game (not a program)."""
    return any(not is_program(la.action) for la in engine.legal_actions(state, seat))


def wilson(successes: float, trials: int) -> tuple[float, float]:
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (0 when empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q / 100.0 * len(sorted_values)))
    return sorted_values[rank - 1]


class Tally:
    def __init__(self) -> None:
        self.seat_games = 0
        self.wins = 0.0
        self.score = 0
        self.illegal = 0
        self.moves: list[float] = []

    def add(self, record: GameRecord, seat: int) -> None:
        self.seat_games += 1
        if seat in record.winners:
            self.wins += 1.0 / len(record.winners)
        self.score += record.scores[seat]
        self.illegal += record.illegal[seat]
        self.moves.extend(record.move_ms[seat])


def summarize(records: list[GameRecord], order: list[str]) -> tuple[ArenaLine, dict[str, Tally]]:
    tallies = {name: Tally() for name in order}
    for record in records:
        for seat, name in enumerate(record.lineup):
            tallies[name].add(record, seat)
    bots = {}
    for name, t in tallies.items():
        t.moves.sort()
        lo, hi = wilson(t.wins, t.seat_games)
        bots[name] = BotFigures(
            win_rate=round(t.wins / t.seat_games, 4) if t.seat_games else 0.0,
            ci95=[round(lo, 4), round(hi, 4)],
            mean_score=round(t.score / t.seat_games, 2) if t.seat_games else 0.0,
            move_ms_p95=round(percentile(t.moves, 95), 2),
        )
    illegal = sum(t.illegal for t in tallies.values())
    reasons: dict[str, int] = {}
    for record in records:
        reasons[record.reason] = reasons.get(record.reason, 0) + 1
    ordered = dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))
    stuck = sum(1 for record in records if record.reason == STUCK)
    figures = ArenaFigures(games=len(records), illegal_moves=illegal, stuck=stuck, end_reasons=ordered, bots=bots,
                           head_to_head=head_to_head(records, order))
    return ArenaLine(figures), tallies


def head_to_head(records: list[GameRecord], order: list[str]) -> dict[str, PairFigures]:
    """For each pair of different bot names seated together: the share of seat pairs the
    first finished ahead of the second in (ties half), averaged per game."""
    out: dict[str, PairFigures] = {}
    for a in order:
        for b in order:
            if a == b:
                continue
            total, games = 0.0, 0
            for record in records:
                if not record.finished:
                    continue
                pairs = [(i, j) for i, x in enumerate(record.lineup) if x == a
                         for j, y in enumerate(record.lineup) if y == b]
                if not pairs:
                    continue
                won = sum(1.0 if record.scores[i] > record.scores[j] else 0.5 if record.scores[i] == record.scores[j]
                          else 0.0 for i, j in pairs)
                total += won / len(pairs)
                games += 1
            if games:
                lo, hi = wilson(total, games)
                out[f"{a}>{b}"] = PairFigures(rate=round(total / games, 4), ci95=[round(lo, 4), round(hi, 4)],
                                              games=games)
    return out


def parse_bots(text: str, players: int) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        if name not in BOT_NAMES:
            raise OfflineError(f"bots: unknown_bot: {name!r}; bots are {', '.join(BOT_NAMES)}", 2)
    if len(names) != players:
        raise OfflineError(f"bots: bad_bots: {len(names)} bot(s) for {players} players; give one per seat", 2)
    return names


def budget_of(args: argparse.Namespace) -> Budget:
    if args.budget_ms is not None and args.budget_ms < 0:
        raise OfflineError(f"budget-ms: bad_budget: must be 0 or more, not {args.budget_ms}", 2)
    if args.iterations is not None and args.iterations < 1:
        raise OfflineError(f"iterations: bad_budget: must be 1 or more, not {args.iterations}", 2)
    ms = None if not args.budget_ms else float(args.budget_ms)
    if args.budget_ms == 0 and args.iterations is None:
        raise OfflineError("budget-ms: bad_budget: 0 (no clock) needs --iterations", 2)
    return Budget(ms=ms, iterations=args.iterations)


def run(args: argparse.Namespace) -> int:
    engine = engine_for(args.title, "title")
    check_players(engine, args.players)
    bots = parse_bots(args.bots, args.players)
    if args.games < 1:
        raise OfflineError(f"games: bad_games: must be 1 or more, not {args.games}", 2)
    if args.workers < 1:
        raise OfflineError(f"workers: bad_workers: must be 1 or more, not {args.workers}", 2)
    budget = budget_of(args)
    jobs = [
        Job(title=args.title, lineup=lineup_for(bots, g), game=g, seed=args.seed, budget=budget,
            max_actions=args.max_actions)
        for g in range(args.games)
    ]
    started = time.perf_counter()
    records: list[GameRecord] = []
    out = sys.stdout
    if args.workers == 1:
        records = [play_game(job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            records = list(pool.map(play_game, jobs, chunksize=1))
    elapsed = time.perf_counter() - started
    order = list(dict.fromkeys(bots))
    line, tallies = summarize(records, order)
    unfinished = sum(1 for r in records if not r.finished)
    out.write(
        f"arena: {args.title}, {args.players} players, {len(records)} games, seats rotated, seed {args.seed}, "
        f"{elapsed:.1f} s; unfinished {unfinished} (stuck {line.arena.stuck}); "
        f"illegal moves {line.arena.illegal_moves}\n"
    )
    out.write(f"{'bot':<10} {'seats':>6} {'win rate':>9} {'95% CI':>17} {'mean score':>11} "
              f"{'ms p50':>8} {'ms p95':>8} {'ms max':>8} {'illegal':>8}\n")
    for name, figures in line.arena.bots.items():
        t = tallies[name]
        lo, hi = figures.ci95
        out.write(
            f"{name:<10} {t.seat_games:>6} {figures.win_rate:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} "
            f"{figures.mean_score:>11.1f} {percentile(t.moves, 50):>8.1f} {figures.move_ms_p95:>8.1f} "
            f"{(t.moves[-1] if t.moves else 0.0):>8.1f} {t.illegal:>8}\n"
        )
    for pair, duel in line.arena.head_to_head.items():
        lo, hi = duel.ci95
        out.write(f"head to head {pair.replace('>', ' ahead of ')}: {duel.rate:.3f} [{lo:.3f}, {hi:.3f}] "
                  f"over {duel.games} games\n")
    reasons = ", ".join(f"{reason} {count}" for reason, count in line.arena.end_reasons.items())
    out.write(f"end_reasons: {reasons}\n")
    out.write(msgspec.json.encode(line).decode() + "\n")
    return 0


def main(args: argparse.Namespace) -> int:
    return run_reporting(lambda: run(args))
