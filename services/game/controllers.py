"""`POST /api/tables/{table}/seats/{seat}/controller`: who plays a seat, a person or a bot.

A handover that leaves only bots at an unfinished table takes from the same limits as
creating a table of bots: the per-client rate (ROUNDHOUSE_LIMIT_BOT_TABLES) and a place in
the bot-only budget of the address that created the table (services/game/table_budget.py):
what counts is what the table is, not the route that made it so. A person taking a seat
back gives the place back.

Authorized by that seat's own token: the person holding a seat can hand it to a bot
(`{"kind": "bot", "level": "mcts"}`) and take it back (`{"kind": "human"}`); seat tokens
are per seat, not per controller, so the same token works before and after. The change is
written to the table's meta (the bot worker reads it before every move) and, when the seat
must act now and became a bot, a turn notice goes out at once.

With several game service replicas, the change bumps the meta's `seats_version`; every
append returns it, so a replica holding the table in memory re-reads the seats at its next
append, before it decides whom to announce the turn to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from shared import timesource
from shared.bots import BOT_NAMES, DEFAULT_LEVEL
from shared.engine import RuleError
from shared.protocol.http import SeatControl, SeatControlled
from shared.store import SeatSpec
from shared.store.clock import ENDED

from services.game.errors import coded
from services.game.guard import client_key
from services.game.service import now_ms

if TYPE_CHECKING:
    from services.game.app import GameHttp

PATH = "/api/tables/{table}/seats/{seat}/controller"


async def set_controller(http: GameHttp, request: web.Request) -> web.Response:
    from services.game.app import json_response, parse_uint

    table = request.match_info["table"]
    seat_text = request.match_info["seat"]
    seat = http._seat(request, table)
    asked = parse_uint(seat_text)
    if asked is None:
        raise coded("bad_query", "the seat in the path must be a seat number in ASCII digits")
    if asked != seat:
        raise coded("wrong_seat", f"this token is for seat {seat}, not {asked}")
    req = await http._body(request, SeatControl)
    await http.limit(http.limit_actions, request, "actions")
    if req.kind == "human" and req.level is not None:
        raise coded("bad_request", "only a bot has a level")
    level = (req.level or DEFAULT_LEVEL) if req.kind == "bot" else None
    if level is not None and level not in BOT_NAMES:
        raise coded("unknown_bot", f"unknown bot level {level!r}; levels are {', '.join(BOT_NAMES)}")
    service = http.service
    hot = await service.tables.current(table)  # UnknownTable: 404
    if seat >= len(hot.meta.seats):
        raise RuleError("bad_seat", f"seat {seat} does not exist at this table")
    spec = SeatSpec(hot.meta.seats[seat].name, req.kind, level)
    others_bots = all(s.kind == "bot" for i, s in enumerate(hot.meta.seats) if i != seat)
    if req.kind == "bot" and others_bots and hot.meta.seats[seat].kind != "bot" and hot.result() is None:
        # This handover makes a table where only bots sit: the same limits as creating one.
        await http.limit(http.limit_bot_tables, request, "tables with only bot seats")
        verdict = await service.budget.only_bots(table, client_key(request, http.cfg), timesource.now_ms())
        if verdict != "ok":
            raise service.budget.bot_refusal(verdict)
    active = hot.active_seats()
    noted = None
    if req.kind == "bot" and seat in active:
        noted = now_ms()
        await service.store.expect_turn(table, noted)
    if hot.meta.clock is None:  # a table made before clocks
        version = await service.store.set_seat(table, seat, spec)
    else:  # with the clock event, in one script: the clock knows who played the seat when
        version = await service.clock_store.set_seat(table, seat, spec, req.kind, timesource.now_ms())
        if version == ENDED:
            await service.budget.a_person_sits(table)  # ended: it holds no bot-only place either
            raise coded("table_ended", "the table has ended: a seat ran out of time")
    if req.kind == "human" and others_bots:
        await service.budget.a_person_sits(table)
    fresh = await service.store.get_seats(table)  # other seats may have changed elsewhere too
    if fresh is not None:
        hot.set_seats(*fresh)
    else:
        seats = list(hot.meta.seats)
        seats[seat] = spec
        hot.set_seats(seats, version)
    if noted is not None:
        await service.store.publish_turn(table, hot.seq, [seat], bots_only=hot.bots_only, noted_ms=noted)
    if hot.meta.clock is not None and hot.meta.clock.spec.kind != "none":
        await service.clocks.publish(table, hot.meta.clock, len(hot.meta.seats))
    return json_response(SeatControlled(table=table, seat=seat, name=spec.name, kind=spec.kind, level=spec.level,
                                        seq=hot.seq, active_seats=active))
