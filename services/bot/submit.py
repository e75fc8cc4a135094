"""How the worker hands a move to the game service: the same command path as any client,
so the move is validated by the engine, checked against `expected_seq` and recorded under
its idempotency key.

`HttpSubmitter` posts to `/api/tables/{table}/actions` with the seat's token (the standalone
`roundhouse bot`); `LocalSubmitter` calls the in-process `GameService.submit` (the worker
inside `roundhouse dev`, which serves the game routes from the same process).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, Protocol

import aiohttp
import msgspec

from shared import auth
from shared.engine import RuleError
from shared.store import UnknownTable


class Outcome(enum.Enum):
    ACCEPTED = "accepted"  # logged (now or by an earlier submit with the same key)
    STALE = "stale"  # the table moved on: the move is no longer wanted
    REFUSED = "refused"  # the rules refused the move (a bot bug; the caller falls back)
    GONE = "gone"  # the table does not exist
    RETRY = "retry"  # the service or the store is unavailable: try the turn again later


class Submitted(msgspec.Struct, frozen=True):
    outcome: Outcome
    seq: int = 0  # ACCEPTED: the seq the move was logged at
    replayed: bool = False  # ACCEPTED: an earlier submit with the same key had logged it
    code: str = ""
    message: str = ""


class Submitter(Protocol):
    async def submit(self, table: str, seat: int, expected_seq: int, key: str, action: bytes) -> Submitted: ...

    async def close(self) -> None: ...


class _Accepted(msgspec.Struct):
    seq: int


class _ErrorDetail(msgspec.Struct):
    code: str
    message: str = ""


class _Error(msgspec.Struct):
    error: _ErrorDetail


_accepted = msgspec.json.Decoder(_Accepted)
_error = msgspec.json.Decoder(_Error)


def outcome_of_error(status: int, code: str, message: str) -> Submitted:
    if code == "stale_seq":
        return Submitted(Outcome.STALE, code=code, message=message)
    if code == "unknown_table":
        return Submitted(Outcome.GONE, code=code, message=message)
    if status == 422:
        return Submitted(Outcome.REFUSED, code=code, message=message)
    return Submitted(Outcome.RETRY, code=code, message=message)


class HttpSubmitter:
    def __init__(self, base_url: str, secret: bytes, timeout_s: float = 10.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.secret = secret
        self._session: aiohttp.ClientSession | None = None
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)

    async def submit(self, table: str, seat: int, expected_seq: int, key: str, action: bytes) -> Submitted:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=self._timeout)
        body = b'{"expected_seq":%d,"idempotency_key":%s,"action":%s}' % (
            expected_seq, msgspec.json.encode(key), action)
        headers = {
            "Authorization": f"Bearer {auth.issue(self.secret, table, seat)}",
            "Content-Type": "application/json",
        }
        try:
            async with self._session.post(f"{self.base_url}/api/tables/{table}/actions", data=body,
                                          headers=headers) as resp:
                raw = await resp.read()
                status = resp.status
                replayed = resp.headers.get("Idempotent-Replayed") == "true"
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            return Submitted(Outcome.RETRY, code="unreachable", message=f"{type(exc).__name__}: {exc}")
        if status == 201:
            return Submitted(Outcome.ACCEPTED, seq=_accepted.decode(raw).seq, replayed=replayed)
        try:
            detail = _error.decode(raw).error
        except msgspec.DecodeError:
            return Submitted(Outcome.RETRY, code=f"http_{status}", message=raw[:200].decode(errors="replace"))
        except msgspec.ValidationError:
            return Submitted(Outcome.RETRY, code=f"http_{status}", message=raw[:200].decode(errors="replace"))
        return outcome_of_error(status, detail.code, detail.message)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


class LocalSubmitter:
    """Submits through a GameService living in this process (`service()` returns it)."""

    def __init__(self, service: Callable[[], Any]) -> None:
        self.service = service

    async def submit(self, table: str, seat: int, expected_seq: int, key: str, action: bytes) -> Submitted:
        from shared.store.connect import STORE_ERRORS

        from services.http.errors import ApiError

        try:
            done = await self.service().submit(table, seat, expected_seq, key, action)
        except ApiError as exc:
            return outcome_of_error(exc.status, exc.code, exc.message)
        except RuleError as exc:
            return Submitted(Outcome.REFUSED, code=exc.code, message=exc.message)
        except UnknownTable:
            return Submitted(Outcome.GONE, code="unknown_table", message=f"no table {table!r}")
        except STORE_ERRORS as exc:
            return Submitted(Outcome.RETRY, code="unavailable", message=str(exc))
        return Submitted(Outcome.ACCEPTED, seq=_accepted.decode(done.body).seq, replayed=done.replayed)

    async def close(self) -> None:
        return None
