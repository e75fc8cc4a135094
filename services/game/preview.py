"""`POST /api/tables/{table}/preview`: what an action would do if the token's seat sent it now.

The title's `Engine.preview` answers (docs/engine-contract.md): for an 18xx run of trains,
each route's revenue as the rules count it, or the first route refused and why, so a page
can show the revenue of routes edited by hand before they are sent. Nothing is written.
Whether the rules would accept the action is part of the answer (200, `preview.legal`);
the request itself is refused (4xx) when it is malformed, the token is not the table's, the
action is not one of the title's, or the title previews no such action (422 `no_preview`).
The engine reads only what the seat may know, as for its legal actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from shared.engine import Redo, RuleError, Undo, decode_action, preview_of
from shared.protocol.http import ActionPreview, PreviewAction

from services.http.replies import json_response

if TYPE_CHECKING:
    from services.game.app import GameHttp

PATH = "/api/tables/{table}/preview"


async def preview(http: GameHttp, request: web.Request) -> web.Response:
    table = request.match_info["table"]
    seat = http._seat(request, table)
    await http.limit(http.limit_reads, request, "reads")
    req = await http._body(request, PreviewAction)
    hot = await http.service.tables.current(table)  # UnknownTable: 404
    if seat >= len(hot.meta.seats):
        raise RuleError("bad_seat", f"seat {seat} does not exist at this table")
    engine = hot.engine
    answer = preview_of(engine)
    if answer is None:
        raise RuleError("no_preview", f"{engine.meta.name} previews no actions")
    action = decode_action(engine, bytes(req.action))
    if isinstance(action, (Undo, Redo)):
        raise RuleError("no_preview", "undo and redo are not previewed")
    state = hot.timeline.state
    return json_response(ActionPreview(table=table, seat=seat, seq=hot.seq, preview=answer(state, seat, action)))
