"""`GET /api/titles`: every registered title's META as the lobby needs it."""

from __future__ import annotations

from shared.bots import BOT_NAMES
from shared.games import metas
from shared.options import table_options
from shared.protocol.http import TitleInfo, TitleList


def title_list() -> TitleList:
    return TitleList(titles=[
        TitleInfo(id=m.id, name=m.name, min_players=m.min_players, max_players=m.max_players,
                  rules_version=m.rules_version, summary=m.summary, options=table_options(m),
                  bot_levels=list(BOT_NAMES), web_module=m.web_module, public_view=m.public_view)
        for m in metas()
    ])
