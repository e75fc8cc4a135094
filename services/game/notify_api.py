"""`/api/tables/{table}/seats/{seat}/notify`: a seat's turn notices (docs/notifications.md).

GET answers the settings and the seat's signing key; PUT sets them (a NotifySettings body);
DELETE clears them. Only the seat's own token may: the settings hold where the player is
reached. Setting them marks the table for the notifier, which looks at it at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from aiohttp import web

from shared.engine import RuleError
from shared.protocol.http import NotifyReply, NotifySettings
from shared.timesource import now_ms

from services.http.errors import coded
from services.http.replies import json_response
from services.notify.address import NotPublic, check_url_host
from services.notify.send import signing_key

if TYPE_CHECKING:
    from services.game.app import GameHttp

PATH = "/api/tables/{table}/seats/{seat}/notify"


async def _seat_of(http: GameHttp, request: web.Request) -> tuple[str, int]:
    table = request.match_info["table"]
    seat = http._path_seat(request, table)
    hot = await http.service.tables.current(table)  # UnknownTable: 404
    if seat >= len(hot.meta.seats):
        raise RuleError("bad_seat", f"seat {seat} does not exist at this table")
    return table, seat


async def _reply(http: GameHttp, table: str, seat: int) -> web.Response:
    settings = await http.service.notify_store.get(table, seat)
    return json_response(NotifyReply(table=table, seat=seat, settings=settings,
                                     signing_key=signing_key(http.cfg.secret, table, seat),
                                     email_available=http.notify_cfg.email))


async def get_notify(http: GameHttp, request: web.Request) -> web.Response:
    await http.limit(http.limit_reads, request, "reads")
    table, seat = await _seat_of(http, request)
    return await _reply(http, table, seat)


async def put_notify(http: GameHttp, request: web.Request) -> web.Response:
    await http.limit(http.limit_actions, request, "actions")
    table, seat = await _seat_of(http, request)
    settings = await http._body(request, NotifySettings)
    if settings.webhook is None and settings.email is None:
        raise coded("bad_request", "give a webhook, an email, or both (DELETE clears the settings)")
    if settings.webhook is not None:
        host = urlsplit(settings.webhook.url).hostname
        if not host:
            raise coded("bad_request", "the webhook URL has no host")
        try:
            # An IP literal is known now; a name only as each delivery resolves it (address.py).
            check_url_host(host, http.notify_cfg.private_hosts)
        except NotPublic as exc:
            raise coded("bad_request", f"the webhook must be on a public address: {exc}") from None
    service = http.service
    await service.notify_store.put(table, seat, settings)
    hot = service.tables.peek(table)
    if hot is not None:
        hot.notify = True
    await service.notify_store.look_at(table, now_ms(), only_earlier=True)
    return await _reply(http, table, seat)


async def delete_notify(http: GameHttp, request: web.Request) -> web.Response:
    await http.limit(http.limit_actions, request, "actions")
    table, seat = await _seat_of(http, request)
    service = http.service
    await service.notify_store.put(table, seat, None)
    hot = service.tables.peek(table)
    if hot is not None:
        hot.notify = await service.store.notify_flag(table)
    return await _reply(http, table, seat)
