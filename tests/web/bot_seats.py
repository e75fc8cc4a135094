"""Who plays the bot seats of a browser test's table.

When the bot worker is part of `roundhouse dev` (`services/bot/app.py`), it does, and this
only watches. Until then this plays them itself, over the same HTTP API as everyone (seat
tokens signed with the stack's secret), with random legal moves, so the browser tests can
play whole games against bot seats either way.
"""

from __future__ import annotations

import importlib.util
import random
import threading
import time
import uuid
from typing import Any

from shared import auth

from tests.dev.devproc import http


def bot_worker_installed() -> bool:
    return importlib.util.find_spec("services.bot.app") is not None


class BotSeats:
    def __init__(self, base_url: str, secret: bytes) -> None:
        self.base = base_url.rstrip("/")
        self.secret = secret
        self.by_worker = bot_worker_installed()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.errors: list[str] = []
        self.moves = 0

    @property
    def who(self) -> str:
        return "the bot worker" if self.by_worker else "the test's own random player (no bot worker installed)"

    def play(self, table: str, seed: int = 1) -> None:
        """Start playing every bot seat of `table` until the game ends (unless the worker does)."""
        if self.by_worker:
            return
        thread = threading.Thread(target=self._run, args=(table, random.Random(seed)), daemon=True)
        thread.start()
        self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)

    def _run(self, table: str, rng: random.Random) -> None:
        try:
            while not self._stop.is_set():
                status, detail = http("GET", f"{self.base}/api/tables/{table}")
                assert status == 200, detail
                if detail["status"] == "finished":
                    return
                bots = [s for s in detail["active_seats"] if detail["seats"][s]["kind"] == "bot"]
                if not bots:
                    time.sleep(0.05)
                    continue
                self._move(table, bots[0], rng)
        except Exception as exc:  # surfaced by the test through `errors`
            self.errors.append(f"{type(exc).__name__}: {exc}")

    def _move(self, table: str, seat: int, rng: random.Random) -> None:
        token = auth.issue(self.secret, table, seat)
        headers = {"Authorization": f"Bearer {token}"}
        status, legal = http("GET", f"{self.base}/api/tables/{table}/legal", headers=headers)
        assert status == 200, legal
        if not legal["active"] or not legal["actions"]:
            return
        choice: dict[str, Any] = rng.choice(legal["actions"])
        action = dict(choice["action"])
        if choice.get("range"):  # absent or null when the action has no amount
            r = choice["range"]
            # Mostly modest amounts, so the people in the test can still win an auction.
            action[r["field"]] = min(r["max"], r["min"] + rng.choice([0, 0, 1, 2]))
        body = {"expected_seq": legal["seq"], "idempotency_key": uuid.uuid4().hex, "action": action}
        status, reply = http("POST", f"{self.base}/api/tables/{table}/actions", body, headers)
        if status == 201:
            self.moves += 1
        elif status != 409:  # someone else moved first (a person, or a bot worker after all)
            raise AssertionError(f"bot seat {seat} refused: {status} {reply}")
