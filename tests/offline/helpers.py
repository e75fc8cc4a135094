"""Running the `roundhouse` CLI as a subprocess and writing table logs for it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from shared.engine import Engine, LegalAction, action_to_builtins, default_options

from services.offline.random_play import Playout, game_seeds, play_random_game, random_action, seat_names
from services.offline.table_log import encode_log

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "services.cli", *args], cwd=REPO, capture_output=True, text=True, timeout=120
    )


def assert_one_line_error(proc: subprocess.CompletedProcess[str], prefix: str, exit_code: int) -> str:
    """The failure contract: nothing on stdout, exactly one stderr line starting with `prefix`."""
    assert proc.returncode == exit_code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(prefix), lines[0]
    return lines[0]


def selfplay_game(engine: Engine[Any], players: int, base_seed: int, index: int, max_actions: int) -> Playout:
    """Game `index` of `roundhouse selfplay --seed base_seed`, played again in-process."""
    setup_seed, rng = game_seeds(base_seed, index)
    return play_random_game(engine, players, setup_seed, rng, max_actions)


def log_dict(title: str, playout_seats: list[str], seed: int, entries: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    return {"title": title, "options": options, "seats": playout_seats, "seed": seed, "actions": entries}


def write_playout_log(path: Path, title: str, playout: Playout) -> Path:
    path.write_bytes(encode_log(title, playout.options, playout.seats, playout.seed, playout.actions))
    return path


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data))
    return path


class Prefix:
    """A random game stopped at the first turn, `min_index` actions in or later, where the active
    seat has a legal action that `wanted` accepts: the log entries so far, the state, that seat
    and that legal action."""

    def __init__(self, engine: Engine[Any], players: int, seed: int, wanted: Any, min_index: int = 0) -> None:
        self.seats = seat_names(players)
        self.seed = seed
        self.options = default_options(engine)
        rng = random.Random(seed)
        state = engine.setup(self.seats, self.options, seed)
        self.entries: list[dict[str, Any]] = []
        while engine.result(state) is None:
            seat = min(engine.active_seats(state))
            legal = engine.legal_actions(state, seat)
            found = [la for la in legal if wanted(la)] if len(self.entries) >= min_index else []
            if found:
                self.state, self.seat, self.legal = state, seat, found[0]
                return
            action = random_action(engine, state, seat, rng)
            state = engine.apply(state, seat, action)
            self.entries.append({"seat": seat, "action": action_to_builtins(action)})
        raise AssertionError("the game ended before a wanted legal action came up")

    @property
    def index(self) -> int:
        """Index in the log of the next entry."""
        return len(self.entries)

    def log_with(self, title: str, *extra: dict[str, Any]) -> dict[str, Any]:
        return log_dict(title, self.seats, self.seed, self.entries + list(extra), self.options)


def ranged(la: LegalAction) -> bool:
    return la.range is not None


def int_field(la: LegalAction) -> str | None:
    """A field of the action holding an int (not a bool), if any."""
    fields = action_to_builtins(la.action)
    return next((k for k, v in fields.items() if isinstance(v, int) and not isinstance(v, bool)), None)
