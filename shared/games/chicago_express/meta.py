"""What the registries know of Chicago Express (see shared.engine.TitleMeta)."""

from __future__ import annotations

from shared.engine import OptionSpec, TitleMeta

from .board import ACTIONS, BOARD
from .options import MAX_DIAL

_DIAL_HELP = {
    "auction": "How often Auction may be chosen before its dial is on red",
    "build": "How often Build may be chosen before its dial is on red",
    "develop": "How often Develop may be chosen before its dial is on red",
}

META = TitleMeta(
    id="chicago-express",
    name="Chicago Express",
    min_players=2,
    max_players=6,
    rules_version="2",  # 2: the auctioneer may pass; Chicago interrupts the build; shorter industrial tracks
    summary="Buy shares at auction, build four railroads west to Chicago, and be the richest investor.",
    options=[
        OptionSpec(
            "dial_lengths", "object", None, label="Dial lengths",
            help="The rule book does not print the dial lengths; the defaults are reconstructed from the board",
            fields=[OptionSpec(a, "int", BOARD.dials[a], label=a.capitalize(), help=_DIAL_HELP[a], min=1, max=MAX_DIAL)
                    for a in ACTIONS],
        ),
    ],
    bot_kit="shared.bots.chicago_express",
    web_module="chicago/page.js",
    undo="own",
    public_view=True,
)
