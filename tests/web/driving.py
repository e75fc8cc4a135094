"""Bringing a table to a position over the HTTP API, for the browser tests that start there
(a dividend phase, a build decision, a finished game).

`drive` plays the seats it holds tokens for with a policy that sees the seat's legal actions
and the seat's view (from the live WebSocket, as a client gets it), until the policy says
stop or the game ends.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.dev.devproc import http
from tests.dev.test_dev_command import welcome

Policy = Callable[[int, list[dict[str, Any]], dict[str, Any]], "dict[str, Any] | None"]


def seat_view(base: str, table: str, token: str) -> dict[str, Any]:
    """The seat's view as the projection sends it in its welcome."""
    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        frame = pool.submit(asyncio.run, welcome(base.rstrip("/") + "/", table, token)).result(timeout=30)
    assert frame["type"] == "welcome", frame
    return frame["view"]


def drive(base: str, created: dict[str, Any], policy: Policy, max_moves: int = 1000) -> int:
    """Play until `policy` returns None or the game ends; returns the table's last seq."""
    base = base.rstrip("/")
    table = created["table"]
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
    for _ in range(max_moves):
        status, detail = http("GET", f"{base}/api/tables/{table}")
        assert status == 200, detail
        if detail["status"] == "finished":
            return detail["last_seq"]
        seat = next(s for s in detail["active_seats"] if s in tokens)
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        status, legal = http("GET", f"{base}/api/tables/{table}/legal", headers=headers)
        assert status == 200 and legal["active"], legal
        action = policy(seat, legal["actions"], seat_view(base, table, tokens[seat]))
        if action is None:
            return legal["seq"]
        body = {"expected_seq": legal["seq"], "idempotency_key": uuid.uuid4().hex, "action": action}
        status, reply = http("POST", f"{base}/api/tables/{table}/actions", body, headers)
        assert status == 201, reply
    raise AssertionError(f"still playing after {max_moves} moves")


def first_of(actions: list[dict[str, Any]], *types: str) -> dict[str, Any] | None:
    """The first legal action of the first type present (a ranged one at its minimum)."""
    for kind in types:
        for entry in actions:
            if entry["action"]["type"] == kind:
                return dict(entry["action"])
    return None


def quick(seat: int, actions: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any] | None:
    """Shortest play: pass every auction, choose the first dial, forgo it."""
    return first_of(actions, "pass", "forgo", "done", "choose") or dict(actions[0]["action"])


FAST_DIALS = {"dial_lengths": {"auction": 1, "build": 1, "develop": 1}}
